"""Helpers shared by the deployment checks (compose, Helm), and tests of the helpers.

`settings_env_error` answers "would groundwire read this environment variable?" from the
Settings model itself, so a renamed setting breaks the compose/Helm checks instead of
silently being ignored by every deployed worker.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel

from groundwire.streams.settings import Settings

REPO = Path(__file__).resolve().parents[2]
PREFIX = "GROUNDWIRE_"

# Read directly from the environment rather than through Settings fields.
EXTRA_ENV = {
    "GROUNDWIRE_CONFIG",  # path of the YAML settings file (streams/settings.py)
    "GROUNDWIRE_PROMETHEUS_URL",  # `groundwire report` default (streams/cli_report.py)
}


def settings_env_error(name: str) -> str | None:
    """None if `name` maps onto a Settings field (nested with `__`), else why not."""
    if name in EXTRA_ENV:
        return None
    if not name.startswith(PREFIX):
        return f"{name} lacks the {PREFIX} prefix"
    model: type[BaseModel] = Settings
    parts = name[len(PREFIX) :].lower().split("__")
    for i, part in enumerate(parts):
        field = model.model_fields.get(part)
        if field is None:
            return f"{name}: {part!r} is not a field of {model.__name__}"
        annotation = field.annotation
        if i < len(parts) - 1:
            if not (isinstance(annotation, type) and issubclass(annotation, BaseModel)):
                return f"{name}: {part!r} is not a nested settings section"
            model = annotation
    return None


def test_known_settings_are_accepted() -> None:
    for name in (
        "GROUNDWIRE_BOOTSTRAP_SERVERS",
        "GROUNDWIRE_METRICS_PORT",
        "GROUNDWIRE_GUARDS__DEDUP__THRESHOLD",
        "GROUNDWIRE_CONFIG",
    ):
        assert settings_env_error(name) is None, name


def test_typos_and_wrong_nesting_are_rejected() -> None:
    for name in (
        "GROUNDWIRE_BOOTSTRAP_SERVER",
        "GROUNDWIRE_GUARDS__DEDUP__TRESHOLD",
        "GROUNDWIRE_METRICS_PORT__X",
        "BOOTSTRAP_SERVERS",
    ):
        assert settings_env_error(name) is not None, name
