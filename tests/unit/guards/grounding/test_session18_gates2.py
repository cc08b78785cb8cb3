"""Session 18 (CPU, second pass): cheap necessary conditions before a reader give the
answers of the reading they skip (bench/results/pipeline.md, *session 18: cheaper
gates*).

* `phrasal_synonyms.candidates_in`: a claim word is a candidate only when the source
  writes a particle of a phrasal verb it names, or the claim writes a particle and the
  word is a phrasal verb's verb.

Each is compared with the ungated reading on the write-path probe's claims and on random
claims built from the rules' own words."""

from __future__ import annotations

import json
import random
from pathlib import Path

from groundwire.guards.grounding.lexical import phrasal_synonyms as ps
from groundwire.guards.grounding.lexical.evidence import evidence_for
from groundwire.guards.grounding.lexical.text import claim_words
from groundwire.topics.records import SourceTurn

PROBE = Path(__file__).parents[4] / "bench" / "data" / "write-path-probe.jsonl"


def _probe() -> list[tuple[str, list[SourceTurn]]]:
    rows = [json.loads(line) for line in PROBE.read_text().splitlines() if line.strip()]
    return [(r["claim"], [SourceTurn(**t) for t in r["turns"]]) for r in rows]


def _phrasal_words() -> list[str]:
    """Forms of the table's verbs, its particles and some other words."""
    wanted, mine, _ = ps._index()
    rng = random.Random(3)
    forms = sorted(wanted)
    verbs = sorted({f for f, _ in mine})
    return (
        rng.sample(forms, 60)
        + rng.sample(verbs, 60)
        + sorted(ps.PARTICLES) * 2
        + ["the", "meeting", "team", "a", "was", "it", "we", "today"] * 4
    )


def _found(claim: str, turns: list[SourceTurn], phrasals: frozenset[str]) -> list[bool]:
    lows = claim_words(claim).lows
    ev = evidence_for(turns)
    return [w in phrasals and ps.phrasal_synonym_in_source(i, lows, ev) for i, w in enumerate(lows)]


def _phrasal_cases() -> list[tuple[str, list[SourceTurn]]]:
    out = _probe()
    pool = _phrasal_words()
    rng = random.Random(18)
    for k in range(2_000):
        source = " ".join(rng.choice(pool) for _ in range(rng.randint(3, 18))) + "."
        claim = " ".join(rng.choice(pool) for _ in range(rng.randint(2, 10))) + "."
        out.append((claim, [SourceTurn(id=f"p{k}", text=source, source="user")]))
    # each phrasal verb of the table told by one of its one-word verbs, and back
    for (verb, particle), singles in sorted(ps._table()[0].items())[::7]:
        single = sorted(singles)[0]
        out.append(
            (f"They {single}ed it.", [SourceTurn(id="a", text=f"They {verb} it {particle}.")])
        )
        out.append((f"They {verb} {particle} it.", [SourceTurn(id="b", text=f"We {single}.")]))
    return out


def test_phrasal_candidates_in_equal_candidates() -> None:
    cut = found = 0
    for claim, turns in _phrasal_cases():
        lows = claim_words(claim).lows
        ev = evidence_for(turns)
        wide = ps.candidates(lows)
        narrow = ps.candidates_in(lows, ev.lows)
        assert narrow <= wide, claim
        got = _found(claim, turns, narrow)
        assert got == _found(claim, turns, wide), (claim, turns[0].text)
        cut += len(wide) > len(narrow)
        found += any(got)
    # the gate was taken, and words were still found on these inputs
    assert cut > 200 and found > 50
