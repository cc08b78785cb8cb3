"""Control of the chaos suite's Kafka cluster, Redis and fault proxy, through scripts/stack.sh.

The cluster is a stack of its own (its own directory and ports), so the suite never
disturbs the broker the other tests share. Brokers are killed by the pid files
stack.sh keeps, and brought back by `stack.sh start`, which starts whatever is missing.
With the proxy on, clients reach each broker through a Toxiproxy listener (the address
the broker advertises), so network faults between worker and broker can be injected
without touching the brokers' own replication traffic.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from tests.support import REPO

STACK = REPO / "scripts" / "stack.sh"


@dataclass
class ChaosStack:
    directory: Path
    base_port: int
    brokers: int = 3
    proxy: bool = True
    redis_port: int = 0
    log: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.redis_port:
            self.redis_port = self.base_port + 99

    @property
    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("GROUNDWIRE_")}
        env |= {
            "GROUNDWIRE_STACK_DIR": str(self.directory),
            "GROUNDWIRE_STACK_KAFKA_PORT": str(self.base_port),
            "GROUNDWIRE_STACK_REDIS_PORT": str(self.redis_port),
            "GROUNDWIRE_STACK_BROKERS": str(self.brokers),
            "GROUNDWIRE_STACK_PROXY": "1" if self.proxy else "0",
            "GROUNDWIRE_STACK_SASL_PORT": "0",
        }
        return env

    def _stack(self, *args: str, timeout: float = 180) -> str:
        proc = subprocess.run(
            ["bash", str(STACK), *args],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        if proc.returncode != 0:
            raise RuntimeError(f"stack.sh {' '.join(args)} failed:\n{proc.stdout}{proc.stderr}")
        return proc.stdout

    def start(self) -> None:
        """Start what is not running and wait until every broker and Redis answer.

        A start that fails half way (a port held by a process of an earlier run) leaves
        what it did start running, and the fixture's teardown never comes: stop it here,
        so the next run does not find those ports taken too."""
        try:
            self._stack("start")
        except (RuntimeError, subprocess.TimeoutExpired):
            with contextlib.suppress(RuntimeError, subprocess.TimeoutExpired):
                self.stop()
            raise

    def stop(self) -> None:
        self._stack("stop")

    @property
    def bootstrap(self) -> str:
        return self._stack("bootstrap").strip()

    @property
    def redis_url(self) -> str:
        return f"redis://127.0.0.1:{self.redis_port}/0"

    # -- faults ------------------------------------------------------------------
    def _pid(self, name: str) -> int | None:
        path = self.directory / f"{name}.pid"
        try:
            pid = int(path.read_text().strip())
            os.kill(pid, 0)
            return pid
        except (OSError, ValueError):
            return None

    def broker_names(self) -> list[str]:
        return [f"kafka-{i}" if self.brokers > 1 else "kafka" for i in range(1, self.brokers + 1)]

    def kill(self, name: str, sig: signal.Signals) -> None:
        """Send `sig` to a broker or Redis and wait until the process is gone."""
        pid = self._pid(name)
        if pid is None:
            return
        os.kill(pid, sig)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                os.kill(pid, 0)
            except OSError:
                return
            time.sleep(0.1)
        os.kill(pid, signal.SIGKILL)

    # -- network (Toxiproxy) ------------------------------------------------------
    @property
    def _toxiproxy(self) -> str:
        return f"http://127.0.0.1:{self.base_port + 9}"

    def _proxies(self) -> list[str]:
        return [f"broker-{i}" for i in range(1, self.brokers + 1)]

    def add_latency(self, latency_ms: int, jitter_ms: int) -> None:
        with httpx.Client(base_url=self._toxiproxy, timeout=5) as http:
            for name in self._proxies():
                for stream in ("upstream", "downstream"):
                    r = http.post(
                        f"/proxies/{name}/toxics",
                        json={
                            "name": f"latency-{stream}",
                            "type": "latency",
                            "stream": stream,
                            "attributes": {"latency": latency_ms, "jitter": jitter_ms},
                        },
                    )
                    r.raise_for_status()

    def set_enabled(self, enabled: bool) -> None:
        """Disabled proxies close every open connection and refuse new ones."""
        with httpx.Client(base_url=self._toxiproxy, timeout=5) as http:
            for name in self._proxies():
                http.post(f"/proxies/{name}", json={"enabled": enabled}).raise_for_status()

    def heal_network(self) -> None:
        with httpx.Client(base_url=self._toxiproxy, timeout=5) as http:
            for name in self._proxies():
                http.post(f"/proxies/{name}", json={"enabled": True}).raise_for_status()
                for toxic in http.get(f"/proxies/{name}/toxics").json():
                    http.delete(f"/proxies/{name}/toxics/{toxic['name']}").raise_for_status()
