"""docker-compose.yml and Dockerfile, checked without a Docker engine.

Structure is validated against the Compose Specification's JSON Schema (as vendored by
check-jsonschema), and the file is cross-checked against the code: env names exist in
Settings, mounted files exist, the worker's metrics port is what Prometheus scrapes, the
Kafka image matches CI's Kafka version, and all services agree on the topic prefix.
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
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


def _env_file(path: Path) -> dict[str, str]:
    """NAME=value lines of a compose env file (comments and blank lines skipped)."""
    pairs = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, _, value = line.partition("=")
            pairs[name.strip()] = value.strip()
    return pairs


def _env_files(service: str) -> list[tuple[Path, bool]]:
    """(path, required) of the service's env files, in the order compose reads them."""
    files = SERVICES[service].get("env_file", [])
    files = [files] if isinstance(files, str) else files
    return [
        (REPO / f, True) if isinstance(f, str) else (REPO / f["path"], f.get("required", True))
        for f in files
    ]


def _env(service: str) -> dict[str, str]:
    """What the container sees: env files in order (a later file wins), then `environment`
    (which wins over every env file). Optional files that do not exist are skipped."""
    merged: dict[str, str] = {}
    for path, _required in _env_files(service):
        if path.is_file():
            merged.update(_env_file(path))
    env = SERVICES[service].get("environment", {})
    if isinstance(env, list):
        env = dict(item.split("=", 1) for item in env)
    merged.update({k: str(v) for k, v in env.items()})
    return merged


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


KAFKA_ENV_TEMPLATE = REPO / "config" / "kafka.env.example"
SECRETS_FILE = ".groundwire/kafka.env"


@pytest.mark.parametrize("service", _groundwire_services())
def test_kafka_settings_come_from_env_files_a_secured_cluster_can_override(
    service: str,
) -> None:
    files = _env_files(service)
    required = [path for path, req in files if req]
    assert required and all(path.is_file() for path in required)
    # The operator's file comes last and is optional: a laptop without it still starts.
    assert files[-1] == (REPO / SECRETS_FILE, False)
    # `environment` would win over any env file, so Kafka's address and security are not in it.
    env = SERVICES[service].get("environment", {})
    assert not [k for k in env if k.startswith(("GROUNDWIRE_KAFKA__", "GROUNDWIRE_BOOTSTRAP"))]
    for path in required:
        for name in _env_file(path):
            assert settings_env_error(name) is None, settings_env_error(name)


def test_the_secrets_file_stays_out_of_git_and_the_image() -> None:
    ignored_dir = SECRETS_FILE.split("/")[0]
    assert ignored_dir + "/" in (REPO / ".gitignore").read_text().split()
    assert ignored_dir in (REPO / ".dockerignore").read_text().split()


def test_the_kafka_env_template_is_a_valid_secured_configuration(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from groundwire.streams.settings import load_settings

    template = _env_file(KAFKA_ENV_TEMPLATE)
    assert template["GROUNDWIRE_KAFKA__SECURITY_PROTOCOL"] == "SASL_SSL"
    for name in [n for n in os.environ if n.startswith("GROUNDWIRE_")]:
        monkeypatch.delenv(name)
    for name, value in template.items():
        assert settings_env_error(name) is None, settings_env_error(name)
        monkeypatch.setenv(name, value)
    settings = load_settings()
    assert settings.kafka.sasl_password is not None
    assert template["GROUNDWIRE_KAFKA__SASL_PASSWORD"] not in repr(settings)
    # commented-out lines name settings too
    for line in KAFKA_ENV_TEMPLATE.read_text().splitlines():
        name = line.lstrip("# ").partition("=")[0]
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


DOCKERFILE = (REPO / "Dockerfile").read_text()


def _build_copies() -> list[list[str]]:
    """Sources of the build stage's COPY instructions (not COPY --from)."""
    return [
        ln.split()[1:-1]
        for ln in DOCKERFILE.splitlines()
        if ln.startswith("COPY ") and "--from" not in ln
    ]


def _dockerfile_env() -> dict[str, str]:
    """Every ENV assignment (continuation lines joined)."""
    joined = DOCKERFILE.replace("\\\n", " ")
    env: dict[str, str] = {}
    for line in joined.splitlines():
        if line.startswith("ENV "):
            for pair in line[4:].split():
                name, _, value = pair.partition("=")
                env[name] = value
    return env


def test_dockerfile_sets_only_settings_groundwire_reads() -> None:
    env = _dockerfile_env()
    assert "PYTHONUNBUFFERED" in env
    names = [n for n in env if n.startswith("GROUNDWIRE_")]
    assert names
    for name in names:
        assert settings_env_error(name) is None, settings_env_error(name)


def test_dockerfile_copies_existing_sources_and_runs_unprivileged() -> None:
    lines = DOCKERFILE.splitlines()
    copies = _build_copies()
    assert copies
    for sources in copies:
        for src in sources:
            assert not any(ch in src for ch in "*?["), f"{src}: copy named files, not globs"
            assert (REPO / src).exists(), f"Dockerfile copies missing {src}"
    # every package directory setuptools installs is copied into the image, and the
    # build files: setup.py finds the packages, pyproject names README.md
    for pkg in ("groundwire", "guards", "topics", "streams", "metrics"):
        assert [pkg] in copies
    copied = {src for sources in copies for src in sources}
    assert {"pyproject.toml", "setup.py", "README.md"} <= copied
    assert any(ln.startswith("USER ") and "root" not in ln for ln in lines)
    assert 'ENTRYPOINT ["groundwire"]' in lines
    assert lines[0].startswith("#") and any(ln.startswith("FROM python:3.11") for ln in lines)


def _dockerignored(rel: Path, patterns: list[str]) -> bool:
    """.dockerignore's patterns as this repository uses them: names at the top, `**/name`
    anywhere, `dir/sub` paths."""
    parts = rel.parts
    for pattern in patterns:
        if pattern.startswith("**/"):
            if any(fnmatch.fnmatch(part, pattern[3:]) for part in parts):
                return True
        elif fnmatch.fnmatch(rel.as_posix(), pattern) or any(
            fnmatch.fnmatch("/".join(parts[: i + 1]), pattern) for i in range(len(parts))
        ):
            return True
    return False


def test_the_image_build_context_makes_a_complete_wheel(tmp_path: Path) -> None:
    """The build stage's `pip wheel .`, run on exactly what its COPY lines bring in (minus
    .dockerignore): the wheel holds every module of every package, and the data files."""
    patterns = [
        ln.strip()
        for ln in (REPO / ".dockerignore").read_text().splitlines()
        if ln.strip() and not ln.startswith("#")
    ]
    context = tmp_path / "src"
    context.mkdir()
    for src in (s for sources in _build_copies() for s in sources):
        root = REPO / src
        for path in [root] if root.is_file() else sorted(root.rglob("*")):
            rel = path.relative_to(REPO)
            if path.is_file() and not _dockerignored(rel, patterns):
                (context / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, context / rel)
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", "wheels", str(context)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (wheel,) = (tmp_path / "wheels").glob("groundwire-*.whl")
    with zipfile.ZipFile(wheel) as zf:
        members = set(zf.namelist())
    expected = set()
    for root in ("guards", "topics", "streams", "metrics"):
        for module in (REPO / root).rglob("*.py"):
            if (module.parent / "__init__.py").is_file() and "__pycache__" not in module.parts:
                expected.add(f"groundwire/{module.relative_to(REPO).as_posix()}")
    expected |= {
        f"groundwire/{p.relative_to(REPO).as_posix()}"
        for pattern in (
            "topics/schemas/*.json",
            "guards/grounding/data/*.npy",
            "guards/grounding/data/*.tsv",  # the WordNet antonym table
            "guards/grounding/data/*.txt",  # and its licence
            "metrics/rules/*.yml",
        )
        for p in REPO.glob(pattern)
    }
    expected.add("groundwire/py.typed")  # PEP 561: type checkers read the package's types
    assert any(m.startswith("groundwire/guards/grounding/lexical/") for m in expected)
    assert any(m.endswith(".npy") for m in expected)
    assert "groundwire/guards/grounding/data/antonyms.tsv" in expected
    missing = sorted(expected - members)
    assert not missing, f"the image's wheel lacks {missing}"


def test_the_review_service_runs_the_queue_and_is_scraped() -> None:
    review = SERVICES["review"]
    assert review["command"] == ["review", "serve"]
    env = _env("review")
    assert env["GROUNDWIRE_REVIEW__HOST"] == "0.0.0.0"
    port = env["GROUNDWIRE_REVIEW__PORT"]
    assert any(
        p.endswith(f":{port}:{port}") and p.startswith("127.0.0.1:") for p in review["ports"]
    )
    assert f"127.0.0.1:{port}/readyz" in " ".join(review["healthcheck"]["test"])
    assert env["GROUNDWIRE_REVIEW__PUBLIC_ORIGIN"] == f"http://localhost:{port}"
    # its keys come from a git- and docker-ignored file, never from the compose file
    files = [str(path.relative_to(REPO)) for path, _ in _env_files("review")]
    assert ".groundwire/review.env" in files
    assert not [k for k in review["environment"] if "JWKS" in k]
    assert review["depends_on"]["topics"]["condition"] == "service_completed_successfully"
    jobs = {j["job_name"]: j for j in PROMETHEUS_CFG["scrape_configs"]}
    sd = jobs["groundwire-review"]["dns_sd_configs"][0]
    assert sd["names"] == ["review"] and sd["port"] == int(env["GROUNDWIRE_METRICS_PORT"])
