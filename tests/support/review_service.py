"""Runs `groundwire review serve` in this process, optionally dying at one fault point.

GW_TEST_FAULT=<point>[@<n>] (streams/review/faults.py POINTS) SIGKILLs the process the
n-th time (default 1st) execution reaches that point: the fault-injection tests use it to
kill the service between the steps of a decision's way to Kafka. Settings come from the
GROUNDWIRE_* environment as for the real command.
"""

from __future__ import annotations

import os
import signal
import sys

from groundwire.streams.cli import app
from groundwire.streams.review import faults


def _install() -> None:
    spec = os.environ.get("GW_TEST_FAULT", "")
    if not spec:
        return
    name, _, nth = spec.partition("@")
    if name not in faults.POINTS:
        raise SystemExit(f"unknown fault point {name!r}")
    left = [int(nth or 1)]

    def hook(point: str) -> None:
        if point == name:
            left[0] -= 1
            if left[0] == 0:
                os.kill(os.getpid(), signal.SIGKILL)

    faults.install(hook)


if __name__ == "__main__":
    _install()
    sys.argv = ["groundwire", "review", "serve", *sys.argv[1:]]
    app()
