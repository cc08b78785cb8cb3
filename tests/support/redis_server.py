"""A redis-server of a test's own, for tests that stop and restart Redis mid-stream."""

from __future__ import annotations

import random
import shutil
import socket
import subprocess
import time
from pathlib import Path

import redis
import redis.asyncio as aioredis


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RedisServer:
    def __init__(self, workdir: Path, port: int | None = None) -> None:
        self.workdir = workdir
        self.port = port or free_port()
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        binary = shutil.which("redis-server")
        assert binary, "redis-server is required (apt-get install redis-server)"
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.proc = subprocess.Popen(
            [
                binary,
                "--bind",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--dir",
                str(self.workdir),
                "--save",
                "",
                "--appendonly",
                "yes",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _wait_for_ping(self.port)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
        self.proc = None


class RedisClusterServer:
    """A three-primary Redis Cluster of a test's own (temp dirs, free ports), made with
    `redis-cli --cluster create` like an operator would."""

    def __init__(self, workdir: Path, nodes: int = 3) -> None:
        self.workdir = workdir
        self.ports = [_cluster_port() for _ in range(nodes)]
        self.procs: list[subprocess.Popen] = []

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.ports[0]}/0"

    def start(self) -> None:
        binary, cli = shutil.which("redis-server"), shutil.which("redis-cli")
        assert binary and cli, (
            "redis-server and redis-cli are required (apt-get install redis-server)"
        )
        for port in self.ports:
            node_dir = self.workdir / str(port)
            node_dir.mkdir(parents=True, exist_ok=True)
            self.procs.append(
                subprocess.Popen(
                    [
                        binary,
                        "--bind",
                        "127.0.0.1",
                        "--port",
                        str(port),
                        "--dir",
                        str(node_dir),
                        "--cluster-enabled",
                        "yes",
                        "--cluster-config-file",
                        "nodes.conf",
                        "--save",
                        "",
                        "--appendonly",
                        "no",
                    ],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
        for port in self.ports:
            _wait_for_ping(port)
        subprocess.run(
            [
                cli,
                "--cluster",
                "create",
                *(f"127.0.0.1:{p}" for p in self.ports),
                "--cluster-replicas",
                "0",
                "--cluster-yes",
            ],
            check=True,
            capture_output=True,
            timeout=60,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            states = [redis.Redis(port=p).cluster("info") for p in self.ports]
            # every node ok, knowing every other, and all with the same slot map: a client
            # that meets a node still learning the map is MOVED and rebuilds its
            # connections while its other calls are connecting
            slot_maps = {_slot_map(p) for p in self.ports}
            if (
                all(s.get("cluster_state") == "ok" for s in states)
                and all(int(s.get("cluster_known_nodes", 0)) == len(self.ports) for s in states)
                and len(slot_maps) == 1
            ):
                return
            time.sleep(0.2)
        raise RuntimeError("the Redis Cluster did not reach cluster_state:ok")

    def node_clients(self) -> list[redis.Redis]:
        return [redis.Redis(port=p) for p in self.ports]

    def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs:
            proc.wait(10)
        self.procs = []


def _slot_map(port: int) -> tuple[tuple[int, int, int], ...]:
    """(first slot, last slot, primary's port) as one node sees them."""
    raw = redis.Redis(port=port).execute_command("CLUSTER", "SLOTS")
    return tuple(sorted((int(r[0]), int(r[1]), int(r[2][1])) for r in raw))


def _cluster_port() -> int:
    """A free port whose cluster-bus port (port + 10000) is valid and free too."""
    for _ in range(100):
        port = random.randint(20_000, 50_000)
        if _is_free(port) and _is_free(port + 10_000):
            return port
    raise RuntimeError("no free port pair for a Redis Cluster node")


def _is_free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def _wait_for_ping(port: int) -> None:
    client = redis.Redis(port=port, socket_connect_timeout=0.5)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        try:
            if client.ping():
                return
        except redis.RedisError:
            time.sleep(0.1)
    raise RuntimeError(f"redis-server on port {port} did not start")


async def delete_prefix(client: aioredis.Redis, prefix: str) -> None:
    """Remove a test's own keys from the shared Redis (other test runs may use it too)."""
    keys = [k async for k in client.scan_iter(match=f"{prefix}:*", count=1000)]
    if keys:
        await client.delete(*keys)
