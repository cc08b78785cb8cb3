"""Cost of looking for respelled names (guards/grounding/lexical/spelling.py): the
lexical verifier's CPU time per claim with the per-evidence index (`may_name`, shipped)
and with the scan it replaced (`same_name_in` over every word of every source sentence,
for each capitalised claim word the source lacks), alternating in the same process over
a JSONL of claims, best of `--passes` each, with the turn caches kept (warm) and emptied
before each pass (every turn met for the first time), and their ratios. Both ways give
the same verdicts (tests/unit/guards/grounding/test_spelling_index.py); only the time
differs. CPU time of the process (`time.process_time`), so other work on a shared
machine moves the figures less than wall time would.

    python bench/bench_respelled_names.py [--data /work/shared/data/grounding-dev.jsonl]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import groundwire.guards.grounding.lexical.features as features
from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding.lexical import clear_turn_caches
from groundwire.guards.grounding.lexical.evidence import Evidence
from groundwire.guards.grounding.lexical.spelling import may_name, same_name_in
from groundwire.guards.grounding.lexical.verifier import LexicalVerifier
from groundwire.guards.protocols import GroundingRequest
from groundwire.topics.records import Claim

FIELDS = ("claim_id", "tenant_id", "content", "memory_type", "source", "source_turns")


def scan(raw: str, ev: Evidence) -> bool:
    """The per-claim scan `may_name` replaced."""
    return same_name_in(raw, ev.sentences) is not None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("/work/shared/data/grounding-dev.jsonl"))
    parser.add_argument("--passes", type=int, default=7)
    args = parser.parse_args()
    rows = [json.loads(line) for line in args.data.read_text().splitlines() if line.strip()]
    claims = [Claim(**{k: r[k] for k in FIELDS if k in r}) for r in rows]
    requests = [GroundingRequest(c, list(c.source_turns)) for c in claims]
    verifier = LexicalVerifier(GroundingConfig())

    def per_claim(cold: bool) -> float:
        if cold:
            clear_turn_caches()
        start = time.process_time()
        for req in requests:
            verifier.verify_one(req)
        return (time.process_time() - start) / len(requests) * 1e6

    per_claim(False)  # warm the word caches
    ways = {"scan": scan, "index": may_name}
    best = {(way, cold): float("inf") for way in ways for cold in (False, True)}
    for _ in range(args.passes):
        for cold in (False, True):
            for way, fn in ways.items():
                features.may_name = fn  # type: ignore[assignment]
                best[way, cold] = min(best[way, cold], per_claim(cold))
    features.may_name = may_name  # type: ignore[assignment]
    for cold, label in ((False, "turn caches kept"), (True, "turn caches emptied")):
        old, new = best["scan", cold], best["index", cold]
        print(f"{label}: scan {old:.1f}, index {new:.1f} µs/claim, ratio {new / old:.3f}")


if __name__ == "__main__":
    main()
