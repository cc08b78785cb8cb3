"""The core rescue of the lexical verifier (`LexicalVerifier._core_supported`).

A claim that scores under the partial threshold is still PARTIAL when the claim without
its unsupported numbers and names (its core) scores above it: the source states the
core, the claim adds details (docs/spec.md §Grounding, the sharpened plan). Session 12:
a core whose negation differs from its best-matching source sentence is the source's
fact turned round, so it rescues nothing. Each case pairs the negated claim with the
same claim stated the source's way, which must still be rescued.
"""

from __future__ import annotations

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding import grounding_blocks
from groundwire.guards.grounding.lexical import LexicalVerifier
from groundwire.guards.grounding.lexical.model import PARTIAL_THRESHOLD
from groundwire.guards.protocols import GroundingRequest
from groundwire.topics.records import Claim, GroundingReport, SourceTurn
from groundwire.topics.vocab import GroundingVerdict

CFG = GroundingConfig()
LEDGER = [SourceTurn(id="t1", text="The team migrated the ledger to Postgres last year.")]
LOGS = [SourceTurn(id="t1", text="Omar moved the logs to Glacier.")]


def verify(content: str, turns: list[SourceTurn]) -> GroundingReport:
    claim = Claim(claim_id="c1", tenant_id="t1", content=content, source="chat", source_turns=turns)
    return LexicalVerifier(CFG).verify_one(GroundingRequest(claim, turns))


def test_a_core_stated_the_sources_way_is_still_rescued() -> None:
    """The control: the score alone is under the partial threshold, the core carries it."""
    for claim, turns in (
        ("The team migrated the ledger to Postgres 16 in 2023 with Dana and Omar", LEDGER),
        ("Omar moved 40 GB of logs to Glacier in 2023", LOGS),
    ):
        report = verify(claim, turns)
        assert report.score is not None and report.score < PARTIAL_THRESHOLD, claim
        assert report.verdict == GroundingVerdict.PARTIAL, claim
        assert not grounding_blocks(report, CFG), claim


def test_a_negated_core_is_not_rescued() -> None:
    for claim, turns in (
        ("The team did not migrate the ledger to Postgres 16 in 2023 with Dana and Omar", LEDGER),
        ("Omar did not move 40 GB of logs to Glacier in 2023", LOGS),
    ):
        report = verify(claim, turns)
        assert report.verdict == GroundingVerdict.NOT_SUPPORTED, claim
        assert "negation differs" in report.reasoning, claim
        assert grounding_blocks(report, CFG), claim
