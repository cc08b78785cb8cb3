"""An elliptical denial calls the clause before it false (`lexical/elliptical_denials.py`,
session 16b): "Ben claims the v1 API is deprecated, but it isn't." was read as stating the
claim verbatim (`supported`). Each caught case is checked both ways; the controls read
as without the rule.
"""

from __future__ import annotations

import pytest

from groundwire.guards.grounding import grounding_blocks
from groundwire.guards.grounding.lexical import assertion
from groundwire.guards.grounding.lexical.elliptical_denials import elliptical_denial_at
from groundwire.guards.grounding.lexical.text import claim_words
from groundwire.topics.records import SourceTurn
from groundwire.topics.vocab import GroundingVerdict
from tests.unit.guards.grounding.test_core_rescue import CFG, verify


def _turns(text: str) -> list[SourceTurn]:
    return [SourceTurn(id="t1", text=text, source="user")]


CAUGHT = (
    ("The v1 API is deprecated.", "Ben claims the v1 API is deprecated, but it isn't."),
    ("The cache is warm.", "Ana said the cache is warm, but it's not."),
    (
        "The migration finished on Friday.",
        "The changelog says the migration finished on Friday, yet it didn't.",
    ),
    ("The tests pass.", "The README says the tests pass, but they do not."),
)


def _off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(assertion, "elliptical_denial_at", lambda lows, k: False)


@pytest.mark.parametrize(("claim", "source"), CAUGHT)
def test_an_elliptical_denial_calls_the_clause_false(claim: str, source: str) -> None:
    report = verify(claim, _turns(source))
    assert report.verdict == GroundingVerdict.NOT_SUPPORTED, report.reasoning
    assert "(called false)" in report.reasoning
    assert grounding_blocks(report, CFG)


@pytest.mark.parametrize(("claim", "source"), CAUGHT)
def test_without_the_rule_the_same_claims_pass(
    claim: str, source: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _off(monkeypatch)
    report = verify(claim, _turns(source))
    assert report.verdict != GroundingVerdict.NOT_SUPPORTED, report.reasoning


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("The build passes on Linux.", "The build passes on Linux, but it doesn't on Windows."),
        ("Ana approved the change.", "Ana approved the change, but I didn't."),
        ("The v1 API is deprecated.", "The v1 API is deprecated, but it isn't removed yet."),
        ("The v1 API is deprecated.", "The v1 API is deprecated, but it still works."),
    ],
)
def test_controls(claim: str, source: str, monkeypatch: pytest.MonkeyPatch) -> None:
    turns = _turns(source)
    with_rule = verify(claim, turns)
    assert with_rule.verdict != GroundingVerdict.NOT_SUPPORTED, with_rule.reasoning
    _off(monkeypatch)
    assert with_rule == verify(claim, turns)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("X is so, but it isn't", True),
        ("X is so, but it is not", True),
        ("X is so, but that's not", True),
        ("X is so, but it isn't and Y is", True),
        ("X is so, but it isn't removed", False),
        ("X is so, but I didn't", False),
        ("X is so, but it's done", False),
        ("X is so, but it is", False),
    ],
)
def test_the_shape(text: str, expected: bool) -> None:
    lows = claim_words(text).lows
    assert elliptical_denial_at(lows, lows.index("but")) is expected
