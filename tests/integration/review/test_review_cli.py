"""`groundwire review list|show|approve|reject` against a running service: the token comes
from GW_REVIEW_TOKEN (no GROUNDWIRE_* name: the settings loader would refuse it), and a
refusal is exit 1 with the service's message, a missing token exit 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.integration.review.test_review_page import enqueue, page_env  # noqa: F401

pytestmark = pytest.mark.integration


def cli(service, token: str | None, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GROUNDWIRE_")}
    env["GW_REVIEW_URL"] = service.url
    if token is not None:
        env["GW_REVIEW_TOKEN"] = token
    return subprocess.run(
        [sys.executable, "-m", "groundwire.streams.cli", "review", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_the_review_commands_use_the_api_with_the_callers_token(page_env):  # noqa: F811
    signer, prefix, service, _driver, redis_url = page_env
    enqueue(
        redis_url,
        prefix,
        [("alice", "The cache may be stale", {}), ("alice", "Retries usually help", {})],
    )
    token = signer.token("acme", "alice")
    listed = cli(service, token, "list", "--json")
    assert listed.returncode == 0, listed.stderr
    items = json.loads(listed.stdout)["items"]
    assert [i["content"] for i in items] == ["Retries usually help", "The cache may be stale"]
    shown = cli(service, token, "show", items[0]["queue_id"])
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout)["queue_id"] == items[0]["queue_id"]
    assert cli(service, token, "approve", items[0]["queue_id"]).stdout.startswith("approved ")
    rejected = cli(service, token, "reject", items[1]["queue_id"], "--reason", "stale info")
    assert rejected.returncode == 0 and rejected.stdout.startswith("rejected ")
    assert "more:" not in cli(service, token, "list").stdout
    # another user's token: refused with the service's words; no token: a usage error
    other = cli(service, signer.token("acme", "bob"), "approve", items[0]["queue_id"])
    assert other.returncode == 1 and "404 not_found" in other.stderr
    assert cli(service, None, "list").returncode == 2
