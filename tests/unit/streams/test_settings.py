"""Settings are strict: unknown names anywhere (environment or YAML) stop the program."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from groundwire.streams.cli import app
from groundwire.streams.settings import (
    KafkaClientConfig,
    SettingsError,
    env_name_error,
    load_settings,
    unknown_env_names,
)


def test_known_settings_are_accepted() -> None:
    for name in (
        "GROUNDWIRE_BOOTSTRAP_SERVERS",
        "GROUNDWIRE_METRICS_PORT",
        "GROUNDWIRE_GUARDS__DEDUP__THRESHOLD",
        "GROUNDWIRE_KAFKA__SASL_PASSWORD",
        "GROUNDWIRE_KAFKA__PRODUCER_EXTRA__CLIENT.RACK",
        "GROUNDWIRE_CONFIG",
        "GROUNDWIRE_STACK_DIR",
    ):
        assert env_name_error(name) is None, name


def test_typos_and_wrong_nesting_are_rejected() -> None:
    for name in (
        "GROUNDWIRE_BOOTSTRAP_SERVER",
        "GROUNDWIRE_GUARDS__DEDUP__TRESHOLD",
        "GROUNDWIRE_METRICS_PORT__X",
        "GROUNDWIRE_DATA_DIR",
        "BOOTSTRAP_SERVERS",
    ):
        assert env_name_error(name) is not None, name


def test_unknown_environment_names_are_listed_and_stop_loading(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GROUNDWIRE_GUARDS__DEDUP__TRESHOLD", "0.5")
    monkeypatch.setenv("GROUNDWIRE_BATCH_SIZ", "5")
    assert len(unknown_env_names()) == 2
    with pytest.raises(SettingsError) as err:
        load_settings()
    assert "GROUNDWIRE_GUARDS__DEDUP__TRESHOLD" in str(err.value)
    assert "GROUNDWIRE_BATCH_SIZ" in str(err.value)


def test_an_unknown_yaml_key_at_any_depth_stops_loading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "gw.yaml"
    path.write_text(yaml.safe_dump({"guards": {"dedup": {"treshold": 0.5}}}))
    monkeypatch.setenv("GROUNDWIRE_CONFIG", str(path))
    with pytest.raises(SettingsError, match=r"guards\.dedup\.treshold"):
        load_settings()
    path.write_text(yaml.safe_dump({"guards": {"dedup": {"threshold": 0.5}}}))
    assert load_settings().guards.dedup.threshold == 0.5


def test_an_unreadable_config_file_is_a_settings_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GROUNDWIRE_CONFIG", str(tmp_path / "missing.yaml"))
    with pytest.raises(SettingsError, match=r"missing\.yaml"):
        load_settings()
    bad = tmp_path / "bad.yaml"
    bad.write_text("guards: [unclosed\n")
    monkeypatch.setenv("GROUNDWIRE_CONFIG", str(bad))
    with pytest.raises(SettingsError):
        load_settings()


def test_commands_exit_2_naming_the_unknown_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GROUNDWIRE_GUARDS__DEDUP__TRESHOLD", "0.5")
    result = CliRunner().invoke(app, ["topics", "list"])
    assert result.exit_code == 2
    assert "GROUNDWIRE_GUARDS__DEDUP__TRESHOLD" in result.output


def test_sasl_needs_credentials_and_never_shows_the_password() -> None:
    with pytest.raises(ValueError, match="sasl_mechanism"):
        KafkaClientConfig(security_protocol="SASL_PLAINTEXT")
    cfg = KafkaClientConfig(
        security_protocol="SASL_SSL",
        sasl_mechanism="SCRAM-SHA-512",
        sasl_username="gw",
        sasl_password="s3cret-value",
    )
    assert "s3cret-value" not in repr(cfg) and "s3cret-value" not in str(cfg)
    assert cfg.common()["sasl.password"] == "s3cret-value"


def test_extra_properties_cannot_override_what_the_pipeline_owns() -> None:
    with pytest.raises(ValueError, match=r"isolation\.level"):
        KafkaClientConfig(consumer_extra={"isolation.level": "read_uncommitted"})
    with pytest.raises(ValueError, match=r"sasl\.password"):
        KafkaClientConfig(extra={"sasl.password": "x"})
    ok = KafkaClientConfig(producer_extra={"client.rack": "eu-1"})
    assert ok.producer_extra == {"client.rack": "eu-1"}


@pytest.mark.parametrize(
    ("name", "value"),
    [("GROUNDWIRE_BATCH_WITHIN_S", "0.0005"), ("GROUNDWIRE_BATCH_LINGER_S", "0.0004")],
)
def test_batch_waits_librdkafka_would_truncate_to_zero_are_refused(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    """librdkafka takes its consume timeout in whole milliseconds: an idle wait under 1 ms
    would spin the idle stage, a linger under 1 ms would silently be none."""
    monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError) as err:
        load_settings()
    assert name.removeprefix("GROUNDWIRE_").lower() in str(err.value)


def test_batch_waits_at_the_millisecond_and_no_linger_are_accepted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GROUNDWIRE_BATCH_WITHIN_S", "0.001")
    monkeypatch.setenv("GROUNDWIRE_BATCH_LINGER_S", "0")
    settings = load_settings()
    assert (settings.batch_within_s, settings.batch_linger_s) == (0.001, 0.0)


def test_the_redis_password_is_in_no_repr() -> None:
    """The Redis URL may hold a password: a SecretStr in the settings, and the services
    the worker hands the guards (which hold its plain value) do not show it either."""
    from groundwire.streams.settings import Settings
    from groundwire.streams.worker import guard_services

    settings = Settings(redis_url="redis://:hunter2-pw@redis:6379/0")
    services = guard_services(settings)
    assert services.redis_url == "redis://:hunter2-pw@redis:6379/0"
    for shown in (repr(settings), str(settings), repr(services), str(services)):
        assert "hunter2-pw" not in shown
