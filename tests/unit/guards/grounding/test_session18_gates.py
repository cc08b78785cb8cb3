"""Session 18 (CPU): the entry gates of `changed_terms.py` give the answers of the reading
they skip (bench/results/pipeline.md, *session 18: the new rules' gates*).

* `_READ_ALONE`: a claim whose only closed-class words are read beside a number or a
  superlative ("to", "over", "percent", an ordinal) and that has neither returns at once;
* `_HAVE`: "have" / "has" / "had" without "to" in the claim are no obligation, so
  `obligation_classes` is not asked;
* a claim clause without a quantity is not compared with the source's (whose quantities
  are then not read).

Each is compared with the ungated reading (the gates opened by patching the module's
sets, or the skipped call made) on the write-path probe's claims and on random claims
built from the rules' own words."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest

from groundwire.guards.grounding.lexical import changed_terms as ct
from groundwire.guards.grounding.lexical.evidence import evidence_for
from groundwire.guards.grounding.lexical.quantifier_phrases import (
    changed_quantity_phrases,
    quantities,
)
from groundwire.guards.grounding.lexical.superseded_tenses import _past_bases
from groundwire.guards.grounding.lexical.text import claim_words
from groundwire.topics.records import SourceTurn

PROBE = Path(__file__).parents[4] / "bench" / "data" / "write-path-probe.jsonl"

# words the rules read, with the ones the gates look at most, and some content words
_CLOSED = sorted(ct._ALL | {"not", "need", "as", "largest", "fastest", "a", "of", "the"})
_CONTENT = [
    "team",
    "deploys",
    "service",
    "replicas",
    "days",
    "rollout",
    "budget",
    "users",
    "Redis",
    "cache",
    "May",
]
_NUMBERS = ["3", "5", "10", "three", "40%", "2", "1"]
_OBLIGATIONS = ["need not", "needs to", "has to", "had to", "must not", "must", "should", "may"]


def _ungated(claim: str, turns: list[SourceTurn], monkeypatch: pytest.MonkeyPatch) -> object:
    with monkeypatch.context() as m:
        m.setattr(ct, "_READ_ALONE", ct._ALL)
        m.setattr(ct, "_HAVE", frozenset())
        return ct.changed_terms(claim, turns)


def _random_text(rng: random.Random, n: int) -> str:
    pool = _CLOSED + _CONTENT * 3 + _NUMBERS
    words = [rng.choice(pool) for _ in range(n)]
    if rng.random() < 0.5:
        words.insert(rng.randrange(len(words) + 1), rng.choice(["have", "has", "had"]))
        if rng.random() < 0.5:
            words.insert(rng.randrange(len(words) + 1), "to")
    if rng.random() < 0.3:
        words.insert(rng.randrange(len(words) + 1), rng.choice(_OBLIGATIONS))
    return " ".join(words).capitalize() + "."


def _cases() -> list[tuple[str, list[SourceTurn]]]:
    rows = [json.loads(line) for line in PROBE.read_text().splitlines() if line.strip()]
    out = [(r["claim"], [SourceTurn(**t) for t in r["turns"]]) for r in rows]
    rng = random.Random(18)
    for k in range(1_500):
        source = " ".join(_random_text(rng, rng.randint(6, 16)) for _ in range(rng.randint(1, 3)))
        # most claims keep the source's words, so the rules' alignment is reached
        claim = _random_text(rng, rng.randint(4, 12))
        if k % 2:
            kept = source.split()[: rng.randint(4, 14)]
            kept.insert(rng.randrange(len(kept) + 1), rng.choice(_CLOSED))
            claim = " ".join(kept)
        out.append((claim, [SourceTurn(id=f"t{k}", text=source, source="user")]))
        # one obligation phrase told for another in the source's own sentence
        body = rng.sample(_CONTENT, 5)
        theirs, mine = rng.sample(_OBLIGATIONS, 2)
        source = " ".join([*body[:2], theirs, *body[2:]]) + "."
        claim = " ".join([*body[:2], mine, *body[2:]]) + "."
        out.append((claim, [SourceTurn(id=f"o{k}", text=source, source="user")]))
    return out


def test_gated_changed_terms_equals_ungated(monkeypatch: pytest.MonkeyPatch) -> None:
    gated_out = skipped = found = 0
    for claim, turns in _cases():
        got = ct.changed_terms(claim, turns)
        assert got == _ungated(claim, turns, monkeypatch), claim
        found += bool(got)
        words = ct.claim_words(ct.fold_disguises(claim))
        hit = ct._ALL.intersection(words.lows)
        obliging = ct.OBLIGATION_WORDS.intersection(hit)
        skipped += bool(obliging) and not ("to" in hit or obliging - ct._HAVE)
        gated_out += bool(hit) and ct._READ_ALONE.isdisjoint(hit)
    # the gates were taken, and the rules still found something on these inputs
    assert skipped > 50 and gated_out > 50 and found > 50


def test_no_claim_quantity_no_change() -> None:
    """The skipped call: a clause without a quantity gives nothing, whatever the source."""
    rng = random.Random(7)
    pool = sorted(ct._QUANTITY_WORDS) + _CONTENT + ["a", "of", "the", "any", "few", "and"]
    empty = 0
    for _ in range(3_000):
        lows = [rng.choice(pool) for _ in range(rng.randint(1, 10))]
        mine = quantities(lows, [rng.random() < 0.1 for _ in lows])
        if mine[0]:
            continue
        empty += 1
        sources = []
        for _ in range(rng.randint(1, 3)):
            s = [rng.choice(pool) for _ in range(rng.randint(1, 10))]
            sources.append((quantities(s, [False] * len(s)), s))
        assert changed_quantity_phrases(mine, lows, sources) == []
    assert empty > 300


def _past_keys(held: set[str], lows: set[str]) -> set[str]:
    """`superseded_tenses`' test at fbefd87: one new string per stem and form."""
    return {
        st for st in held if st + "ed" in lows or st + "d" in lows or st + st[-1:] + "ed" in lows
    }


def test_past_bases_equal_the_per_stem_test() -> None:
    """`superseded_tenses._past_bases` (read once per evidence from the source's words)
    against the per-claim test it replaced, on the probe's claims and on random words
    over letters that make "-ed", "-d" and doubled-letter forms."""
    seen = 0
    for claim, turns in _cases():
        words = claim_words(claim)
        ev = evidence_for(turns)
        held = set(itertools.compress(words.stems, words.content)) & ev.stems
        assert held & _past_bases(ev) == _past_keys(held, ev.lows), claim
        seen += bool(_past_keys(held, ev.lows))
    rng = random.Random(5)
    for k in range(2_000):
        vocab = ["".join(rng.choice("tdpeos") for _ in range(rng.randint(1, 7))) for _ in range(12)]
        text = " ".join(rng.choice(vocab) for _ in range(rng.randint(1, 20)))
        ev = evidence_for([SourceTurn(id=f"r{k}", text=text, source="user")])
        stems = {w[: rng.randint(0, len(w))] for w in vocab} | set(vocab)
        got = _past_keys(stems, ev.lows)
        assert stems & _past_bases(ev) == got, (text, stems)
        seen += bool(got)
    assert seen > 500
