"""`learned`: the lexical verifier's rules with a trained, calibrated score.

Per claim the features of `features.extract` (the lexical signals plus alignment, order,
contradiction counts, specifics, speakers, modality, shape); per batch one call of the
boosted trees (`model.TreeModel`, numpy only) and the calibration curve, so `score`
is a calibrated P(supported). The verdict rules are the lexical verifier's
(`LexicalVerifier._decide`): a verbatim quote is SUPPORTED, a contradiction (antonym in
the slot, negation flip, swapped specific) or a claim attributed to the wrong speaker is
NOT_SUPPORTED, score ≥ supported threshold without unsupported specifics is SUPPORTED,
score ≥ partial threshold PARTIAL, else NOT_SUPPORTED (or PARTIAL when the claim without
its unsupported specifics clears the partial threshold). The thresholds are the model
file's, chosen on held-apart data, unless the settings give them.

A model fitted with the lexical verifier's judgement as features (`lexical_view.VIEW`:
its score, its verdict, which of its contradiction, not-supported and cap rules fired)
reads each claim through the lexical verifier first and hands that analysis on, so the
claim is analysed once; a model without them (33 features) reads it as before. The file's
feature names say which.

A model whose thresholds hold `overrule_below` (session 15, the packaged one) is stacked
on the lexical verdict: the lexical report stands, and only a passing lexical verdict
(SUPPORTED or PARTIAL) with a learned score under the bound becomes NOT_SUPPORTED. Out of
fold, that is where the learned evidence corrects the lexical verdict; elsewhere the
learned score alone decided worse than the lexical rules (docs/grounding.md, Session 15).

Per claim the rules that do not read the score (`LexicalVerifier.findings`: slot swaps,
denied predicates, swapped doers, questions, the speaker's own doings, moods, specifics)
are read right after the claim's analysis, kept on it and, with the lexical judgement,
taken over from the lexical reading when it read the same text; once the batch is scored
only the thresholds (`LexicalVerifier._verdict`) run per claim.

The model loads from `learned_model_path` or the packaged `data/learned.json` (a few
milliseconds); a missing or malformed file is an error when the verifier is built, never
per claim.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding.base import (
    bounded_turns,
    no_evidence_report,
    unknown_report,
)
from groundwire.guards.grounding.learned.features import FEATURES, extract
from groundwire.guards.grounding.learned.lexical_view import (
    VIEW,
    extract_with_view,
    lexical_twin,
    read,
    view_values,
)
from groundwire.guards.grounding.learned.model import (
    ModelError,
    TreeModel,
    load_model,
    packaged_model_path,
)
from groundwire.guards.grounding.lexical import LexicalVerifier, known_names
from groundwire.guards.grounding.lexical.features import Analysis
from groundwire.guards.protocols import GroundingRequest
from groundwire.topics.records import Claim, GroundingReport, SourceTurn
from groundwire.topics.vocab import GroundingVerdict

__all__ = ["FEATURES_WITH_VIEW", "LearnedVerifier"]

FEATURES_WITH_VIEW: tuple[str, ...] = (*FEATURES, *VIEW)


class LearnedVerifier(LexicalVerifier):
    name = "learned"
    # its model learned how the labelled data reads a question (FaithDial counts "Have
    # you seen Inception?" as faithful when the knowledge names the film, BEGIN as not
    # attributable); the lexical rule cost it FaithDial claims on the fit half
    questions_assert_nothing = False

    def __init__(self, cfg: GroundingConfig | None = None) -> None:
        cfg = cfg or GroundingConfig()
        path = cfg.learned_model_path or packaged_model_path()
        self.model: TreeModel = load_model(path, any_of=(FEATURES_WITH_VIEW, FEATURES))
        self.default_supported = self.model.supported_threshold
        self.default_partial = self.model.partial_threshold
        super().__init__(cfg)
        # the lexical verifier whose judgement the model reads, when it was fitted on it
        view = self.model.features == FEATURES_WITH_VIEW
        # stacked (session 15): the lexical verdict stands unless the learned score is
        # under the model's `overrule_below`; it needs the lexical reading
        self.overrule_below = self.model.overrule_below if view else None
        if self.model.overrule_below is not None and not view:
            raise ModelError("a stacked model (overrule_below) must read the lexical view")
        stacked = self.overrule_below is not None
        self.twin = lexical_twin(cfg, rewrite=stacked) if view else None

    def features(self, claim: Claim, turns: Sequence[SourceTurn]) -> tuple[Analysis, list[float]]:
        names = known_names(claim, turns)
        if self.twin is not None:
            _, analysis, values = extract_with_view(
                self.twin, claim, turns, names, self.aligned_swaps
            )
            return analysis, values
        ex = extract(claim.content, turns, names, self.aligned_swaps)
        return ex.analysis, ex.values

    def probabilities(self, rows: Sequence[Sequence[float]]) -> list[float]:
        if not rows:
            return []
        return [float(v) for v in self.model.predict(np.asarray(rows, dtype=np.float64))]

    async def verify_batch(self, batch: Sequence[GroundingRequest]) -> list[GroundingReport]:
        return self.verify_many(batch)

    def verify_one(self, req: GroundingRequest) -> GroundingReport:
        return self.verify_many([req])[0]

    def verify_with_analysis(
        self, req: GroundingRequest
    ) -> tuple[GroundingReport, Analysis | None]:
        return self._verify([req])[0]

    def verify_many(self, batch: Sequence[GroundingRequest]) -> list[GroundingReport]:
        return [report for report, _ in self._verify(batch)]

    def _verify(
        self, batch: Sequence[GroundingRequest]
    ) -> list[tuple[GroundingReport, Analysis | None]]:
        out: list[tuple[GroundingReport, Analysis | None] | None] = [None] * len(batch)
        pending: list[tuple[int, Claim, list[SourceTurn], Analysis]] = []
        lexical: dict[int, GroundingReport] = {}  # stacked: the lexical verdict per claim
        rows: list[list[float]] = []
        for i, req in enumerate(batch):
            claim = req.claim
            try:
                turns = bounded_turns(req.turns, self.cfg.max_evidence_chars)
                if not turns:
                    out[i] = (no_evidence_report(claim, self.name), None)
                    continue
                if self.twin is not None:
                    # the lexical reading first: a verbatim quote (or its failure) ends
                    # there, as it would in the lexical verifier
                    reading = read(self.twin, claim, turns)
                    if reading.analysis is None:
                        out[i] = (reading.report.model_copy(update={"verifier": self.name}), None)
                        continue
                    ex = extract(
                        claim.content,
                        turns,
                        known_names(claim, turns),
                        self.aligned_swaps,
                        reading.analysis,
                    )
                    analysis = ex.analysis
                    values = [*ex.values, *view_values(reading, self.twin)]
                    if self.overrule_below is not None:
                        # stacked: the verdict is the lexical one (its rules have run)
                        lexical[i] = reading.report
                        pending.append((i, claim, turns, analysis))
                        rows.append(values)
                        continue
                else:
                    quoted = self._verbatim(claim, turns)
                    if quoted is not None:
                        out[i] = (quoted, None)
                        continue
                    analysis, values = self.features(claim, turns)
                # the rules that do not read the score, now, while the claim's words are
                # in the word caches (and for free when the lexical reading has just
                # read them for the same text): the verdict below applies the thresholds
                self.findings(claim, analysis, turns)
            except Exception as exc:  # never raise into the stream
                out[i] = (self._failed(claim, exc), None)
                continue
            pending.append((i, claim, turns, analysis))
            rows.append(values)
        try:
            scores = self.probabilities(rows)
        except Exception as exc:
            for i, claim, _, _ in pending:
                out[i] = (self._failed(claim, exc), None)
            pending = []
            scores = []
        for (i, claim, turns, analysis), p in zip(pending, scores, strict=True):
            try:
                if i in lexical:
                    out[i] = (self._overrule(lexical[i], p), analysis)
                    continue
                out[i] = (self._decide(claim, analysis, turns, p), analysis)
            except Exception as exc:
                out[i] = (self._failed(claim, exc), None)
        return [r for r in out if r is not None]

    def _overrule(self, report: GroundingReport, p: float) -> GroundingReport:
        """The stacked verdict: the lexical report, unless the learned score is under
        `overrule_below` where the lexical verdict lets the claim pass (SUPPORTED or
        PARTIAL); then NOT_SUPPORTED, with the learned score. The bound was chosen out of
        fold (`training.choose_overrule`): where the learned evidence against the claim
        is strong, which on the labelled data is where the lexical verdict errs most
        (BEGIN and FaithDial responses whose words are in the source but whose meaning
        is not). Otherwise the lexical verdict, spans, reasoning, penalty and rewrite
        stand; `score` is the learned calibrated P(supported) either way (what an
        ensemble and the reliability plots read), the lexical penalty having been
        taken from the lexical score."""
        lo = self.overrule_below
        passing = report.verdict in (GroundingVerdict.SUPPORTED, GroundingVerdict.PARTIAL)
        if lo is None or not passing or p >= lo:
            return report.model_copy(update={"verifier": self.name, "score": round(p, 4)})
        return report.model_copy(
            update={
                "verifier": self.name,
                "verdict": GroundingVerdict.NOT_SUPPORTED,
                "score": round(p, 4),
                "reasoning": (
                    f"not_supported: learned P(supported) {p:.2f} under {lo:.2f} "
                    f"overrules the lexical verdict ({report.reasoning})"
                ),
                "confidence_penalty": 0.0,
                "adjusted_confidence": 0.0,
                "rewritten_content": None,
            }
        )

    def _failed(self, claim: Claim, exc: Exception) -> GroundingReport:
        return unknown_report(claim, self.name, f"verifier error: {type(exc).__name__}")

    def _core_supported(
        self, claim: Claim, a: Analysis, turns: Sequence[SourceTurn], floor: float
    ) -> bool:
        """Score the claim again with its unsupported numbers and names removed."""
        drop = {w.lower() for w in (*a.missing_numbers, *a.missing_entities)}
        core = " ".join(
            w for w in claim.content.split() if w.strip(".,;:!?%()\"'").lower() not in drop
        )
        if not core.strip():
            return False
        b, values = self.features(claim.model_copy(update={"content": core}), turns)
        p = self.probabilities([values])[0]
        return p >= floor and not b.missing_numbers and not b.missing_entities
