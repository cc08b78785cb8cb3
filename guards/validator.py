"""The in-process validator: screening + the stateful half (grounding, dedup, policy).

`decide_batch` is what the routing stage calls on `claims.screened`; `validate_batch` is
screening plus deciding, for `groundwire check` and for library users who want the whole
pipeline in an agent's write path without Kafka. Grounding is a `Grounder` of its own: it
needs no tenant state, so the pipeline runs it in the stateless screen stage by default
and `decide_batch` reuses the report the screened record carries.

Order inside a batch matters for correctness: grounding runs first so the tier each
claim gets if it is unique is known before dedup. Only approved memories are memories
(docs/spec.md §Near-duplicates): a claim that will be approved is inserted as a memory; a
claim that will go to review is inserted as a *pending* entry, which a later near-duplicate
only reports (tag `near_duplicate_of_pending`, `RoutedResult.pending_duplicate_of`) and
which becomes a memory when a person approves it (`Validator.admit`); a claim blocked anyway
(speculation, not supported, partial below the minimum) is only looked up — a blocked
claim must never become the "original" that later blocks a legitimate claim as its
duplicate. Dedup is ONE call per batch so the index can make the whole batch atomic (two
near-duplicates in one batch cannot both pass).

Failure handling is fail-closed: a verifier or dedup exception never escapes; it becomes
UNKNOWN / `failed` and the policy routes to review (or per `on_verifier_failure`).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime
from time import perf_counter

from groundwire.guards.citations import CitationVerifier
from groundwire.guards.config import GuardsConfig
from groundwire.guards.dedup.index import scope_key
from groundwire.guards.grounder import Grounder
from groundwire.guards.policy import PolicyDecision, build_validation, determine_tier
from groundwire.guards.protocols import DedupIndex, DedupRequest, DedupResult, GroundingVerifier
from groundwire.guards.screening import screen_batch
from groundwire.topics.records import (
    Claim,
    GroundingReport,
    ProducerAuthReport,
    RoutedResult,
    ScreenedClaim,
    Tier,
)
from groundwire.topics.vocab import ProducerAuthAction, ProducerAuthOutcome

log = logging.getLogger(__name__)


PENDING_TAG = "near_duplicate_of_pending"
DOWNGRADED_TAG = "source_downgraded"
_UNIQUE = DedupResult(is_duplicate=False)
_UNKNOWN = DedupResult(is_duplicate=False, failed=True, error="claim_id ledger unavailable")


def _tier_for(
    s: ScreenedClaim, g: GroundingReport, d: DedupResult | None, cfg: GuardsConfig
) -> PolicyDecision:
    return determine_tier(s, grounding=g, dedup=d, cfg=cfg)


def _decided_alike(d: DedupResult | None, assumed: DedupResult) -> bool:
    """Whether `determine_tier` decides a claim with dedup result `d` exactly as with
    `assumed` (one of _UNIQUE, _UNKNOWN): it reads `failed` and `error` of a failed
    result, else `is_duplicate` and `variant_of` (and their ids and similarities),
    nothing more.
    The pending fields are `_note_pending`'s, applied after the policy either way."""
    if d is None:  # dedup did not run: SKIPPED, not the UNIQUE assumed
        return False
    if d.failed:
        return assumed.failed and d.error == assumed.error
    return not assumed.failed and not d.is_duplicate and d.variant_of is None


def _note_producer(decision: PolicyDecision, report: ProducerAuthReport | None) -> PolicyDecision:
    """The producer check of the screen stage, in the checks (spec: Producer
    authentication): a downgraded claim says what it claimed and why it lost it."""
    if report is None:
        return decision
    if report.action is ProducerAuthAction.DOWNGRADED:
        note = f"producer_unauthenticated: {report.claimed_source.value} ({report.outcome.value})"
        return replace(
            decision,
            checks_failed=[*decision.checks_failed, note],
            tags=[*decision.tags, DOWNGRADED_TAG],
        )
    if report.outcome is ProducerAuthOutcome.VERIFIED:
        note = f"producer_authenticated: {report.key_id}"
        return replace(decision, checks_passed=[*decision.checks_passed, note])
    return decision


def _note_pending(decision: PolicyDecision, d: DedupResult | None) -> PolicyDecision:
    """A near-duplicate of a claim still pending review: tagged and listed with that claim's
    id; the tier stays the claim's own (the pending claim is not a memory)."""
    if d is None or d.pending_of is None or d.is_duplicate or d.failed:
        return decision
    sim = f" similarity={d.pending_similarity:.3f}" if d.pending_similarity is not None else ""
    return replace(
        decision,
        checks_failed=[*decision.checks_failed, f"{PENDING_TAG}: {d.pending_of}{sim}"],
        tags=[*decision.tags, PENDING_TAG],
    )


class Validator:
    """Stateful half of the guards; safe to share across batches on one event loop."""

    def __init__(
        self,
        cfg: GuardsConfig,
        dedup: DedupIndex | None = None,
        verifier: GroundingVerifier | None = None,
        citation_verifier: CitationVerifier | None = None,
    ) -> None:
        self.cfg = cfg
        self.dedup = dedup
        self.grounder = Grounder(cfg, verifier)
        self.citation_verifier = citation_verifier

    async def aclose(self) -> None:
        """Close what this validator owns: the dedup client and the grounding verifier (the
        citation verifier may be shared with the screen stage; its owner closes it)."""
        for owned in (self.dedup, self.grounder):
            if owned is None:
                continue
            try:
                await owned.aclose()
            except Exception as exc:  # shutting down: log, keep closing the rest
                log.warning("closing %s failed: %s", type(owned).__name__, exc)

    async def _groundings(self, screened: Sequence[ScreenedClaim]) -> list[GroundingReport]:
        """The screen stage's reports where it grounded the claim; the rest grounded here
        (a record from a worker with grounding_stage=route, e.g. mid rolling upgrade)."""
        missing = [s for s in screened if s.grounding is None]
        if not missing:
            return [s.grounding for s in screened if s.grounding is not None]
        fresh = iter(await self.grounder.ground(missing))
        return [s.grounding if s.grounding is not None else next(fresh) for s in screened]

    def _scope(self, claim: Claim) -> str:
        return scope_key(self.cfg.dedup.scope, claim.user_id, claim.memory_type)

    async def _dedup(
        self, screened: Sequence[ScreenedClaim], tiers: Sequence[Tier]
    ) -> list[DedupResult | None]:
        """One check for the batch; each claim enters the index as its tier says: a memory
        when approved, a pending entry when queued for review, not at all when blocked."""
        if self.dedup is None or not self.cfg.dedup.enabled or not screened:
            return [None] * len(screened)
        # scope "tenant" (the default) is "" for every claim: asked once per batch, not
        # once per claim (scope_key reads the claim only for the other scopes)
        whole_tenant = self.cfg.dedup.scope == "tenant"
        batch = [
            DedupRequest(
                s.claim.tenant_id,
                s.claim.claim_id,
                s.claim.content,
                insert=tier is not Tier.BLOCK,
                pending=tier is Tier.FLAG_REVIEW,
                scope="" if whole_tenant else self._scope(s.claim),
            )
            for s, tier in zip(screened, tiers, strict=True)
        ]
        try:
            results = await self.dedup.check_and_insert(batch)
            if len(results) != len(batch):
                raise ValueError(f"dedup returned {len(results)} for {len(batch)}")
            return list(results)
        except Exception as exc:  # fail closed: review, never approve unchecked
            log.warning("dedup check failed: %s", type(exc).__name__)
            return [
                DedupResult(is_duplicate=False, failed=True, error=type(exc).__name__)
                for _ in batch
            ]

    async def decide_batch(
        self,
        screened: Sequence[ScreenedClaim],
        *,
        worker: str = "",
        uniqueness_unknown: Sequence[bool] | None = None,
    ) -> list[RoutedResult]:
        """Decide a batch. `uniqueness_unknown[i]`: the caller could not confirm that claim
        i's id is new (its claim_id ledger failed); it fails closed like a failed dedup
        check, unless dedup already found it a duplicate."""
        cfg = self.cfg
        t0 = perf_counter()
        groundings = await self._groundings(screened)
        t1 = perf_counter()
        # The tier each claim gets if dedup finds no duplicate (a claim whose id the ledger
        # could not confirm as new goes as a failed check would): it decides how the claim
        # enters the index, and it is the final tier unless dedup finds a duplicate or fails.
        unknown = list(uniqueness_unknown or [False] * len(screened))
        assumed = [_UNKNOWN if unsure else _UNIQUE for unsure in unknown]
        provisional = [
            _tier_for(s, g, a, cfg) for s, g, a in zip(screened, groundings, assumed, strict=True)
        ]
        dedups = await self._dedup(screened, [p.tier for p in provisional])
        for i, unsure in enumerate(unknown):
            d = dedups[i]
            if unsure and (d is None or not d.is_duplicate):
                dedups[i] = replace(_UNKNOWN, pending_of=d.pending_of if d else None)
        t2 = perf_counter()
        n = max(1, len(screened))
        now = datetime.now(UTC)
        out: list[RoutedResult] = []
        make_routed = RoutedResult.__pydantic_validator__.validate_python
        for s, g, d, a, pre in zip(screened, groundings, dedups, assumed, provisional, strict=True):
            p0 = perf_counter()
            # Most claims come back as the provisional pass assumed (unique, or the failed
            # check of an unconfirmed id): the policy would decide them exactly as it did.
            policy = pre if _decided_alike(d, a) else _tier_for(s, g, d, cfg)
            decision = _note_producer(_note_pending(policy, d), s.producer_auth)
            if g.verdict == "partial" and g.adjusted_confidence is None:
                g = g.model_copy(update={"adjusted_confidence": decision.adjusted_confidence})
            validation = build_validation(
                s.claim, decision, citations=s.citations, grounding=g, dedup=d, now=now
            )
            timings = dict(s.timings_ms)
            # Batch stages are shared: each claim is charged its share. A claim grounded in
            # the screen stage keeps the time charged there.
            if s.grounding is None:
                timings["grounding"] = (t1 - t0) * 1e3 / n
            timings["dedup"] = (t2 - t1) * 1e3 / n
            timings["policy"] = (perf_counter() - p0) * 1e3
            duplicate = d is not None and d.is_duplicate and not d.failed
            # Made by the model's validator from a dict: `RoutedResult(**fields)` is the
            # same validation behind a Python `__init__`, with the same result and errors.
            out.append(
                make_routed(
                    {
                        "claim": s.claim,
                        "validation": validation,
                        "hedge": s.hedge,
                        "citations": list(s.citations),
                        "provenance": s.provenance,
                        "grounding": g,
                        "phantoms": list(s.phantoms),
                        "duplicate_of": d.duplicate_of if duplicate and d is not None else None,
                        "similarity": d.similarity if d is not None else None,
                        "pending_duplicate_of": (
                            d.pending_of if d is not None and not duplicate else None
                        ),
                        "producer_auth": s.producer_auth,
                        "tags": list(decision.tags),
                        "timings_ms": timings,
                        "routed_at": now,
                        "worker": worker,
                    }
                )
            )
        return out

    async def admit(self, claim: Claim) -> DedupResult:
        """A claim queued for review was approved by a person: it becomes a memory of the
        dedup index now (never before: only approved memories are memories).

        Call it before storing the memory. Its pending entry is promoted, or, when that has
        expired or was never made, its content is indexed. When a memory approved in the
        meantime is its near-duplicate, the result says so (`is_duplicate`, `duplicate_of`)
        and nothing is indexed: store it anyway only on purpose. Idempotent per claim_id.
        Raises `DedupStoreError` when the index cannot be reached (retry). A rejected
        claim leaves with `self.dedup.remove(tenant_id, claim_id)`.
        """
        if self.dedup is None or not self.cfg.dedup.enabled:
            return DedupResult(is_duplicate=False)
        return await self.dedup.promote(
            claim.tenant_id, claim.claim_id, claim.content, scope=self._scope(claim)
        )

    async def validate_batch(
        self,
        claims: Sequence[Claim],
        *,
        worker: str = "",
        producer_auth: Sequence[ProducerAuthReport | None] | None = None,
    ) -> list[RoutedResult]:
        """Screen and decide. `producer_auth[i]`: the producer check claim i already went
        through (`guards.producer_auth`; its claim is the one to pass here), recorded on the
        result like the screen stage's."""
        screened = await screen_batch(claims, self.cfg, self.citation_verifier)
        if producer_auth is not None:
            for s, report in zip(screened, producer_auth, strict=True):
                s.producer_auth = report
        return await self.decide_batch(screened, worker=worker)
