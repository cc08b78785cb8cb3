"""Topic names of the wire contract.

Names are derived from one prefix so several deployments (or test runs) can share a
cluster without colliding; partition counts are explicit because the pipeline never
relies on broker auto-creation (a topic auto-created with one partition would silently
cap parallelism and break per-tenant ordering assumptions).
"""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_PREFIX = "groundwire."

# suffix -> cleanup policy. Partitions, replication factor and min.insync.replicas are
# the same for every topic and come from the settings (streams/admin.py).
TOPIC_SUFFIXES: dict[str, str] = {
    "claims": "delete",
    "claims.screened": "delete",
    "approved": "delete",
    "review": "delete",
    "blocked": "delete",
    "dlq": "delete",
    "audit": "delete",
    # Read-time faithfulness (docs/spec.md §Read-time faithfulness): answers an agent gave,
    # with their context, and their scores, keyed by tenant.
    "answers": "delete",
    "answers.scored": "delete",
    # The review relay's position per outbox shard (streams/review/relay.py): compacted,
    # keyed by relay id, written in the same transaction as the records it relayed.
    "review.relay": "compact",
    # The memory view (docs/spec.md §Store-time consistency): every version of every
    # memory, keyed by memory id, compacted to the latest (a retraction is a tombstone).
    "memories": "compact",
    # Changes the consistency scan and retractions ask of the memory stage, keyed by
    # tenant so they apply in order with the tenant's approved claims.
    "memories.commands": "delete",
}


@dataclass(frozen=True, slots=True)
class TopicNames:
    """Every topic name for one prefix."""

    prefix: str = DEFAULT_PREFIX

    def name(self, suffix: str) -> str:
        if suffix not in TOPIC_SUFFIXES:
            raise KeyError(f"unknown topic suffix {suffix!r}")
        return f"{self.prefix}{suffix}"

    @property
    def claims(self) -> str:
        return self.name("claims")

    @property
    def screened(self) -> str:
        return self.name("claims.screened")

    @property
    def approved(self) -> str:
        return self.name("approved")

    @property
    def review(self) -> str:
        return self.name("review")

    @property
    def blocked(self) -> str:
        return self.name("blocked")

    @property
    def dlq(self) -> str:
        return self.name("dlq")

    @property
    def audit(self) -> str:
        return self.name("audit")

    def all(self) -> dict[str, str]:
        """Map suffix -> full name for every topic of the contract."""
        return {s: self.name(s) for s in TOPIC_SUFFIXES}

    def output_topics(self) -> tuple[str, str, str, str]:
        """The four topics a claim can end in: exactly one of them per input record."""
        return (self.approved, self.review, self.blocked, self.dlq)
