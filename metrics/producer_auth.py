"""Producer authentication (docs/spec.md §Producer authentication): every claim the
screen stage decodes, by what its signature showed and what that did to it.

`outcome` and `action` are the enum values the authenticator reported
(`ProducerAuthOutcome`, `ProducerAuthAction`): 5 x 3 series at most. A rising
`action="downgraded"` or `"refused"` count means a producer claims a trusted source it
is not keyed for (a missing or expired key, an unregistered producer, or tampering);
`outcome="unsigned", action="kept"` on trusted sources is what runs unauthenticated while
no key is configured.
"""

from __future__ import annotations

import functools
from collections import Counter as Tally
from collections.abc import Iterable

from prometheus_client import Counter

from groundwire.metrics import labels
from groundwire.metrics.registry import REGISTRY
from groundwire.topics.vocab import ProducerAuthAction, ProducerAuthOutcome

PRODUCER_AUTH = Counter(
    "groundwire_producer_auth_total",
    "Claims by the result of their producer signature check (outcome) and what it did to"
    " them (action: kept, downgraded to ai_synthesis, refused to the dlq).",
    ("outcome", "action"),
    registry=REGISTRY,
)


def observe_producer_auth(outcome: ProducerAuthOutcome, action: ProducerAuthAction) -> None:
    _series(outcome, action).inc()


def observe_producer_auth_batch(
    seen: Iterable[tuple[ProducerAuthOutcome, ProducerAuthAction]],
) -> None:
    """`observe_producer_auth` for each (outcome, action) of a batch, one increment per
    series (a batch's claims mostly share one)."""
    for (outcome, action), n in Tally(seen).items():
        _series(outcome, action).inc(n)


@functools.cache
def _series(outcome: ProducerAuthOutcome, action: ProducerAuthAction) -> Counter:
    """One (outcome, action) series, looked up once: this runs for every decoded claim,
    and `labels()` validates and locks on every call; at most 5 x 3 series."""
    return PRODUCER_AUTH.labels(outcome=outcome.value, action=action.value)


for _outcome in labels.PRODUCER_AUTH_OUTCOMES:
    for _action in labels.PRODUCER_AUTH_ACTIONS:
        PRODUCER_AUTH.labels(outcome=_outcome, action=_action)
