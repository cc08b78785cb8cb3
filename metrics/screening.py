"""Screen-stage detectors: hedges by category, citations by type/verified, re-entry rejections.

The re-entry mapping is deliberately tolerant: the provenance guard reports rejected
evidence as free text (per turn, in a ProvenanceReport) and the policy lists failed
checks as strings. Whatever the wording, the label ends up in a fixed vocabulary.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from prometheus_client import Counter

from groundwire.metrics import labels
from groundwire.metrics.registry import REGISTRY
from groundwire.topics.records import RoutedResult

HEDGE_DETECTIONS = Counter(
    "groundwire_hedge_detections_total",
    "Claims in which the hedge detector found speculation or hedging, by category.",
    ("category",),
    registry=REGISTRY,
)
CITATIONS = Counter(
    "groundwire_citations_total",
    "Citations detected in claims, by type and verification outcome.",
    ("type", "verified"),
    registry=REGISTRY,
)
REENTRY_REJECTIONS = Counter(
    "groundwire_reentry_rejections_total",
    "Evidence refused as model output re-entering the store, by reason.",
    ("reason",),
    registry=REGISTRY,
)

CITATION_LOOKUPS = Counter(
    "groundwire_citation_lookups_total",
    "Distinct citations per screened batch, by where the verdict came from: local (this"
    " process's cache), shared (the Redis cache), checked (a real ADR/git/URL/issue check).",
    ("source",),
    registry=REGISTRY,
)
CITATION_CACHE_ERRORS = Counter(
    "groundwire_citation_cache_errors_total",
    "Failed reads/writes of the shared (Redis) citation cache; the citation was then"
    " checked directly.",
    ("op",),
    registry=REGISTRY,
)
LOOKUP_SOURCES = ("local", "shared", "checked")
CACHE_OPS = ("read", "write")

hedge_category = labels.BoundedLabel(labels.HEDGE_CATEGORIES)

# guards/policy.py reports re-entry as one summary plus up to ten listed turns:
#   "reentry_rejections: 3 of 4 source turns"
#   "reentry_rejected: chat:42 (reserved_prefix:chat:)"
_SUMMARY_RE = re.compile(r"^\s*re-?_?entry_?rejections\s*:\s*(\d+)", re.IGNORECASE)
_LISTED_RE = re.compile(r"^\s*re-?_?entry_?rejected\s*:.*\(([^()]*)\)\s*$", re.IGNORECASE)
_MARKERS = ("provenance", "reentry", "re-entry", "re_entry")


def _hedge_label(category: str | None, action: str) -> str:
    if category:
        return hedge_category(category)
    # No category reported: fall back on the action, which maps 1:1 to seed 000's classes.
    return {"block": "personal_speculation", "review": "technical_hedge"}.get(action, labels.OTHER)


def reentry_reasons(result: RoutedResult) -> list[str]:
    """The bounded re-entry reasons of one routed result, one per rejected evidence turn.

    Prefers a per-turn provenance report when the result carries one. Otherwise reads the
    policy's failed checks: listed turns give their reason, and turns the summary counts
    beyond the listed ones (the policy lists at most ten) count as "other" so totals stay
    exact. Checks that only mention provenance in another shape count once each.
    """
    provenance = getattr(result, "provenance", None)
    rejections = getattr(provenance, "rejections", None)
    if isinstance(rejections, dict) and rejections:
        return [labels.reentry_reason(str(v)) for v in rejections.values()]
    reasons: list[str] = []
    summarised = 0
    for check in result.validation.checks_failed:
        if summary := _SUMMARY_RE.match(check):
            summarised += int(summary.group(1))
        elif listed := _LISTED_RE.match(check):
            reasons.append(labels.reentry_reason(listed.group(1)))
        elif any(m in check.lower() for m in _MARKERS):
            reasons.append(labels.reentry_reason(check.split(":", 1)[-1]))
    reasons.extend([labels.OTHER] * max(0, min(summarised, 10_000) - len(reasons)))
    return reasons


def record_screening(result: RoutedResult) -> None:
    hedge = result.hedge
    if hedge.action and hedge.action != "none":
        HEDGE_DETECTIONS.labels(category=_hedge_label(hedge.category, hedge.action)).inc()
    for citation in result.citations:
        CITATIONS.labels(
            type=labels.one_of(citation.type, labels.CITATION_TYPES),
            verified=labels.citation_verified(citation.verified),
        ).inc()
    for reason in reentry_reasons(result):
        REENTRY_REJECTIONS.labels(reason=reason).inc()


def observe_citation_lookups(source: str, n: int) -> None:
    if n > 0:
        CITATION_LOOKUPS.labels(source=labels.one_of(source, LOOKUP_SOURCES)).inc(n)


def observe_citation_cache_error(op: str) -> None:
    CITATION_CACHE_ERRORS.labels(op=labels.one_of(op, CACHE_OPS)).inc()


def _initialise(categories: Iterable[str]) -> None:
    for category in categories:
        HEDGE_DETECTIONS.labels(category=category)
    for ctype in labels.CITATION_TYPES:
        for verified in labels.CITATION_VERIFIED:
            CITATIONS.labels(type=ctype, verified=verified)
    for reason in labels.REENTRY_REASONS:
        REENTRY_REJECTIONS.labels(reason=reason)
    for source in LOOKUP_SOURCES:
        CITATION_LOOKUPS.labels(source=source)
    for op in CACHE_OPS:
        CITATION_CACHE_ERRORS.labels(op=op)


_initialise((*labels.HEDGE_CATEGORIES, labels.OTHER))
