"""Planning the consistency scan of one tenant: clusters -> verdicts -> commands.

Pure apart from the judge call: given a tenant's memories (as the view holds them), the
verdicts judged before (`memo`: cluster fingerprint -> verdict) and how many clusters
this scan may still judge, it returns the `MemoryCommand`s to publish and what it found.
The memory stage applies the commands; the scan never writes a memory itself.

Idempotent by construction: a merge or a supersession removes its cluster from the
current memories, and a flag is planned only for members that do not yet link every
other member, so planning again over the view the first plan produced finds nothing to
do. A cluster seen before is not judged again (its verdict comes from the memo), so a
second scan also costs no judge calls. A command is planned against the versions it
read; if a memory changed before the command is applied, the stage skips it as stale and
the next scan plans again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from groundwire.guards.consistency.config import ConsistencyConfig
from groundwire.guards.consistency.judge import Judge, Judgement
from groundwire.guards.consistency.memory import canonical_of, flag
from groundwire.guards.consistency.signals import (
    Cluster,
    SemanticIndex,
    SignalStats,
    eligible,
    find_clusters,
)
from groundwire.topics.memory import MemberRef, MemoryCommand, MemoryRecord
from groundwire.topics.vocab import ConsistencyAction, ConsistencySignal, ConsistencyVerdict

__all__ = ["TenantPlan", "plan_tenant"]


@dataclass
class TenantPlan:
    tenant_id: str
    commands: list[MemoryCommand] = field(default_factory=list)
    memories: int = 0
    clusters_new: int = 0
    clusters_known: int = 0
    by_signal: Counter[ConsistencySignal] = field(default_factory=Counter)
    verdicts: Counter[ConsistencyVerdict] = field(default_factory=Counter)
    actions: Counter[ConsistencyAction] = field(default_factory=Counter)
    memo: dict[str, str] = field(default_factory=dict)  # what to keep for the next scan
    capped: bool = False  # the judge budget ran out before every cluster was judged
    judged: list[tuple[Cluster, Judgement]] = field(default_factory=list)


def _refs(members: Sequence[MemoryRecord]) -> list[MemberRef]:
    return [MemberRef(memory_id=m.memory_id, version=m.version) for m in members]


def _command(
    cluster: Cluster,
    fingerprint: str,
    judgement: Judgement,
    cfg: ConsistencyConfig,
    run_id: str,
    now: datetime,
) -> tuple[MemoryCommand, ConsistencyAction] | None:
    members = cluster.members
    verdict = judgement.verdict
    base = {
        "tenant_id": members[0].tenant_id,
        "members": _refs(members),
        "verdict": verdict,
        "signals": sorted(cluster.signals),
        "reason": judgement.reason[:1_000],
        "issued_at": now,
        "issued_by": f"scan:{run_id}",
    }
    fp = fingerprint
    if verdict is ConsistencyVerdict.EQUIVALENT and cfg.auto_actions.merge_equivalent:
        command = MemoryCommand(
            command_id=f"{run_id}:{fp}:merge",
            kind="merge",
            canonical=canonical_of(members).memory_id,
            **base,  # type: ignore[arg-type]
        )
        return command, ConsistencyAction.MERGE
    if verdict is ConsistencyVerdict.TEMPORAL_EVOLUTION and cfg.auto_actions.supersede_temporal:
        latest = max(members, key=lambda m: (m.valid_from, m.memory_id))
        command = MemoryCommand(
            command_id=f"{run_id}:{fp}:supersede",
            kind="supersede",
            canonical=latest.memory_id,
            **base,  # type: ignore[arg-type]
        )
        return command, ConsistencyAction.SUPERSEDE
    if (
        verdict is ConsistencyVerdict.CONTRADICTION
        and cfg.auto_actions.flag_contradiction
        and flag(members, now, "")
    ):
        command = MemoryCommand(
            command_id=f"{run_id}:{fp}:flag",
            kind="flag",
            **base,  # type: ignore[arg-type]
        )
        return command, ConsistencyAction.FLAG
    return None


async def plan_tenant(
    tenant_id: str,
    memories: Sequence[MemoryRecord],
    cfg: ConsistencyConfig,
    semantic: SemanticIndex,
    judge: Judge,
    memo: Mapping[str, str],
    budget: int,
    run_id: str,
    now: datetime,
    stats: SignalStats | None = None,
    clusters: Sequence[Cluster] | None = None,
) -> TenantPlan:
    """Find, judge (at most `budget` new clusters) and plan one tenant. `clusters`, when
    given, are `find_clusters` of `memories` computed by the caller (in a thread)."""
    plan = TenantPlan(tenant_id=tenant_id)
    stats = stats if stats is not None else SignalStats()
    before = stats.memories
    if clusters is None:
        clusters = find_clusters(memories, cfg, semantic, stats)
        plan.memories = stats.memories - before
    else:
        plan.memories = len(eligible(memories, cfg))
    busy: set[str] = set()  # memories a command of this plan already acts on
    known: list[tuple[Cluster, Judgement]] = []
    fresh: list[Cluster] = []
    prints = {id(c): c.fingerprint for c in clusters}
    for cluster in clusters:
        previous = memo.get(prints[id(cluster)])
        if previous is not None:
            known.append((cluster, Judgement(ConsistencyVerdict(previous), "judged before")))
        elif len(fresh) < budget:
            fresh.append(cluster)
        else:
            plan.capped = True
    judgements = await judge.judge_batch(fresh) if fresh else []
    plan.clusters_new = len(fresh)
    plan.clusters_known = len(known)
    judged = [*zip(fresh, judgements, strict=True), *known]
    judged.sort(key=lambda cj: cj[0].ids)
    new = {id(c) for c in fresh}
    for cluster, judgement in judged:
        if judgement.verdict is not ConsistencyVerdict.UNKNOWN:
            plan.memo[prints[id(cluster)]] = judgement.verdict.value
        if id(cluster) in new:
            plan.verdicts[judgement.verdict] += 1
            plan.by_signal.update(cluster.signals)
            plan.judged.append((cluster, judgement))
        if busy.intersection(cluster.ids):
            continue  # acted on by another cluster's command: planned again next scan
        planned = _command(cluster, prints[id(cluster)], judgement, cfg, run_id, now)
        if planned is not None:
            command, action = planned
            plan.commands.append(command)
            plan.actions[action] += 1
            busy.update(cluster.ids)
    return plan
