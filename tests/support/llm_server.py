"""The local model server for the `llm_server` tests: where it is, a private instance a
test may kill, and a loopback TCP proxy that counts the requests in flight.

`scripts/stack.sh llm env` names the shared server (URL, model) and the installed server
(interpreter, model file); `stack.sh llm command PORT` is the command line that serves
the same model on another port, so a test that kills its server never touches the
shared one.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import time
from pathlib import Path

import httpx

from tests.support import REPO
from tests.support.redis_server import free_port

STACK = REPO / "scripts" / "stack.sh"
ENV_KEYS = (
    "GROUNDWIRE_TEST_LLM_URL",
    "GROUNDWIRE_TEST_LLM_MODEL",
    "GROUNDWIRE_STACK_LLM_SERVER_PYTHON",
    "GROUNDWIRE_STACK_LLM_GGUF",
)


def stack_llm_env() -> dict[str, str]:
    """`stack.sh llm env`, with the same names taken from the environment first."""
    out = subprocess.run(
        ["bash", str(STACK), "llm", "env"], capture_output=True, text=True, check=True
    ).stdout
    env = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
    env.update({k: os.environ[k] for k in ENV_KEYS if os.environ.get(k)})
    return env


def answers(url: str, timeout_s: float = 3.0) -> bool:
    try:
        resp = httpx.get(url.rstrip("/") + "/models", timeout=timeout_s)
    except httpx.HTTPError:
        return False
    return resp.status_code == 200


class ModelServer:
    """A llama-cpp-python server of the test's own, on a free loopback port."""

    def __init__(self, log_path: Path, port: int | None = None) -> None:
        self.port = port or free_port()
        self.log_path = log_path
        self.proc: subprocess.Popen[bytes] | None = None
        self.command = subprocess.run(
            ["bash", str(STACK), "llm", "command", str(self.port)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.splitlines()
        installed = Path(self.command[0]).exists()
        assert installed, f"no model server at {self.command[0]}: bash scripts/stack.sh llm install"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self, timeout_s: float = 90.0) -> None:
        log = self.log_path.open("ab")
        self.proc = subprocess.Popen(self.command, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout_s
        while not answers(self.url, 1.0):
            assert self.proc.poll() is None, f"model server exited; see {self.log_path}"
            assert time.monotonic() < deadline, f"model server not ready; see {self.log_path}"
            time.sleep(0.2)

    def kill(self) -> None:
        """SIGKILL: the process dies mid-request, as in a crash or an OOM kill."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
        self.proc = None


class CountingProxy:
    """Forwards loopback TCP connections to the server and counts HTTP requests in flight:
    a request is in flight from its first byte until the first byte of its response (a
    non-streaming chat completion is written once the answer is complete)."""

    def __init__(self, upstream_port: int) -> None:
        self.upstream_port = upstream_port
        self.in_flight = 0
        self.max_in_flight = 0
        self.requests = 0
        self._server: asyncio.AbstractServer | None = None
        self.port = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    async def __aenter__(self) -> CountingProxy:
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._server.wait_closed(), 5)

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.upstream_port)
        busy = [False]

        async def pump(src: asyncio.StreamReader, dst: asyncio.StreamWriter, up: bool) -> None:
            try:
                while data := await src.read(65536):
                    if up and not busy[0]:
                        busy[0] = True
                        self.requests += 1
                        self.in_flight += 1
                        self.max_in_flight = max(self.max_in_flight, self.in_flight)
                    elif not up and busy[0]:
                        busy[0] = False
                        self.in_flight -= 1
                    dst.write(data)
                    await dst.drain()
            except (ConnectionError, asyncio.CancelledError):
                pass
            finally:
                with contextlib.suppress(Exception):
                    dst.close()

        await asyncio.gather(pump(reader, up_writer, True), pump(up_reader, writer, False))
        if busy[0]:
            self.in_flight -= 1
