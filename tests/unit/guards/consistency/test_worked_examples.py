"""The worked examples of docs/spec.md §Store-time consistency, exactly.

* temporal evolution: ent_georgian works_at Datakynd (2025-06-10), then Arrive
  (2026-04-05): Arrive supersedes Datakynd at write time, valid_to = Arrive's valid_from;
  the scan then has nothing left to do;
* unresolvable contradiction: ent_inbox3 uses_database Supabase (2026-04-01), then Neon
  (2026-04-02): nothing supersedes at write time; the scan judges a contradiction and
  flags both, each linking the other;
* merge: three memories that Georgian lives in Bangalore become one: the highest
  confidence is canonical, evidence spans are unioned, access counts summed, the others
  superseded_by the canonical.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta

from groundwire.guards.consistency.apply import apply_command
from groundwire.guards.consistency.config import ConsistencyConfig
from groundwire.guards.consistency.judge import RuleJudge, rule_verdict
from groundwire.guards.consistency.memory import merge, supersede_on_write
from groundwire.guards.consistency.scan import plan_tenant
from groundwire.guards.consistency.signals import SemanticIndex, find_clusters
from groundwire.topics.memory import MemoryRecord
from groundwire.topics.records import EvidenceSpan
from groundwire.topics.vocab import ConsistencySignal, ConsistencyVerdict, MemoryChange
from tests.support.memories import NOW, day, memory

CFG = ConsistencyConfig()


def _plan(memories: list[MemoryRecord], memo: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    return asyncio.run(
        plan_tenant(
            "acme", memories, CFG, SemanticIndex(CFG), RuleJudge(CFG), memo or {}, 200, "run1", NOW
        )
    )


def _apply_all(view: dict[str, MemoryRecord], plan) -> dict[str, MemoryRecord]:  # type: ignore[no-untyped-def]
    for command in plan.commands:
        applied = apply_command(command, view, NOW)
        assert not applied.stale, applied.detail
        for m in applied.changed:
            view[m.memory_id] = m
    return view


def test_datakynd_then_arrive_supersedes_at_write_time() -> None:
    a = memory(
        "c-a",
        "Georgian works at Datakynd",
        subject="ent_georgian",
        predicate="works_at",
        obj="Datakynd",
        created="2025-06-10",
    )
    b = memory(
        "c-b",
        "Georgian works at Arrive",
        subject="ent_georgian",
        predicate="works_at",
        obj="Arrive",
        created="2026-04-05",
    )
    new, changed = supersede_on_write(b, [a], CFG, NOW, "claim:b")
    assert new == b and new.active
    (old,) = changed
    assert old.memory_id == a.memory_id
    assert old.superseded_by == b.memory_id
    assert old.valid_to == b.valid_from == day("2026-04-05")
    assert old.version == 2 and old.change is MemoryChange.SUPERSEDED
    # both remain in the store; the scan finds nothing current to act on
    plan = _plan([old, new])
    assert plan.commands == [] and plan.clusters_new == 0


def test_the_same_two_claims_judged_by_the_scan_are_a_temporal_evolution() -> None:
    """Had they both been stored (say, approved before write-time supersession existed),
    the scan finds the temporal evolution and supersedes exactly as at write time."""
    a = memory("c-a", "Georgian works at Datakynd", created="2025-06-10")
    b = memory("c-b", "Georgian works at Arrive", created="2026-04-05")
    assert (a.subject, a.predicate, a.object) == ("Georgian", "works_at", "Datakynd")
    (cluster,) = find_clusters([a, b], CFG, SemanticIndex(CFG))
    assert cluster.signals == {ConsistencySignal.STRUCTURAL, ConsistencySignal.TEMPORAL}
    assert rule_verdict(cluster, CFG).verdict is ConsistencyVerdict.TEMPORAL_EVOLUTION
    plan = _plan([a, b])
    (command,) = plan.commands
    assert command.kind == "supersede" and command.canonical == b.memory_id
    view = _apply_all({a.memory_id: a, b.memory_id: b}, plan)
    assert view[a.memory_id].superseded_by == b.memory_id
    assert view[a.memory_id].valid_to == b.valid_from
    assert view[b.memory_id].active


def test_supabase_then_neon_a_day_later_is_a_contradiction_flagging_both() -> None:
    a = memory(
        "c-s",
        "Inbox3 uses Supabase",
        subject="ent_inbox3",
        predicate="uses_database",
        obj="Supabase",
        created="2026-04-01",
    )
    b = memory(
        "c-n",
        "Inbox3 uses Neon",
        subject="ent_inbox3",
        predicate="uses_database",
        obj="Neon",
        created="2026-04-02",
    )
    new, changed = supersede_on_write(b, [a], CFG, NOW, "claim:n")
    assert changed == [] and new.active  # one day is within the drift: no supersession
    (cluster,) = find_clusters([a, new], CFG, SemanticIndex(CFG))
    assert cluster.signals == {ConsistencySignal.STRUCTURAL}
    judgement = rule_verdict(cluster, CFG)
    assert judgement.verdict is ConsistencyVerdict.CONTRADICTION
    assert "1 days apart" in judgement.reason
    plan = _plan([a, new])
    (command,) = plan.commands
    assert command.kind == "flag"
    view = _apply_all({a.memory_id: a, new.memory_id: new}, plan)
    assert view[a.memory_id].flagged and view[a.memory_id].contradicts_with == [new.memory_id]
    assert view[new.memory_id].flagged and view[new.memory_id].contradicts_with == [a.memory_id]
    # neither auto-action fired: both are current
    assert view[a.memory_id].active and view[new.memory_id].active
    # a second scan finds the same cluster, judged before, with nothing left to do
    again = _plan(list(view.values()), plan.memo)
    assert again.commands == [] and again.clusters_new == 0 and again.clusters_known == 1


def test_supabase_and_neon_far_apart_is_an_evolution() -> None:
    a = memory("c-s", "Inbox3 uses Supabase as its database", created="2026-01-01")
    b = memory("c-n", "Inbox3 uses Neon as its database", created="2026-04-02")
    assert (b.subject, b.predicate, b.object) == ("Inbox3", "uses_database", "Neon")
    new, (old,) = supersede_on_write(b, [a], CFG, NOW, "claim:n")
    assert old.superseded_by == new.memory_id and old.valid_to == day("2026-04-02")


def test_merge_semantics_of_three_equivalent_memories() -> None:
    spans = [EvidenceSpan(turn_id=f"t{i}", start=0, end=9, text="Bangalore") for i in range(3)]
    members = [
        memory("m1", "Georgian lives in Bangalore", confidence=0.7, created="2026-01-05"),
        memory("m2", "Georgian lives in Bangalore.", confidence=0.95, created="2026-02-01"),
        memory("m3", "georgian lives in bangalore", confidence=0.8, created="2026-03-01"),
    ]
    members = [
        m.model_copy(
            update={"access_count": n, "evidence": m.evidence.model_copy(update={"spans": [s]})}
        )
        for m, n, s in zip(members, (3, 5, 7), spans, strict=True)
    ]
    (cluster,) = find_clusters(members, CFG, SemanticIndex(CFG))
    assert rule_verdict(cluster, CFG).verdict is ConsistencyVerdict.EQUIVALENT
    plan = _plan(members)
    (command,) = plan.commands
    assert command.kind == "merge" and command.canonical == members[1].memory_id
    view = _apply_all({m.memory_id: m for m in members}, plan)
    canonical = view[members[1].memory_id]
    assert canonical.change is MemoryChange.MERGED and canonical.active
    assert canonical.access_count == 15
    assert {s.turn_id for s in canonical.evidence.spans} == {"t0", "t1", "t2"}
    assert set(canonical.evidence.claim_ids) == {"m1", "m2", "m3"}
    assert sorted(canonical.merged_from) == sorted([members[0].memory_id, members[2].memory_id])
    assert canonical.valid_from == day("2026-01-05")  # the fact held since the earliest
    for other in (members[0], members[2]):
        assert view[other.memory_id].superseded_by == canonical.memory_id
        assert view[other.memory_id].version == 2
    assert _plan(list(view.values()), plan.memo).commands == []


def test_merge_keeps_every_version_bounded() -> None:
    members = [memory(f"m{i}", "Georgian lives in Bangalore") for i in range(3)]
    changed = merge(members, members[0].memory_id, NOW + timedelta(seconds=1), "scan:x")
    assert [m.version for m in changed] == [2, 2, 2]
    assert all(m.updated_at == NOW + timedelta(seconds=1) for m in changed)
