"""The scan's signals run with the cyclic garbage collector paused, and leave it as they
found it (streams/memory/scan_job.py tenant_clusters)."""

from __future__ import annotations

import gc

from groundwire.guards.consistency.config import ConsistencyConfig
from groundwire.guards.consistency.signals import SemanticIndex, SignalStats, find_clusters
from groundwire.streams.memory.scan_job import tenant_clusters
from tests.support.memories import memory

CFG = ConsistencyConfig()


def test_the_same_clusters_and_the_collector_as_it_was() -> None:
    memories = [
        memory("s", "Inbox3 uses Supabase as its database", created="2026-04-01"),
        memory("n", "Inbox3 uses Neon as its database", created="2026-04-02"),
    ]
    expected = find_clusters(memories, CFG, SemanticIndex(CFG))
    assert len(expected) == 1
    assert gc.isenabled()
    assert tenant_clusters(memories, CFG, SemanticIndex(CFG), SignalStats()) == expected
    assert gc.isenabled()
    gc.disable()
    try:
        assert tenant_clusters(memories, CFG, SemanticIndex(CFG), SignalStats()) == expected
        assert not gc.isenabled()
    finally:
        gc.enable()
