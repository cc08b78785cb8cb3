"""Which librdkafka properties an operator's `kafka.consumer_extra` can change on a stage
consumer: the fetch tuning, yes; what exactly-once depends on, never."""

from __future__ import annotations

from groundwire.streams import kafka
from groundwire.streams.settings import KafkaClientConfig, Settings


def _stage_config(consumer_extra: dict[str, int | str]) -> dict[str, object]:
    settings = Settings(kafka=KafkaClientConfig(consumer_extra=consumer_extra))
    role = {"isolation.level": "read_committed", "enable.auto.commit": False}
    return kafka._config(
        settings, role, settings.kafka.consumer_extra, None, kafka.STAGE_FETCH_DEFAULTS
    )


def test_fetch_defaults_apply_when_nothing_is_set() -> None:
    config = _stage_config({})
    assert config["fetch.wait.max.ms"] == kafka.STAGE_FETCH_DEFAULTS["fetch.wait.max.ms"]
    assert config["fetch.min.bytes"] == 1


def test_consumer_extra_overrides_the_fetch_defaults() -> None:
    config = _stage_config({"fetch.wait.max.ms": 250, "fetch.min.bytes": 4096})
    assert config["fetch.wait.max.ms"] == 250
    assert config["fetch.min.bytes"] == 4096


def test_the_role_still_wins_over_extras() -> None:
    # isolation.level is refused at validation; an unowned property set by the role
    # (here enable.auto.commit, refused too) cannot be reached through extras at all, so
    # check the ordering with a property the role sets and extras may name.
    settings = Settings(kafka=KafkaClientConfig(consumer_extra={"client.id": "from-extra"}))
    config = kafka._config(
        settings,
        {"client.id": "from-role"},
        settings.kafka.consumer_extra,
        None,
        kafka.STAGE_FETCH_DEFAULTS,
    )
    assert config["client.id"] == "from-role"
