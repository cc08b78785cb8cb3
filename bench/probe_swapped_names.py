"""Probe of the swapped-name rule (docs/grounding.md, a name the source gives another):
a claim that puts a name the source never mentions where the source puts another name
("Marco is the CTO" against "Dana became CTO in March after the reorg"), and controls
that must stay as they were (the source's own names, ordinary capitalised words opening
a sentence, pronouns, possessives, a surname added, a name absent with no competitor).

    python bench/probe_swapped_names.py [--data bench/data/swapped-names-probe.jsonl] [-v]

Each line of the data (written for this probe, not taken from any dataset) is a `claim`,
its `source` and its `kind`: `swap` or `control`; a control also has `expect`, its
write-time verdict at the session-11 start (commit a925836) unless its `note` says when
it moved, and a `note`. Both paths
that use the lexical verifier score every claim on its own against its source, in the
default configuration:

* write time (`LexicalVerifier`, the memory pipeline): a swap is **caught** when it is
  `not_supported`; a control is **kept** when its verdict is still `expect`;
* read time (`AnswerScorer`, `groundwire eval --mode answers`): the claim is the whole
  answer and the source its context; a swap is caught when some factual claim of it is
  not supported; a control is kept when none is contradicted.

Prints `write: caught=<n>/<N> kept=<m>/<M>` and the same for `read`; with -v every line
the rule gets wrong. It measures; it asserts nothing (the rules are tested in
tests/unit/guards/grounding/test_names.py).
"""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path

from groundwire.guards.config import GroundingConfig, GuardsConfig
from groundwire.guards.faithfulness.score import AnswerScorer
from groundwire.guards.grounding.lexical.verifier import LexicalVerifier
from groundwire.guards.protocols import GroundingRequest
from groundwire.topics.answers import Answer, ContextSource
from groundwire.topics.records import Claim, SourceTurn
from groundwire.topics.vocab import AnswerClaimVerdict, ClaimKind, GroundingVerdict

APPROVABLE = (GroundingVerdict.SUPPORTED, GroundingVerdict.PARTIAL)


def write_time(rows: list[dict[str, str]]) -> list[tuple[bool, str, str]]:
    """(not supported, verdict, reasoning) of each row at write time."""
    verifier = LexicalVerifier(GroundingConfig())
    out = []
    for i, row in enumerate(rows):
        turns = [SourceTurn(id="turn-1", text=row["source"], source="user")]
        claim = Claim(
            claim_id=f"c{i}", tenant_id="t", content=row["claim"], source="conversation",
            source_turns=turns,
        )  # fmt: skip
        report = verifier.verify_one(GroundingRequest(claim, turns))
        out.append((report.verdict not in APPROVABLE, report.verdict.value, report.reasoning))
    return out


async def read_time(rows: list[dict[str, str]]) -> list[tuple[bool, bool, str]]:
    """(some factual claim not supported, some contradicted, verdicts) of each row."""
    answers = [
        Answer(
            answer_id=str(i),
            tenant_id="acme",
            user_id="u",
            text=row["claim"],
            context=[ContextSource(id="mem_1", text=row["source"], source="corpus")],
        )
        for i, row in enumerate(rows)
    ]
    scorer = AnswerScorer(GuardsConfig())
    try:
        scored = await scorer.score_batch(answers)
    finally:
        await scorer.aclose()
    out = []
    for s in scored:
        facts = [c for c in s.claims if c.kind is ClaimKind.FACTUAL]
        flagged = any(c.verdict is not AnswerClaimVerdict.SUPPORTED for c in facts)
        contradicted = any(c.verdict is AnswerClaimVerdict.CONTRADICTED for c in facts)
        shown = "; ".join(f"{c.verdict.value if c.verdict else '-'}:{c.text!r}" for c in facts)
        out.append((flagged, contradicted, shown))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = Path(__file__).parent / "data" / "swapped-names-probe.jsonl"
    parser.add_argument("--data", type=Path, default=default)
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    rows = [json.loads(line) for line in args.data.read_text().splitlines() if line.strip()]
    written = write_time(rows)
    read = asyncio.run(read_time(rows))
    swaps = [k for k, r in enumerate(rows) if r["kind"] == "swap"]
    controls = [k for k, r in enumerate(rows) if r["kind"] == "control"]
    w_caught = [k for k in swaps if written[k][0]]
    w_kept = [k for k in controls if written[k][1] == rows[k]["expect"]]
    r_caught = [k for k in swaps if read[k][0]]
    r_kept = [k for k in controls if not read[k][1]]
    if args.verbose:
        for k, row in enumerate(rows):
            wrong_w = not written[k][0] if k in swaps else written[k][1] != row["expect"]
            wrong_r = (k in swaps and not read[k][0]) or (k in controls and read[k][1])
            if wrong_w or wrong_r:
                print(f"[{row['kind']}] {row['claim']!r} <- {row['source']!r}")
                if wrong_w:
                    print(f"   write: {written[k][2]}")
                if wrong_r:
                    print(f"   read:  {read[k][2]}")
    n, m = len(swaps), len(controls)
    print(f"write: caught={len(w_caught)}/{n} kept={len(w_kept)}/{m}")
    print(f"read: caught={len(r_caught)}/{n} kept={len(r_kept)}/{m}")


if __name__ == "__main__":
    main()
