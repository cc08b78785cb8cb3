"""The Helm chart's consistency-scan CronJob: on by default, `groundwire scan` with the
workers' settings, Kafka credentials and TLS files, the schedule the settings name, and
the workers' own schedule off while it runs (and on when it is disabled)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.deploy.test_helm import (  # the module's fixtures and helpers
    ALL_FEATURES,
    SECURED,
    TLS_DIR,
    WITH_SECRETS,
    _by_kind,
    _secret_refs,
    _template,
    helm,  # noqa: F401 - a fixture, used by name
)
from tests.support.deploy import settings_env_error

pytestmark = pytest.mark.deploy


def _cronjob(docs: list[dict[str, Any]]) -> dict[str, Any]:
    (cronjob,) = _by_kind(docs, "CronJob")
    return cronjob


def _pod(cronjob: dict[str, Any]) -> dict[str, Any]:
    pod: dict[str, Any] = cronjob["spec"]["jobTemplate"]["spec"]["template"]["spec"]
    return pod


def _configmap(docs: list[dict[str, Any]]) -> dict[str, str]:
    main = next(c for c in _by_kind(docs, "ConfigMap") if c["metadata"]["name"] == "gw-groundwire")
    return dict(main["data"])


def test_the_scan_cronjob_runs_groundwire_scan_like_a_worker(helm: Path) -> None:  # noqa: F811
    docs = _template(helm, *ALL_FEATURES, *WITH_SECRETS, *SECURED)
    cronjob = _cronjob(docs)
    assert cronjob["metadata"]["labels"]["app.kubernetes.io/component"] == "consistency-scan"
    spec = cronjob["spec"]
    assert spec["schedule"] == "0 3 * * *" and spec["timeZone"] == "Etc/UTC"
    assert spec["concurrencyPolicy"] == "Forbid"
    pod = _pod(cronjob)
    assert pod["restartPolicy"] == "Never"
    (container,) = pod["containers"]
    assert container["args"] == ["scan"]
    # settings exactly as the workers get them
    (deployment,) = [
        d
        for d in _by_kind(docs, "Deployment")
        if d["metadata"]["labels"]["app.kubernetes.io/component"] == "worker"
    ]
    (worker,) = deployment["spec"]["template"]["spec"]["containers"]
    assert container["envFrom"] == worker["envFrom"]
    assert _secret_refs(container) == _secret_refs(worker)
    mounts = {m["mountPath"]: m for m in container["volumeMounts"]}
    assert mounts[TLS_DIR]["readOnly"] is True
    assert "/etc/groundwire" in mounts  # the settings file
    assert container["securityContext"]["readOnlyRootFilesystem"] is True
    for entry in container["env"]:
        assert settings_env_error(entry["name"]) is None, settings_env_error(entry["name"])
    # the schedule the settings name; the workers' own schedule is off
    env = _configmap(docs)
    assert env["GROUNDWIRE_GUARDS__CONSISTENCY__SCHEDULE"] == spec["schedule"]
    assert env["GROUNDWIRE_GUARDS__CONSISTENCY__RUN_IN_WORKER"] == "false"
    for name in env:
        assert settings_env_error(name) is None, settings_env_error(name)


def test_without_the_cronjob_the_workers_keep_the_schedule(helm: Path) -> None:  # noqa: F811
    docs = _template(
        helm,
        "--set",
        "consistencyScan.cronJob.enabled=false",
        "--set",
        "consistencyScan.schedule=30 1 * * *",
    )
    assert _by_kind(docs, "CronJob") == []
    env = _configmap(docs)
    assert "GROUNDWIRE_GUARDS__CONSISTENCY__RUN_IN_WORKER" not in env
    assert env["GROUNDWIRE_GUARDS__CONSISTENCY__SCHEDULE"] == "30 1 * * *"


def test_settings_win_over_the_chart_defaults(helm: Path) -> None:  # noqa: F811
    docs = _template(
        helm, "--set-string", "settings.GROUNDWIRE_GUARDS__CONSISTENCY__RUN_IN_WORKER=true"
    )
    env = _configmap(docs)
    assert env["GROUNDWIRE_GUARDS__CONSISTENCY__RUN_IN_WORKER"] == "true"  # once, the user's
