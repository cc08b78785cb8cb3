"""Every test in this folder checks a deployment asset with a real tool: marker `deploy`."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/deploy/" in item.nodeid:
            item.add_marker(pytest.mark.deploy)
