"""A circuit breaker for calls to a remote verifier endpoint.

When an endpoint fails repeatedly, more calls only pile up on it (and hold claims until
their timeouts): the breaker opens after a run of consecutive failures and fails calls
fast for a cool-down, then lets exactly one probe through to see whether the endpoint
is back. The clock is injectable so tests move time by hand instead of sleeping.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Literal

__all__ = ["CircuitBreaker"]


class CircuitBreaker:
    """Closed -> open after `failures` consecutive failures; half-open after `cooldown_s`.

    Half-open lets exactly one probe through: success closes the breaker, failure opens it
    for another cool-down. While open, calls fail fast instead of piling up on a dead
    endpoint (and the claims go to review as UNKNOWN).
    """

    def __init__(
        self, failures: int, cooldown_s: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.failures = failures
        self.cooldown_s = cooldown_s
        self._clock = clock
        self._consecutive = 0
        self._opened_at: float | None = None
        self._probe_in_flight = False

    @property
    def state(self) -> Literal["closed", "open", "half_open"]:
        if self._opened_at is None:
            return "closed"
        if self._clock() - self._opened_at >= self.cooldown_s:
            return "half_open"
        return "open"

    @property
    def probing(self) -> bool:
        """Half-open with its one probe call in flight."""
        return self._probe_in_flight and self.state == "half_open"

    def allow(self) -> bool:
        state = self.state
        if state == "closed":
            return True
        if state == "half_open" and not self._probe_in_flight:
            self._probe_in_flight = True
            return True
        return False

    def record_success(self) -> None:
        self._consecutive = 0
        self._opened_at = None
        self._probe_in_flight = False

    def record_failure(self) -> None:
        self._consecutive += 1
        if self._probe_in_flight or self._consecutive >= self.failures:
            self._opened_at = self._clock()
        self._probe_in_flight = False
