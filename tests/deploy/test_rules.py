"""Alert and recording rules: promtool passes; every alert is documented and tested both ways."""

from __future__ import annotations

import re
import subprocess
from typing import Any

import pytest
import yaml

from tests.support import REPO

RULES_DIR = REPO / "metrics" / "rules"
TESTS_DIR = RULES_DIR / "tests"
OPERATIONS_DOC = REPO / "docs" / "operations.md"


def _alerts() -> dict[str, dict[str, Any]]:
    alerts: dict[str, dict[str, Any]] = {}
    for path in sorted(RULES_DIR.glob("*.yml")):
        for group in yaml.safe_load(path.read_text())["groups"]:
            for rule in group["rules"]:
                if "alert" in rule:
                    assert rule["alert"] not in alerts, f"duplicate alert {rule['alert']}"
                    alerts[rule["alert"]] = rule
    return alerts


ALERTS = _alerts()


def test_check_rules_script_passes() -> None:
    """promtool check rules / check config / test rules, exactly as CI runs them."""
    proc = subprocess.run(
        ["bash", str(REPO / "scripts" / "check_rules.sh")],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "FAILED" not in proc.stdout


def test_spec_alert_conditions_are_present() -> None:
    expected = {
        "GroundwireGroundingBlockRateHigh",  # guard1_block_rate > 8 % for 3 h
        "GroundwireGroundingBlockRateLow",  # guard1_block_rate < 0.5 % for 7 d
        "GroundwireConsumerLagGrowing",
        "GroundwireDlqRateHigh",
        "GroundwireDedupFailClosedRateHigh",
        "GroundwireVerifierUnknownRateHigh",
    }
    assert expected <= set(ALERTS)
    assert ALERTS["GroundwireGroundingBlockRateHigh"]["for"] == "3h"
    assert "0.08" in ALERTS["GroundwireGroundingBlockRateHigh"]["expr"]
    assert ALERTS["GroundwireGroundingBlockRateLow"]["for"] == "7d"
    assert "0.005" in ALERTS["GroundwireGroundingBlockRateLow"]["expr"]


@pytest.mark.parametrize("name", sorted(ALERTS))
def test_alert_has_severity_summary_description_and_runbook(name: str) -> None:
    rule = ALERTS[name]
    assert rule["labels"]["severity"] in {"critical", "warning", "info"}
    annotations = rule["annotations"]
    assert annotations["summary"].strip()
    assert len(annotations["description"].split()) >= 10
    anchor = annotations["runbook_url"].split("#", 1)[1]
    assert anchor == name.lower()
    headings = {
        re.sub(r"[^a-z0-9 -]", "", line.lstrip("#").strip().lower()).replace(" ", "-")
        for line in OPERATIONS_DOC.read_text().splitlines()
        if line.startswith("#")
    }
    assert anchor in headings, f"docs/operations.md has no runbook heading for {name}"


def _alert_tests() -> dict[str, dict[str, int]]:
    seen: dict[str, dict[str, int]] = {}
    for path in TESTS_DIR.glob("*.yml"):
        for case in yaml.safe_load(path.read_text())["tests"]:
            for check in case.get("alert_rule_test", []):
                kind = "fires" if check.get("exp_alerts") else "quiet"
                counts = seen.setdefault(check["alertname"], {"fires": 0, "quiet": 0})
                counts[kind] += 1
    return seen


@pytest.mark.parametrize("name", sorted(ALERTS))
def test_every_alert_has_a_firing_and_a_quiet_promtool_test(name: str) -> None:
    counts = _alert_tests().get(name, {"fires": 0, "quiet": 0})
    assert counts["fires"] >= 1, f"no promtool test where {name} fires"
    assert counts["quiet"] >= 1, f"no promtool test where {name} stays quiet"


def test_rules_only_use_metrics_the_code_defines() -> None:
    from groundwire.metrics.registry import REGISTRY

    defined = {family.name for family in REGISTRY.collect()}
    histograms = {f.name for f in REGISTRY.collect() if f.type == "histogram"}
    known = (
        defined
        | {f"{n}_total" for n in defined}
        | {f"{h}_bucket" for h in histograms}
        | {f"{h}_count" for h in histograms}
        | {f"{h}_sum" for h in histograms}
        | {"up"}
    )
    for path in RULES_DIR.glob("*.yml"):
        for name in set(re.findall(r"\bgroundwire_[a-z_]+", path.read_text())):
            assert name in known, f"{path.name} uses {name}, which no module defines"
