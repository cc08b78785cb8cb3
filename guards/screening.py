"""Screening: hedge, citations and provenance for one claim, the checks that need no state.

This is the function the stateless screen stage (`streams/stages/screen.py`) calls, not
the stage itself; `groundwire check` and library users reach it through
`Validator.validate_batch`.

`screen` is pure and fast (no I/O unless a citation verifier is passed, and then its TTL
cache absorbs repeats), so it can run on any partition of `claims` and in an agent's own
write path. `screen_batch` is what the streaming stage calls: detection is done per
claim, then all citations of the batch are verified concurrently, because network
verification is I/O-bound and serialising it would cap throughput at one round-trip per
citation.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from time import perf_counter

from groundwire.guards.artifacts import check_artifacts
from groundwire.guards.canonical import canonical
from groundwire.guards.citations import Citation, detect
from groundwire.guards.citations.detect import MAX_SCAN_CHARS
from groundwire.guards.citations.verifier import CitationVerifier
from groundwire.guards.config import GuardsConfig
from groundwire.guards.hedge import HedgeDetector
from groundwire.guards.hedge.detector import forget_read
from groundwire.guards.provenance import check_provenance
from groundwire.topics.records import CitationReport, Claim, ScreenedClaim

_detectors: dict[int, tuple[object, HedgeDetector]] = {}


def _hedge_detector(cfg: GuardsConfig) -> HedgeDetector:
    """One detector per config object (cheap, but avoid rebuilding it per claim)."""
    key = id(cfg.hedge)
    hit = _detectors.get(key)
    if hit is None or hit[0] is not cfg.hedge:
        if len(_detectors) > 64:
            _detectors.clear()
        hit = (cfg.hedge, HedgeDetector(cfg.hedge))
        _detectors[key] = hit
    return hit[1]


def _unchecked(citations: Sequence[Citation]) -> list[CitationReport]:
    return [CitationReport(type=c.type, value=c.value) for c in citations]


def _screen_local(
    claim: Claim, cfg: GuardsConfig, detector: HedgeDetector, now: datetime
) -> tuple[ScreenedClaim, list[Citation]]:
    """Detection only (no I/O). The detector and `now` are resolved once per batch by the
    caller: per claim they were a dict lookup and a clock read for nothing.

    Both detectors read the claim's canonical text, computed once here (docs/spec.md
    §Canonical text); the claim itself, and so what is stored, keeps its exact bytes."""
    t0 = perf_counter()
    # Only what a detector reads is canonicalised (bounded work for a long claim).
    raw = claim.content[: max(cfg.hedge.max_chars, MAX_SCAN_CHARS)]
    text = canonical(raw)
    hedge = detector.analyze(text, is_canonical=True, raw=raw)
    t1 = perf_counter()
    citations = detect(text)
    t2 = perf_counter()
    provenance = check_provenance(claim, cfg.provenance, now)
    t3 = perf_counter()
    # Made by the model's validator from a dict: `ScreenedClaim(**fields)` is the same
    # validation behind a Python `__init__` (~5,600 instructions a claim more), with the
    # same result (the fields given included) and errors.
    screened: ScreenedClaim = ScreenedClaim.__pydantic_validator__.validate_python(
        {
            "claim": claim,
            "hedge": hedge,
            "citations": _unchecked(citations) if citations else [],
            "provenance": provenance,
            "timings_ms": {
                "hedge": (t1 - t0) * 1e3,
                "citations_detect": (t2 - t1) * 1e3,
                "provenance": (t3 - t2) * 1e3,
            },
            "received_at": now,
        }
    )
    return screened, citations


def screen(
    claim: Claim, cfg: GuardsConfig, citation_verifier: CitationVerifier | None = None
) -> ScreenedClaim:
    """Screen one claim; verify its citations (cached) when a verifier is given."""
    screened, citations = _screen_local(claim, cfg, _hedge_detector(cfg), datetime.now(UTC))
    if citation_verifier is not None and citations:
        t0 = perf_counter()
        screened.citations[:] = [citation_verifier.verify(c) for c in citations]
        screened.timings_ms["citations_verify"] = (perf_counter() - t0) * 1e3
    return _backed([screened], cfg)[0]


async def screen_batch(
    claims: Sequence[Claim], cfg: GuardsConfig, citation_verifier: CitationVerifier | None = None
) -> list[ScreenedClaim]:
    """Screen a batch; every distinct citation in it is verified once, concurrently."""
    if not claims:
        return []
    detector = _hedge_detector(cfg)
    # the hedge hits of the last batch's claims, kept for its grounding (`detector.py`,
    # `_READ`), are of other texts
    forget_read()
    now = datetime.now(UTC)  # one receive time per batch: the claims arrived together
    local = [_screen_local(c, cfg, detector, now) for c in claims]
    if citation_verifier is None:
        return _backed([s for s, _ in local], cfg)
    flat = [c for _, cits in local for c in cits]
    if not flat:
        return _backed([s for s, _ in local], cfg)
    t0 = perf_counter()
    reports = await citation_verifier.averify_many(flat)
    elapsed = (perf_counter() - t0) * 1e3
    i = 0
    for screened, cits in local:
        if cits:
            screened.citations[:] = reports[i : i + len(cits)]
            screened.timings_ms["citations_verify"] = elapsed
        i += len(cits)
    return _backed([s for s, _ in local], cfg)


def _backed(screened: list[ScreenedClaim], cfg: GuardsConfig) -> list[ScreenedClaim]:
    """Once citations are verified: does each cited artifact say what the claim says, and
    which files and fields the claim names appear in no source (`guards/artifacts.py`)."""
    for s in screened:
        t0 = perf_counter()
        check_artifacts(s, cfg)
        s.timings_ms["artifacts"] = (perf_counter() - t0) * 1e3
    return screened
