"""Count the fit-half claims a candidate rule fires on, before building it (session 18).

A rule is a function `(claim_text, turns) -> list` under `groundwire.guards.grounding`;
it fires on a claim when it returns a non-empty list. For each dataset this prints the
claims of the fit half (never the test half) it fires on and how many of them are
labelled not supported, and lists them with what the rule found:

    python bench/tally_rule_triggers.py /work/shared/data/grounding-dev.jsonl \
        groundwire.guards.grounding.lexical.superseded_tenses:superseded_tenses
"""

from __future__ import annotations

import argparse
import importlib
from collections import Counter
from pathlib import Path

from groundwire.guards.grounding.evaluation import load_examples


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", type=Path)
    ap.add_argument("rule", nargs="+", help="module:function, one or more")
    args = ap.parse_args(argv)
    examples = load_examples(args.data, "fit")
    for spec in args.rule:
        module, _, name = spec.partition(":")
        rule = getattr(importlib.import_module(module), name)
        fired: Counter[str] = Counter()
        wrong: Counter[str] = Counter()
        for e in examples:
            found = rule(e.claim.content, e.claim.source_turns)
            if not found:
                continue
            fired[e.dataset] += 1
            wrong[e.dataset] += not e.supported
            gold = "supported" if e.supported else "not_supported"
            print(f"  {e.claim.claim_id} gold={gold}: {e.claim.content!r} -> {found[:2]!r}")
        total = sum(fired.values())
        print(f"{spec}: fires on {total} of {len(examples)} fit-half claims,")
        print(f"  {sum(wrong.values())} labelled not supported; per dataset (fired/not supported):")
        for ds in sorted(fired):
            print(f"  {ds}: {fired[ds]}/{wrong[ds]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
