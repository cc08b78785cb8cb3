"""docker-compose.yml and Dockerfile, checked without a Docker engine.

Structure is validated against the Compose Specification's JSON Schema (as vendored by
check-jsonschema), and the file is cross-checked against the code: env names exist in
Settings, mounted files exist, the worker's metrics port is what Prometheus scrapes, the
Kafka image matches CI's Kafka version, and all services agree on the topic prefix.
"""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from tests.support import REPO
from tests.support.deploy import settings_env_error

COMPOSE = yaml.safe_load((REPO / "docker-compose.yml").read_text())
SERVICES: dict[str, dict[str, Any]] = COMPOSE["services"]
PROMETHEUS_CFG = yaml.safe_load((REPO / "metrics" / "prometheus.yml").read_text())


def _env(service: str) -> dict[str, str]:
    env = SERVICES[service].get("environment", {})
    if isinstance(env, list):
        env = dict(item.split("=", 1) for item in env)
    return {k: str(v) for k, v in env.items()}


def _groundwire_services() -> list[str]:
    return [n for n, s in SERVICES.items() if s.get("image", "").startswith("groundwire")]


def test_compose_matches_the_compose_specification() -> None:
    schema_file = resources.files("check_jsonschema.builtin_schemas.vendor") / "compose-spec.json"
    schema = json.loads(schema_file.read_text())
    errors = sorted(
        jsonschema.Draft7Validator(schema).iter_errors(COMPOSE), key=lambda e: list(e.path)
    )
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors)


def test_the_schema_check_catches_mistakes() -> None:
    """Guard against a vacuous schema: a misspelt service key must be reported."""
    schema_file = resources.files("check_jsonschema.builtin_schemas.vendor") / "compose-spec.json"
    schema = json.loads(schema_file.read_text())
    broken = {"services": {"worker": {"image": "x", "enviroment": {"A": "1"}}}}
    assert list(jsonschema.Draft7Validator(schema).iter_errors(broken))


def test_all_components_are_there() -> None:
    assert {"kafka", "topics", "redis", "worker", "prometheus", "grafana"} <= set(SERVICES)


def test_kafka_is_the_official_image_at_the_ci_version() -> None:
    pom = (REPO / "scripts" / "kafka-runtime" / "pom.xml").read_text()
    ci_version = re.search(r"<kafka.version>([^<]+)</kafka.version>", pom)
    assert ci_version is not None
    assert SERVICES["kafka"]["image"] == f"apache/kafka:{ci_version.group(1)}"
    assert SERVICES["kafka"]["image"] == "apache/kafka:4.4.0"
    env = _env("kafka")
    assert "controller" in env["KAFKA_PROCESS_ROLES"]  # KRaft, no ZooKeeper
    assert env["KAFKA_AUTO_CREATE_TOPICS_ENABLE"] == "false"


def test_topic_creation_is_one_shot_and_gates_the_workers() -> None:
    topics = SERVICES["topics"]
    assert topics["command"] == ["topics", "create"]
    assert topics["restart"] == "no"
    assert topics["depends_on"]["kafka"]["condition"] == "service_healthy"
    worker_deps = SERVICES["worker"]["depends_on"]
    assert worker_deps["topics"]["condition"] == "service_completed_successfully"
    assert worker_deps["redis"]["condition"] == "service_healthy"


@pytest.mark.parametrize("service", _groundwire_services())
def test_env_names_exist_in_settings(service: str) -> None:
    env = _env(service)
    assert env, f"{service} has no environment"
    for name in env:
        if name.startswith("GROUNDWIRE_"):
            assert settings_env_error(name) is None, settings_env_error(name)


def test_groundwire_services_agree_on_prefix_and_brokers() -> None:
    envs = [_env(s) for s in _groundwire_services()]
    assert len(envs) >= 2
    for key in ("GROUNDWIRE_TOPIC_PREFIX", "GROUNDWIRE_BOOTSTRAP_SERVERS", "GROUNDWIRE_REDIS_URL"):
        assert len({e[key] for e in envs}) == 1, f"{key} differs between services"
    prefix = envs[0]["GROUNDWIRE_TOPIC_PREFIX"]
    assert re.fullmatch(r"[A-Za-z0-9._-]+\.", prefix)
    assert envs[0]["GROUNDWIRE_BOOTSTRAP_SERVERS"].split(":")[0] in SERVICES
    assert "//redis:" in envs[0]["GROUNDWIRE_REDIS_URL"]


def test_worker_metrics_port_is_what_prometheus_scrapes() -> None:
    port = int(_env("worker")["GROUNDWIRE_METRICS_PORT"])
    assert str(port) in [str(p) for p in SERVICES["worker"].get("expose", [])]
    jobs = {j["job_name"]: j for j in PROMETHEUS_CFG["scrape_configs"]}
    job = jobs["groundwire-worker"]
    sd = job["dns_sd_configs"][0]
    assert sd["port"] == port
    assert sd["names"] == ["worker"]
    # GroundwireWorkerDown selects this job name
    assert 'job="groundwire-worker"' in (REPO / "metrics" / "rules" / "pipeline.yml").read_text()
    dockerfile = (REPO / "Dockerfile").read_text()
    assert f"EXPOSE {port}" in dockerfile
    assert f"GROUNDWIRE_METRICS_PORT={port}" in dockerfile


def _bind_mounts() -> list[tuple[str, Path, str]]:
    mounts = []
    for name, service in SERVICES.items():
        for volume in service.get("volumes", []):
            source, target = volume.split(":")[:2]
            if source.startswith("."):
                mounts.append((name, (REPO / source).resolve(), target))
    return mounts


def test_mounted_files_exist() -> None:
    mounts = _bind_mounts()
    assert len(mounts) >= 4
    for service, source, _target in mounts:
        assert source.exists(), f"{service} mounts {source}, which does not exist"


def test_prometheus_loads_the_rules_and_grafana_the_dashboard() -> None:
    targets = {(s, t): src for s, src, t in _bind_mounts()}
    config_target = "/etc/prometheus/prometheus.yml"
    assert targets[("prometheus", config_target)] == REPO / "metrics" / "prometheus.yml"
    rules_target = "/etc/prometheus/rules"
    assert targets[("prometheus", rules_target)] == REPO / "metrics" / "rules"
    # rule_files are relative to the config file, so they resolve inside the mount
    for pattern in PROMETHEUS_CFG["rule_files"]:
        resolved = str(Path(config_target).parent / pattern)
        assert resolved.startswith(rules_target + "/")
    provisioning = targets[("grafana", "/etc/grafana/provisioning")]
    assert provisioning == REPO / "metrics" / "grafana" / "provisioning"
    provider = yaml.safe_load((provisioning / "dashboards" / "groundwire.yml").read_text())
    dash_path = provider["providers"][0]["options"]["path"]
    assert targets[("grafana", dash_path)] == REPO / "metrics" / "dashboards"
    home = _env("grafana")["GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH"]
    assert home.startswith(dash_path + "/")
    assert (REPO / "metrics" / "dashboards" / Path(home).name).is_file()
    datasources = yaml.safe_load((provisioning / "datasources" / "prometheus.yml").read_text())
    url = datasources["datasources"][0]["url"]
    assert url.split("//")[1].split(":")[0] == "prometheus"
    assert any(p.endswith(":" + url.rsplit(":", 1)[1]) for p in SERVICES["prometheus"]["ports"])


def test_dockerfile_copies_existing_sources_and_runs_unprivileged() -> None:
    lines = (REPO / "Dockerfile").read_text().splitlines()
    copies = [ln.split()[1:-1] for ln in lines if ln.startswith("COPY ") and "--from" not in ln]
    assert copies
    for sources in copies:
        for src in sources:
            if any(ch in src for ch in "*?["):
                continue  # optional glob
            assert (REPO / src).exists(), f"Dockerfile copies missing {src}"
    # every package directory setuptools installs is copied into the image
    for pkg in ("groundwire", "guards", "topics", "streams", "metrics"):
        assert [pkg] in copies
    assert any(ln.startswith("USER ") and "root" not in ln for ln in lines)
    assert 'ENTRYPOINT ["groundwire"]' in lines
    assert lines[0].startswith("#") and any(ln.startswith("FROM python:3.11") for ln in lines)
