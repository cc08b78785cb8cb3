"""Grounding of screened claims: which claims are grounded, against which turns, and what
a failed verifier means.

Grounding needs no tenant state, so the pipeline runs it in the stateless screen stage by
default; the keyed stage grounds only records that arrive without a report. Both use this
class, so the skip rule and the failure handling exist once.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from groundwire.guards.cited_text import without_verified_citations
from groundwire.guards.config import GuardsConfig
from groundwire.guards.grounding.base import no_evidence_report, verify_batch_safely
from groundwire.guards.protocols import GroundingRequest, GroundingVerifier
from groundwire.guards.provenance import eligible_turns
from groundwire.topics.records import GroundingReport, ScreenedClaim
from groundwire.topics.vocab import GroundingVerdict

log = logging.getLogger(__name__)

PROVENANCE_VERIFIER = "provenance"


def skip_reason(screened: ScreenedClaim, cfg: GuardsConfig, has_verifier: bool) -> str | None:
    """Why this claim is not grounded (a SKIPPED report), or None when it is.

    A claim whose turns were all refused by the provenance guard is never skipped: it is
    NOT_SUPPORTED, or it would fall through to the approval rules as if it had cited
    nothing.
    """
    claim = screened.claim
    if not cfg.grounding.enabled:
        return "grounding disabled"
    if claim.memory_type in cfg.grounding.skip_for_types:
        return f"memory_type {claim.memory_type} is not grounded"
    if not claim.source_turns:
        return "no source turns"
    if not screened.provenance.eligible_turn_ids:
        return None
    if not has_verifier:
        return "no grounding verifier configured"
    return None


class Grounder:
    """Grounds batches of screened claims with one verifier (which it owns and closes)."""

    def __init__(self, cfg: GuardsConfig, verifier: GroundingVerifier | None) -> None:
        self.cfg = cfg
        self.verifier = verifier

    async def ground(self, screened: Sequence[ScreenedClaim]) -> list[GroundingReport]:
        """One report per claim, in order; the verifier sees one batch of what needs it."""
        reports: list[GroundingReport | None] = []
        pending: list[tuple[int, GroundingRequest]] = []
        for i, s in enumerate(screened):
            skip = skip_reason(s, self.cfg, self.verifier is not None)
            if skip is not None:
                reports.append(GroundingReport(verdict=GroundingVerdict.SKIPPED, reasoning=skip))
                continue
            turns = eligible_turns(s.claim, s.provenance)
            if not turns:
                reports.append(no_evidence_report(s.claim, PROVENANCE_VERIFIER))
                continue
            reports.append(None)
            # a verified citation's own words are no claim content (`cited_text.py`)
            claim = without_verified_citations(s.claim, s.citations) or s.claim
            pending.append((i, GroundingRequest(claim=claim, turns=turns)))
        if pending:
            assert self.verifier is not None  # skip_reason skips every claim without one
            results = await verify_batch_safely(self.verifier, [r for _, r in pending])
            for (i, request), report in zip(pending, results, strict=True):
                if request.claim is not screened[i].claim and report.rewritten_content:
                    # a restatement of the text without its citation would drop it
                    report = report.model_copy(update={"rewritten_content": None})
                reports[i] = report
        done = [r for r in reports if r is not None]
        assert len(done) == len(screened)
        return done

    async def aclose(self) -> None:
        if self.verifier is not None:
            await self.verifier.aclose()
