"""Session 18, after the audit: a restriction told by a verb or adjective and its
preposition ("restricted to", "limited to", "reserved for", "exclusive to") states the
exclusivity a claim's "only" adds, so `added_only` does not refuse the claim; a source
without one still refuses it."""

from __future__ import annotations

import pytest

from groundwire.guards.grounding.lexical.changed_terms import changed_terms
from groundwire.topics.vocab import GroundingVerdict
from tests.unit.guards.grounding.one_turn import one_turn, verify_one_turn

NOT = GroundingVerdict.NOT_SUPPORTED


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("Only admins can delete projects.", "Deleting projects is restricted to admins."),
        ("Only admins can delete projects.", "Deleting projects is limited to admins."),
        ("Only members can book the room.", "Booking the room is reserved for members."),
        ("Only the EU region has the feature.", "The feature is exclusive to the EU region."),
    ],
)
def test_a_restriction_states_the_exclusivity(claim: str, source: str) -> None:
    assert changed_terms(claim, one_turn(source, "user")) == []
    assert verify_one_turn(claim, source, "user").verdict is not NOT


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("Only admins can delete projects.", "Admins can delete projects."),
        ("Only admins can delete projects.", "Admins can delete projects; the limit is ten a day."),
        ("Only members can book the room.", "Members can book the room, reserving it online."),
    ],
)
def test_without_a_restriction_only_is_still_added(claim: str, source: str) -> None:
    assert changed_terms(claim, one_turn(source, "user"))
    assert verify_one_turn(claim, source, "user").verdict is NOT
