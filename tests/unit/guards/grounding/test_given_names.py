"""A given name where prose names the person by the family name only
(`lexical/given_names.py`): "Mark" in the slot of a plot summary's "Zuckerberg" is no
swapped person; it stays a name the source does not give (PARTIAL, not SUPPORTED). A full
name, a source that gives the person's given name, a short chat turn, a place and a name
that is no given name stay contradictions."""

from __future__ import annotations

import pytest

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding import grounding_blocks
from groundwire.guards.grounding.lexical import features as features_module
from groundwire.guards.grounding.lexical import verifier as verifier_module
from groundwire.guards.grounding.lexical.given_names import given_for_family
from groundwire.topics.records import GroundingReport, SourceTurn
from groundwire.topics.vocab import GroundingVerdict
from tests.unit.guards.grounding.one_turn import one_turn, verify_one_turn

CFG = GroundingConfig()

# running prose that calls two people by their family names only
BOARD = (
    "The board met in March to review the merger . Halvorsen presented the plan to the "
    "investors . The investors approved the merger after a long debate . Halvorsen then "
    "moved the company to Oslo ."
)
EXPEDITION = (
    "The expedition left the coast in early June . Okafor led the team across the glacier "
    ". Two weeks later the team reached the summit . Okafor planted the flag and the team "
    "returned ."
)
# the same shape as the FaithDial response the rule was built for
NETWORK = (
    "Lee arranges for Saverin and Zuckerberg to meet the founder of a music service . He "
    "suggests dropping the article from the name . The company moves to Palo Alto . "
    "Zuckerberg invites him to live at the house he uses as company headquarters ."
)

# (claim, source, the given name): the claim's given name for the family name
LIFTED = [
    ("Mark presented the plan to the investors.", BOARD, "Mark"),
    ("Grace led the team across the glacier.", EXPEDITION, "Grace"),
    ("Lee arranges for Saverin and Mark to meet the founder of a music service.", NETWORK, "Mark"),
]

# (claim, source, speaker): still a contradiction
KEPT = [
    # a full name is another person's
    ("Grace Brown led the team across the glacier.", EXPEDITION, "document"),
    # the source gives the person's given name: "Mark" is not hers
    (
        "Mark was sent to parking duty.",
        "Judy Hopps joined the police in May . Hopps was sent to parking duty . The chief "
        "doubted her . Hopps solved the case anyway .",
        "document",
    ),
    # a short chat turn names people as it likes: "Priya" is no family name
    ("Penny will lead the migration team.", "Priya will lead the migration team.", "user"),
    # a place is no given name
    ("Oslo led the team across the glacier.", EXPEDITION, "document"),
]


def verify(claim: str, source: str, speaker: str = "document") -> GroundingReport:
    return verify_one_turn(claim, source, speaker, CFG)


def _rule_off(monkeypatch: pytest.MonkeyPatch) -> None:
    def keep_all(
        claim_text: str,
        pairs: list[tuple[str, str]],
        turns: list[SourceTurn],
        missing: list[str],
    ) -> list[tuple[str, str]]:
        return list(pairs)

    monkeypatch.setattr(features_module, "other_persons", keep_all)
    monkeypatch.setattr(verifier_module, "other_persons", keep_all)


@pytest.mark.parametrize(("claim", "source", "name"), LIFTED)
def test_a_given_name_for_the_family_name_is_no_contradiction(
    claim: str, source: str, name: str
) -> None:
    report = verify(claim, source)
    assert report.verdict is GroundingVerdict.PARTIAL  # the name is still not the source's
    assert f"names not in the source: {name}" in report.reasoning
    assert "where the source" not in report.reasoning
    assert not grounding_blocks(report, CFG)


@pytest.mark.parametrize(("claim", "source", "name"), LIFTED)
def test_without_the_rule_it_reads_as_another_person(
    claim: str, source: str, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _rule_off(monkeypatch)
    report = verify(claim, source)
    assert report.verdict is GroundingVerdict.NOT_SUPPORTED
    assert f"'{name}' where the source" in report.reasoning  # says / names


@pytest.mark.parametrize(("claim", "source", "speaker"), KEPT)
def test_other_swapped_names_stay_contradictions(claim: str, source: str, speaker: str) -> None:
    report = verify(claim, source, speaker)
    assert report.verdict is GroundingVerdict.NOT_SUPPORTED
    assert "where the source names" in report.reasoning


def test_the_pairs_it_lifts() -> None:
    turns = one_turn(BOARD, "document")
    assert given_for_family("Mark presented it.", [("Mark", "Halvorsen")], turns) == [
        ("Mark", "Halvorsen")
    ]
    # written as a name only: a capital, then lower case
    assert given_for_family("MARK presented it.", [("MARK", "Halvorsen")], turns) == []
    # a source name that is itself a given name ("Maria") is no family name
    assert given_for_family("Mark presented it.", [("Mark", "Maria")], turns) == []
    # a source name the source never uses alone (only in "Palo Alto"-like runs)
    turns = one_turn("They flew to Los Angeles . It rained . They flew home .", "document")
    assert given_for_family("Mark flew there.", [("Mark", "Los")], turns) == []
