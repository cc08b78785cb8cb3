"""What one command does to the memories it names (pure; the memory stage writes it).

A merge, supersession or flag is applied only when every member still has the version
the scan planned against and is still current: otherwise something changed the cluster
in between (a newer claim, another command) and the command is stale. It then changes
nothing, and the next scan plans from the new state. A retraction applies to whatever
version is there, and takes the retracted ids out of the links of the memories that
named them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from groundwire.guards.consistency.memory import flag, merge, supersede_chain, unlink
from groundwire.topics.memory import MemoryCommand, MemoryRecord

__all__ = ["Applied", "apply_command", "retract"]


@dataclass
class Applied:
    changed: list[MemoryRecord] = field(default_factory=list)  # new versions
    retracted: list[MemoryRecord] = field(default_factory=list)  # removed (tombstones)
    stale: bool = False
    detail: str = ""

    @property
    def flagged(self) -> list[MemoryRecord]:
        """Memories this command newly flagged (each goes to review)."""
        return [m for m in self.changed if m.flagged and m.change.value == "flagged"]


def _members(
    command: MemoryCommand, current: Mapping[str, MemoryRecord]
) -> list[MemoryRecord] | str:
    out: list[MemoryRecord] = []
    for ref in command.members:
        memory = current.get(ref.memory_id)
        if memory is None:
            return f"{ref.memory_id} is gone"
        if memory.version != ref.version:
            return f"{ref.memory_id} is at version {memory.version}, planned at {ref.version}"
        if not memory.active:
            return f"{ref.memory_id} was superseded meanwhile"
        if memory.tenant_id != command.tenant_id:
            return f"{ref.memory_id} is not a memory of this tenant"
        out.append(memory)
    return out


def retract(
    targets: Sequence[MemoryRecord],
    current: Mapping[str, MemoryRecord],
    now: datetime,
    cause: str,
) -> Applied:
    """Remove `targets`; the memories that link one of them (contradicts_with) lose the
    link, and their flag when nothing they contradicted is left. `current` must hold
    those linked memories."""
    gone = {m.memory_id for m in targets}
    applied = Applied(retracted=sorted(targets, key=lambda m: m.memory_id))
    linked = sorted({i for m in targets for i in m.contradicts_with} - gone)
    for memory_id in linked:
        memory = current.get(memory_id)
        if memory is None:
            continue
        changed = unlink(memory, gone, now, cause)
        if changed is not None:
            applied.changed.append(changed)
    applied.detail = f"retracted {len(gone)}"
    return applied


def apply_command(
    command: MemoryCommand, current: Mapping[str, MemoryRecord], now: datetime
) -> Applied:
    """The new versions `command` makes of `current` (memory id -> latest version; it
    must hold the members, and for a retraction the memories they link)."""
    cause = command.issued_by or f"command:{command.command_id}"
    if command.kind == "scan_report":
        return Applied(detail="scan report")
    if command.kind == "retract":
        if command.user_id is not None:
            targets = [
                m
                for m in current.values()
                if m.user_id == command.user_id and m.tenant_id == command.tenant_id
            ]
        else:
            named = {r.memory_id for r in command.members}
            targets = [
                m for i, m in current.items() if i in named and m.tenant_id == command.tenant_id
            ]
        if not targets:
            return Applied(detail="nothing to retract")
        return retract(targets, current, now, f"retract:{command.command_id}")
    members = _members(command, current)
    if isinstance(members, str):
        return Applied(stale=True, detail=members)
    if command.kind == "merge":
        assert command.canonical is not None  # the command's validator guarantees it
        return Applied(changed=merge(members, command.canonical, now, cause), detail="merged")
    if command.kind == "supersede":
        return Applied(changed=supersede_chain(members, now, cause), detail="superseded")
    changed = flag(members, now, cause)
    return Applied(changed=changed, detail="flagged" if changed else "already flagged")
