"""Settings are strict: unknown names anywhere (environment or YAML) stop the program."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import BaseModel
from typer.testing import CliRunner

from groundwire.streams.cli import app
from groundwire.streams.settings import (
    KafkaClientConfig,
    Settings,
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


# A setting named like this carries a credential ("nli_tokenizer_path", "llm_max_tokens"
# and "max_token_bytes" do not end with the word, so they are not matched).
CREDENTIAL_NAME = re.compile(r"(?:^|[._])(?:password|token|api_key|secret|secrets)$")


def _leaves(model: type[BaseModel], prefix: tuple[str, ...] = ()) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, field in model.model_fields.items():
        ann = field.annotation
        if isinstance(ann, type) and issubclass(ann, BaseModel):
            out.update(_leaves(ann, (*prefix, name)))
        else:
            out[".".join((*prefix, name))] = ann
    return out


def test_every_credential_setting_is_a_secret_str() -> None:
    """A plain-str credential is hidden from repr but not from model_dump(): a debug dump
    or a settings digest would carry it. Every credential-named setting must be SecretStr
    (or a mapping of them), so a new one cannot be added as a plain string."""
    credentials = {p: a for p, a in _leaves(Settings).items() if CREDENTIAL_NAME.search(p)}
    assert {
        "kafka.sasl_password",
        "kafka.ssl_key_password",
        "guards.citation.issue_token",
        "guards.grounding.llm_api_key",
        "guards.consistency.llm_api_key",
        "guards.faithfulness.regenerate.webhook_token",
        "guards.producer_auth.secrets",
    } <= set(credentials)
    for path, ann in credentials.items():
        assert "SecretStr" in str(ann), f"{path} is {ann}: make it SecretStr"


SECRET_ENV = {
    "GROUNDWIRE_GUARDS__GROUNDING__LLM_API_KEY": "sk-grounding-0001",
    "GROUNDWIRE_GUARDS__CONSISTENCY__LLM_API_KEY": "sk-judge-0002",
    "GROUNDWIRE_GUARDS__CITATION__ISSUE_TOKEN": "ghp-issue-0003",
    "GROUNDWIRE_GUARDS__FAITHFULNESS__REGENERATE__WEBHOOK_TOKEN": "hook-0004",
    "GROUNDWIRE_REDIS_URL": "redis://:redis-pw-0005@redis:6379/0",
}


def test_credentials_from_env_and_yaml_are_read_but_never_dumped(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Environment variables and the YAML file set them as before (plain text in, the
    value out of get_secret_value()), and no dump of the settings holds one."""
    for name, value in SECRET_ENV.items():
        monkeypatch.setenv(name, value)
    settings = load_settings()
    g = settings.guards
    secrets = [
        g.grounding.llm_api_key,
        g.consistency.llm_api_key,
        g.citation.issue_token,
        g.faithfulness.regenerate.webhook_token,
        settings.redis_url,
    ]
    assert [s.get_secret_value() if s else None for s in secrets] == list(SECRET_ENV.values())
    dumps = (
        str(settings.model_dump()),
        str(settings.model_dump(mode="json")),
        settings.model_dump_json(),
        repr(settings),
    )
    for shown in dumps:
        for value in SECRET_ENV.values():
            assert value not in shown
    for name in SECRET_ENV:
        monkeypatch.delenv(name)
    config = tmp_path / "settings.yaml"
    config.write_text(
        "guards:\n  grounding:\n    llm_api_key: sk-yaml-0006\n"
        "  citation:\n    issue_token: ghp-yaml-0007\n"
    )
    monkeypatch.setenv("GROUNDWIRE_CONFIG", str(config))
    from_yaml = load_settings().guards
    assert from_yaml.grounding.llm_api_key is not None
    assert from_yaml.grounding.llm_api_key.get_secret_value() == "sk-yaml-0006"
    assert from_yaml.citation.issue_token is not None
    assert from_yaml.citation.issue_token.get_secret_value() == "ghp-yaml-0007"
    assert "yaml-000" not in from_yaml.model_dump_json()
