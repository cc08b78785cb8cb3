"""The one Prometheus registry every groundwire metric lives in.

A dedicated registry (rather than prometheus-client's global default) keeps the exposed
set exactly what this package defines plus the process/platform collectors, so tests can
read deltas without picking up metrics some unrelated import registered, and a library
user embedding the guards in-process does not get our series mixed into theirs.
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, GCCollector, PlatformCollector, ProcessCollector

NAMESPACE = "groundwire"

REGISTRY = CollectorRegistry(auto_describe=True)
ProcessCollector(registry=REGISTRY)
PlatformCollector(registry=REGISTRY)
GCCollector(registry=REGISTRY)

# Latency buckets in seconds. Stage work is usually sub-millisecond to tens of
# milliseconds; a remote verifier (LLM) is 100 ms to seconds, and the warning threshold
# for grounding p99 is 300 ms (docs/spec.md §Metrics and alerts), so both ranges need
# resolution around it.
STAGE_BUCKETS: tuple[float, ...] = (
    0.0005,
    0.001,
    0.0025,
    0.005,
    0.01,
    0.025,
    0.05,
    0.1,
    0.25,
    0.5,
    1.0,
    2.5,
    5.0,
    10.0,
)
GROUNDING_BUCKETS: tuple[float, ...] = (
    0.001,
    0.005,
    0.01,
    0.025,
    0.05,
    0.1,
    0.2,
    0.3,
    0.5,
    0.75,
    1.0,
    2.5,
    5.0,
    10.0,
    30.0,
)
