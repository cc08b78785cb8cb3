"""A name that opens a sentence and is also a common word ("Grace", "Tom", "Christian"),
and a name after a title's full stop ("Mrs. Grace", "Dr. Brown"), put where the source
names another person (guards/grounding/lexical/names.py `_subject`, `_opens`;
docs/grounding.md §Names). The capital of a sentence's first word says nothing, so the
word is a name when it is the bare subject of a verb that agrees with it ("Grace is",
"Tom became", "Christian approved"); a common noun opening a sentence has a determiner,
is plural, or is an abstract noun. Each rule is paired with controls that must stay.
"""

from __future__ import annotations

import pytest

from groundwire.guards.grounding.lexical.features import analyze
from groundwire.guards.grounding.lexical.names import _opens
from groundwire.topics.records import SourceTurn
from groundwire.topics.vocab import AnswerClaimVerdict, GroundingVerdict
from tests.unit.guards.grounding.test_assertion import NOT_SUPPORTED, verify
from tests.unit.guards.grounding.test_names import _read_time

SUPPORTED = GroundingVerdict.SUPPORTED
PARTIAL = GroundingVerdict.PARTIAL
CTO = "Dana became CTO in March after the reorg."
BUDGET = "Dana approved the budget on Friday."
LEAD = "Priya will lead the migration team."


@pytest.mark.parametrize(
    ("claim", "source", "named", "instead"),
    [
        ("Tom became CTO.", CTO, "Tom", "Dana"),  # a linking verb
        ("Christian approved the budget.", BUDGET, "Christian", "Dana"),  # an "-ed" past
        ("Penny will lead the migration team.", LEAD, "Penny", "Priya"),  # a modal
        ("Grace is the CTO.", CTO, "Grace", "Dana"),  # a copula
        ("Ernest approved the budget.", BUDGET, "Ernest", "Dana"),  # not "ern" + "-est"
        ("Mrs. Grace approved the budget.", BUDGET, "Grace", "Dana"),  # a title's stop
        ("Dr. Brown became CTO in March.", CTO, "Brown", "Dana"),
        # the source has the claim's stem only as a name: another name, not its form
        ("Christian is the owner.", "Christina is the owner.", "Christian", "Christina"),
        # the source's name is such a word
        ("Dana approved the budget.", "Grace approved the budget on Friday.", "Dana", "Grace"),
    ],
)
def test_a_common_word_name_opening_a_sentence_is_a_name(
    claim: str, source: str, named: str, instead: str
) -> None:
    report = verify(claim, source)
    assert report.verdict is NOT_SUPPORTED, report.reasoning
    assert f"names {named!r} where the source names {instead!r}" in report.reasoning


@pytest.mark.parametrize(
    ("claim", "source", "verdict"),
    [
        # plural, imperative, no verb after it: an ordinary word
        ("Grace periods are 30 days.", "Grace periods are 30 days, Dana said.", SUPPORTED),
        ("Mark the date for Dana.", "Dana asked us to mark the date.", SUPPORTED),
        ("Bill the client for the audit.", "Dana will bill the client for the audit.", PARTIAL),
        ("May is busy for Dana.", "Dana said May is busy.", SUPPORTED),
        # an abstract noun as a bare subject: an added word, not a rival name
        ("Security reviewed the contract.", "Dana reviewed the contract and signed it.", PARTIAL),
        ("Funding was approved by Dana.", BUDGET, PARTIAL),
        # a memory's label and its value; a common word the source has in another form
        ("Hometown is Porto.", "I grew up in Porto, Portugal.", SUPPORTED),
        ("Design is done.", "Dana said the designs are done.", SUPPORTED),
        # the source's own names, with and without a title
        ("Grace approved the budget.", "Grace approved the budget on Friday.", SUPPORTED),
        ("Mr. Dana Kim approved the budget.", "Mr. Dana Kim approved the budget.", SUPPORTED),
        ("Tom became CTO in March.", "Tom became CTO in March after the reorg.", SUPPORTED),
    ],
)  # fmt: skip
def test_ordinary_opening_words_and_the_sources_names_stay(
    claim: str, source: str, verdict: GroundingVerdict
) -> None:
    report = verify(claim, source)
    assert report.verdict is verdict, report.reasoning
    assert "names '" not in report.reasoning


@pytest.mark.parametrize(
    ("text", "word", "opens"),
    [
        ("Mr. Johnston approved it.", "Johnston", False),
        ("We met Dr. Patel today.", "Patel", False),
        ("The budget is done. Grace approved it.", "Grace", True),
        ("It went to the ER. Grace approved it.", "Grace", True),  # "ER" is no title
        ("Johnston approved it.", "Johnston", True),
    ],
)
def test_a_titles_full_stop_opens_no_sentence(text: str, word: str, opens: bool) -> None:
    assert _opens(text, text.index(word)) is opens


def test_read_time_reads_the_same_rule() -> None:
    assert _read_time("Tom became CTO.", CTO) == [AnswerClaimVerdict.CONTRADICTED]
    assert _read_time("Grace periods are 30 days.", "Grace periods are 30 days, Dana said.") == [
        AnswerClaimVerdict.SUPPORTED
    ]


@pytest.mark.parametrize(
    ("claim", "missing"),
    [
        ("Mr. Johnston approved the budget.", ["Johnston"]),  # inside its sentence
        ("Johnston approved the budget.", []),  # opens it: not the entity signal's
        ("The budget is done. Johnston approved it.", []),
    ],
)
def test_the_entity_signal_reads_a_titles_stop_the_same(claim: str, missing: list[str]) -> None:
    turns = [SourceTurn(id="t1", text="The budget was approved on Friday.", source="user")]
    assert analyze(claim, turns, set()).missing_entities == missing
