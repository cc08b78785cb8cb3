"""Probe of the read-time faithfulness guard with answers that hide a specific in a form
the splitter might skip: a "when" question, "let me know if ...", "could it be that
...?", a wish or a congratulation, a declarative question, and so on.

    python bench/probe_answer_forms.py [--data bench/data/answer-forms-probe.jsonl] [-v]

Each line of the data is a pair, written for this probe (not taken from any dataset):
`hidden`, an answer whose only specific the context below does not support (or
contradicts), and `control`, an answer of the same form the scorer must leave as it is
(a real question or instruction, a pleasantry that names nothing, or the same form with a
supported specific). Every answer is scored on its own against the same context with the
offline verifier (the default configuration).

* a hidden answer is **caught** when at least one of its factual claims is not supported;
* a control is **kept** when none of its factual claims is unsupported (it may have none).

Prints both counts per batch (`batch` in the data: 1 was written before the session-11
changes to the splitter, 2 after them, to check that they were general) and, with -v,
the pieces of every answer the guard gets wrong; ends with `caught=<n>/<N>
kept=<m>/<N>`. It measures; it asserts nothing, so a change of
the splitter is measured here and its rules are tested in tests/unit.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path

from groundwire.guards.config import GuardsConfig
from groundwire.guards.faithfulness.score import AnswerScorer
from groundwire.topics.answers import Answer, ContextSource, ScoredAnswer
from groundwire.topics.vocab import AnswerClaimVerdict, ClaimKind

CONTEXT = (
    "Dana Whitfield became CTO of Acme in March 2024.",
    "The Inbox3 launch is on Friday at 10am in the Lisbon office.",
    "The Q3 budget is $5M; it needs one sign-off from finance.",
    "The platform team has 4 engineers.",
    "Priya Nair leads the payments team, which moved to Stripe in 2023.",
    "The API returns JSON and allows 100 requests per minute.",
    "The user is travelling to Paris in June for the Paris offsite.",
)


def flagged(scored: ScoredAnswer) -> bool:
    """Whether any factual claim of the answer is not supported."""
    return any(
        c.kind is ClaimKind.FACTUAL and c.verdict is not AnswerClaimVerdict.SUPPORTED
        for c in scored.claims
    )


def show(scored: ScoredAnswer) -> str:
    return "; ".join(
        f"{c.kind.value}:{c.verdict.value if c.verdict else '-'}:{c.text!r}" for c in scored.claims
    )


async def run(path: Path, verbose: bool) -> dict[int, tuple[int, int, int]]:
    pairs = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    context = [
        ContextSource(id=f"mem_{i}", text=t, source="corpus") for i, t in enumerate(CONTEXT, 1)
    ]
    answers = [
        Answer(
            answer_id=f"{i}-{side}", tenant_id="acme", user_id="u", text=p[side], context=context
        )
        for i, p in enumerate(pairs)
        for side in ("hidden", "control")
    ]
    scorer = AnswerScorer(GuardsConfig())
    try:
        scored = await scorer.score_batch(answers)
    finally:
        await scorer.aclose()
    counts: dict[int, tuple[int, int, int]] = {}
    for i, p in enumerate(pairs):
        hidden, control = scored[2 * i], scored[2 * i + 1]
        got, ok = flagged(hidden), not flagged(control)
        caught, kept, n = counts.get(p.get("batch", 1), (0, 0, 0))
        counts[p.get("batch", 1)] = (caught + got, kept + ok, n + 1)
        if verbose and not (got and ok):
            print(f"[{p['form']}]")
            if not got:
                print(f"  MISSED  {p['hidden']!r}: {show(hidden)}")
            if not ok:
                print(f"  FLAGGED {p['control']!r} ({p['control_is']}): {show(control)}")
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = Path(__file__).parent / "data" / "answer-forms-probe.jsonl"
    parser.add_argument("--data", type=Path, default=default)
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    counts = asyncio.run(run(args.data, args.verbose))
    for batch, (caught, kept, n) in sorted(counts.items()):
        print(f"batch {batch}: caught={caught}/{n} kept={kept}/{n}")
    caught, kept, n = (sum(c[k] for c in counts.values()) for k in range(3))
    print(f"caught={caught}/{n} kept={kept}/{n}")


if __name__ == "__main__":
    main()
