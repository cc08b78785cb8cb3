"""Test doubles for the guard seams, for people who embed the guards and test their own code.

Each implements a protocol of `groundwire.guards.protocols` (or subclasses the citation
verifier) with answers the test states, and records what it was asked, so a test can pin
a decision without a model, Redis or the network:

    from groundwire.guards import GuardsConfig, Validator
    from groundwire.guards.testing import ExactDedup, ScriptedVerifier, substring_verifier

    verifier = ScriptedVerifier(default=substring_verifier)
    validator = Validator(GuardsConfig(), ExactDedup(), verifier)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from groundwire.guards.citations import Citation
from groundwire.guards.citations.cache import CitationVerdict
from groundwire.guards.citations.verifier import CitationVerifier
from groundwire.guards.config import CitationConfig
from groundwire.guards.protocols import DedupRequest, DedupResult, GroundingRequest
from groundwire.topics.records import GroundingReport
from groundwire.topics.vocab import GroundingVerdict


class ScriptedVerifier:
    """Returns a fixed report per claim_id (the verdict a test states); records requests."""

    name = "scripted"

    def __init__(
        self,
        reports: dict[str, GroundingReport] | None = None,
        default: Callable[[GroundingRequest], GroundingReport] | None = None,
        fail: bool = False,
    ) -> None:
        self.reports = reports or {}
        self.default = default
        self.fail = fail
        self.seen: list[GroundingRequest] = []

    async def verify_batch(self, batch: Sequence[GroundingRequest]) -> list[GroundingReport]:
        self.seen.extend(batch)
        if self.fail:
            raise TimeoutError("verifier down")
        out = []
        for req in batch:
            if req.claim.claim_id in self.reports:
                out.append(self.reports[req.claim.claim_id])
            elif self.default is not None:
                out.append(self.default(req))
            else:
                out.append(GroundingReport(verdict=GroundingVerdict.UNKNOWN))
        return out

    async def aclose(self) -> None:
        """Nothing to release."""


def substring_verifier(req: GroundingRequest) -> GroundingReport:
    """Naive: SUPPORTED iff some turn contains the claim verbatim (case-insensitive)."""
    needle = req.claim.content.lower().rstrip(".")
    for turn in req.turns:
        i = turn.text.lower().find(needle)
        if i >= 0:
            return GroundingReport(verdict=GroundingVerdict.SUPPORTED, score=1.0)
    return GroundingReport(verdict=GroundingVerdict.NOT_SUPPORTED, score=0.0)


class ExactDedup:
    """Exact-text duplicates per tenant; records every request; can be made to fail.

    Like the real index, a claim queued for review (`pending=True`) is only a pending
    entry: a later copy is reported as `pending_of`, not as a duplicate, until `promote`."""

    def __init__(self, fail: bool = False) -> None:
        self.fail = fail
        self.index: dict[tuple[str, str], str] = {}
        self.pending: dict[tuple[str, str], str] = {}
        self.calls: list[list[DedupRequest]] = []

    def seed(self, tenant: str, claim_id: str, text: str) -> None:
        self.index[(tenant, text.lower())] = claim_id

    async def check_and_insert(self, batch: Sequence[DedupRequest]) -> list[DedupResult]:
        self.calls.append(list(batch))
        if self.fail:
            raise ConnectionError("redis down")
        out = []
        for req in batch:
            key = (req.tenant_id, req.text.lower())
            hit = self.index.get(key)
            if hit is not None and hit != req.claim_id:
                out.append(DedupResult(True, hit, 1.0))
                continue
            waiting = self.pending.get(key)
            if waiting == req.claim_id or hit == req.claim_id:
                out.append(DedupResult(False))
                continue
            if req.insert and req.pending:
                self.pending.setdefault(key, req.claim_id)
            elif req.insert:
                self.index[key] = req.claim_id
            sim = 1.0 if waiting is not None else None
            out.append(DedupResult(False, pending_of=waiting, pending_similarity=sim))
        return out

    async def promote(
        self, tenant_id: str, claim_id: str, text: str | None = None, *, scope: str = ""
    ) -> DedupResult:
        """Move `claim_id` from pending to the memories (or index `text`)."""
        for key, owner in list(self.pending.items()):
            if key[0] == tenant_id and owner == claim_id:
                del self.pending[key]
                text = key[1]
        if text is None:
            raise LookupError(claim_id)
        key = (tenant_id, text.lower())
        hit = self.index.get(key)
        if hit is not None and hit != claim_id:
            return DedupResult(True, hit, 1.0)
        self.index[key] = claim_id
        return DedupResult(False)

    async def remove(self, tenant_id: str, claim_id: str) -> bool:
        """Forget `claim_id`'s text for its tenant; True when it was indexed or pending."""
        for table in (self.index, self.pending):
            for key, owner in list(table.items()):
                if key[0] == tenant_id and owner == claim_id:
                    del table[key]
                    return True
        return False

    async def aclose(self) -> None:
        """Nothing to release."""


class StatedCitationVerifier(CitationVerifier):
    """A citation verifier whose existence answers are the ones a test states, and, for
    the citations in `texts`, what the artifact says (an ADR's body, a commit's message)."""

    def __init__(self, exists: dict[str, bool], texts: dict[str, str] | None = None) -> None:
        super().__init__(CitationConfig(adr_dirs=[]))
        self.exists = exists
        self.texts = texts or {}

    def _check(self, citation: Citation) -> CitationVerdict:
        found = self.exists.get(citation.value)
        if found is None:
            return CitationVerdict(None, "not stated")
        text = self.texts.get(citation.value) if found else None
        return CitationVerdict(found, "exists" if found else "not found", text=text)
