"""Several verifiers combined: `verifier: [learned, nli]`.

The rule (docs/grounding.md §Ensembles): the first verifier gives every claim a report;
each later one overrides it where that later one is confident, i.e. its score
(P(supported)) is at least `ensemble_high` (its SUPPORTED or PARTIAL report wins) or at
most `ensemble_low` (its NOT_SUPPORTED report wins). A later verifier that gives no
score (the LLM verifier) overrides with any verdict but UNKNOWN. A later verifier that
fails (UNKNOWN, an exception) leaves the earlier report in place, so `[learned, nli]` is
never worse off than `learned` alone when the model is slow or broken. An earlier
verifier that fails is overridden by any later answer; when all fail the claim is
UNKNOWN and `on_verifier_failure` decides.

Every member sees the whole batch (a cross-encoder batches across claims), and the
members' own reports are kept (`verify_members`), so `groundwire eval` prints each member
beside the ensemble from one run.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding.base import verify_batch_safely
from groundwire.guards.protocols import GroundingRequest, GroundingVerifier
from groundwire.topics.records import GroundingReport
from groundwire.topics.vocab import GroundingVerdict

__all__ = ["EnsembleVerifier", "combine"]


def _confident(report: GroundingReport, high: float, low: float) -> bool:
    if report.verdict in (GroundingVerdict.UNKNOWN, GroundingVerdict.SKIPPED):
        return False
    if report.score is None:
        return True
    if report.verdict is GroundingVerdict.NOT_SUPPORTED:
        return report.score <= low
    return report.score >= high


def combine(
    names: Sequence[str], reports: Sequence[GroundingReport], high: float, low: float
) -> GroundingReport:
    """One claim's ensemble report from its members' reports (in member order)."""
    chosen, who = reports[0], names[0]
    for name, report in zip(names[1:], reports[1:], strict=True):
        earlier_failed = chosen.verdict is GroundingVerdict.UNKNOWN
        if _confident(report, high, low) or (
            earlier_failed and report.verdict is not GroundingVerdict.UNKNOWN
        ):
            chosen, who = report, name
    label = "+".join(names)
    return chosen.model_copy(
        update={"verifier": label, "reasoning": f"[{who}] {chosen.reasoning}"[:2000]}
    )


class EnsembleVerifier:
    """The members in order; see the module docstring for the rule."""

    def __init__(self, members: Sequence[GroundingVerifier], cfg: GroundingConfig) -> None:
        if len(members) < 2:
            raise ValueError("an ensemble needs at least two verifiers")
        self.members = list(members)
        self.names = [str(getattr(m, "name", type(m).__name__)) for m in members]
        self.name = "+".join(self.names)
        self.high = cfg.ensemble_high
        self.low = cfg.ensemble_low

    async def verify_members(
        self, batch: Sequence[GroundingRequest]
    ) -> tuple[list[GroundingReport], dict[str, list[GroundingReport]]]:
        """The ensemble's reports and each member's own (by name)."""
        results = await asyncio.gather(*(verify_batch_safely(m, batch) for m in self.members))
        combined = [
            combine(self.names, [r[i] for r in results], self.high, self.low)
            for i in range(len(batch))
        ]
        return combined, dict(zip(self.names, results, strict=True))

    async def verify_batch(self, batch: Sequence[GroundingRequest]) -> list[GroundingReport]:
        return (await self.verify_members(batch))[0]

    async def aclose(self) -> None:
        for m in self.members:
            close = getattr(m, "aclose", None)
            if close is not None:
                await close()
