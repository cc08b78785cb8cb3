"""The nightly consistency scan inside `groundwire worker` (guards.consistency.schedule).

The process that runs the memory stage waits for each firing time of the cron schedule
(UTC), claims that slot in Redis (SET NX on `P:scan:slot:<time>`, so of several worker
replicas exactly one runs it), and starts `groundwire scan --run-id sched-<time>` as a
child process: the scan's CPU never competes with the stage's event loop, and its
report reaches the metrics through `memories.commands` like any other scan's. A missed
slot (no worker running at 03:00) is not made up: the next slot resumes where the last
scan stopped. Deployments that run the scan as a Kubernetes CronJob turn this off
(`guards.consistency.run_in_worker: false`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
from datetime import UTC, datetime

from groundwire.guards.consistency.cron import CronSchedule
from groundwire.streams.memory.view import MemoryView
from groundwire.streams.settings import Settings

log = logging.getLogger(__name__)

SLOT_TTL_S = 2 * 86_400
CHILD_GRACE_S = 30.0


def run_id_for(slot: datetime) -> str:
    return f"sched-{slot.strftime('%Y%m%dT%H%MZ')}"


class ScanScheduler:
    def __init__(self, settings: Settings, view: MemoryView, stop: asyncio.Event) -> None:
        self.settings = settings
        self.view = view
        self.stop = stop
        self.schedule = CronSchedule.parse(settings.guards.consistency.schedule)
        self.runs = 0

    async def run(self) -> None:
        while not self.stop.is_set():
            slot = self.schedule.next(datetime.now(UTC))
            delay = (slot - datetime.now(UTC)).total_seconds()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stop.wait(), max(0.0, delay))
            if self.stop.is_set():
                return
            try:
                await self.fire(slot)
            except Exception:  # Redis down, a failed child: log, wait for the next slot
                log.exception("consistency scan scheduled for %s failed", slot.isoformat())

    async def fire(self, slot: datetime) -> int | None:
        """Run the scan of `slot` unless another replica claimed it; its exit code."""
        run_id = run_id_for(slot)
        key = self.view.scan_key(f"slot:{run_id}")
        claimed = await self.view.client.set(key, self.settings.worker_id, nx=True, ex=SLOT_TTL_S)
        if not claimed:
            log.info("consistency scan %s runs elsewhere", run_id)
            return None
        log.info("consistency scan %s starting", run_id)
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "groundwire.streams.cli", "scan", "--run-id", run_id, "--quiet"
        )
        waiter = asyncio.create_task(proc.wait())
        stopper = asyncio.create_task(self.stop.wait())
        await asyncio.wait({waiter, stopper}, return_when=asyncio.FIRST_COMPLETED)
        stopper.cancel()
        if not waiter.done():
            proc.terminate()
            try:
                await asyncio.wait_for(waiter, CHILD_GRACE_S)
            except TimeoutError:
                proc.kill()
                await waiter
        self.runs += 1
        code = proc.returncode
        log.info("consistency scan %s ended with exit code %s", run_id, code)
        return code
