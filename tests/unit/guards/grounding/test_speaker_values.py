"""A name or date given to a speaker who said another one (`lexical/speaker_values.py`,
session 14).

"Cassie suggests contacting HR" where Cassie said "IT" and only another speaker said
"HR": every word is the transcript's, so overlap and the clause-level speaker check let
it through. Each caught case is checked both ways; the controls must read as they did
without the rule.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from groundwire.guards.grounding import grounding_blocks
from groundwire.guards.grounding.lexical import speaker_values, verifier
from groundwire.guards.grounding.lexical.speaker_values import MAX_FOUND, moved_values
from groundwire.topics.records import SourceTurn
from groundwire.topics.vocab import GroundingVerdict
from tests.unit.guards.grounding.test_core_rescue import CFG, verify

PRINTER = [
    SourceTurn(
        id="t1",
        text="Ines: Who handles the broken printer? . Ravi: Ask Dana from HR about the forms "
        ". Ines: Sounds like an IT problem to me, I'd tell Marc from IT",
    )
]
TRIP = [
    SourceTurn(
        id="t1",
        text="Ola: Are you free on the last weekend of March? . Piet: No idea. It's April. "
        "Why? . Ola: We plan a trip to Riga",
    )
]
CAUGHT = (
    ("Ines suggests telling Marc from HR about the broken printer.", PRINTER, [("HR", "IT")]),
    (
        "Ola asks Piet about a trip to Riga in April, and Piet says it is March.",
        TRIP,
        [("April", "March"), ("March", "April")],
    ),
)


def _off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(verifier, "moved_values", lambda claim, turns: [])


def test_a_value_moved_to_another_speaker_is_a_contradiction() -> None:
    for claim, turns, moved in CAUGHT:
        assert moved_values(claim, turns) == moved, claim
        report = verify(claim, turns)
        assert report.verdict == GroundingVerdict.NOT_SUPPORTED, claim
        said, own = moved[0]
        assert f"{said!r} where the source says {own!r}" in report.reasoning, claim
        assert grounding_blocks(report, CFG), claim


def test_without_the_rule_the_same_claims_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    _off(monkeypatch)
    for claim, turns, _ in CAUGHT:
        report = verify(claim, turns)
        assert report.verdict != GroundingVerdict.NOT_SUPPORTED, claim
        assert not grounding_blocks(report, CFG), claim


@pytest.mark.parametrize(
    ("claim", "turns"),
    [
        # the values where the speakers put them
        ("Ines suggests telling Marc from IT about the broken printer.", PRINTER),
        ("Ola asks Piet about a trip to Riga in March, and Piet says it is April.", TRIP),
        # a joint subject reads the lines of both
        ("Ines and Ravi discuss HR, IT and the broken printer.", PRINTER),
        # the subject says no other value of the kind: nothing was moved from it
        ("Piet suggests a trip to Riga.", TRIP),
        # a value is moved only from one of its kind: Ines's acronym is in the clause,
        # her other value is a person's name
        ("Ines mentions HR and IT about the broken printer.", PRINTER),
        # no speaker named
        ("Someone suggests telling Marc from HR about the broken printer.", PRINTER),
        # not a transcript
        (
            "Ines suggests telling Marc from HR about the broken printer.",
            [SourceTurn(id="d", text="Ask Dana from HR. It is an IT problem, tell Marc.")],
        ),
    ],
)
def test_controls_read_as_without_the_rule(
    claim: str, turns: list[SourceTurn], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert moved_values(claim, turns) == [], claim
    with_rule = verify(claim, turns)
    _off(monkeypatch)
    assert with_rule == verify(claim, turns), claim


def test_a_sentence_opening_capital_and_first_person_forms_are_no_values() -> None:
    turns = [SourceTurn(id="t", text="Ann: Sure. I'll ask Tom . Bob: Fine. Ask Liz too")]
    # "Sure", "Fine", "I'll" open sentences or are the speaker's "I": only Tom and Liz count
    assert moved_values("Ann will ask Liz.", turns) == [("Liz", "Tom")]
    assert moved_values("Bob will ask Tom.", turns) == [("Tom", "Liz")]
    assert moved_values("Ann says Fine.", turns) == []


def test_reports_are_bounded() -> None:
    names = [f"Name{chr(97 + i)}x" for i in range(20)]
    text = "Ann: ask " + " ".join(names[:10]) + " . Bob: ask " + " ".join(names[10:])
    claim = "Ann will ask " + " ".join(names[10:]) + "."
    assert len(moved_values(claim, [SourceTurn(id="t", text=text)])) == MAX_FOUND


def test_work_is_read_once_per_line_and_clause(monkeypatch: pytest.MonkeyPatch) -> None:
    """At the size limits (a 16,000-character claim against 2,000 lines) each line and
    each claim clause is read for values once, whatever the number of values."""
    calls = 0
    real = speaker_values._values

    def counted(text: str) -> Iterator[tuple[tuple[str, str], str]]:
        nonlocal calls
        calls += 1
        return real(text)

    monkeypatch.setattr(speaker_values, "_values", counted)
    lines = " . ".join(
        f"{'Ann' if i % 2 else 'Bob'}: ask Name{i:04d}x about it" for i in range(2000)
    )
    clause = "Ann will ask " + " ".join(f"Other{i:04d}x" for i in range(1500))
    assert len(clause) > 16_000
    moved_values(clause, [SourceTurn(id="t", text=lines)])
    assert calls == 2000 + 1  # every line once, the claim's one clause once
