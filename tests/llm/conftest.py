"""Fixtures of the `llm_server` tests: the shared local model server and a private one.

The shared server is the one `scripts/stack.sh llm start` runs (scripts/test.sh starts it
before these tests and stops it after). The tests fail, rather than skip, without it: a
green run must mean a real model server answered.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.llm_server import ModelServer, answers, stack_llm_env


@pytest.fixture(scope="session")
def llm_env() -> dict[str, str]:
    return stack_llm_env()


@pytest.fixture(scope="session")
def llm_url(llm_env: dict[str, str]) -> str:
    url = llm_env["GROUNDWIRE_TEST_LLM_URL"]
    # patient: llama-cpp-python's /v1/models waits while the server generates an answer
    if not answers(url, timeout_s=120.0):
        pytest.fail(f"no model server answers at {url}: bash scripts/stack.sh llm start")
    return url


@pytest.fixture(scope="session")
def llm_model(llm_env: dict[str, str]) -> str:
    return llm_env["GROUNDWIRE_TEST_LLM_MODEL"]


@pytest.fixture(scope="module")
def own_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModelServer]:
    """A model server of this module's own, which its tests may kill and restart."""
    log: Path = tmp_path_factory.mktemp("llm") / "server.log"
    server = ModelServer(log)
    server.start()
    yield server
    server.stop()
