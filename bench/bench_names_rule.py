"""Cost of the swapped-name rule (guards/grounding/lexical/names.py): the lexical
verifier's time per claim with the rule on and off, best of five alternating passes over
a JSONL of claims in the same run, and their ratio.

    python bench/bench_names_rule.py [--data /work/shared/data/grounding-dev.jsonl]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import groundwire.guards.grounding.lexical.features as features
from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding.lexical.verifier import LexicalVerifier
from groundwire.guards.protocols import GroundingRequest
from groundwire.topics.records import Claim

FIELDS = ("claim_id", "tenant_id", "content", "memory_type", "source", "source_turns")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("/work/shared/data/grounding-dev.jsonl"))
    args = parser.parse_args()
    rows = [json.loads(line) for line in args.data.read_text().splitlines() if line.strip()]
    claims = [Claim(**{k: r[k] for k in FIELDS if k in r}) for r in rows]
    verifier = LexicalVerifier(GroundingConfig())
    rule = features.swapped_names

    def off(*_args: object, **_kwargs: object) -> list[tuple[str, str]]:
        return []

    def per_claim() -> float:
        start = time.perf_counter()
        for c in claims:
            verifier.verify_one(GroundingRequest(c, list(c.source_turns)))
        return (time.perf_counter() - start) / len(claims) * 1e6

    per_claim()  # warm the caches
    best = {"on": float("inf"), "off": float("inf")}
    for _ in range(5):
        for name, fn in (("off", off), ("on", rule)):
            features.swapped_names = fn  # type: ignore[assignment]
            best[name] = min(best[name], per_claim())
    features.swapped_names = rule
    on, base = best["on"], best["off"]
    print(f"on {on:.1f} µs/claim, off {base:.1f} µs/claim, ratio {on / base:.3f}")


if __name__ == "__main__":
    main()
