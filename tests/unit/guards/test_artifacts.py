"""guards/artifacts.py: a cited artifact must say what the claim says, and the files and
fields a claim names must appear in a source (docs/spec.md §Citations)."""

from __future__ import annotations

import asyncio

import pytest

from groundwire.guards.artifacts import (
    artifact_support,
    check_artifacts,
    claim_without_references,
    phantom_references,
)
from groundwire.guards.config import GuardsConfig
from groundwire.guards.screening import screen_batch
from groundwire.guards.testing import StatedCitationVerifier
from groundwire.topics.records import Claim
from groundwire.topics.vocab import CitationSupport

CFG = GuardsConfig()
ADR = (
    "# ADR-012: memory store\n\nStatus: accepted. We use PostgreSQL for memory storage. "
    "Pixeltable was considered and rejected."
)


def claim(content: str, turns: list[str | dict[str, str]] | None = None, **kw: object) -> Claim:
    return Claim(
        claim_id="c",
        tenant_id="t",
        content=content,
        source="ai_synthesis",
        source_turns=[
            t if isinstance(t, dict) else {"id": f"t{i}", "text": t, "source": "corpus"}
            for i, t in enumerate(turns or [])
        ],
        **kw,  # type: ignore[arg-type]
    )


@pytest.mark.parametrize(
    ("text", "core"),
    [
        ("Per ADR-012, we use PostgreSQL", "we use PostgreSQL"),
        ("Fixed in commit a1b2c3d4e5", "Fixed"),
        ("See https://docs.example.com/api", ""),
        ("We shard by tenant (see ADR-7).", "We shard by tenant"),
        ("According to issue #42 the cache is off", "the cache is off"),
    ],
)
def test_the_reference_itself_is_not_checked(text: str, core: str) -> None:
    assert claim_without_references(text) == core


@pytest.mark.parametrize(
    ("content", "support"),
    [
        ("Per ADR-012, we use PostgreSQL for memory storage", CitationSupport.SUPPORTED),
        ("Per ADR-012, we use MongoDB for memory storage", CitationSupport.CONTRADICTED),
        # named in the record, but as the rejected option: the chosen one fills the slot
        ("Per ADR-012, we use Pixeltable for memory storage", CitationSupport.CONTRADICTED),
        ("Per ADR-012, we do not use PostgreSQL for memory storage", CitationSupport.CONTRADICTED),
        ("Per ADR-012, the cache is written in Rust", CitationSupport.UNRELATED),
    ],
)
def test_artifact_support(content: str, support: CitationSupport) -> None:
    got, detail = artifact_support(claim(content), ADR, CFG)
    assert got is support, detail


def test_a_claim_that_only_points_has_nothing_to_check() -> None:
    assert artifact_support(claim("See ADR-012"), ADR, CFG) == (
        None,
        "the claim only points at the artifact",
    )


def test_screening_checks_the_artifacts_it_verified() -> None:
    verifier = StatedCitationVerifier({"ADR-012": True, "ADR-013": True}, {"ADR-012": ADR})
    claims = [
        claim("Per ADR-012, we use MongoDB for memory storage"),
        claim("Per ADR-013, we use MongoDB for memory storage"),  # exists, text unknown
    ]
    first, second = asyncio.run(screen_batch(claims, CFG, verifier))
    assert first.citations[0].support is CitationSupport.CONTRADICTED
    assert "MongoDB" in first.citations[0].support_detail
    assert second.citations[0].verified is True and second.citations[0].support is None
    assert "artifacts" in first.timings_ms


# --- phantom references -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "sources", "phantoms"),
    [
        (
            "The retry logic lives in src/worker/retry_policy.py",
            ["The retry logic is in src/worker/retry.py."],
            ["src/worker/retry_policy.py"],
        ),
        ("The retry logic lives in src/worker/retry.py", ["It is in src/worker/retry.py."], []),
        (
            "Set max_retries and pass --timeout",
            ["Set the retry count and pass a timeout."],
            ["max_retries", "--timeout"],
        ),
        # the same field written another way is the same field
        ("Raise max_retries to 5", ["maxRetries defaults to 3"], []),
        ("Raise maxRetries to 5", ["the max retries setting defaults to 3"], []),
        ("Call `flush_all` after `reset()`", ["reset() clears the index"], ["flush_all"]),
        ("Edit config.yaml then restart", ["Restart after editing settings.toml"], ["config.yaml"]),
        ("The logic is in retry.py.", ["The logic is in retry_loop.py."], ["retry.py"]),
        ("Run ./run.sh, then read /etc/hosts", ["Start it."], ["./run.sh", "/etc/hosts"]),
        # not references: prose, numbers, dates, abbreviations, URLs
        (
            "Use and/or the I/O queue, e.g. on 12/05/2024, v3.11, see https://x.io/a_b.py",
            ["unrelated"],
            [],
        ),
    ],
)
def test_phantom_references(content: str, sources: list[str], phantoms: list[str]) -> None:
    assert phantom_references(claim(content), sources) == phantoms


def test_the_owner_is_no_phantom() -> None:
    c = claim("alice_smith prefers dark mode", user_id="alice_smith")
    assert phantom_references(c, ["I prefer dark mode"], owner=["alice_smith"]) == []


def test_phantoms_are_checked_against_admissible_turns_and_artifacts_only() -> None:
    verifier = StatedCitationVerifier({"ADR-012": True}, {"ADR-012": "Set max_retries to 3."})
    screened, unchecked = asyncio.run(
        screen_batch(
            [
                claim(
                    "Per ADR-012, max_retries and retry_window are set",
                    ["The retry_window is one minute."],
                ),
                claim("max_retries is 3"),  # nothing to check against: not a phantom
            ],
            CFG,
            verifier,
        )
    )
    assert screened.phantoms == []
    assert unchecked.phantoms == []
    c = claim(
        "max_retries is 3",
        [
            {"id": "chat:1", "text": "max_retries is 3", "source": "model"},
            {"id": "p1", "text": "The worker retries.", "source": "corpus"},
        ],
    )
    (only_model,) = asyncio.run(screen_batch([c], CFG))
    assert only_model.phantoms == ["max_retries"]  # the model's own turn does not count


def test_check_artifacts_is_bounded_and_in_place() -> None:
    (s,) = asyncio.run(screen_batch([claim("x", ["y"])], CFG))
    assert check_artifacts(s, CFG) is s
