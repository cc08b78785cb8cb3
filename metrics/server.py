"""The `/metrics` HTTP endpoint each worker exposes (also its liveness/readiness probe)."""

from __future__ import annotations

import threading
from wsgiref.simple_server import WSGIServer

from prometheus_client import start_http_server

from groundwire.metrics.registry import REGISTRY

_lock = threading.Lock()
_server: WSGIServer | None = None
_port: int | None = None


def start_metrics_server(port: int, addr: str = "0.0.0.0") -> None:
    """Serve the registry on `addr:port` in a daemon thread; port 0 disables it.

    Idempotent for the same port, because a worker restarting its app in-process must
    not fail on "address in use"; a second, different port is a configuration bug.
    Binds all interfaces by default since Kubernetes probes and Prometheus scrape the
    pod IP.
    """
    global _server, _port
    if port == 0:
        return
    if not 0 < port < 65536:
        raise ValueError(f"metrics port must be 0 (disabled) or 1-65535, got {port}")
    with _lock:
        if _server is not None:
            if _port == port:
                return
            raise RuntimeError(f"metrics server already listening on port {_port}")
        _server, _ = start_http_server(port, addr=addr, registry=REGISTRY)
        _port = port


def stop_metrics_server() -> None:
    """Shut the endpoint down (tests, graceful shutdown)."""
    global _server, _port
    with _lock:
        if _server is not None:
            _server.shutdown()
            _server.server_close()
        _server = None
        _port = None
