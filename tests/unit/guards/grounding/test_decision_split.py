"""The verdict split into its score-free rules (`LexicalVerifier.findings`, read once
per analysis) and its thresholds (`_verdict`) decides as the one combined pass it replaced
(`_old_decide` below: `_decide` as it stood at faa7405 with session 14's three rules
merged in, 0af8a4d, verbatim, and the acronym gate of the slot rule), over the claims of the
repository's sample and probe files at scores across [0, 1]:

* a fresh analysis per score (the lexical verifier's path),
* one analysis decided at every score in turn (the learned verifier's path: the findings
  read once, the thresholds per score; the cached `added`/`guessed` must not leak from
  one verdict into another),
* the lexical reading's analysis handed to the learned verifier (its model with the
  lexical judgement): the lexical verifier's "a question asserts nothing" must not carry
  into the learned verdict, and findings read for another text (the claim as the lexical
  verifier restates it) are read again.

A test that fails here names the claim and score where the two paths part."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding.base import bounded_turns, finish_report, penalty_for
from groundwire.guards.grounding.learned import LearnedVerifier
from groundwire.guards.grounding.learned.lexical_view import lexical_twin, read
from groundwire.guards.grounding.lexical import LexicalVerifier, known_names
from groundwire.guards.grounding.lexical.asked_questions import asked_questions
from groundwire.guards.grounding.lexical.assertion import (
    STRONG,
    asks_only,
    may_speak_of_itself,
    speaks_of_itself,
)
from groundwire.guards.grounding.lexical.attributed_beliefs import attributed_beliefs
from groundwire.guards.grounding.lexical.dated_events import redated_years
from groundwire.guards.grounding.lexical.denied_predicates import denied_predicates
from groundwire.guards.grounding.lexical.evidence import evidence_for
from groundwire.guards.grounding.lexical.features import Analysis, analyze
from groundwire.guards.grounding.lexical.graded_predicates import graded_predicates
from groundwire.guards.grounding.lexical.invented_names import invented_names
from groundwire.guards.grounding.lexical.opinion import added_evaluations, judges_only
from groundwire.guards.grounding.lexical.passive_actors import swapped_actors
from groundwire.guards.grounding.lexical.past_conjecture import past_conjecture
from groundwire.guards.grounding.lexical.rewrite import restate_intention, rewrite_partial
from groundwire.guards.grounding.lexical.sentence_conjecture import sentence_conjecture
from groundwire.guards.grounding.lexical.slot_swaps import claim_slot_swaps, is_acronym
from groundwire.guards.grounding.lexical.speaker_acts import swapped_doers
from groundwire.guards.grounding.lexical.speaker_possessions import speaker_possessions
from groundwire.guards.grounding.lexical.speaker_values import moved_values
from groundwire.guards.grounding.lexical.speaking import someone_speaks
from groundwire.guards.grounding.lexical.text import claim_words
from groundwire.guards.grounding.lexical.verifier import _explain
from groundwire.topics.records import Claim, GroundingReport, SourceTurn
from groundwire.topics.vocab import GroundingVerdict

DATA = Path(__file__).resolve().parents[4] / "bench" / "data"
SCORES = (0.0, 0.05, 0.15, 0.25, 0.35, 0.45, 0.55, 0.65, 0.75, 0.85, 0.95, 1.0)


def _old_decide(
    self: LexicalVerifier,
    claim: Claim,
    a: Analysis,
    turns: Sequence[SourceTurn],
    p: float | None = None,
) -> GroundingReport:
    """`LexicalVerifier._decide` before the split (0af8a4d), as a function of `self`."""
    if p is None:
        p = self.score(a)
    # a common word swapped in place ("the sales team" / "the payments team"): a
    # contradiction, read after the score (`slot_swaps.py`), so the fitted signals
    # are the ones the weights were fitted on
    if not a.slot_swaps_read and any(w[:1].islower() or is_acronym(w) for w in a.missing_words):
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
    # a name or date given to a speaker who said another ("Cassie suggests contacting
    # HR" where Cassie said IT; `speaker_values.py`, session 14); transcripts only
    if not (a.conflicts or a.polarity_flips) and len(evidence_for(turns).speakers) > 1:
        a.conflicts += moved_values(claim.content, turns)
    # a doer the source gives the act to another (`passive_actors.py`, session 16)
    if not (a.conflicts or a.polarity_flips):
        a.conflicts += swapped_actors(claim.content, turns)
    hi, lo = self.supported_threshold, self.partial_threshold
    specifics = [*a.missing_numbers, *a.missing_entities]
    # a name a transcript never uses puts someone into the conversation; it sharpens
    # nothing (`invented_names.py`, session 14)
    invented = invented_names(a.missing_entities, turns, claim.content)
    contradiction = bool(a.conflicts or a.polarity_flips or invented)
    moods = {mood for _, mood in a.unasserted}
    penalty = 0.0
    asked = (
        self.questions_assert_nothing
        and bool(a.features["question"])
        and asks_only(claim_words(claim.content), claim.content)
    )
    own = (
        may_speak_of_itself(claim.content)
        and not someone_speaks(turns, evidence_for(turns).lows)
        and speaks_of_itself(claim_words(claim.content), claim.content)
    )
    if (
        contradiction
        or asked
        or own
        or a.features["speaker_mismatch"] >= 1.0
        or not STRONG.isdisjoint(moods)
    ):
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
    added = (
        [] if verdict is GroundingVerdict.NOT_SUPPORTED else added_evaluations(claim.content, turns)
    )
    if added and judges_only(added):  # what a clause says is a judgement nobody made
        verdict, penalty = GroundingVerdict.NOT_SUPPORTED, 0.0
    elif added and verdict is GroundingVerdict.SUPPORTED:  # a judgement added on
        verdict = GroundingVerdict.PARTIAL
        penalty = round(max(self.cfg.penalty_min, self.cfg.penalty_max), 4)
    # a quality graded by a degree word that the source never names: "the universe
    # is so diverse" (`graded_predicates.py`, session 14)
    graded = (
        [] if verdict is GroundingVerdict.NOT_SUPPORTED else graded_predicates(claim.content, turns)
    )
    if graded:
        verdict, penalty = GroundingVerdict.NOT_SUPPORTED, 0.0
    # the speaker's belief, not the source's fact ("I think X"), opening the claim or one
    # of its sentences: `speculation.py`, `sentence_conjecture.py`
    guessed = (
        []
        if verdict is GroundingVerdict.NOT_SUPPORTED
        else sentence_conjecture(claim.content, turns)
    )
    if guessed:
        verdict, penalty = GroundingVerdict.NOT_SUPPORTED, 0.0
    # a third party's belief the source never reports (`attributed_beliefs.py`, session 15)
    believed = []
    if verdict is not GroundingVerdict.NOT_SUPPORTED:
        believed = attributed_beliefs(claim.content, turns)
    if believed:
        verdict, penalty = GroundingVerdict.NOT_SUPPORTED, 0.0
    # a question put to the listener, or the speaker's "I wonder" (`asked_questions.py`,
    # session 16)
    questioned = []
    if verdict is not GroundingVerdict.NOT_SUPPORTED:
        questioned = asked_questions(claim.content, turns)
    if questioned:
        verdict, penalty = GroundingVerdict.NOT_SUPPORTED, 0.0
    # the speaker's own things where nobody in the source speaks (`speaker_possessions.py`)
    possessed = []
    if verdict is not GroundingVerdict.NOT_SUPPORTED:
        possessed = speaker_possessions(claim.content, turns)
    if possessed:
        verdict, penalty = GroundingVerdict.NOT_SUPPORTED, 0.0
    # the speaker's past belief, "I thought X" (`past_conjecture.py`, session 16)
    thought = []
    if verdict is not GroundingVerdict.NOT_SUPPORTED:
        thought = past_conjecture(claim.content, turns)
    if thought:
        verdict, penalty = GroundingVerdict.NOT_SUPPORTED, 0.0
    # a year the source gives another event (`dated_events.py`, session 17)
    redated = []
    if verdict is not GroundingVerdict.NOT_SUPPORTED:
        redated = redated_years(claim.content, turns)
    if redated:
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
        + "".join(f"; a graded judgement the source does not make: {w!r}" for w in graded[:1])
        + "".join(f"; the speaker's own conjecture: {w!r}" for w in guessed[:1])
        + "".join(f"; a belief the source never attributes: {w!r}" for w in believed[:1])
        + "".join(f"; a question the claim asks, not a fact: {w!r}" for w in questioned[:1])
        + "".join(f"; the speaker's own, unattested: {w!r}" for w in possessed[:1])
        + "".join(f"; the speaker's past belief: {w!r}" for w in thought[:1])
        + "".join(f"; a year the source gives another event: {w!r}" for w in redated[:1])
        + "".join(f"; names {w!r}, whom the conversation never mentions" for w in invented[:3]),
        penalty=penalty,
        rewritten_content=rewritten,
    )


def _turns_of(row: dict) -> list[SourceTurn]:  # type: ignore[type-arg]
    if "source_turns" in row:
        return [SourceTurn.model_validate(t) for t in row["source_turns"]]
    return [SourceTurn(id="t0", text=row["source"], source="user")]


def _cases() -> Iterator[tuple[str, Claim, list[SourceTurn]]]:
    """Every claim of the sample and probe files that hold a claim and its source (none
    of them written for this test): rules of every kind fire among them."""
    files = (
        "grounding-sample",
        "hedge-sample",
        "memory-probe",
        "slot-swaps-probe",
        "near-names-probe",
        "swapped-names-probe",
        "initial-names-probe",
    )
    for name in files:
        for k, line in enumerate((DATA / f"{name}.jsonl").read_text("utf-8").splitlines()):
            row = json.loads(line)
            text = row.get("content", row.get("claim"))
            if not isinstance(text, str) or not line.strip():
                continue
            turns = _turns_of(row)
            claim = Claim(
                claim_id=f"{name}-{k}",
                tenant_id="t",
                content=text,
                source="chat",
                source_turns=turns,
            )
            yield f"{name}-{k}", claim, turns


# claims the lexical verifier restates before reading them (`restated_dates.py`,
# `negation_forms.py`): its findings are for another text than the learned verifier's
RESTATED = [
    (
        "The launch moved to 2024-03-06 after the review.",
        "The launch is on March 6, 2024, once the security review is done.",
    ),
    (
        "Dana is not the one who approved the budget.",
        "Dana approved the budget for the payments team.",
    ),
]


def _restated() -> Iterator[tuple[str, Claim, list[SourceTurn]]]:
    for k, (text, source) in enumerate(RESTATED):
        turns = [SourceTurn(id="t0", text=source, source="corpus")]
        claim = Claim(
            claim_id=f"restated-{k}",
            tenant_id="t",
            content=text,
            source="chat",
            source_turns=turns,
        )
        yield f"restated-{k}", claim, turns


CASES = [*_cases(), *_restated()]


def _fresh(v: LexicalVerifier, claim: Claim, turns: list[SourceTurn]) -> Analysis:
    return analyze(claim.content, turns, known_names(claim, turns), v.aligned_swaps)


def _same(new: GroundingReport, old: GroundingReport) -> bool:
    return new.model_dump(exclude={"created_at"}) == old.model_dump(exclude={"created_at"})


def test_the_cases_cover_every_rule() -> None:
    """The comparison below means something only if the rules it splits fire: each kind
    of finding occurs among the cases."""
    v = LexicalVerifier()
    seen = {"contradiction": 0, "specifics": 0, "moods": 0, "strong": 0, "asked": 0, "own": 0}
    verdicts = set()
    for _, claim, turns in CASES:
        a = _fresh(v, claim, turns)
        report = v._decide(claim, a, turns)
        verdicts.add(report.verdict)
        f = a.findings
        assert f is not None and f.text == claim.content
        seen["contradiction"] += f.contradiction
        seen["specifics"] += bool(f.specifics)
        seen["moods"] += bool(f.moods)
        seen["strong"] += f.strong
        seen["asked"] += bool(f.asked)
        seen["own"] += f.own
    assert len(CASES) > 300
    assert all(seen.values()), seen
    assert verdicts >= {
        GroundingVerdict.SUPPORTED,
        GroundingVerdict.PARTIAL,
        GroundingVerdict.NOT_SUPPORTED,
    }


@pytest.mark.parametrize("rewrite", [True, False])
def test_a_fresh_analysis_decides_as_the_combined_pass(rewrite: bool) -> None:
    v = LexicalVerifier(GroundingConfig(rewrite_partial=rewrite))
    for name, claim, turns in CASES:
        for p in (None, *SCORES):
            new = v._decide(claim, _fresh(v, claim, turns), turns, p)
            old = _old_decide(v, claim, _fresh(v, claim, turns), turns, p)
            assert _same(new, old), (name, p, new.reasoning, old.reasoning)


def test_one_analysis_decided_at_every_score_decides_as_fresh_ones() -> None:
    """The learned verifier's path: findings read once, then a verdict per score, in an
    order that takes each claim from NOT_SUPPORTED to SUPPORTED and back (so an `added`
    read for one verdict is reused by the next, never one left unread wrongly)."""
    v = LearnedVerifier()
    for name, claim, turns in CASES:
        a = _fresh(v, claim, turns)
        for p in (*SCORES, *reversed(SCORES)):
            new = v._decide(claim, a, turns, p)
            old = _old_decide(v, claim, _fresh(v, claim, turns), turns, p)
            assert _same(new, old), (name, p, new.reasoning, old.reasoning)


def test_the_lexical_readings_findings_serve_the_learned_verdict() -> None:
    """The learned verifier with the lexical judgement decides on the analysis the
    lexical verifier has just decided on; before the split it ran the whole verdict again
    on it. Both the lexical verifier's own question rule (off in the learned verifier)
    and the claim text the lexical verifier restated stay the learned verifier's own."""
    twin = lexical_twin()
    learned = LearnedVerifier()
    restated = 0
    for name, claim, turns in CASES:
        bounded = bounded_turns(turns, twin.cfg.max_evidence_chars)
        reading = read(twin, claim, bounded)
        if reading.analysis is None:
            continue  # a verbatim quote: no analysis to hand on
        f = reading.analysis.findings
        assert f is not None
        restated += f.text != claim.content
        # the old path: a second combined pass on the very analysis the reading made
        twice = read(twin, claim, bounded).analysis
        assert twice is not None
        for p in SCORES:
            new = learned._decide(claim, reading.analysis, bounded, p)
            old = _old_decide(learned, claim, twice, bounded, p)
            assert _same(new, old), (name, p, new.reasoning, old.reasoning)
    assert restated  # some claims are restated (dates): their findings are read again


def test_a_question_asserts_nothing_for_the_lexical_verifier_only() -> None:
    """The control and the case: the same analysis read first by the lexical verifier
    (which rules the question out) and then by the learned one (which does not)."""
    turns = [SourceTurn(id="t1", text="Priya leads the payments team.", source="corpus")]
    claim = Claim(
        claim_id="q",
        tenant_id="t",
        content="Does Priya lead the payments team?",
        source="chat",
        source_turns=turns,
    )
    twin, learned = lexical_twin(), LearnedVerifier()
    a = _fresh(twin, claim, turns)
    assert twin._decide(claim, a, turns, 0.99).verdict is GroundingVerdict.NOT_SUPPORTED
    assert a.findings is not None and a.findings.asked
    assert learned._decide(claim, a, turns, 0.99).verdict is not GroundingVerdict.NOT_SUPPORTED


def test_findings_read_for_another_text_are_read_again() -> None:
    turns = [SourceTurn(id="t1", text="Priya leads the payments team.", source="corpus")]
    v = LexicalVerifier()
    first = Claim(
        claim_id="a",
        tenant_id="t",
        content="Priya leads the payments team now.",
        source="chat",
        source_turns=turns,
    )
    a = _fresh(v, first, turns)
    f = v.findings(first, a, turns)
    assert v.findings(first, a, turns) is f  # the same text: read once
    other = first.model_copy(update={"content": "Priya leads the sales team now."})
    g = v.findings(other, a, turns)
    assert g is not f and g.text == other.content
