"""Screen-stage detectors: hedges by category, citations by type/verified, re-entry rejections.

Every label is an enum value the detectors reported on the routed result: the hedge
category, the citation type, and one `ReentryReason` per rejected evidence turn from the
provenance report the result carries.
"""

from __future__ import annotations

import functools

from prometheus_client import Counter

from groundwire.metrics import labels
from groundwire.metrics.registry import REGISTRY
from groundwire.topics.records import HedgeReport, RoutedResult
from groundwire.topics.vocab import CitationType, HedgeAction, HedgeCategory, ReentryReason

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

# A hedge report with an action but no category (a record another producer wrote; the
# detector always names one) counts under the category its action stands for.
_CATEGORY_OF_ACTION = {
    HedgeAction.BLOCK: HedgeCategory.PERSONAL_SPECULATION,
    HedgeAction.REVIEW: HedgeCategory.TECHNICAL_HEDGE,
}


def hedge_category(hedge: HedgeReport) -> HedgeCategory | None:
    """The category a hedge detection is counted under; None when nothing was detected."""
    if hedge.action is HedgeAction.NONE:
        return None
    return hedge.category or _CATEGORY_OF_ACTION[hedge.action]


def reentry_reasons(result: RoutedResult) -> list[str]:
    """The re-entry reasons of one routed result, one per rejected evidence turn."""
    return [reason.value for reason in result.provenance.rejections.values()]


def record_screening(result: RoutedResult) -> None:
    found: list[Counter] = []
    screening_series(result, found)
    for series in found:
        series.inc()


def screening_series(result: RoutedResult, found: list[Counter]) -> None:
    """Append to `found` each series `record_screening` counts the result in, once per
    count (a series may come more than once: one per rejected turn)."""
    category = hedge_category(result.hedge)
    if category is not None:
        found.append(_hedge_series(category))
    for citation in result.citations:
        found.append(_citation_series(citation.type, citation.verified))
    rejections = result.provenance.rejections
    if rejections:
        for reason in rejections.values():  # one per rejected turn, as reentry_reasons
            found.append(_reentry_series(reason))


# Each series looked up once (`labels()` validates and locks on every call); at most the
# members of the enum (times three for `verified`), all created at import below.
@functools.cache
def _hedge_series(category: HedgeCategory) -> Counter:
    return HEDGE_DETECTIONS.labels(category=category.value)


@functools.cache
def _citation_series(ctype: CitationType, verified: bool | None) -> Counter:
    return CITATIONS.labels(type=ctype.value, verified=labels.citation_verified(verified))


@functools.cache
def _reentry_series(reason: ReentryReason) -> Counter:
    return REENTRY_REJECTIONS.labels(reason=reason.value)


def observe_citation_lookups(source: str, n: int) -> None:
    if n > 0:
        CITATION_LOOKUPS.labels(source=labels.one_of(source, LOOKUP_SOURCES)).inc(n)


def observe_citation_cache_error(op: str) -> None:
    CITATION_CACHE_ERRORS.labels(op=labels.one_of(op, CACHE_OPS)).inc()


def _initialise() -> None:
    for category in labels.HEDGE_CATEGORIES:
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


_initialise()
