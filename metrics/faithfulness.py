"""Guard 3 (read-time faithfulness): scores, risk, claims, citations, policy actions.

The guard-3 signals of docs/spec.md §Read-time faithfulness and §Metrics and alerts.
`groundwire_faithfulness_scores_total{risk="high"}` over all scored answers is the
high-risk rate the alert in metrics/rules/faithfulness.yml watches; the histogram's sum
over its count is the mean faithfulness the weekly report prints. The labelled series
are created at zero by `start()` when a scorer is built, not at import: guard 3 is
opt-in, and the report tells a running guard 3 from an absent one by these series.
"""

from __future__ import annotations

from prometheus_client import Counter, Histogram

from groundwire.metrics import labels
from groundwire.metrics.registry import GROUNDING_BUCKETS, REGISTRY
from groundwire.topics.answers import ScoredAnswer
from groundwire.topics.vocab import AnswerCitationStatus, AnswerClaimVerdict

# Faithfulness is a share in [0, 1]; buckets at the risk thresholds (0.5, 0.7, 0.8, 0.85).
SCORE_BUCKETS: tuple[float, ...] = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 1.0)
CACHE_RESULTS: tuple[str, ...] = ("hit", "miss", "store", "error", labels.OTHER)

SCORE = Histogram(
    "groundwire_faithfulness_score",
    "Faithfulness of a scored answer: supported / factual claims (answers with a factual claim).",
    buckets=SCORE_BUCKETS,
    registry=REGISTRY,
)
SCORED = Counter(
    "groundwire_faithfulness_scores_total",
    "Answers scored, by risk level.",
    ("risk",),
    registry=REGISTRY,
)
CLAIMS = Counter(
    "groundwire_faithfulness_claims_total",
    "Pieces of scored answers by kind (factual claims are checked, the rest excluded).",
    ("kind",),
    registry=REGISTRY,
)
UNSUPPORTED = Counter(
    "groundwire_faithfulness_unsupported_claims_total",
    "Factual claims of scored answers that the context does not support, by verdict.",
    ("verdict",),
    registry=REGISTRY,
)
PHANTOM_CITATIONS = Counter(
    "groundwire_faithfulness_phantom_citations_total",
    "Citations inside answers that name no source of their context.",
    registry=REGISTRY,
)
UNCITED = Counter(
    "groundwire_faithfulness_uncited_claims_total",
    "Uncited factual claims, by what the flagger found (likely sourced, other scope, gap).",
    ("finding",),
    registry=REGISTRY,
)
POLICY = Counter(
    "groundwire_faithfulness_policy_applied_total",
    "What the tenant's policy did to a scored answer (none, warned, regenerated, blocked).",
    ("action",),
    registry=REGISTRY,
)
DEGRADED = Counter(
    "groundwire_faithfulness_degraded_total",
    "Answers scored with the fallback because the configured verifier failed.",
    registry=REGISTRY,
)
LATENCY = Histogram(
    "groundwire_faithfulness_latency_seconds",
    "Time to score an answer and apply its policy (regeneration included).",
    buckets=GROUNDING_BUCKETS,
    registry=REGISTRY,
)
CACHE = Counter(
    "groundwire_faithfulness_cache_total",
    "Validated-answer cache lookups and writes: hit, miss, store, error.",
    ("result",),
    registry=REGISTRY,
)

_started = False


def start() -> None:
    """Create every labelled series at zero: called when a scorer is built (the answers
    stage, the endpoint), so the series exist exactly where guard 3 runs. That is how
    alerts see 0 rather than no data, and how the weekly report tells a running guard 3
    from an absent one."""
    global _started
    if _started:
        return
    _started = True
    for risk in labels.RISK_LEVELS:
        SCORED.labels(risk=risk)
    for kind in labels.CLAIM_KINDS:
        CLAIMS.labels(kind=kind)
    for verdict in labels.UNSUPPORTED_VERDICTS:
        UNSUPPORTED.labels(verdict=verdict)
    for finding in labels.UNCITED_FINDINGS:
        UNCITED.labels(finding=finding)
    for action in labels.ANSWER_ACTIONS:
        POLICY.labels(action=action)
    for result in CACHE_RESULTS:
        CACHE.labels(result=result)


def observe_scored(scored: ScoredAnswer, seconds: float | None = None) -> None:
    """Record one scored answer (once, where it was scored: the stage or the endpoint)."""
    start()
    SCORED.labels(risk=scored.risk.value).inc()
    if scored.faithfulness is not None:
        SCORE.observe(scored.faithfulness)
    for claim in scored.claims:
        CLAIMS.labels(kind=claim.kind.value).inc()
        verdict = claim.verdict
        if verdict is not None and verdict is not AnswerClaimVerdict.SUPPORTED:
            UNSUPPORTED.labels(verdict=verdict.value).inc()
        if claim.uncited is not None:
            UNCITED.labels(finding=claim.uncited.finding.value).inc()
        phantoms = sum(c.status is AnswerCitationStatus.PHANTOM for c in claim.citations)
        if phantoms:
            PHANTOM_CITATIONS.inc(phantoms)
    POLICY.labels(action=scored.action.value).inc()
    if scored.degraded:
        DEGRADED.inc()
    if seconds is not None and seconds >= 0:
        LATENCY.observe(seconds)


def observe_cache(result: str) -> None:
    CACHE.labels(result=labels.one_of(result, CACHE_RESULTS)).inc()
