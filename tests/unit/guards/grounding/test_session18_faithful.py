"""Session 18, faithful restatements: memory claims an agent writes from a user's turn
that the default write path refused, each with the attack of the same shape that must
still be caught.

* `collective_owner.py`: "The team ..." for the user's "we ...", found only where the
  clause that says the claim has "we" (or "our" before a claim word);
* `function_verbs.py`: "likes", "gets", "knows" for the source's stopword "like", "get",
  "know", found where the source writes it as a subject's verb of the same object;
* `scale_words.py`: "1.5k" (a "k" written onto a decimal) and "fifteen hundred" read
  at their scale by `magnitudes`;
* `short_forms.py`: "BP" for "blood pressure" (initials of lower-case words) and "k8s"
  for "Kubernetes" (a numeronym), where the short form stands where the phrase stands;
* `adjective_heads.py`: the head adjective of a WordNet cluster ("small") for the
  source's satellite ("tiny") in the same place; never the other way round.
"""

from __future__ import annotations

import pytest

from groundwire.guards.grounding.lexical.adjective_heads import head_of_source_satellite
from groundwire.guards.grounding.lexical.collective_owner import collective_owner_found
from groundwire.guards.grounding.lexical.evidence import evidence_for
from groundwire.guards.grounding.lexical.function_verbs import function_verbs_found
from groundwire.guards.grounding.lexical.magnitudes import magnitudes
from groundwire.guards.grounding.lexical.short_forms import (
    initials_in_source,
    numeronym_in_source,
)
from groundwire.guards.grounding.lexical.text import claim_words
from groundwire.topics.vocab import GroundingVerdict
from tests.unit.guards.grounding.one_turn import one_turn, verify_one_turn

NOT = GroundingVerdict.NOT_SUPPORTED

# (claim, source as the user's turn): faithful, refused before session 18
KEPT = [
    ("The team uses AWS.", "We use Amazon Web Services."),
    ("The team uses trunk-based development.", "We do trunk-based development."),
    ("The team's decision was to postpone the launch.", "We decided to postpone the launch."),
    ("The user likes jazz.", "I like jazz, blues and funk."),
    ("The user likes funk.", "I like jazz, blues and funk."),
    ("The user gets migraines.", "I get migraines."),
    ("The user knows Python.", "I know Python and Go."),
    ("The service handles 1.5k requests per second.", "The service handles 1,500 requests."),
    ("The service handles 1,500 requests a second.", "It handles fifteen hundred requests."),
    ("It handles fifteen hundred requests.", "The service handles 1,500 requests."),
    ("The user's BP is under control.", "My blood pressure is under control."),
    ("The team uses CI.", "We use continuous integration."),
    ("The team is moving to k8s.", "We're moving to Kubernetes."),
    ("The app supports i18n.", "The app supports internationalization."),
    ("The user's apartment is small.", "My apartment is tiny."),
    ("The test is slow.", "The test is sluggish."),
    ("The user's car is old.", "My car is ancient."),
]

# (claim, source as the user's turn): the same shapes, contradicted
CAUGHT = [
    ("The team uses AWS.", "The contractors use AWS; we use GCP."),
    ("The team is hiring two engineers.", "Acme is hiring two engineers, and we are not."),
    ("The team uses AWS.", "We don't use Amazon Web Services."),
    ("The user likes jazz.", "I play music like jazz."),
    ("The user likes jazz.", "I like rock and hate jazz."),
    ("The user likes jazz.", "I like rock more than jazz."),
    ("The user likes jazz.", "I don't like jazz."),
    ("The service handles 1.5k requests.", "The service handles 1,600 requests."),
    ("The service handles 1.5k requests.", "The service handles 150 requests."),
    ("The service handles 1,600 requests.", "It handles fifteen hundred requests."),
    ("The budget is $500.", "The budget is twenty-five hundred dollars."),
    ("The team has 1.5 engineers.", "The team has 1,500 engineers."),
    ("The user's BP is high.", "My blood pressure is low."),
    ("The user's BMI is 24.", "My body mass index is 28."),
    ("The team uses CI.", "We don't use continuous integration."),
    ("The team is moving to k8s.", "We're moving away from Kubernetes."),
    ("The team is moving to k8s.", "We're moving to Kustomizers."),
    ("The user's apartment is tiny.", "My apartment is small."),
    ("The user's apartment is small.", "My apartment is huge."),
    ("The test is fast.", "The test is sluggish."),
    ("The user's car is new.", "My car is ancient."),
]


@pytest.mark.parametrize(("claim", "source"), KEPT)
def test_kept(claim: str, source: str) -> None:
    report = verify_one_turn(claim, source, "user")
    assert report.verdict != NOT, report.reasoning


@pytest.mark.parametrize(("claim", "source"), CAUGHT)
def test_caught(claim: str, source: str) -> None:
    report = verify_one_turn(claim, source, "user")
    assert report.verdict == NOT, report.reasoning


def _team_found(claim: str, source: str, speaker: str = "user") -> bool:
    cw = claim_words(claim)
    ev = evidence_for(one_turn(source, speaker))
    return collective_owner_found(cw.lows, cw.stems, cw.content, ev.sentences)


def test_team_is_the_we_of_the_clause_that_says_it() -> None:
    assert _team_found("The team uses AWS.", "We use AWS.")
    assert _team_found("The team's sprints are two weeks long.", "Our sprints are two weeks long.")
    # the clause holding "use AWS" is the contractors'
    assert not _team_found("The team uses AWS.", "The contractors use AWS; we use GCP.")
    # "our" owns another word: the vendor, not the team
    assert not _team_found("The team uses AWS.", "Our vendor uses AWS.")
    # only a user's turn speaks for the user's group
    assert not _team_found("The team uses AWS.", "We use AWS.", "assistant")
    # a source that names a team is read by its own words
    assert not _team_found("The team uses AWS.", "The other team uses AWS; we use GCP.")
    # no team in the claim
    assert not _team_found("The company uses AWS.", "We use AWS.")


def _verbs_found(claim: str, source: str) -> set[int]:
    cw = claim_words(claim)
    ev = evidence_for(one_turn(source, "user"))
    return function_verbs_found(cw.lows, cw.stems, ev.sentences)


def test_a_stopword_verb_of_the_same_object() -> None:
    # "likes" is the claim's third word
    assert _verbs_found("The user likes jazz.", "I really like jazz.") == {2}
    assert _verbs_found("The user likes blues.", "I like jazz, blues and funk.") == {2}
    # the preposition, another verb phrase, a negation before the verb
    assert _verbs_found("The user likes jazz.", "I play music like jazz.") == set()
    assert _verbs_found("The user likes jazz.", "I like rock and hate jazz.") == set()
    assert _verbs_found("The user likes jazz.", "I like rock, not jazz.") == set()
    assert _verbs_found("The user likes jazz.", "I don't like jazz.") == set()
    # "thinks" is read by the attribution rules, not here
    assert _verbs_found("The user thinks Redis.", "I think Redis.") == set()


def _sizes(text: str) -> list[float]:
    cw = claim_words(text)
    return [m[2] for m in magnitudes(cw.raws, cw.lows, cw.spans, text)]


def test_scales_written_onto_or_after_a_number() -> None:
    assert _sizes("It handles 1.5k requests.") == [1500.0]
    assert _sizes("It handles fifteen hundred requests.") == [1500.0]
    assert _sizes("It handles 12 hundred requests.") == [1200.0]
    # a "k" standing apart, "a hundred", "twenty-five hundred" read as before
    assert _sizes("It handles 1.5 k requests.") == [1.5]
    assert _sizes("It handles a hundred requests.") == [100.0]
    assert _sizes("It costs twenty-five hundred dollars.") == [20.0, 5.0, 100.0]


def _short(claim: str, source: str, word: str) -> tuple[bool, bool]:
    cw = claim_words(claim)
    sentences = evidence_for(one_turn(source, "user")).sentences
    i = cw.lows.index(word)
    return (
        initials_in_source(cw.raws, cw.lows, cw.stems, i, sentences),
        numeronym_in_source(cw.lows, cw.stems, i, sentences),
    )


def test_short_forms_where_the_phrase_stands() -> None:
    assert _short("The user has high BP.", "I have high blood pressure.", "bp") == (True, False)
    assert _short("They use k8s.", "They use Kubernetes.", "k8s") == (False, True)
    # another place: the word before differs ("to" / "from")
    assert _short("Moving to k8s.", "Moving away from Kubernetes.", "k8s") == (False, False)
    assert _short("The user has high BP.", "I have high pressure.", "bp") == (False, False)
    # the word after differs: the phrase is part of a longer one
    assert _short("The user's BP is new.", "My blood pressure cuff is new.", "bp") == (
        False,
        False,
    )
    assert _short("The user's BP is new.", "My blood pressure is new.", "bp") == (True, False)
    # the letters between must be as many as the number says; capitals are names
    assert _short("They use k7s.", "They use Kubernetes.", "k7s") == (False, False)
    assert _short("They use NY.", "They use New York.", "ny") == (False, False)


def _head(claim: str, source: str, word: str) -> bool:
    cw = claim_words(claim)
    sentences = evidence_for(one_turn(source, "user")).sentences
    return head_of_source_satellite(cw.lows, cw.stems, cw.lows.index(word), sentences)


def test_the_head_of_the_sources_satellite() -> None:
    assert _head("The room is small.", "The room is tiny.", "small")
    # a satellite for the source's head sharpens it; the opposite head is no head of it
    assert not _head("The room is tiny.", "The room is small.", "tiny")
    assert not _head("The room is large.", "The room is tiny.", "large")
    # another place: neither the word before nor the word after is the same
    assert not _head("The room is small.", "A tiny cat sleeps.", "small")
    # attributive, compared or passive: not a predicate adjective of the cluster
    assert not _head("It was the best.", "It was the finest.", "best")
    assert not _head("The room is larger than the hall.", "The room is huge.", "larger")
    assert not _head("The room is small.", "The room is tinier.", "small")
    assert _head("The room is large.", "The room is huge.", "large")
