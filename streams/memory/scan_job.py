"""The consistency scan: read the view tenant by tenant, plan, publish the commands.

`groundwire scan` runs it on demand (`--tenant T` for one tenant); the worker's schedule
(streams/memory/scheduler.py) and the Helm chart's CronJob run the same command. The scan
never writes memories: it publishes `MemoryCommand`s on `memories.commands`, which the
memory stage applies in order with the tenant's claims, and last a `scan_report` command
that the stage turns into metrics (so a scan in a short-lived process is still counted).

* **One at a time.** A Redis lease (`P:scan:lock`, renewed while it runs) keeps a
  scheduled and a manual scan from overlapping.
* **Resumable.** A full scan walks the tenants in name order and records the last tenant
  it finished (`P:scan:cursor`) after that tenant's commands are acknowledged by Kafka.
  A scan that stops (killed, or `max_clusters_per_scan` reached) is continued by the
  next one from there; a scan that reaches the end clears the cursor.
* **Idempotent.** Commands are planned against the versions read and only where
  something is left to do (guards/consistency/scan.py), and the stage skips stale ones:
  a second scan over the result of the first publishes nothing but its report.
* **Bounded.** Memory is one tenant's memories at a time; CPU per tenant is
  near-linear (guards/consistency/signals.py), run in a thread so the lease is renewed.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import secrets
import time
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from groundwire.guards.consistency.config import ConsistencyConfig
from groundwire.guards.consistency.judge import Judge, RuleJudge
from groundwire.guards.consistency.llm_judge import JUDGE_CALLER
from groundwire.guards.consistency.scan import TenantPlan, plan_tenant
from groundwire.guards.consistency.signals import (
    Cluster,
    SemanticIndex,
    SignalStats,
    TextEncoder,
    find_clusters,
)
from groundwire.guards.grounding.llm_client import CallTally
from groundwire.streams import kafka
from groundwire.streams.memory.view import MemoryView
from groundwire.streams.settings import Settings
from groundwire.topics.memory import LlmJudgeUsage, MemoryCommand, MemoryRecord, ScanReport
from groundwire.topics.vocab import ConsistencyAction, ConsistencySignal, ConsistencyVerdict

log = logging.getLogger(__name__)

LOCK_TTL_S = 60.0
TENANT_PAGE = 100
ALL_TENANTS = "*"


class ScanBusy(RuntimeError):
    """Another scan holds the lease."""


@dataclass(frozen=True, slots=True)
class ScanOptions:
    tenant: str | None = None  # one tenant only (no cursor is read or written)
    run_id: str | None = None
    budget: int | None = None  # clusters to judge; default max_clusters_per_scan


def build_judge(settings: Settings) -> Judge:
    cfg = settings.guards.consistency
    if cfg.judge == "llm":
        from groundwire.guards.consistency.llm_judge import LlmJudge

        return LlmJudge(cfg)
    return RuleJudge(cfg)


def build_encoder(settings: Settings) -> TextEncoder | None:
    """The sentence encoder for the semantic signal, or None for MinHash ("auto" without
    the optional model installed)."""
    backend = settings.guards.consistency.signals.semantic_backend
    if backend == "minhash":
        return None
    from groundwire.guards.grounding.embedding import EmbeddingUnavailable, SentenceEncoder

    try:
        return SentenceEncoder(settings.guards.grounding.embedding_model_path)
    except EmbeddingUnavailable:
        if backend == "embedding":
            raise
        log.info(
            "consistency scan: the embedding model is not installed; semantic signal by MinHash"
        )
        return None


def tenant_clusters(
    memories: list[MemoryRecord],
    cfg: ConsistencyConfig,
    semantic: SemanticIndex,
    stats: SignalStats,
) -> list[Cluster]:
    """`find_clusters` of one tenant with the cyclic garbage collector paused. The signals
    allocate a few containers per memory and make no reference cycles (reference counting
    frees all of it), but in a tenant of a few hundred thousand memories those
    allocations tip a full collection that walks every parsed record: a tenant of 200,000
    paid about 2 s for it, a quarter of its signals' time, and the cost per memory grew
    faster than n log n (bench/results/scan.md). The scan runs in a process of its own
    (`groundwire scan`), one tenant at a time; the collector resumes as it was."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return find_clusters(memories, cfg, semantic, stats)
    finally:
        if enabled:
            gc.enable()


class _Publisher:
    """Commands onto memories.commands, keyed by tenant; flushed per tenant."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.topic = settings.topics.name("memories.commands")
        self.errors = kafka.ClientErrors(settings.bootstrap_servers)
        self.producer = kafka.idempotent_producer(settings, self.errors)

    def send(self, commands: list[MemoryCommand]) -> None:
        for command in commands:
            kafka.produce(
                self.producer,
                self.topic,
                command.model_dump_json().encode(),
                command.tenant_id.encode(),
                errors=self.errors,
            )
        left = self.producer.flush(self.settings.kafka_call_timeout_s)
        self.errors.check()
        if left:
            raise kafka.KafkaClientFailure(f"{left} commands not acknowledged by Kafka")


class ScanJob:
    def __init__(
        self,
        settings: Settings,
        view: MemoryView,
        judge: Judge | None = None,
        encoder: TextEncoder | None = None,
        publisher: Any = None,
    ) -> None:
        self.settings = settings
        self.cfg = settings.guards.consistency
        self.view = view
        self.judge = judge or RuleJudge(self.cfg)
        self.semantic = SemanticIndex(self.cfg, encoder)
        self.publisher = publisher or _Publisher(settings)
        self.holder = f"{settings.worker_id}:{secrets.token_hex(4)}"
        self.issued: list[tuple[str, str]] = []  # (tenant, command id) of every command sent

    async def run(self, options: ScanOptions | None = None) -> ScanReport:
        options = options or ScanOptions()
        lock = self.view.scan_key("lock")
        ttl_ms = int(LOCK_TTL_S * 1000)
        if not await self.view.lease(self.view.client, [lock], [self.holder, ttl_ms]):
            raise ScanBusy("another consistency scan is running")
        renew = asyncio.create_task(self._renew(lock, ttl_ms))
        try:
            return await self._run(options)
        finally:
            renew.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await renew
            with contextlib.suppress(Exception):
                await self.view.release(self.view.client, [lock], [self.holder])

    async def _renew(self, lock: str, ttl_ms: int) -> None:
        while True:
            await asyncio.sleep(LOCK_TTL_S / 3)
            if not await self.view.lease(self.view.client, [lock], [self.holder, ttl_ms]):
                log.error("consistency scan: lost its lease")
                return

    async def _tenants(self, options: ScanOptions, start: str | None) -> Any:
        if options.tenant is not None:
            yield options.tenant
            return
        after = start
        while True:
            page = await self.view.tenants(after, TENANT_PAGE)
            for tenant in page:
                yield tenant
            if len(page) < TENANT_PAGE:
                return
            after = page[-1]

    async def _run(self, options: ScanOptions) -> ScanReport:
        started_at = datetime.now(UTC)
        started = time.perf_counter()
        run_id = (
            options.run_id
            or f"manual-{started_at.strftime('%Y%m%dT%H%M%SZ')}-{secrets.token_hex(3)}"
        )
        budget = options.budget if options.budget is not None else self.cfg.max_clusters_per_scan
        cursor_key = self.view.scan_key("cursor")
        resumed_from = None
        if options.tenant is None:
            raw = await self.view.client.get(cursor_key)
            resumed_from = raw.decode("utf-8", "surrogatepass") if raw else None
        totals = _Totals()
        complete = True
        next_tenant: str | None = None
        with CallTally(JUDGE_CALLER) as judge_calls:
            async for tenant in self._tenants(options, resumed_from):
                if budget <= 0:
                    complete, next_tenant, totals.capped = False, tenant, True
                    break
                plan = await self._tenant(tenant, run_id, budget)
                budget -= plan.clusters_new
                totals.add(plan)
                if plan.capped:
                    complete, next_tenant, totals.capped = False, tenant, True
                    break
                if options.tenant is None:
                    cursor = tenant.encode("utf-8", "surrogatepass")
                    await self.view.client.set(cursor_key, cursor)
        if options.tenant is None and complete:
            await self.view.client.delete(cursor_key)
        finished_at = datetime.now(UTC)
        report = ScanReport(
            run_id=run_id,
            started_at=started_at,
            finished_at=finished_at,
            duration_s=round(time.perf_counter() - started, 3),
            complete=complete,
            resumed_from=resumed_from,
            next_tenant=next_tenant,
            tenants_scanned=totals.tenants,
            memories_scanned=totals.memories,
            clusters_found=totals.clusters_new,
            clusters_known=totals.clusters_known,
            clusters_by_signal=dict(totals.by_signal),
            verdicts=dict(totals.verdicts),
            actions=dict(totals.actions),
            capped=totals.capped,
            semantic_backend=self.semantic.backend,
            judge=self.judge.name,
            llm=_judge_usage(judge_calls),
        )
        command = MemoryCommand(
            command_id=f"{run_id}:report",
            kind="scan_report",
            tenant_id=options.tenant or ALL_TENANTS,
            issued_at=finished_at,
            issued_by=f"scan:{run_id}",
            report=report,
        )
        await asyncio.to_thread(self.publisher.send, [command])
        self.issued.append((command.tenant_id, command.command_id))
        return report

    async def _tenant(self, tenant: str, run_id: str, budget: int) -> TenantPlan:
        memories: list[MemoryRecord] = []
        async for page in self.view.active_pages(tenant):
            memories.extend(await asyncio.to_thread(_parse, page))
        stats = SignalStats()
        clusters = await asyncio.to_thread(
            tenant_clusters, memories, self.cfg, self.semantic, stats
        )
        memo = await self.view.memo(tenant)
        plan = await plan_tenant(
            tenant,
            memories,
            self.cfg,
            self.semantic,
            self.judge,
            memo,
            budget,
            run_id,
            datetime.now(UTC),
            clusters=clusters,
        )
        if plan.commands:
            await asyncio.to_thread(self.publisher.send, plan.commands)
            self.issued.extend((c.tenant_id, c.command_id) for c in plan.commands)
        await self.view.save_memo(tenant, memo, {**memo, **plan.memo} if plan.capped else plan.memo)
        return plan

    async def aclose(self) -> None:
        await self.judge.aclose()


def _judge_usage(tally: CallTally) -> LlmJudgeUsage | None:
    if not tally.calls:
        return None
    return LlmJudgeUsage(
        calls=dict(tally.calls),
        prompt_tokens=tally.prompt_tokens,
        completion_tokens=tally.completion_tokens,
        call_seconds=list(tally.seconds),
    )


def _parse(page: list[bytes]) -> list[MemoryRecord]:
    return [MemoryRecord.model_validate_json(raw) for raw in page]


class _Totals:
    def __init__(self) -> None:
        self.tenants = 0
        self.memories = 0
        self.clusters_new = 0
        self.clusters_known = 0
        self.by_signal: Counter[ConsistencySignal] = Counter()
        self.verdicts: Counter[ConsistencyVerdict] = Counter()
        self.actions: Counter[ConsistencyAction] = Counter()
        self.capped = False

    def add(self, plan: TenantPlan) -> None:
        self.tenants += 1
        self.memories += plan.memories
        self.clusters_new += plan.clusters_new
        self.clusters_known += plan.clusters_known
        self.by_signal.update(plan.by_signal)
        self.verdicts.update(plan.verdicts)
        self.actions.update(plan.actions)
