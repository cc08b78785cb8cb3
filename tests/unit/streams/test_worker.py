"""GC tuning of a stage process: applied from settings, and switchable off."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from groundwire.streams.settings import Settings
from groundwire.streams.worker import tune_gc


@pytest.fixture
def restore_gc() -> Iterator[None]:
    before = gc.get_threshold()
    yield
    gc.set_threshold(*before)
    gc.unfreeze()


@pytest.mark.usefixtures("restore_gc")
def test_settings_raise_gen0_and_freeze_startup_objects() -> None:
    gc.unfreeze()
    tune_gc(Settings(gc_gen0_threshold=12_345, gc_freeze=True))
    assert gc.get_threshold()[0] == 12_345
    assert gc.get_freeze_count() > 0


@pytest.mark.usefixtures("restore_gc")
def test_zero_keeps_the_interpreter_defaults() -> None:
    gc.unfreeze()
    before = gc.get_threshold()
    tune_gc(Settings(gc_gen0_threshold=0, gc_freeze=False))
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_negative_threshold_is_refused() -> None:
    with pytest.raises(ValueError, match="gc_gen0_threshold"):
        Settings(gc_gen0_threshold=-1)
