"""Grounding reads a claim without the words of a citation that was verified
(guards/cited_text.py): "(see ADR-003)" is the claim's reference, checked by the citation
guard, not a name and a number the conversation must hold. A citation not found, or not
checked, keeps its words, so the source's silence about it still counts."""

from __future__ import annotations

import pytest

from groundwire.guards.cited_text import without_verified_citations
from groundwire.guards.config import GuardsConfig
from groundwire.guards.grounder import Grounder
from groundwire.guards.grounding.lexical import LexicalVerifier
from groundwire.topics.records import (
    CitationReport,
    Claim,
    HedgeReport,
    ProvenanceReport,
    ScreenedClaim,
    SourceTurn,
)
from groundwire.topics.vocab import CitationType, GroundingVerdict, HedgeAction

TEXT = "We chose Postgres for the billing service (see ADR-003)."
SOURCE = "We chose Postgres for the billing service."


def _screened(verified: bool | None) -> ScreenedClaim:
    turn = SourceTurn(id="t1", text=SOURCE, source="corpus")
    claim = Claim(
        claim_id="c1", tenant_id="t", content=TEXT, source="conversation", source_turns=[turn]
    )
    cite = CitationReport(type=CitationType.ADR, value="ADR-003", verified=verified)
    return ScreenedClaim(
        claim=claim,
        hedge=HedgeReport(action=HedgeAction.NONE),
        citations=[cite],
        provenance=ProvenanceReport(eligible_turn_ids=["t1"]),
    )


def test_the_verified_citation_is_blanked_in_place() -> None:
    s = _screened(True)
    read = without_verified_citations(s.claim, s.citations)
    assert read is not None
    assert "ADR" not in read.content and len(read.content) == len(TEXT)
    assert s.claim.content == TEXT  # the claim itself is not changed


@pytest.mark.parametrize("verified", [False, None])
def test_a_citation_not_found_or_not_checked_keeps_its_words(verified: bool | None) -> None:
    s = _screened(verified)
    assert without_verified_citations(s.claim, s.citations) is None


@pytest.mark.parametrize(
    ("verified", "verdict"),
    [(True, GroundingVerdict.SUPPORTED), (False, GroundingVerdict.NOT_SUPPORTED)],
)
async def test_the_grounder_reads_a_verified_citation_as_no_claim_content(
    verified: bool, verdict: GroundingVerdict
) -> None:
    cfg = GuardsConfig()
    grounder = Grounder(cfg, LexicalVerifier(cfg.grounding))
    try:
        (report,) = await grounder.ground([_screened(verified)])
    finally:
        await grounder.aclose()
    assert report.verdict is verdict, report.reasoning
