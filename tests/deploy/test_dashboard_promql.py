"""Every PromQL expression of the dashboard parses (promtool checks it as a rule)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import yaml

from groundwire.metrics import dashboard
from tests.support import REPO
from tests.unit.metrics.test_dashboard import substitute

DASHBOARD = REPO / "metrics" / "dashboards" / "hallucination.json"


def _loaded() -> dict:
    return json.loads(DASHBOARD.read_text())


def test_every_expression_parses(tmp_path: Path) -> None:
    """promtool parses PromQL when it checks rules: wrap each expression in a recording rule."""
    rules = [
        {"record": f"dashboard:expr_{i}", "expr": substitute(expr)}
        for i, (_, expr) in enumerate(dashboard.expressions(_loaded()))
    ]
    path = tmp_path / "dashboard_exprs.yml"
    path.write_text(yaml.safe_dump({"groups": [{"name": "dashboard", "rules": rules}]}))
    proc = subprocess.run(
        ["promtool", "check", "rules", str(path)], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"{len(rules)} rules found" in proc.stdout
