"""`groundwire check` end to end, in-process: one claim, JSONL files, stdin, bad input."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from groundwire.streams.cli import app

runner = CliRunner()


def _rows(output: str) -> list[dict]:
    return [json.loads(line) for line in output.splitlines() if line.strip()]


def test_single_claim_blocks_speculation() -> None:
    res = runner.invoke(
        app, ["check", "I think we use Redis", "--source", "ai_synthesis", "--type", "fact"]
    )
    assert res.exit_code == 0, res.output
    (row,) = _rows(res.stdout)
    assert row["tier"] == "block"
    assert row["hedge"] == {
        "action": "block",
        "category": "personal_speculation",
        "words": ["I think"],
    }
    for key in (
        "claim_id",
        "reason",
        "checks_passed",
        "checks_failed",
        "citations",
        "grounding",
        "duplicate_of",
        "similarity",
    ):
        assert key in row
    assert set(row["grounding"]) >= {"verdict", "score", "evidence_spans", "adjusted_confidence"}


def test_adr_dir_verification(tmp_path: Path) -> None:
    (tmp_path / "ADR-003-postgres.md").write_text("# ADR 3\n\nWe use PostgreSQL.\n")
    ok = runner.invoke(app, ["check", "Per ADR-003, we use PostgreSQL", "--adr-dir", str(tmp_path)])
    bad = runner.invoke(app, ["check", "Per ADR-999, we use magic", "--adr-dir", str(tmp_path)])
    other = runner.invoke(app, ["check", "Per ADR-003, we use MySQL", "--adr-dir", str(tmp_path)])
    (r_ok,), (r_bad,), (r_other,) = _rows(ok.stdout), _rows(bad.stdout), _rows(other.stdout)
    assert (r_ok["tier"], r_ok["citations"][0]["verified"]) == ("auto_approve", True)
    assert r_ok["citations"][0]["support"] == "supported"
    assert (r_bad["tier"], r_bad["citations"][0]["verified"]) == ("flag_review", False)
    # it exists, but it says PostgreSQL: existence is not support
    assert (r_other["tier"], r_other["citations"][0]["support"]) == ("block", "contradicted")


def test_git_repo_verification(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@x.invalid",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@x.invalid",
    }
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    subprocess.run(
        ["git", "-C", str(tmp_path), "commit", "-q", "--allow-empty", "-m", "Fix the retry loop"],
        check=True,
        env=env,
    )
    sha = subprocess.run(
        ["git", "-C", str(tmp_path), "rev-parse", "HEAD"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    res = runner.invoke(app, ["check", f"Fixed in commit {sha}", "--git-repo", str(tmp_path)])
    (row,) = _rows(res.stdout)
    assert (row["tier"], row["citations"][0]["verified"]) == ("auto_approve", True)
    other = runner.invoke(
        app, ["check", f"Commit {sha} removed the cache", "--git-repo", str(tmp_path)]
    )
    (row,) = _rows(other.stdout)
    assert (row["tier"], row["citations"][0]["support"]) == ("flag_review", "unrelated")


def test_jsonl_file_with_bad_lines_and_in_run_dedup(tmp_path: Path) -> None:
    good = {
        "claim_id": "a",
        "tenant_id": "t",
        "content": "OAuth2 is required",
        "source": "documentation",
    }
    lines = [
        json.dumps(good),
        "{not json",
        "[1, 2]",
        json.dumps({"claim_id": "b", "content": "no tenant", "source": "user"}),
        "",
        json.dumps({**good, "claim_id": "c"}),
    ]
    path = tmp_path / "claims.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    res = runner.invoke(app, ["check", "--file", str(path)])
    assert res.exit_code == 0
    rows = _rows(res.stdout)
    assert [r["line"] for r in rows] == [1, 2, 3, 4, 6]
    assert rows[0]["tier"] == "auto_approve"
    assert [r.get("reason") for r in rows[1:4]] == ["not_json", "not_object", "invalid_claim"]
    assert all("error" in r for r in rows[1:4])
    assert (rows[4]["tier"], rows[4]["duplicate_of"]) == ("block", "a")


def test_stdin() -> None:
    claim = {
        "claim_id": "s1",
        "tenant_id": "t",
        "content": "The server may timeout under load",
        "source": "ai_synthesis",
    }
    res = runner.invoke(app, ["check", "-f", "-"], input=json.dumps(claim) + "\n")
    (row,) = _rows(res.stdout)
    assert (row["claim_id"], row["tier"], row["hedge"]["action"]) == ("s1", "flag_review", "review")


def test_missing_file_is_a_usage_error_and_a_non_utf8_line_is_that_lines_error(
    tmp_path: Path,
) -> None:
    res = runner.invoke(app, ["check", "--file", str(tmp_path / "nope.jsonl")])
    assert res.exit_code == 2 and "no such file" in res.stderr
    good = {"claim_id": "ok", "tenant_id": "t", "content": "We use Kafka", "source": "user"}
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_bytes(
        json.dumps(good).encode()
        + b"\n"
        + '{"content": "caf\xe9"}'.encode("latin-1")
        + b"\n"
        + json.dumps(good | {"claim_id": "ok2"}).encode()
        + b"\n"
    )
    res = runner.invoke(app, ["check", "--file", str(mixed)])
    assert res.exit_code == 0, res.stderr
    first, bad, third = _rows(res.stdout)
    assert (first["claim_id"], third["claim_id"]) == ("ok", "ok2")
    assert (bad["line"], bad["reason"]) == (2, "invalid_utf8")


@pytest.mark.parametrize(
    "args", [[], ["text", "--file", "x.jsonl"], ["I prefer tabs", "--redis-cluster"]]
)
def test_usage_errors(args: list[str]) -> None:
    res = runner.invoke(app, ["check", *args])
    assert res.exit_code == 2
    assert res.stdout == ""


def test_no_verify_urls_makes_no_request() -> None:
    res = runner.invoke(app, ["check", "See http://127.0.0.1:9/api", "--no-verify-urls"])
    (row,) = _rows(res.stdout)
    assert row["citations"][0]["verified"] is None
    assert row["tier"] == "flag_review"


def test_a_claim_pending_review_is_not_a_memory(tmp_path: Path) -> None:
    """The same text queued for review and then published from documentation: not a
    duplicate of the pending claim (docs/spec.md §Near-duplicates)."""
    text = "The billing service uses PostgreSQL 15"
    lines = [
        {"claim_id": "rv-1", "tenant_id": "t", "content": text, "source": "ai_synthesis"},
        {"claim_id": "doc-1", "tenant_id": "t", "content": text, "source": "documentation"},
    ]
    path = tmp_path / "claims.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    res = runner.invoke(app, ["check", "--no-verify", "--file", str(path)])
    first, second = _rows(res.stdout)
    assert first["tier"] == "flag_review"
    assert second["tier"] != "block" and second["duplicate_of"] is None
    assert second["pending_duplicate_of"] == "rv-1"
    assert "near_duplicate_of_pending" in second["tags"]


def test_a_memory_negated_is_reported_as_its_variant(tmp_path: Path) -> None:
    text = "The billing service is encrypted at rest with keys rotated by the platform team"
    lines = [
        {"claim_id": "m-1", "tenant_id": "t", "content": text, "source": "documentation"},
        {
            "claim_id": "c-1",
            "tenant_id": "t",
            "content": text.replace(" is ", " is not "),
            "source": "documentation",
        },
    ]
    path = tmp_path / "claims.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    res = runner.invoke(app, ["check", "--no-verify", "--file", str(path)])
    first, second = _rows(res.stdout)
    assert first["tier"] == "auto_approve" and first["variant_of"] is None
    assert (second["tier"], second["reason_code"]) == ("flag_review", "variant_of_memory")
    assert second["variant_of"] == "m-1" and second["duplicate_of"] is None


def test_producers_are_authenticated_like_in_the_pipeline(tmp_path: Path) -> None:
    from groundwire.topics.signing import sign_claim

    secret = "docs-secret-0123456789abcdef"
    (tmp_path / "secrets.yaml").write_text(f"docs-bot: {secret}\n")
    config = tmp_path / "config.yaml"
    base = {"tenant_id": "t", "content": "OAuth2 is required", "source": "documentation"}
    signed = sign_claim({**base, "claim_id": "ok"}, "docs-bot", secret.encode())
    lines = [
        json.dumps(signed),
        json.dumps({**base, "claim_id": "forged"}),
        json.dumps({**signed, "claim_id": "edited"}),
    ]
    path = tmp_path / "claims.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for mode in ("downgrade", "strict"):
        config.write_text(
            "guards:\n  producer_auth:\n"
            f"    mode: {mode}\n"
            "    keys: {docs-bot: [documentation]}\n"
            f"    secrets_file: {tmp_path / 'secrets.yaml'}\n"
        )
        res = runner.invoke(
            app,
            ["check", "--no-verify", "--file", str(path)],
            env={"GROUNDWIRE_CONFIG": str(config)},
        )
        assert res.exit_code == 0, res.output
        ok, forged, edited = _rows(res.stdout)
        assert ok["tier"] == "auto_approve" and ok["producer_auth"]["outcome"] == "verified"
        if mode == "downgrade":
            assert forged["tier"] != "auto_approve" and "source_downgraded" in forged["tags"]
            assert forged["producer_auth"]["outcome"] == "unsigned"
            assert edited["producer_auth"]["outcome"] == "bad_signature"
        else:
            assert forged["reason"] == edited["reason"] == "unauthenticated_source"
        assert secret not in res.output
