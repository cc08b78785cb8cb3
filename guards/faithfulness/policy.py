"""Faithfulness, risk and the response policies (docs/spec.md §Read-time faithfulness).

Pure functions of a scored answer and the settings:

* `faithfulness` = supported factual claims / factual claims (None without any);
* `classify_risk`: the worse of two readings. By count: no unsupported claim is none;
  three or more is high; a critical one (a number, a name, a file, a quote: `split.py`)
  or a contradicted one is medium; one or two others are low. By score: faithfulness at
  or below `risk_thresholds.high` is high, at or below `risk_thresholds.medium` medium.
  A claim that cites a source that failed provenance makes the answer high risk (the
  auditor rule: an answer resting on a model's own output does not ship).
* `policy_for`: the tenant's policy (`tenant_policies`), else `on_hallucination`;
* `annotate`: the answer with a note after each sentence holding an unsupported claim
  (the `warn` policy); the block text is the setting's.
"""

from __future__ import annotations

from collections.abc import Sequence

from groundwire.guards.config import FaithfulnessConfig
from groundwire.topics.answers import AnswerClaim
from groundwire.topics.vocab import AnswerClaimVerdict, AnswerPolicy, RiskLevel

__all__ = [
    "RISK_ORDER",
    "annotate",
    "at_least",
    "classify_risk",
    "faithfulness",
    "policy_for",
    "trigger_for",
]

RISK_ORDER = {RiskLevel.NONE: 0, RiskLevel.LOW: 1, RiskLevel.MEDIUM: 2, RiskLevel.HIGH: 3}
_BY_RANK = {rank: level for level, rank in RISK_ORDER.items()}
NOTE_CHARS = 200


def at_least(risk: RiskLevel, floor: RiskLevel | str) -> bool:
    return RISK_ORDER[risk] >= RISK_ORDER[RiskLevel(floor)]


def _worst(*levels: RiskLevel) -> RiskLevel:
    return _BY_RANK[max(RISK_ORDER[level] for level in levels)]


def faithfulness(claims: Sequence[AnswerClaim]) -> float | None:
    factual = [c for c in claims if c.verdict is not None]
    if not factual:
        return None
    supported = sum(c.verdict is AnswerClaimVerdict.SUPPORTED for c in factual)
    return round(supported / len(factual), 4)


def classify_risk(
    claims: Sequence[AnswerClaim], score: float | None, cfg: FaithfulnessConfig
) -> RiskLevel:
    unsupported = [
        c for c in claims if c.verdict is not None and c.verdict is not AnswerClaimVerdict.SUPPORTED
    ]
    if not unsupported:
        return RiskLevel.NONE
    if any(c.verdict is AnswerClaimVerdict.REJECTED for c in unsupported):
        return RiskLevel.HIGH
    if len(unsupported) >= 3:
        by_count = RiskLevel.HIGH
    elif any(c.critical or c.verdict is AnswerClaimVerdict.CONTRADICTED for c in unsupported):
        by_count = RiskLevel.MEDIUM
    else:
        by_count = RiskLevel.LOW
    by_score = RiskLevel.NONE
    if score is not None:
        if score <= cfg.risk_thresholds.high:
            by_score = RiskLevel.HIGH
        elif score <= cfg.risk_thresholds.medium:
            by_score = RiskLevel.MEDIUM
    return _worst(by_count, by_score)


def policy_for(tenant_id: str, cfg: FaithfulnessConfig) -> AnswerPolicy:
    return AnswerPolicy(cfg.tenant_policies.get(tenant_id, cfg.on_hallucination))


def trigger_for(policy: AnswerPolicy, cfg: FaithfulnessConfig) -> RiskLevel:
    """The least risk at which `policy` acts."""
    if policy is AnswerPolicy.WARN:
        return RiskLevel(cfg.warn_min_risk)
    if policy is AnswerPolicy.REGENERATE:
        return RiskLevel(cfg.regenerate_min_risk)
    return RiskLevel(cfg.block_min_risk)


def annotate(text: str, claims: Sequence[AnswerClaim]) -> str:
    """`text` with " [unverified: <why>]" after each sentence holding an unsupported
    claim (several claims of one sentence share one note)."""
    notes: dict[int, list[str]] = {}
    for claim in claims:
        if claim.verdict is None or claim.verdict is AnswerClaimVerdict.SUPPORTED:
            continue
        why = (claim.reason or "not in the provided context")[:NOTE_CHARS]
        bucket = notes.setdefault(min(claim.end, len(text)), [])
        if why not in bucket:
            bucket.append(why)
    out = text
    for end in sorted(notes, reverse=True):
        out = f"{out[:end]} [unverified: {'; '.join(notes[end])}]{out[end:]}"
    return out
