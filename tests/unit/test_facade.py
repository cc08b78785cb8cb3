"""The library face: `from groundwire import ...` and `from groundwire.guards import ...`.

Both packages load their names on first use (PEP 562) and tell type checkers the same in
an `if TYPE_CHECKING:` block; these tests keep the runtime table, the static imports and
`__all__` in step, and keep `import groundwire` light.
"""

from __future__ import annotations

import ast
import importlib
import importlib.metadata
import subprocess
import sys
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

import groundwire
import groundwire.guards

REPO = Path(__file__).resolve().parents[2]
FACADES = {
    groundwire: REPO / "groundwire" / "__init__.py",
    groundwire.guards: REPO / "guards" / "__init__.py",
}


def _type_checking_imports(path: Path) -> dict[str, str]:
    """name -> module, from the `if TYPE_CHECKING:` block of a package's __init__.py."""
    found: dict[str, str] = {}
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for stmt in node.body:
                assert isinstance(stmt, ast.ImportFrom) and stmt.module, ast.unparse(stmt)
                for alias in stmt.names:
                    found[alias.asname or alias.name] = stmt.module
    return found


@pytest.mark.parametrize("package", list(FACADES), ids=lambda m: m.__name__)
def test_runtime_table_static_imports_and_all_agree(package: ModuleType) -> None:
    exports: dict[str, str] = package._EXPORTS
    assert _type_checking_imports(FACADES[package]) == exports
    assert set(package.__all__) - {"__version__"} == set(exports)
    assert len(package.__all__) == len(set(package.__all__))


@pytest.mark.parametrize("package", list(FACADES), ids=lambda m: m.__name__)
def test_every_name_is_the_defining_modules_object(package: ModuleType) -> None:
    for name, module in package._EXPORTS.items():
        assert getattr(package, name) is getattr(importlib.import_module(module), name)
    assert set(package._EXPORTS) <= set(dir(package))


def test_unknown_names_and_subpackages_behave_as_usual() -> None:
    with pytest.raises(AttributeError, match="no_such_name"):
        groundwire.no_such_name  # noqa: B018
    from groundwire import topics
    from groundwire.guards import hedge

    assert topics.__name__ == "groundwire.topics"
    assert hedge.__name__ == "groundwire.guards.hedge"


def test_the_user_facing_names_are_there() -> None:
    assert {
        "Claim",
        "SourceTurn",
        "RoutedResult",
        "Tier",
        "GuardsConfig",
        "Validator",
        "build_validator",
        "GuardServices",
        "screen_batch",
    } <= set(groundwire.__all__)
    assert groundwire.__version__ == importlib.metadata.version("groundwire")


def test_import_groundwire_stays_light() -> None:
    """A producer importing `groundwire.topics.names` must not pay for pydantic and numpy."""
    code = (
        "import sys, groundwire, groundwire.guards; "
        "print(sorted(m for m in ('pydantic', 'numpy', 'datasketch') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.strip() == "[]"


def test_py_typed_ships() -> None:
    assert (REPO / "groundwire" / "py.typed").is_file()
    data = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert "py.typed" in data["tool"]["setuptools"]["package-data"]["groundwire"]
