"""A name a transcript never uses is not a sharpened detail (`lexical/invented_names.py`,
session 14).

Against a `Name: text` transcript of two speakers or more, a claim naming a person,
place or thing the conversation never mentions puts it into the conversation: it is
`not_supported`, where the core rescue and the score used to make it `partial`. Each
caught case is checked both ways; the controls must read as they did without the rule.
"""

from __future__ import annotations

import pytest

from groundwire.guards.grounding import grounding_blocks
from groundwire.guards.grounding.lexical import verifier
from groundwire.guards.grounding.lexical.invented_names import invented_names
from groundwire.topics.records import SourceTurn
from groundwire.topics.vocab import GroundingVerdict
from tests.unit.guards.grounding.test_core_rescue import CFG, verify

FILM = [
    SourceTurn(
        id="t1",
        text="Kim: Any ideas for a film tonight? . Joel: Let's watch Metropolis at my place "
        ". Kim: Great, I'll bring snacks",
    )
]
CAUGHT = (
    (
        "Joel invites Kim and Tessa to watch Metropolis at his place, and Kim will bring snacks.",
        "Tessa",
    ),
    (
        "Joel invites Kim to watch Metropolis at his place tonight, and Kim will bring snacks "
        "from Lidl.",
        "Lidl",
    ),
)


def _off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(verifier, "invented_names", lambda names, turns, text: [])


def test_a_name_the_conversation_never_uses_is_not_supported() -> None:
    for claim, name in CAUGHT:
        report = verify(claim, FILM)
        assert report.verdict == GroundingVerdict.NOT_SUPPORTED, claim
        assert f"names {name!r}, whom the conversation never mentions" in report.reasoning
        assert grounding_blocks(report, CFG), claim


def test_without_the_rule_the_same_claims_are_partial(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cases above fail without the rule: the name read as a sharpened detail."""
    _off(monkeypatch)
    for claim, _ in CAUGHT:
        report = verify(claim, FILM)
        assert report.verdict == GroundingVerdict.PARTIAL, claim
        assert not grounding_blocks(report, CFG), claim


@pytest.mark.parametrize(
    ("claim", "turns"),
    [
        # every name is the conversation's
        ("Joel invites Kim to watch Metropolis at his place, and Kim will bring snacks.", FILM),
        # a weekday the chat never writes: a summary may resolve "tonight" to one
        ("On Friday Joel invites Kim to watch Metropolis at his place.", FILM),
        # not a transcript: the name sharpens a detail, as docs/spec.md reads it
        (
            "Joel will watch Metropolis with Tessa at his place tonight.",
            [SourceTurn(id="d", text="Joel wants to watch Metropolis at his place tonight.")],
        ),
        # one speaker is no conversation of several
        (
            "Joel will watch Metropolis with Tessa at his place tonight.",
            [SourceTurn(id="d", text="Joel: I want to watch Metropolis at my place tonight.")],
        ),
    ],
)
def test_controls_read_as_without_the_rule(
    claim: str, turns: list[SourceTurn], monkeypatch: pytest.MonkeyPatch
) -> None:
    with_rule = verify(claim, turns)
    _off(monkeypatch)
    assert with_rule == verify(claim, turns), claim
    assert "whom the conversation never mentions" not in with_rule.reasoning


def test_weekdays_months_and_identifiers_are_left_to_other_rules() -> None:
    assert invented_names(["Friday", "March", "Tessa", "Tessa"], FILM) == ["Tessa"]
    cited = "Joel invites Kim to watch Metropolis. Per ADR-3 and RFC 2119, Tessa joins."
    assert invented_names(["ADR", "RFC", "Tessa"], FILM, cited) == ["Tessa"]
    assert invented_names([], FILM) == []
    assert invented_names(["Tessa"], [SourceTurn(id="d", text="no speakers here")]) == []
