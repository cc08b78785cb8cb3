"""The Helm chart's autoscaling: a KEDA ScaledObject on the workers' consumer lag.

Off by default. When on, `helm template` renders one kafka trigger per CPU-bound stage,
naming the consumer group and input topic the worker itself uses (derived here from the
rendered ConfigMap through Settings and the stages, not restated), the worker Deployment
as its target with no fixed replica count, Kafka credentials from the operator's Secrets
through a TriggerAuthentication, and refuses a replica ceiling above the partitions.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.deploy.test_helm import (  # the module's fixtures and helpers
    SECURED,
    _by_kind,
    _secret_refs,
    _template,
    helm,  # noqa: F401 - a fixture, used by name
)
from tests.support import REPO

pytestmark = pytest.mark.deploy

ON = ["--set", "autoscaling.enabled=true"]


def _scaled_object(docs: list[dict[str, Any]]) -> dict[str, Any]:
    (scaled,) = _by_kind(docs, "ScaledObject")
    assert scaled["apiVersion"] == "keda.sh/v1alpha1"
    return scaled


def _worker(docs: list[dict[str, Any]]) -> dict[str, Any]:
    (deployment,) = _by_kind(docs, "Deployment")
    return deployment


def _groups_and_topics(
    docs: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> dict[str, str]:
    """consumer group -> input topic of the screen and route stages, as a worker with the
    rendered ConfigMap's environment would name them."""
    from groundwire.guards.factory import build_validator
    from groundwire.streams.runner import StageRunner
    from groundwire.streams.settings import load_settings
    from groundwire.streams.stages import RouteStage, ScreenStage

    for name in [n for n in os.environ if n.startswith("GROUNDWIRE_")]:
        monkeypatch.delenv(name)
    (configmap,) = [
        c for c in _by_kind(docs, "ConfigMap") if "GROUNDWIRE_TOPIC_PREFIX" in c["data"]
    ]
    for name, value in configmap["data"].items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("GROUNDWIRE_GUARDS__DEDUP__BACKEND", "memory")  # no Redis needed
    settings = load_settings(metrics_port=0)
    stages = [
        ScreenStage(settings, None, None),
        RouteStage(settings, build_validator(settings.guards)),
    ]
    return {StageRunner(settings, s, asyncio.Event()).group: s.source_topic for s in stages}


def test_off_by_default(helm: Path) -> None:  # noqa: F811
    docs = _template(helm)
    kinds = {d["kind"] for d in docs}
    assert "ScaledObject" not in kinds and "TriggerAuthentication" not in kinds
    assert _worker(docs)["spec"]["replicas"] == 2


def test_scaled_object_follows_the_workers_groups_and_topics(
    helm: Path,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    values = [
        *ON,
        "--set",
        "kafka.consumerGroup=gw-prod",
        "--set",
        "kafka.topicPrefix=prod.",
        "--set",
        "kafka.partitions=12",
        "--set",
        "autoscaling.maxReplicaCount=12",
        "--set",
        "autoscaling.lagThreshold=2000",
    ]
    docs = _template(helm, *values)
    scaled = _scaled_object(docs)
    worker = _worker(docs)
    spec = scaled["spec"]
    assert spec["scaleTargetRef"] == {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "name": worker["metadata"]["name"],
    }
    # KEDA owns the replica count: a fixed one would be reset on every helm upgrade.
    assert "replicas" not in worker["spec"]
    assert (spec["minReplicaCount"], spec["maxReplicaCount"]) == (1, 12)
    assert "authenticationRef" not in str(spec) and "TriggerAuthentication" not in {
        d["kind"] for d in docs
    }

    expected = _groups_and_topics(docs, monkeypatch)
    assert expected == {"gw-prod.screen": "prod.claims", "gw-prod.route": "prod.claims.screened"}
    triggers = spec["triggers"]
    assert {t["type"] for t in triggers} == {"kafka"}
    assert {t["metadata"]["consumerGroup"]: t["metadata"]["topic"] for t in triggers} == expected
    for trigger in triggers:
        meta = trigger["metadata"]
        assert meta["bootstrapServers"] == "kafka:9092"
        # KEDA reads every metadata value as a string
        assert all(isinstance(v, str) for v in meta.values()), meta
        assert meta["lagThreshold"] == "2000"
        assert meta["offsetResetPolicy"] == "earliest"  # as the stages' consumers
        assert meta["allowIdleConsumers"] == "false"
        assert "sasl" not in meta and "tls" not in meta


def test_secured_kafka_uses_the_workers_secrets(helm: Path) -> None:  # noqa: F811
    docs = _template(helm, *ON, *SECURED)
    (auth,) = _by_kind(docs, "TriggerAuthentication")
    assert auth["apiVersion"] == "keda.sh/v1alpha1"
    refs = {
        r["parameter"]: {"name": r["name"], "key": r["key"]}
        for r in auth["spec"]["secretTargetRef"]
    }
    assert refs == {
        "username": {"name": "kafka-creds", "key": "username"},
        "password": {"name": "kafka-creds", "key": "password"},
        "ca": {"name": "kafka-tls", "key": "ca.crt"},
        "cert": {"name": "kafka-tls", "key": "tls.crt"},
        "key": {"name": "kafka-tls", "key": "tls.key"},
        "keyPassword": {"name": "kafka-tls", "key": "key-password"},
    }
    # the same Secrets and keys the workers read their credentials from
    (container,) = _worker(docs)["spec"]["template"]["spec"]["containers"]
    worker_refs = _secret_refs(container)
    assert worker_refs["GROUNDWIRE_KAFKA__SASL_USERNAME"] == refs["username"]
    assert worker_refs["GROUNDWIRE_KAFKA__SASL_PASSWORD"] == refs["password"]
    assert worker_refs["GROUNDWIRE_KAFKA__SSL_KEY_PASSWORD"] == refs["keyPassword"]
    for trigger in _scaled_object(docs)["spec"]["triggers"]:
        assert trigger["authenticationRef"] == {"name": auth["metadata"]["name"]}
        assert trigger["metadata"]["sasl"] == "scram_sha512"
        assert trigger["metadata"]["tls"] == "enable"


@pytest.mark.parametrize(
    ("protocol", "sasl", "tls"),
    [("SSL", None, "enable"), ("SASL_PLAINTEXT", "plaintext", None)],
)
def test_sasl_and_tls_follow_the_protocol(
    helm: Path,  # noqa: F811
    protocol: str,
    sasl: str | None,
    tls: str | None,
) -> None:
    values = [*ON, "--set", f"kafka.security.protocol={protocol}"]
    if sasl:
        values += ["--set", "kafka.sasl.mechanism=PLAIN", "--set", "kafka.sasl.existingSecret=s"]
    docs = _template(helm, *values)
    for trigger in _scaled_object(docs)["spec"]["triggers"]:
        assert trigger["metadata"].get("sasl") == sasl
        assert trigger["metadata"].get("tls") == tls
    # TLS with the image's system CAs needs no credentials: no TriggerAuthentication
    auths = _by_kind(docs, "TriggerAuthentication")
    params = {r["parameter"] for a in auths for r in a["spec"]["secretTargetRef"]}
    assert params == ({"username", "password"} if sasl else set())
    assert len(auths) == (1 if sasl else 0)
    for trigger in _scaled_object(docs)["spec"]["triggers"]:
        assert ("authenticationRef" in trigger) == bool(sasl)


@pytest.mark.parametrize(
    ("values", "message"),
    [
        (["autoscaling.maxReplicaCount=7"], "more than kafka.partitions 6"),
        (["autoscaling.minReplicaCount=0"], "at least 1"),
        (["autoscaling.minReplicaCount=4", "autoscaling.maxReplicaCount=3"], "less than"),
    ],
)
def test_inconsistent_autoscaling_values_fail_the_render(
    helm: Path,  # noqa: F811
    values: list[str],
    message: str,
) -> None:
    args = [*ON, *(arg for value in values for arg in ("--set", value))]
    cmd = [str(helm), "template", "gw", str(REPO / "helm" / "groundwire"), *args]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode != 0
    assert message in proc.stderr, proc.stderr
