"""Review service metrics (the service itself is a later issue).

Only the backlog gauge exists so far, so the review-backlog alert in
metrics/rules/review.yml has its series; review actions and review latency belong
here when the service lands, following the same pattern as the guard modules.
"""

from __future__ import annotations

from prometheus_client import Gauge

from groundwire.metrics.registry import REGISTRY

REVIEW_BACKLOG = Gauge(
    "groundwire_review_backlog",
    "Claims waiting for a human decision in the review queue.",
    registry=REGISTRY,
    multiprocess_mode="mostrecent",  # one value per worker even under the supervisor
)


def observe_review_backlog(n: int) -> None:
    """Publish the current review-queue depth."""
    REVIEW_BACKLOG.set(max(0, int(n)))
