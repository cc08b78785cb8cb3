"""A throwaway redis-server for the benches that measure Redis-backed indexes.

The dedup and scan benches need a Redis of their own, empty and without persistence, so
that their timings are not shared with whatever else runs on the machine's Redis and a
run leaves nothing behind; one starter keeps their settings the same.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path

import redis


def free_port() -> int:
    """A port the kernel says is free now (another process may still take it first)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_redis(workdir: Path) -> tuple[subprocess.Popen[bytes], int]:
    """Start redis-server on a free loopback port with no snapshots; wait until it answers."""
    port = free_port()
    binary = shutil.which("redis-server") or "/usr/bin/redis-server"
    args = [binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(workdir),
            "--save", "", "--appendonly", "no"]  # fmt: skip
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    client = redis.Redis(port=port)
    for _ in range(100):
        try:
            client.ping()
            return proc, port
        except redis.ConnectionError:
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError("redis-server did not start within 5 s")
