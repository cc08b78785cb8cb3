"""A belief the source never attributes (`lexical/attributed_beliefs.py`): "the finance
team believes X" states that someone holds X, which a source stating X alone does not
say: NOT_SUPPORTED. A source that reports a belief or a saying, a negation, a modal, a
condition, a question, the speaker's or listener's "think" and the noun "thought" are
left as they were."""

from __future__ import annotations

import pytest

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding.lexical import verifier as verifier_module
from groundwire.guards.grounding.lexical.attributed_beliefs import attributed_beliefs
from groundwire.topics.records import GroundingReport, SourceTurn
from groundwire.topics.vocab import GroundingVerdict
from tests.unit.guards.grounding.one_turn import one_turn, verify_one_turn

CFG = GroundingConfig()
LAUNCH = "The launch of the billing service slipped to March after the load tests failed."
SAILORS = "Ancient sailors navigated by the stars and crossed the Mediterranean in wooden ships."

PARTY = "Tom: the party is on Friday at my place.\nAnn: great, I'll bring a cake."


def _turns(text: str) -> list[SourceTurn]:
    return one_turn(text, "user")


def _verify(claim: str, source: str) -> GroundingReport:
    return verify_one_turn(claim, source, "user", CFG)


@pytest.mark.parametrize(
    ("claim", "source", "word"),
    [
        (
            "The finance team believes the launch of the billing service slipped to March "
            "after the load tests failed.",
            LAUNCH,
            "believes",
        ),
        (
            "Many engineers think the launch of the billing service slipped to March.",
            LAUNCH,
            "think",
        ),
        ("It is widely believed that ancient sailors navigated by the stars.", SAILORS, "believed"),
    ],
)
def test_a_belief_the_source_never_attributes_is_not_supported(
    claim: str, source: str, word: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert attributed_beliefs(claim, _turns(source)) == [word]
    report = _verify(claim, source)
    assert report.verdict is GroundingVerdict.NOT_SUPPORTED
    assert f"a belief the source never attributes: {word!r}" in report.reasoning
    # without the rule the claim passed on the source's own words
    monkeypatch.setattr(verifier_module, "attributed_beliefs", lambda *_: [])
    assert _verify(claim, source).verdict is not GroundingVerdict.NOT_SUPPORTED


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # the source reports the saying: the attribution may be its own in other words
        (
            "The finance team believes the launch of the billing service slipped to March.",
            "The finance team said the launch of the billing service slipped to March.",
        ),
        # ... or another state of mind, which the claim may restate
        ("Woody thinks Buzz will replace him.", "Woody fears Buzz will replace him at the party."),
        ("The finance team might think the launch slipped to March.", LAUNCH),  # modal
        ("The finance team does not believe the launch slipped to March.", LAUNCH),
        ("If engineers believe the launch slipped to March, the load tests failed.", LAUNCH),
        ("Does the finance team think the launch slipped to March?", LAUNCH),  # asks
        ("I think the launch of the billing service slipped to March.", LAUNCH),  # speaker
        ("You'd think the launch of the billing service slipped to March.", LAUNCH),
        ("The thought of the launch slipping to March after the load tests failed.", LAUNCH),
        ("Ancient sailors navigated by the stars and crossed the Mediterranean.", SAILORS),
        ("Engineers thought about the launch of the billing service in March.", LAUNCH),
        (
            "The launch of the billing service slipped 2 months believe it or not.",
            LAUNCH,
        ),
        # one whom the source lets speak holds what they said
        ("Tom thinks the party is on Friday.", PARTY),
        ("The user believes the launch of the billing service slipped to March.", LAUNCH),
    ],
)
def test_no_third_party_belief_is_left_as_it_was(
    claim: str, source: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert attributed_beliefs(claim, _turns(source)) == []
    report = _verify(claim, source)
    assert "a belief the source never attributes" not in report.reasoning
    monkeypatch.setattr(verifier_module, "attributed_beliefs", lambda *_: [])
    off = _verify(claim, source)
    assert (off.verdict, off.reasoning) == (report.verdict, report.reasoning)


def test_the_claim_without_the_attribution_stays_supported() -> None:
    claim = "The launch of the billing service slipped to March after the load tests failed."
    assert _verify(claim, LAUNCH).verdict is GroundingVerdict.SUPPORTED


def test_a_person_the_transcript_never_lets_speak_is_a_third_party() -> None:
    assert attributed_beliefs("Mark thinks the party is on Friday.", _turns(PARTY)) == ["thinks"]


def test_at_most_max_found_verbs_are_named() -> None:
    claim = " ".join(["Engineers think it slipped."] * 50)
    assert len(attributed_beliefs(claim, _turns(LAUNCH))) == 3


def test_work_is_bounded_at_the_size_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 16,000-character claim of one asked sentence of "people think" repeated reads at
    most MAX_READ verbs (each reads its clause back and its sentence on): calls counted."""
    from groundwire.guards.grounding.lexical import attributed_beliefs as module

    calls = 0
    asked = module._asked

    def counting(text: str, end: int) -> bool:
        nonlocal calls
        calls += 1
        return asked(text, end)

    monkeypatch.setattr(module, "_asked", counting)
    claim = ("people think it slipped " * 700)[:15_990] + "?"
    assert attributed_beliefs(claim, _turns(LAUNCH)) == []
    assert calls == module.MAX_READ
