"""Guard 2, store-time consistency: the memory view's changes and the consistency scan.

The memory stage counts what it applies (`observe_memory_change`, `observe_command`)
and turns each scan's report (a record on `memories.commands`, written by whoever ran
the scan: the worker's schedule, a CronJob, `groundwire scan`) into the scan series, so
a scan that ran in a short-lived process is still counted by a scraped worker.

* clusters found and memories scanned are counters: clusters per 10k memories is
  their ratio over a window (docs/spec.md §Store-time consistency: 1-5 healthy);
* a scan's actions are counted all at once, when its report arrives, so "more than 10
  contradiction flags in one scan" (the specification's alert) is the flag count's
  increase over an hour (scans run nightly);
* scan duration is a histogram in seconds (aggregates across workers; the alert
  compares the last day's mean with the week before).
"""

from __future__ import annotations

import time

from prometheus_client import Counter, Gauge, Histogram

from groundwire.metrics import labels, llm
from groundwire.metrics.registry import REGISTRY
from groundwire.topics.memory import ScanReport
from groundwire.topics.vocab import (
    ConsistencyAction,
    ConsistencySignal,
    ConsistencyVerdict,
    MemoryChange,
)

SCAN_BUCKETS: tuple[float, ...] = (
    1.0,
    5.0,
    15.0,
    30.0,
    60.0,
    120.0,
    300.0,
    600.0,
    1_200.0,
    1_800.0,
    3_600.0,
    7_200.0,
)

MEMORY_CHANGES = Counter(
    "groundwire_memory_changes_total",
    "New memory versions the memory stage wrote to the memories topic, by what changed.",
    ("change",),
    registry=REGISTRY,
)
WRITE_SUPERSESSIONS = Counter(
    "groundwire_consistency_write_supersessions_total",
    "Memories superseded at write time by a newer value of a stateful predicate.",
    registry=REGISTRY,
)
COMMANDS = Counter(
    "groundwire_memory_commands_total",
    "Commands on memories.commands the memory stage read, by result (applied, stale: "
    "planned against versions that changed since, noop: nothing left to do).",
    ("result",),
    registry=REGISTRY,
)
SCANS = Counter(
    "groundwire_consistency_scans_total",
    "Consistency scan runs reported, by outcome (complete, partial: capped or stopped; "
    "the next run resumes).",
    ("outcome",),
    registry=REGISTRY,
)
CLUSTERS = Counter(
    "groundwire_consistency_clusters_found_total",
    "Suspect clusters the consistency scan judged for the first time.",
    registry=REGISTRY,
)
CLUSTER_SIGNALS = Counter(
    "groundwire_consistency_cluster_signals_total",
    "Signals of the clusters found (a cluster may carry structural and temporal).",
    ("signal",),
    registry=REGISTRY,
)
VERDICTS = Counter(
    "groundwire_consistency_verdicts_total",
    "The judge's verdicts on new clusters.",
    ("verdict",),
    registry=REGISTRY,
)
ACTIONS = Counter(
    "groundwire_consistency_actions_total",
    "Actions the consistency scan took: merge (equivalent), supersede (temporal "
    "evolution), flag (contradiction, sent to review).",
    ("action",),
    registry=REGISTRY,
)
MEMORIES_SCANNED = Counter(
    "groundwire_consistency_memories_scanned_total",
    "Current memories the consistency scan read.",
    registry=REGISTRY,
)
SCAN_DURATION = Histogram(
    "groundwire_consistency_scan_duration_seconds",
    "End-to-end duration of one consistency scan run.",
    buckets=SCAN_BUCKETS,
    registry=REGISTRY,
)
LAST_SCAN = Gauge(
    "groundwire_consistency_last_scan_timestamp_seconds",
    "Unix time the last reported consistency scan finished.",
    registry=REGISTRY,
    multiprocess_mode="max",
)


def observe_memory_change(change: MemoryChange, n: int = 1) -> None:
    MEMORY_CHANGES.labels(change=MemoryChange(change).value).inc(n)


def observe_write_supersessions(n: int) -> None:
    if n:
        WRITE_SUPERSESSIONS.inc(n)


def observe_command(result: str) -> None:
    COMMANDS.labels(result=labels.one_of(result, labels.COMMAND_RESULTS)).inc()


def observe_scan(report: ScanReport) -> None:
    """One scan run's report (the memory stage reads it from memories.commands)."""
    SCANS.labels(outcome="complete" if report.complete else "partial").inc()
    CLUSTERS.inc(report.clusters_found)
    MEMORIES_SCANNED.inc(report.memories_scanned)
    for signal, n in report.clusters_by_signal.items():
        CLUSTER_SIGNALS.labels(signal=ConsistencySignal(signal).value).inc(n)
    for verdict, n in report.verdicts.items():
        VERDICTS.labels(verdict=ConsistencyVerdict(verdict).value).inc(n)
    for action, n in report.actions.items():
        ACTIONS.labels(action=ConsistencyAction(action).value).inc(n)
    SCAN_DURATION.observe(report.duration_s)
    if report.llm is not None:  # the LLM judge's calls, made in the scan's own process
        usage = report.llm
        for outcome, n in usage.calls.items():
            llm.count_llm_calls("judge", outcome, n)
        llm.count_llm_tokens("judge", usage.prompt_tokens, usage.completion_tokens)
        for seconds in usage.call_seconds:
            llm.LLM_CALL_SECONDS.labels(caller="judge").observe(seconds)
    LAST_SCAN.set(max(report.finished_at.timestamp(), 0.0) if report.finished_at else time.time())


for _change in labels.MEMORY_CHANGES:
    MEMORY_CHANGES.labels(change=_change)
for _result in labels.COMMAND_RESULTS:
    COMMANDS.labels(result=_result)
for _outcome in ("complete", "partial"):
    SCANS.labels(outcome=_outcome)
for _signal in labels.CONSISTENCY_SIGNALS:
    CLUSTER_SIGNALS.labels(signal=_signal)
for _verdict in labels.CONSISTENCY_VERDICTS:
    VERDICTS.labels(verdict=_verdict)
for _action in labels.CONSISTENCY_ACTIONS:
    ACTIONS.labels(action=_action)
