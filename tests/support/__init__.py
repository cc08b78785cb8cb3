"""Helpers shared by the test suites: paths, text edits, Redis servers of a test's own,
an isolated pipeline harness, and the deployment checks' settings lookup."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
