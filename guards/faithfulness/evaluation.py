"""Read-time faithfulness on labelled data: `groundwire eval --mode answers`.

Each labelled response of the evaluation file is scored as an answer, with its evidence
as the context, and predicted faithful when it has at least one factual claim and every
factual claim is supported (faithfulness 1.0). A response with no factual claim (only
opinions, questions, greetings) is not "fully supported" in the datasets' sense, so it is
not predicted faithful; the guard itself gives such an answer risk none.

Printed beside two references from the same run: the word-coverage baseline and the
grounding verifier on the whole response as one claim (`guards/grounding/evaluation.py`,
whose loading, split and balanced accuracy this reuses), per dataset, never pooled.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

from groundwire.guards.config import GuardsConfig
from groundwire.guards.faithfulness.score import AnswerScorer
from groundwire.guards.grounding.evaluation import (
    Example,
    Part,
    balanced_accuracy,
    baseline_supported,
    load_examples,
    predict,
)
from groundwire.topics.answers import Answer, ContextSource

__all__ = ["as_answer", "evaluate_answers", "predict_answers"]


def as_answer(e: Example) -> Answer:
    """A labelled response as an answer: its text, its evidence as the context."""
    claim = e.claim
    return Answer(
        answer_id=claim.claim_id,
        tenant_id=claim.tenant_id,
        user_id=claim.user_id,
        text=claim.content,
        context=[
            ContextSource(id=t.id, text=t.text, source=t.source, created_at=t.created_at)
            for t in claim.source_turns
        ],
    )


async def predict_answers(examples: Sequence[Example], cfg: GuardsConfig) -> list[bool]:
    """Predicted faithful per example (see the module docstring)."""
    scorer = AnswerScorer(cfg)
    preds: list[bool] = []
    try:
        for i in range(0, len(examples), 64):
            chunk = [as_answer(e) for e in examples[i : i + 64]]
            preds.extend(a.faithfulness == 1.0 for a in await scorer.assess_batch(chunk))
    finally:
        await scorer.aclose()
    return preds


def evaluate_answers(
    path: Path, cfg: GuardsConfig, part: Part = "test"
) -> dict[str, tuple[int, float, float, float]]:
    """Per dataset: (responses, baseline, the grounding verifier on the whole response as
    one claim, answer mode) balanced accuracy of "the response is fully supported"."""
    examples = load_examples(path, part)
    if not examples:
        raise ValueError(f"no labelled claims in {path} (part={part})")
    whole = asyncio.run(predict(examples, cfg.grounding))
    mine = asyncio.run(predict_answers(examples, cfg))
    by: dict[str, list[tuple[Example, bool, bool]]] = defaultdict(list)
    for e, w, m in zip(examples, whole, mine, strict=True):
        by[e.dataset].append((e, w, m))
    results: dict[str, tuple[int, float, float, float]] = {}
    for ds in sorted(by):
        rows = by[ds]
        base = balanced_accuracy((e.supported, baseline_supported(e.claim)) for e, _, _ in rows)
        one = balanced_accuracy((e.supported, w) for e, w, _ in rows)
        answer = balanced_accuracy((e.supported, m) for e, _, m in rows)
        results[ds] = (len(rows), base, one, answer)
    return results
