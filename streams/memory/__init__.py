"""The memory view and store-time consistency's runtime (docs/spec.md §Store-time
consistency): the memory stage (`stage.py`), the Redis view (`view.py`), the scan
(`scan_job.py`) and its schedule in the worker (`scheduler.py`)."""

from __future__ import annotations

import asyncio

from groundwire.guards.factory import GuardServices, build_dedup
from groundwire.streams.memory.scheduler import ScanScheduler
from groundwire.streams.memory.stage import MemoryStage
from groundwire.streams.memory.view import MemoryView, build_memory_view
from groundwire.streams.settings import Settings

__all__ = ["MemoryStage", "MemoryView", "ScanScheduler", "build_memory_stage", "view_of"]


def view_of(settings: Settings) -> MemoryView:
    """The memory view of these settings' Redis and topic prefix."""
    return build_memory_view(
        settings.redis_url.get_secret_value(),
        settings.guards.consistency,
        settings.topic_prefix,
        cluster=settings.redis_cluster,
    )


def build_memory_stage(
    settings: Settings, services: GuardServices, stop: asyncio.Event
) -> tuple[MemoryStage, ScanScheduler | None]:
    """The memory stage (owning its view and dedup index) and, when the schedule runs in
    the worker, its scheduler."""
    view = view_of(settings)
    stage = MemoryStage(settings, view, build_dedup(settings.guards, services))
    cfg = settings.guards.consistency
    scheduler = ScanScheduler(settings, view, stop) if cfg.enabled and cfg.run_in_worker else None
    return stage, scheduler
