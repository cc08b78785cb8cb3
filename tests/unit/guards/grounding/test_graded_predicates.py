"""A quality graded by a degree word that the source never names (`lexical/
graded_predicates.py`): "the hall is so spacious" judges the hall, NOT_SUPPORTED; the
source naming the quality, a result clause, a question, a negation, a modal, a reported
or quoted view and an ungraded predicate are left as they were."""

from __future__ import annotations

import pytest

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding.lexical import verifier as verifier_module
from groundwire.guards.grounding.lexical.graded_predicates import graded_predicates
from groundwire.topics.records import GroundingReport, SourceTurn
from groundwire.topics.vocab import GroundingVerdict
from tests.unit.guards.grounding.one_turn import one_turn, verify_one_turn

CFG = GroundingConfig()
HALL = "The conference hall holds 400 people and opened in 2019 next to the station."
STARS = "There are stars in the known universe that are cold enough to be touched by hand."


def _turns(text: str) -> list[SourceTurn]:
    return one_turn(text, "user")


def _verify(claim: str, source: str) -> GroundingReport:
    return verify_one_turn(claim, source, "user", CFG)


@pytest.mark.parametrize(
    ("claim", "source", "word"),
    [
        ("The conference hall holds 400 people and is so spacious.", HALL, "spacious"),
        (
            "The museum opened in 2019, it is really expensive.",
            "The museum opened in 2019 in the old town.",
            "expensive",
        ),
        (
            "There are stars cold enough to be touched. The universe is so diverse.",
            STARS,
            "diverse",
        ),
    ],
)
def test_a_graded_quality_the_source_never_names_is_not_supported(
    claim: str, source: str, word: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert graded_predicates(claim, _turns(source)) == [word]
    report = _verify(claim, source)
    assert report.verdict is GroundingVerdict.NOT_SUPPORTED
    assert f"a graded judgement the source does not make: {word!r}" in report.reasoning
    # without the rule the claim passed on its shared words
    monkeypatch.setattr(verifier_module, "graded_predicates", lambda *_: [])
    assert _verify(claim, source).verdict is not GroundingVerdict.NOT_SUPPORTED


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("The conference hall is very spacious.", "The spacious conference hall holds 400."),
        ("The storms are so strong that radios pick them up.", "Radios pick up the storms."),
        ("Is the conference hall very spacious?", HALL),
        ("The conference hall is not very spacious.", HALL),
        ("The conference hall can be pretty cold.", HALL),
        ("They say the conference hall is very spacious.", HALL),
        ('The guide wrote: "the hall is very spacious."', HALL),
        ("The conference hall is spacious.", HALL),  # no degree word: the other rules
        ("The conference hall holds very many people.", HALL),  # no copula before it
        ("The film is really splendid.", "Critics found the film excellent."),  # a synonym
    ],
)
def test_what_is_no_added_graded_judgement(claim: str, source: str) -> None:
    assert graded_predicates(claim, _turns(source)) == []


def test_a_statement_of_the_source_keeps_its_verdict() -> None:
    # control: the same facts without the graded judgement are read as before
    claim = "The conference hall holds 400 people and opened in 2019."
    report = _verify(claim, HALL)
    assert report.verdict is GroundingVerdict.SUPPORTED
    assert "graded judgement" not in report.reasoning


def test_a_claim_of_the_shape_repeated_reads_a_bounded_number_of_shapes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # each shape reads its clause and sentence: at the claim size limit the work is
    # bounded by `MAX_SHAPES`, not by the number of shapes (calls counted, not timed)
    from groundwire.guards.grounding.lexical import graded_predicates as module

    calls = 0
    real = module._asked

    def counting(text: str, end: int) -> bool:
        nonlocal calls
        calls += 1
        return real(text, end)

    monkeypatch.setattr(module, "_asked", counting)
    claim = ("it is so big, " * 1200)[:16_000]
    found = graded_predicates(claim, _turns("the cat sat on a mat. " * 2000))
    assert found == ["big"] * module.MAX_FOUND
    monkeypatch.setattr(module, "MAX_FOUND", 10_000)
    calls = 0
    found = graded_predicates(claim, _turns("the cat sat on a mat. " * 2000))
    assert len(found) == calls == module.MAX_SHAPES
