"""Scoring an answer against the context it was given (docs/spec.md §Read-time
faithfulness): atomic claims, per-claim verdicts and citations, the uncited-claim flagger,
faithfulness, risk, warnings and validation metadata; then the tenant's policy.

`AnswerScorer` is the one entry point. It never raises on an answer: a verifier failure
becomes the configured fallback (the offline lexical verifier, said in the result) or the
block text, and the cache and the regeneration webhook only ever cost time. One
`verify_batch` call carries every claim of a batch of answers, so an LLM verifier sees
them concurrently; a second, usually small round checks what the first could not settle
(a cited claim its sources do not support, against the whole context; an uncited one,
against other scopes).
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Literal

from groundwire.guards.config import FaithfulnessConfig, GroundingConfig, GuardsConfig
from groundwire.guards.faithfulness.citations import (
    SourceIndex,
    answer_level_refs,
    check_refs,
    field_check,
    index_sources,
    normalise,
    probe_claim,
    refs_for,
)
from groundwire.guards.faithfulness.markers import find_markers
from groundwire.guards.faithfulness.policy import (
    annotate,
    at_least,
    classify_risk,
    faithfulness,
    policy_for,
    trigger_for,
)
from groundwire.guards.faithfulness.regenerate import RegenerationRequest, Regenerator
from groundwire.guards.faithfulness.split import Piece, split_answer
from groundwire.guards.grounding import build_verifier, verify_batch_safely
from groundwire.guards.grounding.lexical import LexicalVerifier
from groundwire.guards.grounding.lexical.features import Analysis
from groundwire.guards.protocols import GroundingRequest, GroundingVerifier
from groundwire.topics.answers import (
    Answer,
    AnswerClaim,
    AnswerValidation,
    AnswerWarning,
    CitationCheck,
    RegenerationAttempt,
    ScoredAnswer,
    UncitedFinding,
)
from groundwire.topics.records import Claim, GroundingReport, SourceTurn
from groundwire.topics.vocab import (
    AnswerAction,
    AnswerCitationStatus,
    AnswerClaimVerdict,
    AnswerPolicy,
    AnswerWarningType,
    ClaimKind,
    GroundingVerdict,
    RiskLevel,
    UncitedClass,
)

if TYPE_CHECKING:
    from groundwire.guards.faithfulness.cache import AnswerCache

log = logging.getLogger(__name__)

__all__ = ["AnswerScorer", "Assessment", "PartialRule"]

PartialRule = Literal["specifics", "supported", "unsupported"]
_NO_CONTEXT = "not in the provided context"
_BROKEN = (AnswerCitationStatus.PHANTOM, AnswerCitationStatus.REJECTED_SOURCE)


@dataclass(slots=True)
class Assessment:
    """An answer scored, before any policy."""

    claims: list[AnswerClaim]
    warnings: list[AnswerWarning]
    validation: AnswerValidation
    faithfulness: float | None
    risk: RiskLevel
    factual: int
    supported: int
    verifier: str
    degraded: bool = False
    degradation: str = ""
    failed_closed: bool = False  # the verifier failed and on_verifier_failure is "block"


@dataclass(slots=True)
class _Check:
    """One claim on its way through the verifier rounds."""

    answer: int  # index of its answer in the batch
    claim: int  # index of the claim in its answer
    probe: Claim
    turns: list[SourceTurn]
    purpose: Literal["main", "context", "other"] = "main"
    cited: list[str] = field(default_factory=list)  # admissible cited source ids
    report: GroundingReport | None = None
    analysis: Analysis | None = None
    fell_back: str = ""  # why the configured verifier failed, when the fallback scored it


@dataclass(slots=True)
class _Work:
    answer: Answer
    index: SourceIndex
    pieces: list[Piece]
    claims: list[AnswerClaim]
    cited_any: bool
    answer_refs: list[CitationCheck] = field(default_factory=list)
    fields: tuple[int, int] = (0, 0)  # (named references, found in a source)
    checks: dict[tuple[str, int], _Check] = field(default_factory=dict)  # (purpose, claim)


class AnswerScorer:
    """Scores answers and applies each tenant's policy. Library callers may pass a
    `regenerator` (a callback object or `WebhookRegenerator`) and a `cache`."""

    def __init__(
        self,
        cfg: GuardsConfig,
        verifier: GroundingVerifier | None = None,
        *,
        regenerator: Regenerator | None = None,
        cache: AnswerCache | None = None,
        worker: str = "",
        partial_rule: PartialRule = "specifics",
        now: Callable[[], datetime] | None = None,
    ) -> None:
        self.cfg = cfg
        self.fcfg: FaithfulnessConfig = cfg.faithfulness
        grounding = cfg.grounding
        if self.fcfg.verifier is not None and self.fcfg.verifier != grounding.verifier:
            grounding = grounding.model_copy(update={"verifier": self.fcfg.verifier})
        self.grounding: GroundingConfig = grounding
        self.verifier = verifier if verifier is not None else build_verifier(grounding)
        self._fallback: LexicalVerifier | None = None
        self.regenerator = regenerator
        self.cache = cache
        self.worker = worker
        self.partial_rule = partial_rule
        self._now = now or (lambda: datetime.now(UTC))

    @property
    def verifier_name(self) -> str:
        return str(getattr(self.verifier, "name", type(self.verifier).__name__))

    def fallback(self) -> LexicalVerifier:
        """The offline verifier that scores what the configured one could not."""
        if self._fallback is None:
            if isinstance(self.verifier, LexicalVerifier):
                self._fallback = self.verifier
            else:
                offline = self.grounding.model_copy(update={"verifier": "lexical"})
                self._fallback = LexicalVerifier(offline)
        return self._fallback

    async def aclose(self) -> None:
        await self.verifier.aclose()
        close = getattr(self.regenerator, "aclose", None)
        if close is not None:
            await close()
        if self.cache is not None:
            await self.cache.aclose()

    # -- scoring + policy --------------------------------------------------------------
    async def score(self, answer: Answer) -> ScoredAnswer:
        [scored] = await self.score_batch([answer])
        return scored

    async def score_batch(self, answers: Sequence[Answer]) -> list[ScoredAnswer]:
        """Score each answer (from the validated cache when it holds it) and apply its
        tenant's policy."""
        started = time.perf_counter()
        use_cache = self.cache is not None and self.fcfg.cache.enabled
        hits: list[Assessment | None] = [None] * len(answers)
        if use_cache:
            assert self.cache is not None
            hits = await self.cache.get_many(answers)
        todo = [i for i, hit in enumerate(hits) if hit is None]
        fresh = await self.assess_batch([answers[i] for i in todo]) if todo else []
        if use_cache and todo:
            assert self.cache is not None
            await self.cache.put_many([(answers[i], fresh[k]) for k, i in enumerate(todo)])
        by_index = dict(zip(todo, fresh, strict=True))
        scoring_ms = (time.perf_counter() - started) * 1e3 / max(1, len(answers))
        out: list[ScoredAnswer] = []
        for i, answer in enumerate(answers):
            hit = hits[i]
            assessment = hit if hit is not None else by_index[i]
            t0 = time.perf_counter()
            scored = await self._apply_policy(answer, assessment, cached=hit is not None)
            scored.timings_ms["scoring"] = round(scoring_ms, 3)
            scored.timings_ms["policy"] = round((time.perf_counter() - t0) * 1e3, 3)
            out.append(scored)
        return out

    async def _apply_policy(self, answer: Answer, a: Assessment, *, cached: bool) -> ScoredAnswer:
        policy = policy_for(answer.tenant_id, self.fcfg)
        scored = ScoredAnswer(
            answer=answer,
            faithfulness=a.faithfulness,
            risk=a.risk,
            factual_claims=a.factual,
            supported_claims=a.supported,
            claims=a.claims,
            warnings=a.warnings,
            validation=a.validation,
            policy=policy,
            final_text=answer.text,
            degraded=a.degraded,
            degradation=a.degradation,
            cached=cached,
            verifier=a.verifier,
            scored_at=self._now(),
            worker=self.worker,
        )
        if a.failed_closed:
            scored.action = AnswerAction.BLOCKED
            scored.final_text = self.fcfg.block_text
            return scored
        if a.risk is RiskLevel.NONE or not at_least(a.risk, trigger_for(policy, self.fcfg)):
            return scored
        if policy is AnswerPolicy.WARN:
            scored.action = AnswerAction.WARNED
            scored.final_text = annotate(answer.text, a.claims)
        elif policy is AnswerPolicy.BLOCK:
            scored.action = AnswerAction.BLOCKED
            scored.final_text = self.fcfg.block_text
        else:
            await self._regenerate(answer, a, scored)
        return scored

    async def _regenerate(self, answer: Answer, a: Assessment, scored: ScoredAnswer) -> None:
        """Ask for a new answer up to `regenerate.max_attempts` times; keep the first that
        scores below the trigger, else answer with the block text."""
        trigger = trigger_for(AnswerPolicy.REGENERATE, self.fcfg)
        scored.action = AnswerAction.BLOCKED
        scored.final_text = self.fcfg.block_text
        if self.regenerator is None:
            scored.attempts.append(
                RegenerationAttempt(attempt=1, error="no regeneration callback or webhook")
            )
            return
        previous = a
        for attempt in range(1, self.fcfg.regenerate.max_attempts + 1):
            request = RegenerationRequest(answer, previous.claims, attempt, self.fcfg.block_text)
            error = ""
            try:
                text = await self.regenerator.regenerate(request)
            except Exception as exc:  # a failing callback is a failed attempt, not a crash
                log.warning("regeneration attempt %d failed: %s", attempt, type(exc).__name__)
                text, error = None, f"{type(exc).__name__}: {str(exc)[:200]}"
            if not text or not text.strip():
                scored.attempts.append(
                    RegenerationAttempt(attempt=attempt, error=error or "no answer returned")
                )
                continue
            text = text[: self.fcfg.max_answer_chars]
            candidate = answer.model_copy(update={"text": text, "citations": []})
            [result] = await self.assess_batch([candidate])
            accepted = not result.failed_closed and (
                result.risk is RiskLevel.NONE or not at_least(result.risk, trigger)
            )
            scored.attempts.append(
                RegenerationAttempt(
                    attempt=attempt,
                    text=text,
                    faithfulness=result.faithfulness,
                    risk=result.risk,
                    accepted=accepted,
                )
            )
            if accepted:
                scored.action = AnswerAction.REGENERATED
                scored.final_text = text
                return
            previous = result

    # -- assessment --------------------------------------------------------------------
    async def assess_batch(self, answers: Sequence[Answer]) -> list[Assessment]:
        """Score answers without any policy (what the cache holds)."""
        works = [self._prepare(k, a) for k, a in enumerate(answers)]
        await self._run([c for w in works for c in w.checks.values()])
        second = [c for w in works for c in self._second_round(w)]
        if second:
            await self._run(second)
            for check in second:
                works[check.answer].checks[(check.purpose, check.claim)] = check
        return [self._finish(w) for w in works]

    def _prepare(self, k: int, answer: Answer) -> _Work:
        cfg = self.fcfg
        text = answer.text[: cfg.max_answer_chars]
        index = index_sources(answer, self.cfg.provenance, self._now(), cfg.max_context_sources)
        markers = find_markers(text, frozenset(index.by_id), cfg.max_citations)
        pieces = split_answer(text, [(m.start, m.end) for m in markers], max_chars=len(text))
        stated = answer.citations[: cfg.max_citations]
        work = _Work(answer, index, pieces, [], bool(markers or stated))
        owner = (answer.user_id,)
        per_piece, total, found = field_check([p.text for p in pieces], index, owner)
        work.fields = (total, found)
        work.answer_refs = check_refs(answer_level_refs(stated), [], index)
        checked = 0
        for i, piece in enumerate(pieces):
            claim = AnswerClaim(
                index=i,
                text=piece.text,
                start=piece.start,
                end=piece.end,
                kind=piece.kind,
                why=piece.why,
                critical=piece.critical,
                phantoms=per_piece[i],
            )
            work.claims.append(claim)
            if piece.kind is not ClaimKind.FACTUAL:
                continue
            refs = refs_for((piece.clause_start, piece.clause_end), markers, stated, text)
            claim.citations = check_refs(refs, piece.quotes, index)
            if checked >= cfg.max_claims:
                claim.verdict = AnswerClaimVerdict.UNKNOWN
                claim.reason = f"not checked: past faithfulness.max_claims ({cfg.max_claims})"
                continue
            checked += 1
            cited = list(
                dict.fromkeys(
                    c.source_id
                    for c in claim.citations
                    if c.source_id is not None and c.status not in _BROKEN
                )
            )
            probe = probe_claim(
                _unaddressed(piece.text),
                claim_id=f"{answer.answer_id}#{i}",
                tenant_id=answer.tenant_id,
                user_id=answer.user_id,
            )
            turns = [index.admissible[s] for s in cited] if cited else index.turns
            work.checks[("main", i)] = _Check(k, i, probe, turns, "main", cited)
        return work

    async def _run(self, checks: Sequence[_Check]) -> None:
        """Verify checks with the configured verifier in one call; what it could not
        answer (UNKNOWN) goes to the offline fallback when so configured."""
        pending = [c for c in checks if c.turns]
        if not pending:
            return
        results = await self._verify(self.verifier, pending)
        failed: list[_Check] = []
        for check, (report, analysis) in zip(pending, results, strict=True):
            check.report, check.analysis = report, analysis
            if report.verdict is GroundingVerdict.UNKNOWN:
                failed.append(check)
        fallback = self.fallback()
        if failed and self.fcfg.on_verifier_failure == "lexical" and fallback is not self.verifier:
            again = await self._verify(fallback, failed)
            for check, (report, analysis) in zip(failed, again, strict=True):
                check.fell_back = (check.report.reasoning if check.report else "")[:200]
                check.report, check.analysis = report, analysis

    async def _verify(
        self, verifier: GroundingVerifier, checks: Sequence[_Check]
    ) -> list[tuple[GroundingReport, Analysis | None]]:
        if isinstance(verifier, LexicalVerifier):  # its signals tell a contradiction apart
            return [
                verifier.verify_with_analysis(GroundingRequest(c.probe, c.turns)) for c in checks
            ]
        requests = [GroundingRequest(c.probe, c.turns) for c in checks]
        return [(r, None) for r in await verify_batch_safely(verifier, requests)]

    def _second_round(self, work: _Work) -> list[_Check]:
        """A cited claim its sources do not support is checked against the whole context
        (is it miscited, or unsupported?); an uncited one against the other scopes."""
        out: list[_Check] = []
        everything = work.index.turns
        for (purpose, i), check in list(work.checks.items()):
            if purpose != "main" or check.report is None:
                continue
            verdict, _ = self._outcome(check)
            if verdict is AnswerClaimVerdict.SUPPORTED or verdict is AnswerClaimVerdict.UNKNOWN:
                continue
            if check.cited and len(check.cited) < len(work.index.admissible):
                out.append(_Check(check.answer, i, check.probe, everything, "context"))
            elif not work.claims[i].citations and work.index.other:
                out.append(_Check(check.answer, i, check.probe, work.index.other, "other"))
        return out

    def _outcome(self, check: _Check) -> tuple[AnswerClaimVerdict, str]:
        """A claim's verdict and its reason from one verifier report."""
        report = check.report
        if report is None:
            return AnswerClaimVerdict.UNSUPPORTED, _NO_CONTEXT
        verdict = report.verdict
        a = check.analysis
        if verdict is GroundingVerdict.SUPPORTED:
            return AnswerClaimVerdict.SUPPORTED, ""
        if verdict is GroundingVerdict.UNKNOWN:
            return AnswerClaimVerdict.UNKNOWN, f"could not be checked ({report.reasoning[:120]})"
        if verdict is GroundingVerdict.PARTIAL:
            specifics = [*a.missing_numbers, *a.missing_entities] if a is not None else None
            if self.partial_rule == "supported" or (
                self.partial_rule == "specifics" and specifics is not None and not specifics
            ):
                return AnswerClaimVerdict.SUPPORTED, ""
            if specifics:
                return (
                    AnswerClaimVerdict.UNSUPPORTED,
                    f"the context does not give {', '.join(specifics[:5])}",
                )
            return AnswerClaimVerdict.UNSUPPORTED, _reason(report, a)
        if a is not None and (a.conflicts or a.polarity_flips):
            if a.conflicts:
                pairs = ", ".join(f"{c!r} where it says {s!r}" for c, s in a.conflicts[:3])
                return AnswerClaimVerdict.CONTRADICTED, f"the context says otherwise: {pairs}"
            return AnswerClaimVerdict.CONTRADICTED, "the context says the opposite"
        return AnswerClaimVerdict.UNSUPPORTED, _reason(report, a)

    def _finish(self, work: _Work) -> Assessment:
        warnings: list[AnswerWarning] = []
        fell_back: list[str] = []
        unknown = 0
        for claim in work.claims:
            if claim.kind is not ClaimKind.FACTUAL:
                continue
            main = work.checks.get(("main", claim.index))
            if main is None:  # past max_claims
                warnings.append(
                    AnswerWarning(
                        type=AnswerWarningType.NOT_CHECKED,
                        message=claim.reason,
                        claim_index=claim.index,
                    )
                )
                continue
            self._judge(work, claim, main)
            for step in (main, work.checks.get(("context", claim.index))):
                if step is not None and step.fell_back:
                    fell_back.append(step.fell_back)
            unknown += claim.verdict is AnswerClaimVerdict.UNKNOWN
            warnings.extend(_claim_warnings(claim, work.cited_any or self.fcfg.require_citations))
        for ref in work.answer_refs:
            if ref.status is not AnswerCitationStatus.VERIFIED:
                warnings.append(_citation_warning(ref, None))
        phantoms = list(dict.fromkeys(n for c in work.claims for n in c.phantoms))
        if phantoms:
            warnings.append(
                AnswerWarning(
                    type=AnswerWarningType.UNVERIFIED_FIELDS,
                    message="Unverified fields: " + ", ".join(phantoms[:20]),
                )
            )
        degraded, degradation, failed_closed = self._degradation(work, fell_back, unknown)
        if degraded:
            warnings.append(
                AnswerWarning(type=AnswerWarningType.VERIFIER_DEGRADED, message=degradation)
            )
        score = faithfulness(work.claims)
        factual = [c for c in work.claims if c.verdict is not None]
        supported = sum(c.verdict is AnswerClaimVerdict.SUPPORTED for c in factual)
        return Assessment(
            claims=work.claims,
            warnings=warnings,
            validation=_validation(work, score),
            faithfulness=score,
            risk=classify_risk(work.claims, score, self.fcfg),
            factual=len(factual),
            supported=supported,
            verifier=self.verifier_name,
            degraded=degraded,
            degradation=degradation,
            failed_closed=failed_closed,
        )

    def _degradation(
        self, work: _Work, fell_back: list[str], unknown: int
    ) -> tuple[bool, str, bool]:
        total = sum(1 for (purpose, _), _c in work.checks.items() if purpose == "main")
        name = self.verifier_name
        if unknown and self.fcfg.on_verifier_failure == "block":
            return (
                True,
                (
                    f"verifier {name} failed on {unknown} of {total} claims; "
                    "on_verifier_failure is block: the answer is withheld"
                ),
                True,
            )
        parts: list[str] = []
        if fell_back:
            parts.append(
                f"verifier {name} failed on {len(fell_back)} of {total} claims "
                f"({fell_back[0][:120]}); the offline lexical verifier scored them"
            )
        if unknown:
            parts.append(f"{unknown} claim(s) could not be checked and count as unsupported")
        return bool(parts), "; ".join(parts), False

    def _judge(self, work: _Work, claim: AnswerClaim, main: _Check) -> None:
        """The claim's verdict, reason, citation statuses and uncited finding."""
        claim.grounding = main.report
        if main.report is None:
            claim.verdict = AnswerClaimVerdict.UNSUPPORTED
            claim.reason = (
                "no admissible context: every source failed provenance"
                if work.index.context
                else "no context was given"
            )
        else:
            claim.verdict, claim.reason = self._outcome(main)
        if main.cited:
            self._judge_cited(work, claim, main)
        elif not claim.citations:
            claim.uncited = self._uncited(work, claim, main)
        rejected = [c for c in claim.citations if c.status is AnswerCitationStatus.REJECTED_SOURCE]
        if rejected:  # the auditor rule
            claim.verdict = AnswerClaimVerdict.REJECTED
            claim.reason = f"cites {rejected[0].detail}"
            return
        if claim.verdict is not AnswerClaimVerdict.SUPPORTED:
            return
        misquoted = [
            c for c in claim.citations if c.status is AnswerCitationStatus.SNIPPET_MISMATCH
        ]
        if misquoted:
            claim.verdict = AnswerClaimVerdict.UNSUPPORTED
            claim.reason = f"misquotes its source: {misquoted[0].detail}"
        elif not main.cited and (
            quote := _unsourced_quote(work.pieces[claim.index].quotes, work.index)
        ):
            claim.verdict = AnswerClaimVerdict.UNSUPPORTED
            claim.reason = f"quotes {quote[:120]!r}, which no source contains"
        elif claim.phantoms:
            claim.verdict = AnswerClaimVerdict.UNSUPPORTED
            claim.reason = f"names {', '.join(claim.phantoms[:5])}, which no source contains"

    def _judge_cited(self, work: _Work, claim: AnswerClaim, main: _Check) -> None:
        if claim.verdict is AnswerClaimVerdict.SUPPORTED:
            return
        wider = work.checks.get(("context", claim.index))
        elsewhere = ""
        if wider is not None and wider.report is not None:
            verdict, reason = self._outcome(wider)
            if verdict is AnswerClaimVerdict.SUPPORTED:
                spans = wider.report.evidence_spans
                elsewhere = spans[0].turn_id if spans else "another source"
                claim.verdict, claim.reason = AnswerClaimVerdict.SUPPORTED, ""
            elif verdict is AnswerClaimVerdict.CONTRADICTED:
                claim.verdict, claim.reason = verdict, reason
        status = (
            AnswerCitationStatus.CONTRADICTED
            if main.analysis is not None
            and (main.analysis.conflicts or main.analysis.polarity_flips)
            else AnswerCitationStatus.UNSUPPORTED
        )
        for check in claim.citations:
            if check.status is AnswerCitationStatus.VERIFIED:
                check.status = status
                says = (
                    "says otherwise"
                    if status is AnswerCitationStatus.CONTRADICTED
                    else "does not say it"
                )
                check.detail = f"{check.source_id} {says}" + (
                    f"; {elsewhere} does" if elsewhere else ""
                )

    def _uncited(self, work: _Work, claim: AnswerClaim, main: _Check) -> UncitedFinding:
        if claim.verdict is AnswerClaimVerdict.SUPPORTED and main.report is not None:
            spans = main.report.evidence_spans
            return UncitedFinding(
                finding=UncitedClass.LIKELY_SOURCED,
                source_id=spans[0].turn_id if spans else None,
                span=spans[0] if spans else None,
            )
        other = work.checks.get(("other", claim.index))
        if other is not None and other.report is not None:
            verdict, _ = self._outcome(other)
            if verdict is AnswerClaimVerdict.SUPPORTED:
                spans = other.report.evidence_spans
                source_id = spans[0].turn_id if spans else None
                return UncitedFinding(
                    finding=UncitedClass.OTHER_SCOPE,
                    source_id=source_id,
                    scope=work.index.scope_of.get(source_id or "", None),
                    span=spans[0] if spans else None,
                )
        return UncitedFinding(finding=UncitedClass.KNOWLEDGE_GAP)


_ADDRESS = re.compile(r"\b(?:your|yours)\s+", re.IGNORECASE)


def _unaddressed(text: str) -> str:
    """The claim as the verifier reads it: an answer speaks to its user ("Your Inbox3
    project"), the context about them ("Inbox3"); the possessive says nothing the
    context could lack. (Neutral on the dev data, measured on its fit half.)"""
    bare = _ADDRESS.sub("", text).strip()
    if not bare:
        return text
    return bare[0].upper() + bare[1:] if text[:1].isupper() else bare


def _reason(report: GroundingReport, a: Analysis | None) -> str:
    if a is None:
        return (report.reasoning or _NO_CONTEXT)[:200]
    missing = [*a.missing_numbers, *a.missing_entities]
    if missing:
        return f"{_NO_CONTEXT} (the context does not give {', '.join(missing[:5])})"
    if a.missing_words:
        return f"{_NO_CONTEXT} (unsupported: {', '.join(a.missing_words[:5])})"
    return _NO_CONTEXT


def _unsourced_quote(quotes: Sequence[str], index: SourceIndex) -> str:
    for quote in quotes:
        wanted = normalise(quote)
        if wanted and not any(wanted in index.normalised(sid) for sid in index.admissible):
            return quote
    return ""


_CITATION_WARNING = {
    AnswerCitationStatus.PHANTOM: AnswerWarningType.PHANTOM_SOURCE,
    AnswerCitationStatus.REJECTED_SOURCE: AnswerWarningType.REJECTED_SOURCE,
    AnswerCitationStatus.SNIPPET_MISMATCH: AnswerWarningType.SNIPPET_MISMATCH,
    AnswerCitationStatus.LINES_INVALID: AnswerWarningType.LINES_INVALID,
    AnswerCitationStatus.UNSUPPORTED: AnswerWarningType.CITATION_UNSUPPORTED,
    AnswerCitationStatus.CONTRADICTED: AnswerWarningType.CITATION_CONTRADICTED,
}
_UNCITED_MESSAGE = {
    UncitedClass.LIKELY_SOURCED: "no citation, but {source} says it: the citation was missed",
    UncitedClass.OTHER_SCOPE: (
        "no citation; only {source} in scope {scope!r} says it: query that scope"
    ),
    UncitedClass.KNOWLEDGE_GAP: "no source says this: a knowledge gap worth recording",
}


def _citation_warning(check: CitationCheck, claim_index: int | None) -> AnswerWarning:
    return AnswerWarning(
        type=_CITATION_WARNING[check.status],
        message=f"{check.ref}: {check.detail}",
        claim_index=claim_index,
        source_id=check.source_id,
    )


def _claim_warnings(claim: AnswerClaim, flag_uncited: bool) -> list[AnswerWarning]:
    out: list[AnswerWarning] = []
    if claim.verdict is not AnswerClaimVerdict.SUPPORTED:
        out.append(
            AnswerWarning(
                type=AnswerWarningType.UNSUPPORTED_CLAIM,
                message=f"{claim.text[:160]!r}: {claim.reason}",
                claim_index=claim.index,
            )
        )
    for check in claim.citations:
        if check.status is not AnswerCitationStatus.VERIFIED:
            out.append(_citation_warning(check, claim.index))
    if claim.uncited is not None and flag_uncited:
        finding = claim.uncited
        message = _UNCITED_MESSAGE[finding.finding].format(
            source=finding.source_id or "a source", scope=finding.scope or ""
        )
        out.append(
            AnswerWarning(
                type=AnswerWarningType.UNCITED_CLAIM,
                message=f"{claim.text[:160]!r}: {message}",
                claim_index=claim.index,
                source_id=finding.source_id,
            )
        )
    return out


_UNVERIFIED_SOURCE = (
    AnswerCitationStatus.PHANTOM,
    AnswerCitationStatus.REJECTED_SOURCE,
    AnswerCitationStatus.SNIPPET_MISMATCH,
    AnswerCitationStatus.LINES_INVALID,
)


def _validation(work: _Work, score: float | None) -> AnswerValidation:
    """ADR-0031's metadata: cited sources that exist, are admissible and hold what is
    quoted from them (over distinct cited sources); named fields found in a source; and
    a confidence that is the faithfulness scaled by both shares."""
    status: dict[str, bool] = {}
    checks = [c for claim in work.claims for c in claim.citations] + work.answer_refs
    for check in checks:
        key = check.source_id or f"phantom:{check.ref}"
        ok = check.status not in _UNVERIFIED_SOURCE
        status[key] = status.get(key, True) and ok
    sources_total = len(status)
    sources_verified = sum(status.values())
    fields_total, fields_found = work.fields
    confidence = 1.0 if score is None else score
    if fields_total:
        confidence *= fields_found / fields_total
    if sources_total:
        confidence *= sources_verified / sources_total
    return AnswerValidation(
        sources_verified=sources_verified,
        sources_total=sources_total,
        fields_verified=fields_found,
        fields_total=fields_total,
        confidence=round(confidence, 4),
    )
