"""The Helm chart: `helm lint`/`template`/`package` pass, and the rendered manifests are right.

Helm is built from source at a pinned version by scripts/helm.sh (first run takes a few
minutes; later runs reuse the cache). The checks parse `helm template` output: probes,
settings wiring, secrets kept out of ConfigMaps, env names that Settings knows, and a
PrometheusRule identical to the rule files promtool tested.
"""

from __future__ import annotations

import json
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
        assert container[probe]["httpGet"] == {"path": "/metrics", "port": "metrics"}
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


def test_every_env_name_is_a_setting(rendered: list[dict[str, Any]]) -> None:
    names: set[str] = set()
    for configmap in _by_kind(rendered, "ConfigMap"):
        names |= {k for k in configmap.get("data", {}) if k.startswith("GROUNDWIRE_")}
    for secret in _by_kind(rendered, "Secret"):
        names |= set(secret["stringData"])
    for kind in ("Deployment", "Job"):
        for doc in _by_kind(rendered, kind):
            for container in doc["spec"]["template"]["spec"]["containers"]:
                names |= {e["name"] for e in container.get("env", [])}
    assert len(names) >= 8
    for name in names:
        assert settings_env_error(name) is None, settings_env_error(name)


def test_topic_job_runs_before_workers_with_the_same_kafka_settings(
    rendered: list[dict[str, Any]],
) -> None:
    (job,) = _by_kind(rendered, "Job")
    hooks = job["metadata"]["annotations"]["helm.sh/hook"]
    assert "pre-install" in hooks and "pre-upgrade" in hooks
    (container,) = job["spec"]["template"]["spec"]["containers"]
    assert container["args"] == ["topics", "create"]
    env = {e["name"]: e["value"] for e in container["env"]}
    main = next(
        c for c in _by_kind(rendered, "ConfigMap") if c["metadata"]["name"] == "gw-groundwire"
    )
    for key in ("GROUNDWIRE_BOOTSTRAP_SERVERS", "GROUNDWIRE_TOPIC_PREFIX", "GROUNDWIRE_PARTITIONS"):
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
