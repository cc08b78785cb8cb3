"""Grounding verification (spec: Grounding): does the source conversation say this?

This module holds what every verifier shares: the verdict vocabulary, how a PARTIAL
score becomes a confidence penalty, how a quoted span is pinned to exact offsets in a
source turn, the reports for the cases that need no verifier (no admissible evidence,
verifier failure) and the pipeline's "would grounding block this?" rule used by
`groundwire eval`. The factory that picks an implementation from settings is
`build_verifier` in the package (`VERIFIERS`).

Verifiers never raise into the stream: a failure becomes an UNKNOWN report for that
item, and the tier policy decides (per `on_verifier_failure`) what UNKNOWN means.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from groundwire.guards.config import GroundingConfig
from groundwire.guards.protocols import GroundingRequest, GroundingVerifier
from groundwire.topics.records import Claim, EvidenceSpan, GroundingReport, SourceTurn
from groundwire.topics.vocab import GroundingVerdict

log = logging.getLogger(__name__)

NO_ADMISSIBLE_EVIDENCE = "no admissible evidence"


def unknown_report(claim: Claim, verifier: str, reason: str) -> GroundingReport:
    """The verifier itself failed; the claim keeps its confidence, the policy decides."""
    return GroundingReport(
        verdict=GroundingVerdict.UNKNOWN,
        reasoning=reason[:500],
        adjusted_confidence=claim.confidence,
        verifier=verifier,
    )


def no_evidence_report(claim: Claim, verifier: str) -> GroundingReport:
    """The claim had evidence, but provenance admitted none of it: nothing can ground it."""
    return GroundingReport(
        verdict=GroundingVerdict.NOT_SUPPORTED,
        score=0.0,
        reasoning=NO_ADMISSIBLE_EVIDENCE,
        adjusted_confidence=0.0,
        verifier=verifier,
    )


def penalty_for(score: float, low: float, high: float, cfg: GroundingConfig) -> float:
    """Map a PARTIAL score in [low, high) onto [penalty_min, penalty_max], weaker -> larger.

    The penalty lies between −0.10 and −0.30 (spec: Grounding); a claim just under the
    SUPPORTED line loses little, one barely above NOT_SUPPORTED loses the most.
    """
    lo_pen, hi_pen = sorted((cfg.penalty_min, cfg.penalty_max))
    if high <= low:
        return round(hi_pen, 4)
    frac = min(1.0, max(0.0, (high - score) / (high - low)))
    return round(lo_pen + frac * (hi_pen - lo_pen), 4)


def finish_report(
    claim: Claim,
    verdict: GroundingVerdict,
    *,
    verifier: str,
    score: float | None,
    spans: Sequence[EvidenceSpan],
    reasoning: str,
    penalty: float = 0.0,
    rewritten_content: str | None = None,
) -> GroundingReport:
    """Build a report whose adjusted confidence is consistent with its verdict."""
    if verdict is GroundingVerdict.NOT_SUPPORTED:
        adjusted = 0.0
        penalty = 0.0
    elif verdict is GroundingVerdict.PARTIAL:
        adjusted = max(0.0, round(claim.confidence - penalty, 4))
    else:
        penalty = 0.0
        adjusted = claim.confidence
    # Made by the model's validator from a dict (session 17, as `screening._screen_local`
    # makes its record): `GroundingReport(**fields)` is the same validation behind a
    # Python `__init__`, with the same result (the fields given included) and errors.
    report: GroundingReport = GroundingReport.__pydantic_validator__.validate_python(
        {
            "verdict": verdict,
            "score": None if score is None else round(float(score), 4),
            "evidence_spans": list(spans),
            "reasoning": reasoning,
            "confidence_penalty": penalty,
            "adjusted_confidence": adjusted,
            "verifier": verifier,
            "rewritten_content": rewritten_content,
        }
    )
    return report


def grounding_blocks(report: GroundingReport, cfg: GroundingConfig) -> bool:
    """Would the pipeline block this claim on grounding alone?

    The single definition `groundwire eval` uses for "predicted supported" (= not
    blocked), mirroring the tier policy: NOT_SUPPORTED blocks; PARTIAL blocks when the
    adjusted confidence falls under `min_confidence_after_penalty`; UNKNOWN blocks only
    when `on_verifier_failure` is "block"; SUPPORTED and SKIPPED never block.
    """
    verdict = report.verdict
    if verdict == GroundingVerdict.NOT_SUPPORTED:
        return True
    if verdict == GroundingVerdict.PARTIAL:
        adjusted = report.adjusted_confidence if report.adjusted_confidence is not None else 0.0
        return adjusted < cfg.min_confidence_after_penalty
    if verdict == GroundingVerdict.UNKNOWN:
        return cfg.on_verifier_failure == "block"
    return False


def locate_span(turns: Sequence[SourceTurn], quote: str) -> EvidenceSpan | None:
    """Pin a quoted piece of evidence to exact offsets in one turn, or None if absent.

    Exact match first, then a case-insensitive one (the span text is still taken from the
    turn, so `span.text == turn.text[start:end]` always holds). Anything else — including
    a paraphrase an LLM presents as a quote — is not evidence.
    """
    needle = quote.strip().strip("\"'“”")
    if len(needle) < 2:
        return None
    for turn in turns:
        pos = turn.text.find(needle)
        if pos >= 0:
            return EvidenceSpan(turn_id=turn.id, start=pos, end=pos + len(needle), text=needle)
    lowered = needle.lower()
    for turn in turns:
        hay = turn.text.lower()
        pos = hay.find(lowered)
        # lower() can change lengths for a few scripts; only trust it when it did not.
        if pos >= 0 and len(hay) == len(turn.text):
            end = pos + len(needle)
            return EvidenceSpan(turn_id=turn.id, start=pos, end=end, text=turn.text[pos:end])
    return None


def bounded_turns(turns: Sequence[SourceTurn], max_chars: int) -> list[SourceTurn]:
    """Keep at most `max_chars` of evidence in total (bounded work per claim)."""
    out: list[SourceTurn] = []
    budget = max_chars
    for turn in turns:
        if budget <= 0:
            break
        if len(turn.text) > budget:
            turn = turn.model_copy(update={"text": turn.text[:budget]})
        out.append(turn)
        budget -= len(turn.text)
    return out


async def verify_batch_safely(
    verifier: GroundingVerifier, batch: Sequence[GroundingRequest]
) -> list[GroundingReport]:
    """Call a verifier so that nothing escapes: any exception -> UNKNOWN for each item."""
    name = getattr(verifier, "name", type(verifier).__name__)
    try:
        reports = await verifier.verify_batch(batch)
    except Exception as exc:  # a verifier bug must not stop the stream
        log.warning("grounding verifier %s failed on a batch: %s", name, type(exc).__name__)
        reason = f"verifier error: {type(exc).__name__}"
        return [unknown_report(r.claim, name, reason) for r in batch]
    if len(reports) != len(batch):
        return [unknown_report(r.claim, name, "verifier returned a wrong count") for r in batch]
    return list(reports)
