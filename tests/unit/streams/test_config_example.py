"""config/guards.example.yaml documents every setting, with the code's defaults.

The file is loaded the way a deployment loads its settings file (GROUNDWIRE_CONFIG). The
settings models are walked, so a new field without a line in the example fails here, and
so does a default in the example that is not the code's.
"""

from __future__ import annotations

import re
import types
from pathlib import Path
from typing import Union, get_args, get_origin

import pytest
import yaml
from pydantic import BaseModel, SecretStr
from pydantic.fields import FieldInfo

from groundwire.streams.settings import Settings, load_settings
from tests.support import REPO

EXAMPLE = REPO / "config" / "guards.example.yaml"
# A key line, active ("  threshold: 0.92  # ...") or commented out ("  # sasl_password: ...").
KEY_LINE = re.compile(r"^(?P<indent> *)(?P<commented>#\s*)?(?P<key>[a-z][a-z0-9_]*):(?:\s|$)")

Path_ = tuple[str, ...]


def _section(field: FieldInfo) -> type[BaseModel] | None:
    ann = field.annotation
    return ann if isinstance(ann, type) and issubclass(ann, BaseModel) else None


def _is_secret(field: FieldInfo) -> bool:
    ann = field.annotation
    args = get_args(ann) if get_origin(ann) in (Union, types.UnionType) else (ann,)
    return field.repr is False or SecretStr in args


def _walk(model: type[BaseModel], prefix: Path_ = ()) -> dict[Path_, FieldInfo]:
    """Every leaf setting (path -> field); sections are walked into, not listed."""
    leaves: dict[Path_, FieldInfo] = {}
    for name, field in model.model_fields.items():
        section = _section(field)
        if section is not None:
            leaves.update(_walk(section, (*prefix, name)))
        else:
            leaves[(*prefix, name)] = field
    return leaves


def _sections(model: type[BaseModel], prefix: Path_ = ()) -> set[Path_]:
    found: set[Path_] = set()
    for name, field in model.model_fields.items():
        section = _section(field)
        if section is not None:
            found.add((*prefix, name))
            found |= _sections(section, (*prefix, name))
    return found


def _documented() -> dict[Path_, tuple[bool, str]]:
    """Key path -> (commented out, the line) for every key line of the example."""
    stack: list[tuple[int, str]] = []
    keys: dict[Path_, tuple[bool, str]] = {}
    for line in EXAMPLE.read_text().splitlines():
        match = KEY_LINE.match(line)
        if match is None:
            continue
        indent = len(match["indent"])
        while stack and stack[-1][0] >= indent:
            stack.pop()
        path = (*(name for _, name in stack), match["key"])
        assert path not in keys, f"{'.'.join(path)} appears twice in {EXAMPLE.name}"
        keys[path] = (match["commented"] is not None, line)
        if match["commented"] is None:
            stack.append((indent, match["key"]))
    return keys


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    import os

    for name in list(os.environ):
        if name.upper().startswith("GROUNDWIRE_"):
            monkeypatch.delenv(name)
    return monkeypatch


def test_every_setting_is_in_the_example() -> None:
    documented = _documented()
    missing = sorted(".".join(p) for p in _walk(Settings) if p not in documented)
    assert not missing, f"add these settings to {EXAMPLE.relative_to(REPO)}: {', '.join(missing)}"


def test_the_example_names_no_setting_that_does_not_exist() -> None:
    known = set(_walk(Settings)) | _sections(Settings)
    stale = sorted(".".join(p) for p in _documented() if p not in known)
    assert not stale, f"{EXAMPLE.relative_to(REPO)} names unknown settings: {', '.join(stale)}"


def test_every_setting_line_has_a_comment() -> None:
    documented = _documented()
    for path in _walk(Settings):
        commented, line = documented[path]
        text = line.split("#", 2)[-1] if commented else line.partition("#")[2]
        assert "#" in line and text.strip(), f"{'.'.join(path)}: no one-line comment: {line!r}"


def test_secrets_appear_only_commented_out() -> None:
    documented = _documented()
    secrets = [path for path, field in _walk(Settings).items() if _is_secret(field)]
    assert {("kafka", "sasl_password"), ("redis_url",)} <= set(secrets)
    for path in secrets:
        commented, line = documented[path]
        assert commented, f"{'.'.join(path)} is a secret: show it commented out only ({line!r})"


def test_the_example_loads_and_its_values_are_the_defaults(
    clean_env: pytest.MonkeyPatch,
) -> None:
    defaults = Settings()
    clean_env.setenv("GROUNDWIRE_CONFIG", str(EXAMPLE))
    loaded = load_settings()
    # worker_id defaults to the host name, so the example leaves it commented out.
    assert loaded.model_dump(exclude={"worker_id"}) == defaults.model_dump(exclude={"worker_id"})
    # ... and the file did set the values (not merely left everything to the defaults).
    raw = yaml.safe_load(EXAMPLE.read_text())
    assert raw["guards"]["dedup"]["threshold"] == loaded.guards.dedup.threshold
    assert len(raw["guards"]["provenance"]["template_signatures"]) >= 1


def test_a_changed_value_in_a_copy_takes_effect(
    clean_env: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    copy = tmp_path / "guards.prod.yaml"
    copy.write_text(EXAMPLE.read_text().replace("threshold: 0.92", "threshold: 0.95", 1))
    clean_env.setenv("GROUNDWIRE_CONFIG", str(copy))
    assert load_settings().guards.dedup.threshold == 0.95


# Places that tell readers about a settings file under config/.
CITING = [
    REPO / "README.md",
    *sorted((REPO / "docs").rglob("*.md")),
    REPO / "helm" / "groundwire" / "values.yaml",
    *sorted((REPO / "streams").rglob("*.py")),
    REPO / "Dockerfile",
    REPO / "docker-compose.yml",
]
CONFIG_PATH = re.compile(r"(?<![\w/.-])config/[\w.-]+\.ya?ml")


def test_every_cited_settings_file_exists() -> None:
    cited = {
        (path.relative_to(REPO), match)
        for path in CITING
        if path.is_file()
        for match in CONFIG_PATH.findall(path.read_text(encoding="utf-8"))
    }
    missing = sorted(f"{where}: {name}" for where, name in cited if not (REPO / name).is_file())
    assert not missing, "cited but not in the repository: " + "; ".join(missing)
