"""What the verdict rules read from a claim whatever its score, read once per analysis.

`LexicalVerifier._decide` maps a score to a verdict in two parts: rules that never look
at the score (a common word swapped in place, a predicate the source only denies, a doer
swapped between speakers, a claim that only asks or speaks of the speaker's own doings,
the moods the source leaves the claim in, its unsupported specifics) and thresholds over
the score. The learned verifier scores a whole batch before deciding and, when its model
reads the lexical verifier's judgement, decides a second time on the analysis the
lexical verifier has just decided on; before this module each decision re-ran the
score-free rules (over 100 µs a claim of the learned verifier's cost, docs/grounding.md).
`Findings` holds their outcome on the analysis (`Analysis.findings`), for the claim text
it was read for, so a second decision on the same analysis and text applies only its
thresholds.

`added`, `graded` and `guessed` (an evaluation nobody made, a graded judgement the source
never names, the speaker's own conjecture) depend
on the claim and the source alone too, but are read only for a verdict that is not
already NOT_SUPPORTED; they are kept here the first time a decision reads them.
"""

from __future__ import annotations

from dataclasses import dataclass

from groundwire.guards.grounding.lexical.opinion import Added

__all__ = ["Findings"]


@dataclass(slots=True)
class Findings:
    """The score-free outcome of the verdict rules for one analysis and claim text."""

    # the claim text they were read for (a verifier that restates the claim, as the
    # lexical one does for dates and spelled-out negations, reads another text)
    text: str
    # the claim's numbers and names the source lacks: they cap the verdict at PARTIAL
    specifics: list[str]
    # a swapped specific, an antonym in the slot, a negation flip, a common word swapped
    # in place, a predicate the source only denies, a doer swapped between speakers
    contradiction: bool
    # the moods in which the source leaves what the claim states (hedged, planned, ...)
    moods: set[str]
    # the claim only asks (`assertion.asks_only`); None until a verifier with
    # `questions_assert_nothing` reads it (the learned verifier does not)
    asked: bool | None
    # the claim speaks of the speaker's own tastes or doings, which no source attests
    own: bool
    # attributed to a speaker who did not say it, or a mood the source gives that the
    # claim cannot be read past (denied, hypothetical, ...): NOT_SUPPORTED
    strong: bool
    # names a `Name: text` transcript never uses (`invented_names.py`): part of
    # `contradiction`, named in the reasoning
    invented: list[str]
    # `opinion.added_evaluations` and `speculation.own_conjecture`, once read
    added: list[Added] | None = None
    guessed: list[str] | None = None
    # `graded_predicates.graded_predicates`, once read (session 14)
    graded: list[str] | None = None
    # `attributed_beliefs.attributed_beliefs`, once read (session 15)
    believed: list[str] | None = None
    # `asked_questions.asked_questions`, once read (session 16)
    questioned: list[str] | None = None
    # `speaker_possessions.speaker_possessions`, once read (session 16)
    possessed: list[str] | None = None
    # `past_conjecture.past_conjecture`, once read (session 16)
    thought: list[str] | None = None
    # `dated_events.redated_years`, once read (session 17)
    redated: list[str] | None = None
