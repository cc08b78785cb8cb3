"""The review queue's metrics: every label value exists at zero, labels come from the
review enums only, and each observe call moves exactly its series."""

from __future__ import annotations

import pytest

from groundwire.metrics import labels
from groundwire.metrics import review as review_metrics
from groundwire.metrics.registry import REGISTRY
from groundwire.topics.vocab import ReviewAction, ReviewDecision, ReviewDenial, ReviewLimit


def value(name: str, **labelset: str) -> float:
    return REGISTRY.get_sample_value(name, labelset) or 0.0


@pytest.mark.parametrize(
    ("metric", "label", "tuple_"),
    [
        ("groundwire_review_overflow_total", "limit", labels.REVIEW_LIMITS),
        ("groundwire_review_decisions_total", "decision", labels.REVIEW_DECISIONS),
        ("groundwire_review_denied_total", "denial", labels.REVIEW_DENIALS),
        ("groundwire_review_audit_events_total", "action", labels.REVIEW_ACTIONS),
    ],
)
def test_every_label_value_exists_at_zero(metric: str, label: str, tuple_: tuple) -> None:
    seen = {
        s.labels[label]
        for family in REGISTRY.collect()
        for s in family.samples
        if s.name == metric and label in s.labels
    }
    assert seen == set(tuple_)


def test_observations_move_their_series() -> None:
    before = value("groundwire_review_decisions_total", decision="reject")
    review_metrics.observe_decision(ReviewDecision.REJECT, 120.0)
    assert value("groundwire_review_decisions_total", decision="reject") == before + 1
    count = value("groundwire_review_time_to_decision_seconds_count", decision="reject")
    assert count >= 1
    before = value("groundwire_review_overflow_total", limit="owner")
    review_metrics.observe_overflow(ReviewLimit.OWNER)
    assert value("groundwire_review_overflow_total", limit="owner") == before + 1
    before = value("groundwire_review_denied_total", denial="not_owner")
    review_metrics.observe_denied(ReviewDenial.NOT_OWNER)
    assert value("groundwire_review_denied_total", denial="not_owner") == before + 1
    review_metrics.observe_audited(ReviewAction.VIEW, 3)
    review_metrics.set_queue(7, None, 2)
    assert value("groundwire_review_queue_depth") == 7
    assert value("groundwire_review_oldest_item_age_seconds") == 0
    assert value("groundwire_review_outbox_entries") == 2


def test_a_value_outside_the_vocabulary_is_refused() -> None:
    with pytest.raises(ValueError):
        review_metrics.observe_denied("someone's-user-id")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        review_metrics.observe_overflow("tenant-acme")  # type: ignore[arg-type]
