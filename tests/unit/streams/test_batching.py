"""How a stage takes a batch: a stage that keeps up lingers for more as before (its
batches, and a claim's CPU, stay as they were), while a stage whose previous batch
closed more than BEHIND_AFTER_LINGERS lingers ago (behind its input, or idle until a
claim came) takes what it has at once.

A scripted source stands in for the consumer: it records the timeouts it is asked to
wait and hands over what the script says, so no test depends on how fast anything runs.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from groundwire.streams import batching
from groundwire.streams import runner as runner_module
from groundwire.streams.batching import BEHIND_AFTER_LINGERS, BatchClock, linger_for, take_batch
from groundwire.streams.runner import StageRunner
from groundwire.streams.settings import Settings


class ScriptedSource:
    """A consumer whose `consume` returns the next scripted list and logs its calls."""

    def __init__(self, *replies: list[str]) -> None:
        self.replies: Iterator[list[str]] = iter(replies)
        self.calls: list[tuple[int, float]] = []

    def consume(self, num_messages: int = 1, timeout: float = -1) -> list[str]:
        self.calls.append((num_messages, timeout))
        return list(next(self.replies, []))


class FrozenClock:
    """time.monotonic() for batching, set by the test."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FrozenClock:
    frozen = FrozenClock(100.0)
    monkeypatch.setattr(batching.time, "monotonic", frozen)
    return frozen


# -- linger_for ----------------------------------------------------------------------


def test_no_batch_before_waits_the_whole_linger() -> None:
    assert linger_for(0.01, None, 5.0) == 0.01


def test_a_stage_that_keeps_up_waits_the_whole_linger() -> None:
    # the previous batch closed 30 ms ago (processed and committed in that time): the
    # linger can still add a third to the batch, so it is waited as before
    assert linger_for(0.01, 100.0, 100.030) == 0.01


def test_a_stage_behind_its_input_does_not_wait() -> None:
    # the previous batch closed 60 ms ago (a slow batch): 10 ms more would add a sixth
    assert linger_for(0.01, 100.0, 100.060) == 0.0


def test_the_bound_is_four_lingers() -> None:
    assert BEHIND_AFTER_LINGERS == 4.0
    assert linger_for(0.01, 100.0, 100.039) == 0.01  # within it: still lingers
    assert linger_for(0.01, 100.0, 100.041) == 0.0


def test_no_linger_configured_means_no_wait() -> None:
    assert linger_for(0.0, 100.0, 100.0) == 0.0
    assert linger_for(0.0, None, 100.0) == 0.0


# -- take_batch ------------------------------------------------------------------------


def test_behind_takes_what_has_arrived_without_lingering(clock: FrozenClock) -> None:
    source = ScriptedSource(["a", "b", "c"])
    batch = take_batch(source, 500, 0.25, 0.01, previous_closed=clock.now - 0.060)
    assert batch == ["a", "b", "c"]
    assert source.calls == [(500, 0)]  # one look, no wait


def test_keeping_up_lingers_as_before(clock: FrozenClock) -> None:
    # the control: a stage at a moderate rate gathers its batch over the whole linger
    source = ScriptedSource(["a"], ["b", "c"])
    batch = take_batch(source, 500, 0.25, 0.01, previous_closed=clock.now - 0.025)
    assert batch == ["a", "b", "c"]
    assert source.calls == [(500, 0), (499, 0.01)]


def test_a_lone_claim_after_idling_is_taken_at_once(clock: FrozenClock) -> None:
    # nothing there, the idle wait brings one record, nothing came with it; the last
    # batch closed a second ago, so the linger is long spent
    source = ScriptedSource([], ["a"], [])
    batch = take_batch(source, 500, 0.25, 0.01, previous_closed=clock.now - 1.0)
    assert batch == ["a"]
    assert source.calls == [(500, 0), (1, 0.25), (499, 0)]


def test_without_a_previous_batch_the_whole_linger_is_waited(clock: FrozenClock) -> None:
    # the control: the first batch of a stage (and callers that pass no close time)
    # wait the whole linger, as before
    source = ScriptedSource(["a"], ["b"])
    assert take_batch(source, 500, 0.25, 0.01) == ["a", "b"]
    assert source.calls == [(500, 0), (499, 0.01)]


def test_a_full_batch_never_lingers(clock: FrozenClock) -> None:
    source = ScriptedSource(["x"] * 4)
    assert len(take_batch(source, 4, 0.25, 0.01, previous_closed=None)) == 4
    assert source.calls == [(4, 0)]


def test_the_clock_records_the_linger_and_the_close(
    clock: FrozenClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = ScriptedSource(["a"], ["b"])
    stamps = BatchClock()
    monkeypatch.setattr(batching.time, "time", FrozenClock(1_700_000_000.0))
    take_batch(source, 500, 0.25, 0.01, stamps, previous_closed=clock.now - 0.06)
    assert stamps.lingered_s == 0.0  # overdue: no wait
    assert stamps.closed_at == 1_700_000_000.0  # the wall-clock stamp of the hand-over


# -- the runner hands take_batch the close time of its previous batch ----------------


class _Record:
    def error(self) -> None:
        return None


class _NoStage:
    name = "screen"
    source_topic = "in"


def _takes(monkeypatch: pytest.MonkeyPatch) -> list[float | None]:
    """The `previous_closed` the runner passes on three takes: a batch, an empty
    (idle) take, another batch."""
    seen: list[float | None] = []
    replies = iter([[_Record()], [], [_Record()]])

    def fake_take(*args: object) -> list[object]:
        previous = args[5]
        assert previous is None or isinstance(previous, float)
        seen.append(previous)
        return next(replies)

    monkeypatch.setattr(runner_module, "take_batch", fake_take)
    runner = StageRunner(
        Settings(metrics_port=0),
        _NoStage(),  # type: ignore[arg-type]
        asyncio.Event(),
    )
    runner._consumer = object()  # type: ignore[assignment]
    runner._producer = object()  # type: ignore[assignment]
    for _ in range(3):
        asyncio.run(runner._consume())
    return seen


def test_the_runner_passes_when_its_previous_batch_closed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    first, after_batch, after_idle = _takes(monkeypatch)
    assert first is None  # no batch yet: the whole linger
    assert after_batch is not None
    # an idle take (nothing arrived) does not move the mark, so a claim that arrives
    # after a pause is seen as such and not held
    assert after_idle == after_batch
