"""The specification's `consistency_scan:` configuration block loads as `guards.consistency`
with the same keys and values, from a settings file as a deployment loads it."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from groundwire.guards.consistency.config import ConsistencyConfig
from groundwire.guards.consistency.cron import CronSchedule
from groundwire.streams.settings import SettingsError, load_settings

# docs/spec.md §Store-time consistency, "Configuration": the design's block, verbatim.
SPEC = Path(__file__).resolve().parents[4] / "docs" / "spec.md"


def _spec_block() -> str:
    text = SPEC.read_text(encoding="utf-8")
    start = text.index("```yaml\nconsistency_scan:") + len("```yaml\n")
    return text[start : text.index("```", start)]


def _load(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, document: dict) -> object:  # type: ignore[type-arg]
    path = tmp_path / "settings.yaml"
    path.write_text(yaml.safe_dump(document))
    for name in [n for n in __import__("os").environ if n.startswith("GROUNDWIRE_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("GROUNDWIRE_CONFIG", str(path))
    return load_settings()


def test_the_spec_block_is_guards_consistency(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    block = yaml.safe_load(_spec_block())["consistency_scan"]
    assert set(block) == {
        "enabled",
        "schedule",
        "signals",
        "judge_model",
        "auto_actions",
        "max_clusters_per_scan",
    }
    settings = _load(tmp_path, monkeypatch, {"guards": {"consistency": block}})
    cfg = settings.guards.consistency  # type: ignore[attr-defined]
    assert cfg.enabled is True
    assert cfg.schedule == "0 3 * * *"
    assert cfg.signals.structural is True
    assert cfg.signals.semantic_similarity_threshold == 0.85
    assert cfg.signals.temporal_drift_days == 30
    assert cfg.judge_model == "claude-haiku-4-5"
    assert cfg.auto_actions.model_dump() == {
        "merge_equivalent": True,
        "supersede_temporal": True,
        "flag_contradiction": True,
    }
    assert cfg.max_clusters_per_scan == 200
    # and the block says nothing the defaults do not: the defaults are the spec's
    assert cfg == ConsistencyConfig()


def test_tuned_values_and_typos(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tuned = {"signals": {"temporal_drift_days": 7, "semantic_similarity_threshold": 0.8}}
    settings = _load(tmp_path, monkeypatch, {"guards": {"consistency": tuned}})
    assert settings.guards.consistency.signals.temporal_drift_days == 7  # type: ignore[attr-defined]
    with pytest.raises(SettingsError, match="temporal_drift_dayz"):
        _load(
            tmp_path,
            monkeypatch,
            {"guards": {"consistency": {"signals": {"temporal_drift_dayz": 7}}}},
        )
    with pytest.raises(SettingsError, match="schedule"):
        _load(tmp_path, monkeypatch, {"guards": {"consistency": {"schedule": "nightly"}}})
    with pytest.raises(SettingsError, match="redis_prefix"):
        _load(tmp_path, monkeypatch, {"guards": {"consistency": {"redis_prefix": "gw:{x}"}}})


@pytest.mark.parametrize(
    ("expr", "at", "previous", "following"),
    [
        ("0 3 * * *", "2026-04-06T12:00", "2026-04-06T03:00", "2026-04-07T03:00"),
        ("0 3 * * *", "2026-04-06T03:00", "2026-04-06T03:00", "2026-04-07T03:00"),
        ("*/15 * * * *", "2026-04-06T12:07", "2026-04-06T12:00", "2026-04-06T12:15"),
        ("30 2 * * 0", "2026-04-06T12:00", "2026-04-05T02:30", "2026-04-12T02:30"),  # Sundays
        ("0 0 1 * 1", "2026-04-06T12:00", "2026-04-06T00:00", "2026-04-13T00:00"),  # 1st or Monday
        ("0 4 29 2 *", "2026-04-06T12:00", "2024-02-29T04:00", "2028-02-29T04:00"),
    ],
)
def test_cron(expr: str, at: str, previous: str, following: str) -> None:
    from datetime import UTC, datetime

    def t(text: str) -> datetime:
        return datetime.fromisoformat(text).replace(tzinfo=UTC)

    schedule = CronSchedule.parse(expr)
    assert schedule.previous(t(at)) == t(previous)
    assert schedule.next(t(at)) == t(following)


@pytest.mark.parametrize(
    "bad", ["", "0 3 * *", "61 * * * *", "* 24 * * *", "*/0 * * * *", "a b c d e", "5-2 * * * *"]
)
def test_cron_refuses(bad: str) -> None:
    with pytest.raises(ValueError):
        CronSchedule.parse(bad)
