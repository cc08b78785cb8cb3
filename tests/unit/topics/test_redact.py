"""Credentials in configured URLs never reach what is shown: logs, errors, reprs, /healthz."""

from __future__ import annotations

import logging
import sys
from datetime import UTC, datetime

import pytest
from confluent_kafka import KafkaError

from groundwire.topics.redact import redact_url


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("https://user:pw@llm.example/v1", "https://***@llm.example/v1"),
        ("redis://:p%40ss@redis:6379/0", "redis://***@redis:6379/0"),
        ("redis://:p@ss@redis:6379/0", "redis://***@redis:6379/0"),  # '@' in the password
        ("rediss://default:pw@r:6380?password=pw2", "rediss://***@r:6380?password=***"),
        ("https://hook.example/x?a=1&token=t0k&b=2", "https://hook.example/x?a=1&token=***&b=2"),
        (
            "Kafka at SASL_SSL://u:p@b1:9092,SASL_SSL://u:p@b2:9092: failed",
            "Kafka at SASL_SSL://***@b1:9092,SASL_SSL://***@b2:9092: failed",
        ),
        (
            "ConnectError for 'http://a:b@h/p' (and mail@example.com)",
            "ConnectError for 'http://***@h/p' (and mail@example.com)",
        ),
        ("https://medium.example/@user/post", None),  # an '@' in the path is no userinfo
        ("no url here", None),
        ("b1:9092,b2:9092", None),
    ],
)
def test_userinfo_and_query_credentials_are_redacted(text: str, shown: str | None) -> None:
    assert redact_url(text) == (text if shown is None else shown)


def test_llm_clients_never_show_the_credentials_of_their_base_url() -> None:
    from groundwire.guards.config import GroundingConfig
    from groundwire.guards.consistency.config import ConsistencyConfig
    from groundwire.guards.consistency.llm_judge import LlmJudge
    from groundwire.guards.grounding import build_verifier

    url = "https://svc:pw-0001@llm.example/v1"
    verifier = build_verifier(
        GroundingConfig(verifier="llm", llm_base_url=url, llm_model="m", llm_api_key="sk-0002")  # type: ignore[arg-type]
    )
    judge = LlmJudge(ConsistencyConfig(judge="llm", llm_base_url=url, llm_api_key="sk-0003"))  # type: ignore[arg-type]
    for shown in (repr(verifier), repr(verifier.client), repr(judge)):  # type: ignore[attr-defined]
        assert "pw-0001" not in shown and "sk-000" not in shown
        assert "https://***@llm.example/v1" in shown


def test_kafka_client_errors_are_redacted() -> None:
    """Their message is logged and is the /healthz reason of a stage rebuilding clients."""
    from groundwire.streams.kafka import ClientErrors

    errors = ClientErrors("SASL_SSL://gw:kafka-pw@b1:9096")
    errors(KafkaError(KafkaError._AUTHENTICATION, "bad credentials", fatal=True))
    message = errors.message()
    assert message is not None and "kafka-pw" not in message and "b1:9096" in message


def test_prometheus_errors_name_the_url_without_its_password() -> None:
    from groundwire.metrics.report import PrometheusClient, PrometheusUnavailable

    with pytest.raises(ValueError) as bad:
        PrometheusClient("ftp://ops:prom-pw@prom/")
    assert "prom-pw" not in str(bad.value)
    client = PrometheusClient("http://ops:prom-pw@127.0.0.1:1", timeout_s=0.5)
    with client, pytest.raises(PrometheusUnavailable) as down:
        client.query("up", datetime.now(UTC))
    assert "prom-pw" not in str(down.value) and "http://***@127.0.0.1:1" in str(down.value)


def test_the_log_formatter_redacts_messages_and_tracebacks() -> None:
    from groundwire.streams.cli.common import RedactingFormatter

    try:
        raise ConnectionError("cannot reach redis://:redis-pw@redis:6379/0")
    except ConnectionError:
        record = logging.LogRecord(
            "t", logging.ERROR, __file__, 1, "endpoint %s", ("https://u:log-pw@h/",), sys.exc_info()
        )
    line = RedactingFormatter("%(message)s").format(record)
    assert "log-pw" not in line and "redis-pw" not in line
    assert "https://***@h/" in line and "redis://***@redis:6379/0" in line


def test_an_llm_endpoint_holds_its_key_as_a_secret() -> None:
    """A library caller may pass the key as plain text; it is wrapped at once, so neither
    the endpoint's repr nor `dataclasses.asdict` shows it."""
    import dataclasses

    from pydantic import SecretStr

    from groundwire.guards.grounding.llm_client import LlmEndpoint

    endpoint = LlmEndpoint(base_url="http://h/v1", model="m", api_key="sk-lib-0009")  # type: ignore[arg-type]
    assert isinstance(endpoint.api_key, SecretStr)
    assert endpoint.api_key.get_secret_value() == "sk-lib-0009"
    assert "sk-lib-0009" not in repr(endpoint) + str(dataclasses.asdict(endpoint))
