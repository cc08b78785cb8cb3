"""The faults of the chaos suite. Each injects one fault, heals it, and marks the heal time.

Outages are drawn at random within each scenario's range (bounded by the run's
`max_outage_s`), and the fault lands at a random moment of the publishing window, so
over many runs it hits every point of the transaction cycle.
"""

from __future__ import annotations

import signal
import time

from tests.chaos.harness import Fault, Run


def _healed(run: Run) -> None:
    run.healed_at = time.time()


def _all_brokers(run: Run, sig: signal.Signals, low: float, high: float) -> str:
    names = run.stack.broker_names()
    for name in names:
        run.stack.kill(name, sig)
    outage = run.outage(low, high)
    time.sleep(outage)
    run.stack.start()
    _healed(run)
    return f"{sig.name} every broker ({len(names)}), down {outage:.0f}s"


def broker_kill(run: Run) -> str:
    """The whole cluster dies (SIGKILL) and comes back: nothing can route meanwhile."""
    return _all_brokers(run, signal.SIGKILL, 5, 300)


def broker_term(run: Run) -> str:
    """The whole cluster is stopped cleanly (SIGTERM) and started again."""
    return _all_brokers(run, signal.SIGTERM, 5, 300)


def broker_kill_one(run: Run) -> str:
    """One broker dies and comes back, as in a rolling restart; the others keep serving."""
    name = run.rng.choice(run.stack.broker_names())
    run.stack.kill(name, signal.SIGKILL)
    outage = run.outage(5, 120)
    time.sleep(outage)
    run.stack.start()
    _healed(run)
    return f"SIGKILL {name}, down {outage:.0f}s"


def redis_kill(run: Run) -> str:
    """Redis dies: claims fail closed to review until it is back."""
    run.stack.kill("redis", signal.SIGKILL)
    outage = run.outage(3, 30)
    time.sleep(outage)
    run.stack.start()
    _healed(run)
    return f"SIGKILL redis, down {outage:.0f}s"


def worker_kill_in_outage(run: Run) -> str:
    """The brokers go away, the worker is SIGKILLed, a new worker starts while they are
    still away, then the brokers return."""
    names = run.stack.broker_names()
    for name in names:
        run.stack.kill(name, signal.SIGKILL)
    time.sleep(run.outage(1, 10))
    run.worker.kill()
    run.worker.start()
    outage = run.outage(5, 60)
    time.sleep(outage)
    run.stack.start()
    _healed(run)
    return f"brokers down, worker SIGKILLed and restarted, brokers back after {outage:.0f}s"


def network_slow(run: Run) -> str:
    """Every worker-broker connection gets 300 +/- 200 ms of latency each way."""
    run.stack.add_latency(300, 200)
    outage = run.outage(10, 60)
    time.sleep(outage)
    run.stack.heal_network()
    _healed(run)
    return f"latency 300+/-200 ms each way for {outage:.0f}s"


def network_drop(run: Run) -> str:
    """Every worker-broker connection is cut and refused for a while (brokers stay up)."""
    run.stack.set_enabled(False)
    outage = run.outage(5, 60)
    time.sleep(outage)
    run.stack.heal_network()
    _healed(run)
    return f"connections dropped and refused for {outage:.0f}s"


SCENARIOS: dict[str, Fault] = {
    "broker-kill": broker_kill,
    "broker-term": broker_term,
    "broker-kill-one": broker_kill_one,
    "redis-kill": redis_kill,
    "worker-kill-in-outage": worker_kill_in_outage,
    "network-slow": network_slow,
    "network-drop": network_drop,
}
