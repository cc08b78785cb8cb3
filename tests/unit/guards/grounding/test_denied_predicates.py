"""A predicate the source only denies (`lexical/denied_predicates.py`, session 13).

"He was happy living there" against a chat where he "wasn't very happy here": every
word is the source's, no source clause holds the claim clause's words, so the negation
rules did not read it. Each caught case is checked both ways (NOT_SUPPORTED with the
rule, not with it switched off); the controls are readings the rule must leave alone.
"""

from __future__ import annotations

import pytest

from groundwire.guards.grounding import grounding_blocks
from groundwire.guards.grounding.lexical import verifier
from groundwire.guards.grounding.lexical.denied_predicates import denied_predicates
from groundwire.topics.records import SourceTurn
from groundwire.topics.vocab import GroundingVerdict
from tests.unit.guards.grounding.test_core_rescue import CFG, verify

CHAT = [
    SourceTurn(id="t1", text="Sam: I overheard Rick on the phone. He wasn't very happy here."),
    SourceTurn(id="t2", text="Naomi: You should talk to Rick about it."),
]
APPS = [
    SourceTurn(
        id="t1", text="Will: I installed the apps as it says on the box, but they don't work."
    ),
    SourceTurn(id="t2", text="Maggie: Did you restart your computer before launching them?"),
]
CAUGHT = (
    ("Sam overheard Rick saying that he was happy living with him.", CHAT, "happy"),
    ("Will says the apps he installed are working fine.", APPS, "working"),
)


def turns_of(*texts: str) -> list[SourceTurn]:
    return [SourceTurn(id=f"t{i}", text=t) for i, t in enumerate(texts)]


def test_a_predicate_the_source_only_denies_is_a_contradiction() -> None:
    for claim, turns, word in CAUGHT:
        report = verify(claim, turns)
        assert report.verdict == GroundingVerdict.NOT_SUPPORTED, claim
        assert f"contradicts the source: {word!r}" in report.reasoning, claim
        assert grounding_blocks(report, CFG), claim


def test_without_the_rule_the_same_claims_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cases above fail without the rule: overlap alone lets them through."""
    monkeypatch.setattr(verifier, "denied_predicates", lambda claim, turns: [])
    for claim, turns, _ in CAUGHT:
        report = verify(claim, turns)
        assert report.verdict != GroundingVerdict.NOT_SUPPORTED, claim
        assert not grounding_blocks(report, CFG), claim


def test_the_claims_stated_the_sources_way_are_unchanged(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The controls: the same claims with the source's negation are not read, and their
    reports are those without the rule."""
    controls = (
        ("Sam overheard Rick saying that he was not happy living with him.", CHAT),
        ("Will says the apps he installed are not working.", APPS),
    )
    with_rule = [verify(claim, turns) for claim, turns in controls]
    monkeypatch.setattr(verifier, "denied_predicates", lambda claim, turns: [])
    for (claim, turns), report in zip(controls, with_rule, strict=True):
        assert denied_predicates(claim, turns) == [], claim
        assert report == verify(claim, turns), claim


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # one plain use anywhere in the source: not only denied
        ("Rick is happy here.", "He wasn't happy at first. Now he is happy here."),
        # a use in a question denies nothing
        ("The project is bad.", "Emily: oh, no, is it bad? James: it is stressful."),
        # "not only" affirms
        ("The service is fast.", "The service is not only fast but also cheap."),
        # a comparative is another word: "couldn't be happier" is no denial of "happy"
        ("She is happy with the flat.", "She couldn't be happier with the flat."),
        # nor is a comparison denied: "couldn't be more happy" says "very happy"
        ("She is happy with the flat.", "She couldn't be more happy with the flat."),
        ("Testing is important.", "Nothing is more important than testing."),
        # the negation of another clause
        ("The room is quiet.", "I don't mind, the room is quiet."),
        # a negation further than the window
        ("The office is open.", "We did not say whether the main office is open."),
        # a particle makes another phrase: "turned off" is what "not turned on" says
        ("The cache is turned off.", "The cache is not turned on."),
    ],
)
def test_what_is_not_a_denial(claim: str, source: str) -> None:
    assert denied_predicates(claim, turns_of(source)) == []


@pytest.mark.parametrize(
    "claim",
    [
        "Is he happy here?",  # asks
        "If he is happy, Sam will stay.",  # supposes
        "He never was happy here.",  # the claim denies it too
        "Rick isn't happy here.",  # a negated copula is no copula
        "Rick happily signed the lease.",  # no copula: not a predicate
    ],
)
def test_what_is_not_a_predicate(claim: str) -> None:
    assert denied_predicates(claim, turns_of("Rick: I am not happy here.")) == []


def test_a_predicate_after_a_function_word_is_read() -> None:
    turns = turns_of("Rick: I am not a teacher, and I was never very happy there.")
    assert denied_predicates("Rick is a teacher.", turns) == [("teacher", "not a teacher")]
    assert denied_predicates("Rick was very happy there.", turns) == [("happy", "never very happy")]
