"""`groundwire check --file` on a file of hostile lines: one result row per line, each a
claim's decision with its reason code or that line's error with its dlq reason, and the
run never stops early (docs/architecture.md: a stage never raises on input; check decodes
lines exactly like the screen stage)."""

from __future__ import annotations

import time
from pathlib import Path

import orjson
import pytest
from typer.testing import CliRunner

from groundwire.streams.cli import app
from groundwire.topics.vocab import DlqReason, ReasonCode
from tests.support.hostile import hostile_records

runner = CliRunner()


def _lines(n: int, seed: int, huge: int) -> list[bytes]:
    """Hostile records as JSONL lines: a newline inside a record would split it, and a
    line of whitespace only is no record at all (check skips it), so neither occurs."""
    lines = []
    for record in hostile_records(n, seed=seed, huge=huge):
        line = record.replace(b"\n", b" ").rstrip(b"\r")
        lines.append(line if line.strip() else b"x" + line)
    return lines


def _check_file(tmp_path: Path, lines: list[bytes]) -> tuple[list[dict], float]:
    path = tmp_path / "hostile.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    started = time.perf_counter()
    res = runner.invoke(app, ["check", "--file", str(path), "--no-verify", "--no-verify-urls"])
    elapsed = time.perf_counter() - started
    assert res.exit_code == 0, (res.exception, res.stderr[-2000:])
    return [orjson.loads(row) for row in res.stdout_bytes.splitlines()], elapsed


def _assert_one_row_per_line(rows: list[dict], n: int) -> dict[str, int]:
    assert [r["line"] for r in rows] == list(range(1, n + 1))
    counts: dict[str, int] = {}
    for row in rows:
        if "error" in row:
            assert DlqReason(row["reason"]), row
            key = f"error:{row['reason']}"
        else:
            assert ReasonCode(row["reason_code"]), row
            assert row["tier"] in ("auto_approve", "flag_review", "block")
            key = f"claim:{row['tier']}"
        counts[key] = counts.get(key, 0) + 1
    return counts


def test_check_gives_one_row_per_hostile_line(tmp_path: Path) -> None:
    lines = _lines(2_000, seed=3, huge=1)
    rows, elapsed = _check_file(tmp_path, lines)
    counts = _assert_one_row_per_line(rows, len(lines))
    print(f"\n{len(lines)} lines in {elapsed:.1f}s: {sorted(counts.items())}")
    assert counts.get("error:too_large", 0) >= 1


@pytest.mark.slow
def test_check_gives_one_row_per_line_of_20000(tmp_path: Path) -> None:
    lines = _lines(20_000, seed=4, huge=2)
    rows, elapsed = _check_file(tmp_path, lines)
    counts = _assert_one_row_per_line(rows, len(lines))
    print(f"\n{len(lines)} lines in {elapsed:.1f}s: {sorted(counts.items())}")
