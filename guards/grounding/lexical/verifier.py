"""The offline default grounding verifier: lexical evidence only, no model, no network.

A claim is grounded when its content is found in the admissible source turns. The
signals (`features.analyze`) go through a fitted logistic model (`model.probability`)
and two thresholds; on top of the score, the structural cues decide:

* a claim the source states word for word (three words or more) is SUPPORTED, whatever
  its score: the weights learn from paraphrases, and a short exact quote looks thin,
* a swapped number or name, an antonym in the slot the source fills, or a negation the
  aligned source clause does not have (`polarity.py`) contradicts the source
  (NOT_SUPPORTED), as does a common word swapped in place ("the sales team" where the
  source says "the payments team", `slot_swaps.py`) and a claim whose every checked
  clause is attributed to a speaker who did not say it,
* an unsupported number or entity, or a negation flip, caps the verdict at PARTIAL: a
  claim that adds a specific the source lacks is at best partially grounded. Such a
  claim scoring below PARTIAL is still PARTIAL when its core (the claim without those
  specifics) scores PARTIAL on its own, with a penalty that grows with the number of
  added specifics.

Every verdict carries its evidence spans and a one-line explanation of the signals; with
`rewrite_partial`, a PARTIAL one also carries the claim restated to keep only what the
evidence supports (`rewrite.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding.base import (
    bounded_turns,
    finish_report,
    locate_span,
    no_evidence_report,
    penalty_for,
    unknown_report,
)
from groundwire.guards.grounding.lexical.added_facts import added_specific
from groundwire.guards.grounding.lexical.alternative_values import alternative_values
from groundwire.guards.grounding.lexical.asked_questions import asked_questions
from groundwire.guards.grounding.lexical.assertion import (
    STRONG,
    asks_only,
    may_speak_of_itself,
    speaks_of_itself,
    unasserted_outside,
)
from groundwire.guards.grounding.lexical.attributed_beliefs import attributed_beliefs
from groundwire.guards.grounding.lexical.capitals import restate_capitals
from groundwire.guards.grounding.lexical.changed_causes import changed_causes
from groundwire.guards.grounding.lexical.changed_terms import changed_terms
from groundwire.guards.grounding.lexical.continued_states import continued_states
from groundwire.guards.grounding.lexical.core_substance import core_has_substance
from groundwire.guards.grounding.lexical.crossed_directions import crossed_directions
from groundwire.guards.grounding.lexical.dated_events import redated_years
from groundwire.guards.grounding.lexical.denied_predicates import denied_predicates
from groundwire.guards.grounding.lexical.evidence import (
    Sentence,
    evidence_for,
    known_names,
    users_own_words,
)
from groundwire.guards.grounding.lexical.features import Analysis, analyze
from groundwire.guards.grounding.lexical.findings import Findings
from groundwire.guards.grounding.lexical.fused_non import restate_non_words
from groundwire.guards.grounding.lexical.graded_predicates import graded_predicates
from groundwire.guards.grounding.lexical.invented_names import invented_names
from groundwire.guards.grounding.lexical.missing_lacks import restate_missing
from groundwire.guards.grounding.lexical.model import (
    BIAS,
    FEATURES,
    PARTIAL_THRESHOLD,
    SUPPORTED_THRESHOLD,
    WEIGHTS,
    probability,
)
from groundwire.guards.grounding.lexical.negation_forms import plain_negation
from groundwire.guards.grounding.lexical.opinion import Added, added_evaluations, judges_only
from groundwire.guards.grounding.lexical.owner import SOMEONE_ELSE, subjectless_owner
from groundwire.guards.grounding.lexical.passive_actors import swapped_actors
from groundwire.guards.grounding.lexical.past_conjecture import past_conjecture
from groundwire.guards.grounding.lexical.quantifiers import changed_quantifiers
from groundwire.guards.grounding.lexical.restated_dates import restate_dates
from groundwire.guards.grounding.lexical.rewrite import restate_intention, rewrite_partial
from groundwire.guards.grounding.lexical.sentence_conjecture import sentence_conjecture
from groundwire.guards.grounding.lexical.slot_swaps import claim_slot_swaps, is_acronym
from groundwire.guards.grounding.lexical.speaker_acts import swapped_doers
from groundwire.guards.grounding.lexical.speaker_possessions import speaker_possessions
from groundwire.guards.grounding.lexical.speaker_values import moved_values
from groundwire.guards.grounding.lexical.speaking import someone_speaks
from groundwire.guards.grounding.lexical.split_words import close_split_words
from groundwire.guards.grounding.lexical.superseded_tenses import superseded_tenses
from groundwire.guards.grounding.lexical.text import claim_words, fold_disguises
from groundwire.guards.protocols import GroundingRequest
from groundwire.topics.records import Claim, EvidenceSpan, GroundingReport, SourceTurn
from groundwire.topics.vocab import GroundingVerdict

__all__ = ["LexicalVerifier"]

# The rules `_verdict` asks in this order while the claim stands: the findings field that
# keeps each answer, the rule (its module name looked up at each call, so a test can
# switch one off), and what the reasoning calls what it found.
_REFUSALS: tuple[tuple[str, Callable[[str, Sequence[SourceTurn]], list[str]], str], ...] = (
    ("graded", lambda c, t: graded_predicates(c, t), "a graded judgement the source does not make"),
    ("guessed", lambda c, t: sentence_conjecture(c, t), "the speaker's own conjecture"),
    ("believed", lambda c, t: attributed_beliefs(c, t), "a belief the source never attributes"),
    ("questioned", lambda c, t: asked_questions(c, t), "a question the claim asks, not a fact"),
    ("possessed", lambda c, t: speaker_possessions(c, t), "the speaker's own, unattested"),
    ("thought", lambda c, t: past_conjecture(c, t), "the speaker's past belief"),
    ("redated", lambda c, t: redated_years(c, t), "a year the source gives another event"),
)


class LexicalVerifier:
    """Offline verifier: signals above, logistic score, thresholds -> verdict and spans."""

    name = "lexical"
    feature_names: tuple[str, ...] = FEATURES
    weights: tuple[float, ...] = WEIGHTS
    bias: float = BIAS
    default_supported: float = SUPPORTED_THRESHOLD
    default_partial: float = PARTIAL_THRESHOLD
    # A claim that only asks (`assertion.asks_only`) is NOT_SUPPORTED: it states nothing.
    # The learned verifier turns this off: its model was trained on labelled questions
    # and already scores them as the data labels them (docs/grounding.md).
    questions_assert_nothing: bool = True

    def __init__(self, cfg: GroundingConfig | None = None, *, aligned_swaps: bool = False) -> None:
        self.cfg = cfg or GroundingConfig()
        # Also a name/number the source uses elsewhere, swapped in the aligned sentence
        # (`features.analyze`): for checking a cited artifact, not a conversation.
        self.aligned_swaps = aligned_swaps
        hi, lo = self.cfg.supported_threshold, self.cfg.partial_threshold
        self.supported_threshold = self.default_supported if hi is None else hi
        self.partial_threshold = self.default_partial if lo is None else lo
        self.partial_threshold = min(self.partial_threshold, self.supported_threshold)

    async def verify_batch(self, batch: Sequence[GroundingRequest]) -> list[GroundingReport]:
        return [self.verify_one(req) for req in batch]

    async def aclose(self) -> None:
        """Nothing to release: the verifier holds no connections."""

    def extra_features(self, claim_text: str, turns: Sequence[SourceTurn]) -> dict[str, float]:
        """Hook for subclasses that add signals (the embedding verifier)."""
        return {}

    def score(self, analysis: Analysis) -> float:
        return probability(analysis.features, self.feature_names, self.weights, self.bias)

    def verify_one(self, req: GroundingRequest) -> GroundingReport:
        return self.verify_with_analysis(req)[0]

    def verify_with_analysis(
        self, req: GroundingRequest
    ) -> tuple[GroundingReport, Analysis | None]:
        """The report, and the signals behind it (None when no analysis ran: no evidence,
        a verbatim quote, an internal error). Callers that must tell a contradiction from
        mere absence (`guards/artifacts.py`) read `conflicts` and `polarity_flips`."""
        claim = req.claim
        try:
            turns = bounded_turns(req.turns, self.cfg.max_evidence_chars)
            if not turns:
                return no_evidence_report(claim, self.name), None
            # "March 6, 2024" for "2024-03-06" is the same date; "X is not the one who ..."
            # and "X ... - NOT." deny X (`restated_dates.py`, `negation_forms.py`)
            restated = plain_negation(restate_dates(claim.content, turns))
            # "di caprio" for the source's "DiCaprio" is the same word (`split_words.py`)
            restated = close_split_words(restated, turns)
            # "not trivial" for the source's "nontrivial", and back (`fused_non.py`)
            restated = restate_non_words(restated, turns)
            # "is missing tests" for the source's "lacks tests" (`missing_lacks.py`)
            restated = restate_missing(restated, turns)
            # a claim typed in capitals is read with the source's case (`capitals.py`)
            restated = restate_capitals(restated, turns)
            if restated != claim.content:
                claim = claim.model_copy(update={"content": restated})
            quoted = self._verbatim(claim, turns)
            if quoted is not None:
                return quoted, None
            names = known_names(claim, turns)
            analysis = analyze(claim.content, turns, names, self.aligned_swaps)
            analysis.features.update(self.extra_features(claim.content, turns))
            return self._decide(claim, analysis, turns), analysis
        except Exception as exc:  # never raise into the stream
            report = unknown_report(claim, self.name, f"verifier error: {type(exc).__name__}")
            return report, None

    def _verbatim(self, claim: Claim, turns: Sequence[SourceTurn]) -> GroundingReport | None:
        """A claim the source states word for word is supported, whatever the fitted score
        says about its length: the weights learn from paraphrases, and a short exact quote
        ("X is a constrained mapping.") would otherwise look thin. Three words at least, so
        a fragment like "is not" never counts as a quote."""
        text = claim.content.strip().rstrip(".!?;:").strip()
        if len(text.split()) < 3:
            return None
        span = locate_span(turns, text)
        if span is None:
            return None
        for s in evidence_for(turns).sentences:
            inside = s.turn.id == span.turn_id and s.start < span.end and span.start < s.end
            if inside and unasserted_outside(s, span.start, span.end):
                return None  # "Nobody on the team uses Windows": read it
            if inside and _owner_left_out(claim, turns, s):
                return None  # "Name is Priya" in "My daughter's name is Priya": read whose it is
        if self._contradicted_later(claim, turns, span):
            return None  # "The cache is enabled." ... "Correction: the cache is disabled."
        return finish_report(
            claim,
            GroundingVerdict.SUPPORTED,
            verifier=self.name,
            score=1.0,
            spans=[span],
            reasoning="supported: the source states the claim verbatim",
        )

    def _contradicted_later(
        self, claim: Claim, turns: Sequence[SourceTurn], span: EvidenceSpan
    ) -> bool:
        """Whether what the source says after the quote contradicts the claim: a later
        correction or update outweighs an earlier statement, word for word or not. Only
        the quote and what follows it are read (its own turn from the quote on, then the
        later turns), so a contradiction the quote itself corrects ("The cache was
        disabled. Now the cache is enabled.") does not count, and a value the quote names
        and a later sentence changes ("... moved to Monday") does."""
        at = next((k for k, t in enumerate(turns) if t.id == span.turn_id), None)
        if at is None:
            return False
        later = [turns[at].model_copy(update={"text": turns[at].text[span.start :]})]
        later += turns[at + 1 :]
        if len(later) == 1 and not turns[at].text[span.end :].strip(" .!?;:,\n\t"):
            return False  # nothing after the quote
        after = analyze(claim.content, later, known_names(claim, turns), self.aligned_swaps)
        return bool(after.conflicts or after.polarity_flips)

    def _decide(
        self,
        claim: Claim,
        a: Analysis,
        turns: Sequence[SourceTurn],
        p: float | None = None,
    ) -> GroundingReport:
        """The verdict from the score (`self.score(a)` unless the caller scored the claim
        already: the learned verifier scores a whole batch at once) and the signals: the
        rules that do not read the score (`findings`, once per analysis and claim text),
        then the thresholds over the score (`_verdict`)."""
        if p is None:
            p = self.score(a)
        return self._verdict(claim, a, turns, p, self.findings(claim, a, turns))

    def findings(self, claim: Claim, a: Analysis, turns: Sequence[SourceTurn]) -> Findings:
        """The verdict rules that do not read the score (`findings.py`), kept on the
        analysis: a second verdict on the same analysis and claim text (the learned
        verifier's, over its own score) reads them again for free. They complete
        `a.conflicts` in place, after the fitted signals were read."""
        f = a.findings
        if f is not None and f.text == claim.content:
            return f
        # a common word swapped in place ("the sales team" / "the payments team"): a
        # contradiction, read after the score (`slot_swaps.py`), so the fitted signals
        # are the ones the weights were fitted on
        if not a.slot_swaps_read and any(
            w[:1].islower() or is_acronym(w) for w in a.missing_words
        ):  # an acronym too: "*SMS* alerts" against "*email* alerts"
            reported = {c for c, _ in a.conflicts}  # a common word the source lacks
            names = known_names(claim, turns)
            a.conflicts += claim_slot_swaps(claim.content, turns, names, reported)
        a.slot_swaps_read = True
        # a predicate the source only ever denies ("he was happy" / "he wasn't very
        # happy"), read without an aligned clause (`denied_predicates.py`, session 13)
        if not (a.conflicts or a.polarity_flips):
            a.conflicts += denied_predicates(claim.content, turns)
        # a speaker's "I will bring him" told as the other bringing the speaker
        # (`speaker_acts.py`, session 13); transcripts only
        if not (a.conflicts or a.polarity_flips) and len(evidence_for(turns).speakers) > 1:
            a.conflicts += swapped_doers(claim.content, turns)
        # a quantifier or a frequency the claim changed ("some" / "all", "sometimes" /
        # "always"; `quantifiers.py`, session 14 round 2)
        if not (a.conflicts or a.polarity_flips):
            a.conflicts += changed_quantifiers(claim.content, turns)
        # an obligation, a bound, a condition, a time bound or a percentage the claim
        # turned round ("must not" / "need not", "10" / "up to 10", "if" / "unless",
        # "until" / "since", "5%" / "5 points"; `changed_terms.py`, session 18)
        if not (a.conflicts or a.polarity_flips):
            a.conflicts += changed_terms(claim.content, turns)
        # a name or date given to a speaker who said another ("Cassie suggests contacting
        # HR" where Cassie said IT; `speaker_values.py`, session 14); transcripts only
        if not (a.conflicts or a.polarity_flips) and len(evidence_for(turns).speakers) > 1:
            a.conflicts += moved_values(claim.content, turns)
        # a doer the source gives the act to another ("approved by Ana" / "Ben approved
        # it"; `passive_actors.py`, session 16)
        if not (a.conflicts or a.polarity_flips):
            a.conflicts += swapped_actors(claim.content, turns)
        # a value the source tells in the past and replaces in the present with the same
        # verb ("worked at Globex and now works at Acme"; `superseded_tenses.py`, session 18)
        if not (a.conflicts or a.polarity_flips):
            a.conflicts += superseded_tenses(claim.content, turns)
        # a direction the source gives another subject ("Latency went up and errors went
        # down" / "Errors went up"; `crossed_directions.py`, session 18)
        if not (a.conflicts or a.polarity_flips):
            a.conflicts += crossed_directions(claim.content, turns)
        # a cause the source gives the effect replaced by another ("doubled thanks to the
        # cache" / "The index doubled ..."; `changed_causes.py`, session 18)
        if not (a.conflicts or a.polarity_flips):
            a.conflicts += changed_causes(claim.content, turns)
        # a state the source says never ended, denied ("never stopped using Jenkins" /
        # "We don't use Jenkins"; `continued_states.py`, session 18)
        if not (a.conflicts or a.polarity_flips):
            a.conflicts += continued_states(claim.content, turns)
        # an exception's value told as the rule ("14 days, or 30 days for students" /
        # "lasts 30 days"; `alternative_values.py`, session 18)
        if not (a.conflicts or a.polarity_flips):
            a.conflicts += alternative_values(claim.content, turns)
        # a name a transcript never uses puts someone into the conversation; it sharpens
        # nothing (`invented_names.py`, session 14)
        invented = invented_names(a.missing_entities, turns, claim.content)
        moods = {mood for _, mood in a.unasserted}
        own = (
            may_speak_of_itself(claim.content)
            and not someone_speaks(turns, evidence_for(turns).lows)
            and speaks_of_itself(claim_words(claim.content), claim.content)
        )
        f = a.findings = Findings(
            text=claim.content,
            specifics=[*a.missing_numbers, *a.missing_entities],
            contradiction=bool(a.conflicts or a.polarity_flips or invented),
            invented=invented,
            moods=moods,
            asked=None,
            own=own,
            strong=a.features["speaker_mismatch"] >= 1.0 or not STRONG.isdisjoint(moods),
        )
        return f

    def _verdict(
        self,
        claim: Claim,
        a: Analysis,
        turns: Sequence[SourceTurn],
        p: float,
        f: Findings,
    ) -> GroundingReport:
        """The verdict of score `p` given the score-free findings `f`: the thresholds, and
        the rules read only for a verdict that is not already NOT_SUPPORTED."""
        hi, lo = self.supported_threshold, self.partial_threshold
        specifics, moods = f.specifics, f.moods
        penalty = 0.0
        asked = False
        if self.questions_assert_nothing:
            if f.asked is None:
                f.asked = bool(a.features["question"]) and asks_only(
                    claim_words(claim.content), claim.content
                )
            asked = f.asked
        own = f.own
        if f.contradiction or asked or own or f.strong:
            verdict = GroundingVerdict.NOT_SUPPORTED
        elif moods and a.spans and p >= lo:
            # stated as fact where the source only hedges, plans or conditions it
            verdict = GroundingVerdict.PARTIAL
            penalty = round(max(self.cfg.penalty_min, self.cfg.penalty_max), 4)
        elif p >= hi and not specifics and not a.negation_flip:
            verdict = GroundingVerdict.SUPPORTED
        elif p >= lo and a.spans:
            verdict = GroundingVerdict.PARTIAL
            # just under SUPPORTED loses little, barely above NOT_SUPPORTED the most
            penalty = penalty_for(min(p, hi), lo, hi, self.cfg)
        elif specifics and a.spans and self._core_supported(claim, a, turns, lo):
            # PARTIAL (docs/spec.md §Grounding): the core is in the source, the claim adds
            # specifics (a date, a percentage, a project name) the source never gave.
            verdict = GroundingVerdict.PARTIAL
            lo_pen, hi_pen = sorted((self.cfg.penalty_min, self.cfg.penalty_max))
            penalty = round(min(hi_pen, lo_pen + 0.05 * (len(specifics) - 1)), 4)
        else:
            verdict = GroundingVerdict.NOT_SUPPORTED
        added: list[Added] = []
        if verdict is not GroundingVerdict.NOT_SUPPORTED:
            if f.added is None:
                f.added = added_evaluations(claim.content, turns)
            added = f.added
        if added and judges_only(added):  # what a clause says is a judgement nobody made
            verdict, penalty = GroundingVerdict.NOT_SUPPORTED, 0.0
        elif added and verdict is GroundingVerdict.SUPPORTED:  # a judgement added on
            verdict = GroundingVerdict.PARTIAL
            penalty = round(max(self.cfg.penalty_min, self.cfg.penalty_max), 4)
        # rules that refuse the claim outright, asked in order while it still stands, each
        # answer kept on the findings (a second verifier reading this analysis asks once):
        # a quality graded by a degree word the source never names ("the universe is so
        # diverse", `graded_predicates.py`, session 14); the speaker's belief, not the
        # source's fact ("I think X"), opening the claim or a sentence of it
        # (`speculation.py`, `sentence_conjecture.py`); a third party's belief the source
        # never reports ("people think the sun moves", `attributed_beliefs.py`; session 15);
        # a question put to the listener or the speaker's "I wonder" (`asked_questions.py`);
        # "my ..." / "mine" where nobody in the source speaks (`speaker_possessions.py`);
        # the speaker's past belief, "I thought X" (`past_conjecture.py`; session 16);
        # a year the source gives another event ("founded in 1870" where the source's
        # 1870 dates something else; `dated_events.py`, session 17)
        refused: dict[str, list[str]] = {}
        for attr, rule, _said in _REFUSALS:
            if verdict is GroundingVerdict.NOT_SUPPORTED:
                break
            found = getattr(f, attr)
            if found is None:
                found = rule(claim.content, turns)
                setattr(f, attr, found)
            if found:
                refused[attr] = found
                verdict, penalty = GroundingVerdict.NOT_SUPPORTED, 0.0
        rewritten = None
        if verdict is GroundingVerdict.PARTIAL and self.cfg.rewrite_partial:
            stems = evidence_for(turns).stems
            # an added evaluation is dropped like an unsupported name ("The film premiered")
            drop = [*specifics, *(x.word for x in added)]
            rewritten = rewrite_partial(claim.content, drop, stems, turns, a.spans)
            if moods == {"intended"}:  # "Works at Acme" from "I'm hoping to work at Acme"
                said = next(text for text, mood in a.unasserted if mood == "intended")
                rewritten = restate_intention(rewritten or claim.content, said) or rewritten
        return finish_report(
            claim,
            verdict,
            verifier=self.name,
            score=p,
            spans=a.spans,
            reasoning=_explain(verdict, a, asked, own)
            + "".join(f"; an evaluation the source does not make: {x.word!r}" for x in added[:3])
            + "".join(
                f"; {said}: {refused[attr][0]!r}" for attr, _, said in _REFUSALS if attr in refused
            )
            + "".join(
                f"; names {w!r}, whom the conversation never mentions" for w in f.invented[:3]
            ),
            penalty=penalty,
            rewritten_content=rewritten,
        )

    def _core_supported(
        self, claim: Claim, a: Analysis, turns: Sequence[SourceTurn], floor: float
    ) -> bool:
        """Score the claim again with its unsupported numbers and names removed.

        The core must be in the source as stated: a core whose negation differs from its
        best-matching source sentence ("The team did not migrate the ledger in 2023"
        against "The team migrated the ledger last year") is the source's fact turned
        round, not its fact with a detail added, so it rescues nothing (session 12)."""
        drop = {w.lower() for w in (*a.missing_numbers, *a.missing_entities)}
        core = " ".join(
            w for w in claim.content.split() if w.strip(".,;:!?%()\"'").lower() not in drop
        )
        if not core.strip():
            return False
        stems = evidence_for(turns).stems
        if added_specific(claim.content, drop, stems) is not None:
            return False  # a specific of a sentence the source does not state: added
        if not core_has_substance(core, stems):
            return False  # one shared word is no statement to sharpen (session 13)
        b = analyze(core, turns, known_names(claim, turns), self.aligned_swaps)
        b.features.update(self.extra_features(core, turns))
        return (
            self.score(b) >= floor
            and not b.missing_numbers
            and not b.missing_entities
            and not b.negation_flip
        )


def _owner_left_out(claim: Claim, turns: Sequence[SourceTurn], s: Sentence) -> bool:
    """Whether the claim leaves out the owner it is about, with the user's turns as its
    evidence (`owner.subjectless_owner`), and the sentence `s` holding the quote may say
    it of someone else ("my", "he", "her", ...; the cheap test, first) or no turn of the
    user's speaks of the user: the words it quotes lack the subject, so the quote alone
    cannot say whether the user or the user's sister said it of herself."""
    if SOMEONE_ELSE.isdisjoint(s.lows) and users_own_words(turns):
        return False
    words = claim_words(fold_disguises(claim.content))
    implied, unheard = subjectless_owner(words, claim.content, known_names(claim, turns), turns)
    return implied is not None or unheard


_MOOD_SAYS = {
    "question": "asked, not stated",
    "hypothetical": "imagined",
    "denied": "called false",
    "past": "no longer so",
    "unrealised": "almost, not quite",
    "done": "planned or hedged, told as done",
    "hedged": "hedged",
    "intended": "intended, not done",
    "conditional": "under a condition",
}


def _explain(verdict: GroundingVerdict, a: Analysis, asked: bool = False, own: bool = False) -> str:
    """The report's reasoning: the verdict, then each signal that moved it."""
    parts = [f"{a.features['coverage']:.0%} of content words found in the source"]
    if asked:
        parts.append("the claim only asks, it states nothing")
    if a.missing_numbers:
        parts.append("numbers not in the source: " + ", ".join(a.missing_numbers[:5]))
    if a.missing_entities:
        parts.append("names not in the source: " + ", ".join(a.missing_entities[:5]))
    if a.names_swapped:
        parts.append(
            ", ".join(f"names {c!r} where the source names {s!r}" for c, s in a.names_swapped[:3])
        )
    other = [pair for pair in a.conflicts if pair not in a.names_swapped]
    if other:
        parts.append(
            "contradicts the source: "
            + ", ".join(f"{c!r} where the source says {s!r}" for c, s in other[:3])
        )
    negated = [c for c in a.polarity_flips if c not in a.superseded]
    if negated:
        parts.append("negation differs from the source: " + ", ".join(map(repr, negated[:3])))
    if a.superseded:
        parts.append(
            "the source names it only as what changed: " + ", ".join(map(repr, a.superseded[:3]))
        )
    if not a.polarity_flips and a.negation_flip:
        parts.append("negation differs from the best-matching source sentence")
    if a.unasserted:
        parts.append(
            "the source does not assert it: "
            + ", ".join(f"{text!r} ({_MOOD_SAYS[mood]})" for text, mood in a.unasserted[:3])
        )
    if own:
        parts.append("the speaker's own tastes or doings, which the source cannot attest")
    elif a.features["first_person"]:
        parts.append("first-person statement the source does not make")
    if a.features["speaker_mismatch"]:
        parts.append("attributed to a speaker who did not say it")
    if a.missing_words and verdict is not GroundingVerdict.SUPPORTED:
        parts.append("unsupported words: " + ", ".join(a.missing_words[:8]))
    return f"{verdict.value}: " + "; ".join(parts)
