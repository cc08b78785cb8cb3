"""The Helm chart: `helm lint`/`template`/`package` pass, and the rendered manifests are right.

Helm is built from source at a pinned version by scripts/helm.sh (first run takes a few
minutes; later runs reuse the cache). The checks parse `helm template` output: probes,
settings wiring, secrets kept out of ConfigMaps, env names that Settings knows, and a
PrometheusRule identical to the rule files promtool tested.
"""

from __future__ import annotations

import json
import os
import subprocess
import tarfile
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.support import REPO
from tests.support.deploy import settings_env_error

HELM_SH = REPO / "scripts" / "helm.sh"
REDIS_SECRET = "redis://:s3cr3t-pw@redis.example:6379/0"
API_KEY = "sk-test-not-a-real-key"
ALL_FEATURES = [
    "--set",
    "prometheusRule.enabled=true",
    "--set",
    "serviceMonitor.enabled=true",
    "--set",
    "grafanaDashboard.enabled=true",
]
WITH_SECRETS = [
    "--set",
    f"redis.url={REDIS_SECRET}",
    "--set",
    f"secretSettings.GROUNDWIRE_GUARDS__GROUNDING__LLM_API_KEY={API_KEY}",
    "--set-string",
    "settings.GROUNDWIRE_GUARDS__DEDUP__THRESHOLD=0.9",
    "--set",
    "settingsFile.guards.grounding.min_confidence_after_penalty=0.4",
]


# Kafka through SASL over TLS, with mutual TLS: every credential from a Secret the operator
# manages (kafka-creds: username/password; kafka-tls: PEM files and the key's password).
SECURED = [
    "--set",
    "kafka.security.protocol=SASL_SSL",
    "--set",
    "kafka.sasl.mechanism=SCRAM-SHA-512",
    "--set",
    "kafka.sasl.existingSecret=kafka-creds",
    "--set",
    "kafka.tls.existingSecret=kafka-tls",
    "--set",
    "kafka.tls.certificateKey=tls.crt",
    "--set",
    "kafka.tls.keyKey=tls.key",
    "--set",
    "kafka.tls.keyPasswordKey=key-password",
]
TLS_DIR = "/etc/groundwire/kafka-tls"


def _run(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(HELM_SH), *args], capture_output=True, text=True, timeout=timeout, check=False
    )


@pytest.fixture(scope="module")
def helm() -> Path:
    proc = _run("path", timeout=1800)  # builds helm on a fresh machine
    assert proc.returncode == 0, proc.stderr
    return Path(proc.stdout.strip().splitlines()[-1])


def _docs(text: str) -> list[dict[str, Any]]:
    return [d for d in yaml.safe_load_all(text) if d]


def _template(helm: Path, *args: str, chart: Path | None = None) -> list[dict[str, Any]]:
    cmd = [str(helm), "template", "gw", str(chart or REPO / "helm" / "groundwire"), *args]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    return _docs(proc.stdout)


def _by_kind(docs: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [d for d in docs if d["kind"] == kind]


@pytest.fixture(scope="module")
def rendered(helm: Path) -> list[dict[str, Any]]:
    return _template(helm, *ALL_FEATURES, *WITH_SECRETS)


def _rule_groups() -> list[dict[str, Any]]:
    groups: list[dict[str, Any]] = []
    for path in sorted((REPO / "metrics" / "rules").glob("*.yml")):
        groups.extend(yaml.safe_load(path.read_text())["groups"])
    return groups


def test_lint_template_and_package(helm: Path) -> None:
    proc = _run("check", timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "lint, template and package OK" in proc.stdout


def test_worker_deployment_probes_and_resources(rendered: list[dict[str, Any]]) -> None:
    (deployment,) = _by_kind(rendered, "Deployment")
    assert deployment["spec"]["replicas"] == 2
    (container,) = deployment["spec"]["template"]["spec"]["containers"]
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    for probe in ("livenessProbe", "readinessProbe"):
        assert container[probe]["httpGet"] == {"path": "/healthz", "port": "metrics"}
        assert container[probe]["periodSeconds"] > 0
    assert container["resources"]["requests"]["cpu"]
    assert container["resources"]["limits"]["memory"]
    (configmap,) = [
        c for c in _by_kind(rendered, "ConfigMap") if c["metadata"]["name"] == "gw-groundwire"
    ]
    assert int(configmap["data"]["GROUNDWIRE_METRICS_PORT"]) == ports["metrics"]
    assert container["securityContext"]["allowPrivilegeEscalation"] is False


def test_settings_come_from_configmap_and_secret(rendered: list[dict[str, Any]]) -> None:
    (deployment,) = _by_kind(rendered, "Deployment")
    (container,) = deployment["spec"]["template"]["spec"]["containers"]
    sources = container["envFrom"]
    configmaps = {c["metadata"]["name"] for c in _by_kind(rendered, "ConfigMap")}
    secrets = {s["metadata"]["name"] for s in _by_kind(rendered, "Secret")}
    assert any("configMapRef" in s and s["configMapRef"]["name"] in configmaps for s in sources)
    assert any("secretRef" in s and s["secretRef"]["name"] in secrets for s in sources)
    (secret,) = _by_kind(rendered, "Secret")
    assert secret["stringData"]["GROUNDWIRE_REDIS_URL"] == REDIS_SECRET
    assert secret["stringData"]["GROUNDWIRE_GUARDS__GROUNDING__LLM_API_KEY"] == API_KEY
    # the YAML settings file is mounted where GROUNDWIRE_CONFIG points
    main = next(
        c for c in _by_kind(rendered, "ConfigMap") if c["metadata"]["name"] == "gw-groundwire"
    )
    mounts = {m["mountPath"] for m in container["volumeMounts"]}
    assert str(Path(main["data"]["GROUNDWIRE_CONFIG"]).parent) in mounts


def test_no_secret_values_in_any_configmap(rendered: list[dict[str, Any]]) -> None:
    for configmap in _by_kind(rendered, "ConfigMap"):
        text = yaml.safe_dump(configmap)
        assert "s3cr3t-pw" not in text
        assert API_KEY not in text
        for key in configmap.get("data", {}):
            assert not any(word in key for word in ("REDIS_URL", "API_KEY", "TOKEN", "PASSWORD"))


def test_secret_setting_in_plain_settings_is_refused(helm: Path) -> None:
    cmd = [
        str(helm),
        "template",
        "gw",
        str(REPO / "helm" / "groundwire"),
        "--set",
        "settings.GROUNDWIRE_REDIS_URL=redis://:pw@r:6379/0",
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode != 0
    assert "is secret" in proc.stderr


@pytest.fixture(scope="module")
def secured(helm: Path) -> list[dict[str, Any]]:
    return _template(helm, *SECURED)


def _env_names(docs: list[dict[str, Any]]) -> set[str]:
    names: set[str] = set()
    for configmap in _by_kind(docs, "ConfigMap"):
        names |= {k for k in configmap.get("data", {}) if k.startswith("GROUNDWIRE_")}
    for secret in _by_kind(docs, "Secret"):
        names |= set(secret["stringData"])
    for kind in ("Deployment", "Job"):
        for doc in _by_kind(docs, kind):
            for container in doc["spec"]["template"]["spec"]["containers"]:
                names |= {e["name"] for e in container.get("env", [])}
    return names


def test_every_env_name_is_a_setting(
    rendered: list[dict[str, Any]], secured: list[dict[str, Any]]
) -> None:
    for docs in (rendered, secured):
        names = _env_names(docs)
        assert len(names) >= 8
        for name in names:
            assert settings_env_error(name) is None, settings_env_error(name)
    assert "GROUNDWIRE_KAFKA__SASL_PASSWORD" in _env_names(secured)


def _containers(docs: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Worker and topic-Job containers with their pod specs, by kind."""
    found = {}
    for kind in ("Deployment", "Job"):
        (doc,) = _by_kind(docs, kind)
        pod = doc["spec"]["template"]["spec"]
        (container,) = pod["containers"]
        found[kind] = {"container": container, "pod": pod}
    return found


def _secret_refs(container: dict[str, Any]) -> dict[str, dict[str, str]]:
    return {
        e["name"]: e["valueFrom"]["secretKeyRef"]
        for e in container.get("env", [])
        if "secretKeyRef" in e.get("valueFrom", {})
    }


def _plain_env(docs: list[dict[str, Any]], kind: str) -> dict[str, str]:
    """The values a container sees from the ConfigMap (workers) or inline (the Job)."""
    if kind == "Deployment":
        main = next(
            c for c in _by_kind(docs, "ConfigMap") if c["metadata"]["name"] == "gw-groundwire"
        )
        return dict(main["data"])
    container = _containers(docs)[kind]["container"]
    return {e["name"]: e["value"] for e in container["env"] if "value" in e}


@pytest.mark.parametrize("kind", ["Deployment", "Job"])
def test_kafka_credentials_come_from_the_operators_secrets(
    secured: list[dict[str, Any]], kind: str
) -> None:
    container = _containers(secured)[kind]["container"]
    assert _secret_refs(container) == {
        "GROUNDWIRE_KAFKA__SASL_USERNAME": {"name": "kafka-creds", "key": "username"},
        "GROUNDWIRE_KAFKA__SASL_PASSWORD": {"name": "kafka-creds", "key": "password"},
        "GROUNDWIRE_KAFKA__SSL_KEY_PASSWORD": {"name": "kafka-tls", "key": "key-password"},
    }
    env = _plain_env(secured, kind)
    assert env["GROUNDWIRE_KAFKA__SECURITY_PROTOCOL"] == "SASL_SSL"
    assert env["GROUNDWIRE_KAFKA__SASL_MECHANISM"] == "SCRAM-SHA-512"
    assert not [k for k in env if "PASSWORD" in k or "USERNAME" in k]


@pytest.mark.parametrize("kind", ["Deployment", "Job"])
def test_kafka_tls_files_are_mounted_where_the_settings_point(
    secured: list[dict[str, Any]], kind: str
) -> None:
    found = _containers(secured)[kind]
    env = _plain_env(secured, kind)
    assert {k: v for k, v in env.items() if k.endswith("_LOCATION")} == {
        "GROUNDWIRE_KAFKA__SSL_CA_LOCATION": f"{TLS_DIR}/ca.crt",
        "GROUNDWIRE_KAFKA__SSL_CERTIFICATE_LOCATION": f"{TLS_DIR}/tls.crt",
        "GROUNDWIRE_KAFKA__SSL_KEY_LOCATION": f"{TLS_DIR}/tls.key",
    }
    (mount,) = [m for m in found["container"]["volumeMounts"] if m["mountPath"] == TLS_DIR]
    assert mount["readOnly"] is True
    (volume,) = [v for v in found["pod"]["volumes"] if v["name"] == mount["name"]]
    assert volume["secret"]["secretName"] == "kafka-tls"


def test_the_secured_environment_is_what_settings_accept(
    secured: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rendered worker environment, Secret values filled in, loads as Settings."""
    from groundwire.streams.settings import load_settings

    for name in [n for n in os.environ if n.startswith("GROUNDWIRE_")]:
        monkeypatch.delenv(name)
    container = _containers(secured)["Deployment"]["container"]
    env = _plain_env(secured, "Deployment")
    env.update(
        {name: f"{ref['name']}.{ref['key']}" for name, ref in _secret_refs(container).items()}
    )
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    settings = load_settings()
    props = settings.kafka.common()
    assert props["security.protocol"] == "SASL_SSL"
    assert props["sasl.mechanism"] == "SCRAM-SHA-512"
    assert props["sasl.username"] == "kafka-creds.username"
    assert props["sasl.password"] == "kafka-creds.password"
    assert props["ssl.key.location"] == f"{TLS_DIR}/tls.key"
    assert "kafka-creds.password" not in repr(settings)
    assert "kafka-tls.key-password" not in repr(settings)


def test_plaintext_by_default(helm: Path) -> None:
    docs = _template(helm)
    for kind, found in _containers(docs).items():
        env = _plain_env(docs, kind)
        assert env["GROUNDWIRE_KAFKA__SECURITY_PROTOCOL"] == "PLAINTEXT"
        assert not [k for k in env if "SASL" in k or "SSL_" in k]
        assert _secret_refs(found["container"]) == {}
        assert all(v["name"] != "kafka-tls" for v in found["pod"]["volumes"])


@pytest.mark.parametrize(
    ("values", "message"),
    [
        (["kafka.security.protocol=SASL_SSL", "kafka.sasl.mechanism=PLAIN"], "existingSecret"),
        (["kafka.security.protocol=SASL_PLAINTEXT", "kafka.sasl.existingSecret=s"], "mechanism"),
        (["kafka.security.protocol=TLS"], "one of PLAINTEXT"),
        (["kafka.sasl.existingSecret=s"], "protocol is PLAINTEXT"),
        (["kafka.tls.keyKey=tls.key"], "kafka.tls.existingSecret"),
        (["settings.GROUNDWIRE_KAFKA__SASL_PASSWORD=pw"], "is secret"),
        (["settings.GROUNDWIRE_KAFKA__SECURITY_PROTOCOL=SSL"], "kafka.* values"),
        (["secretSettings.GROUNDWIRE_KAFKA__SASL_PASSWORD=pw"], "existingSecret"),
    ],
)
def test_inconsistent_kafka_security_values_fail_the_render(
    helm: Path, values: list[str], message: str
) -> None:
    args = [arg for value in values for arg in ("--set", value)]
    cmd = [str(helm), "template", "gw", str(REPO / "helm" / "groundwire"), *args]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode != 0
    assert message in proc.stderr, proc.stderr


def test_topic_job_runs_before_workers_with_the_same_kafka_settings(
    rendered: list[dict[str, Any]],
) -> None:
    (job,) = _by_kind(rendered, "Job")
    hooks = job["metadata"]["annotations"]["helm.sh/hook"]
    assert "pre-install" in hooks and "pre-upgrade" in hooks
    (container,) = job["spec"]["template"]["spec"]["containers"]
    assert container["args"] == ["topics", "create"]
    env = {e["name"]: e["value"] for e in container["env"] if "value" in e}
    main = next(
        c for c in _by_kind(rendered, "ConfigMap") if c["metadata"]["name"] == "gw-groundwire"
    )
    for key in (
        "GROUNDWIRE_BOOTSTRAP_SERVERS",
        "GROUNDWIRE_TOPIC_PREFIX",
        "GROUNDWIRE_PARTITIONS",
        "GROUNDWIRE_KAFKA__SECURITY_PROTOCOL",
    ):
        assert env[key] == main["data"][key]


def test_prometheus_rule_equals_the_rule_files(rendered: list[dict[str, Any]]) -> None:
    (rule,) = _by_kind(rendered, "PrometheusRule")
    assert rule["spec"]["groups"] == _rule_groups()


def test_packaged_chart_carries_rules_and_dashboard(helm: Path, tmp_path: Path) -> None:
    proc = _run("package", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    (archive,) = tmp_path.glob("groundwire-*.tgz")
    with tarfile.open(archive) as tar:
        members = tar.getnames()
    assert "groundwire/rules/grounding.yml" in members
    assert "groundwire/dashboards/hallucination.json" in members
    assert not [m for m in members if "/rules/tests/" in m]  # .helmignore
    docs = _template(helm, *ALL_FEATURES, chart=archive)
    (rule,) = _by_kind(docs, "PrometheusRule")
    assert rule["spec"]["groups"] == _rule_groups()


def test_dashboard_configmap_and_service_monitor(rendered: list[dict[str, Any]]) -> None:
    (dash,) = [
        c for c in _by_kind(rendered, "ConfigMap") if c["metadata"]["name"].endswith("dashboard")
    ]
    assert dash["metadata"]["labels"]["grafana_dashboard"] == "1"
    expected = json.loads((REPO / "metrics" / "dashboards" / "hallucination.json").read_text())
    assert json.loads(dash["data"]["hallucination.json"]) == expected
    (monitor,) = _by_kind(rendered, "ServiceMonitor")
    (service,) = _by_kind(rendered, "Service")
    endpoint = monitor["spec"]["endpoints"][0]
    assert endpoint["port"] in {p["name"] for p in service["spec"]["ports"]}
    assert {"targetLabel": "job", "replacement": "groundwire-worker"} in endpoint["relabelings"]
    selector = monitor["spec"]["selector"]["matchLabels"]
    assert selector.items() <= service["metadata"]["labels"].items()


def test_optional_resources_are_off_by_default(helm: Path) -> None:
    kinds = {d["kind"] for d in _template(helm)}
    assert "PrometheusRule" not in kinds
    assert "ServiceMonitor" not in kinds
    assert {"Deployment", "ConfigMap", "Secret", "Job", "Service"} <= kinds


REVIEW = [
    "--set",
    "review.enabled=true",
    "--set",
    "review.auth.jwksSecret=idp-keys",
    "--set",
    "review.auth.adminRole=review-admin",
    "--set",
    "review.auth.issuer=https://id.example.com",
    "--set",
    "review.publicOrigin=https://review.example.com",
]


@pytest.fixture(scope="module")
def with_review(helm: Path) -> list[dict[str, Any]]:
    return _template(helm, *ALL_FEATURES, *WITH_SECRETS, *SECURED, *REVIEW)


def _component(docs: list[dict[str, Any]], kind: str, component: str) -> dict[str, Any]:
    (doc,) = [
        d
        for d in _by_kind(docs, kind)
        if d["metadata"]["labels"].get("app.kubernetes.io/component") == component
    ]
    return doc


def test_review_service_has_its_own_deployment_service_and_key_secret(
    with_review: list[dict[str, Any]],
) -> None:
    deployment = _component(with_review, "Deployment", "review")
    pod = deployment["spec"]["template"]["spec"]
    (container,) = pod["containers"]
    assert container["args"] == ["review", "serve"]
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    assert container["livenessProbe"]["httpGet"] == {"path": "/healthz", "port": "http"}
    assert container["readinessProbe"]["httpGet"] == {"path": "/readyz", "port": "http"}
    env = {e["name"]: e for e in container["env"]}
    assert env["GROUNDWIRE_REVIEW__HOST"]["value"] == "0.0.0.0"
    assert int(env["GROUNDWIRE_REVIEW__PORT"]["value"]) == ports["http"]
    assert env["GROUNDWIRE_REVIEW__AUTH__ADMIN_ROLE"]["value"] == "review-admin"
    assert env["GROUNDWIRE_REVIEW__PUBLIC_ORIGIN"]["value"] == "https://review.example.com"
    # the key set comes from the operator's Secret, mounted read-only where the setting points
    jwks = env["GROUNDWIRE_REVIEW__AUTH__JWKS_FILE"]["value"]
    (mount,) = [m for m in container["volumeMounts"] if m["name"] == "review-auth"]
    assert mount["readOnly"] is True and jwks.startswith(mount["mountPath"] + "/")
    (volume,) = [v for v in pod["volumes"] if v["name"] == "review-auth"]
    assert volume["secret"]["secretName"] == "idp-keys"
    assert jwks.endswith("/" + volume["secret"]["items"][0]["path"])
    # settings (Redis URL, Kafka credentials) reach it like the workers
    assert {s.get("secretRef", {}).get("name") for s in container["envFrom"]} >= {"gw-groundwire"}
    assert "GROUNDWIRE_KAFKA__SASL_PASSWORD" in _secret_refs(container)
    assert container["securityContext"]["readOnlyRootFilesystem"] is True
    for name in env:
        assert settings_env_error(name) is None, settings_env_error(name)
    service = _component(with_review, "Service", "review")
    assert {p["targetPort"] for p in service["spec"]["ports"]} == {"http", "metrics"}
    assert service["spec"]["selector"]["app.kubernetes.io/component"] == "review"


def test_review_is_off_by_default_and_needs_its_key_secret(helm: Path) -> None:
    default = _template(helm)
    assert not [
        d
        for d in default
        if d["metadata"].get("labels", {}).get("app.kubernetes.io/component") == "review"
    ]
    cmd = [
        str(helm),
        "template",
        "gw",
        str(REPO / "helm" / "groundwire"),
        "--set",
        "review.enabled=true",
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode != 0 and "review.auth.jwksSecret" in proc.stderr
