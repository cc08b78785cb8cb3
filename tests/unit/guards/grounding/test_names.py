"""A name the claim puts where the source puts another name (guards/grounding/lexical/
names.py, docs/grounding.md §a name the source gives another): "Marco is the CTO" against
"Dana became CTO in March after the reorg" is a contradiction, wherever the name stands
in the claim, at write time and at read time. Each rule is paired with controls that
must stay as they were: the source's own names, ordinary words that open a sentence,
pronouns, possessives, a surname added, and a name the source never rivals.
"""

from __future__ import annotations

import asyncio

import pytest

from groundwire.guards.config import GuardsConfig
from groundwire.guards.faithfulness.score import AnswerScorer
from groundwire.guards.grounding.lexical.names import common_word
from groundwire.topics.answers import Answer, ContextSource
from groundwire.topics.vocab import AnswerClaimVerdict, ClaimKind, GroundingVerdict
from tests.unit.guards.grounding.test_assertion import NOT_SUPPORTED, verify

SUPPORTED = GroundingVerdict.SUPPORTED
PARTIAL = GroundingVerdict.PARTIAL
CTO = "Dana became CTO in March after the reorg."
REVIEW = "The rollback plan was reviewed by Hiroshi on Thursday."
LEADS = "Our new head of design, Amara, starts next week."
TEAM = "Ingeborg's team runs the data warehouse."
CALL = "Wojtek: I'll book the venue for Friday.\nNaledi: thanks, I'll send the invites."


@pytest.mark.parametrize(
    ("claim", "source", "named", "instead"),
    [
        ("Marco is the CTO.", CTO, "Marco", "Dana"),  # opens the claim
        ("Marco became CTO in March.", CTO, "Marco", "Dana"),
        ("The CTO is Marco.", CTO, "Marco", "Dana"),  # after a copula
        ("According to the notes, Marco became CTO.", CTO, "Marco", "Dana"),
        ("Marco Rossi became CTO.", CTO, "Marco", "Dana"),
        ("Bertrand reviewed the rollback plan.", REVIEW, "Bertrand", "Hiroshi"),  # passive
        ("The rollback plan was reviewed by Bertrand.", REVIEW, "Bertrand", "Hiroshi"),
        ("Gunhild is our new head of design.", LEADS, "Gunhild", "Amara"),  # apposition
        ("Ottavio's team runs the data warehouse.", TEAM, "Ottavio", "Ingeborg"),
        ("Priyanka will book the venue.", CALL, "Priyanka", "Wojtek"),  # a speaker's line
    ],
)
def test_a_name_put_where_the_source_names_another_is_not_supported(
    claim: str, source: str, named: str, instead: str
) -> None:
    report = verify(claim, source)
    assert report.verdict is NOT_SUPPORTED, report.reasoning
    # said by this rule, or by the swapped-specific rule where the two names share a
    # neighbour ("reviewed by Bertrand" / "reviewed by Hiroshi")
    assert (
        f"names {named!r} where the source names {instead!r}" in report.reasoning
        or f"{named!r} where the source says {instead!r}" in report.reasoning
    )


@pytest.mark.parametrize(
    ("claim", "source", "verdict"),
    [
        ("Dana is the CTO.", CTO, SUPPORTED),
        ("Dana became CTO in March.", CTO, SUPPORTED),
        ("Hiroshi reviewed the rollback plan.", REVIEW, None),
        ("Amara is our new head of design.", LEADS, None),
        ("Ingeborg's team runs the data warehouse.", TEAM, SUPPORTED),
        ("Naledi will send the invites.", CALL, None),
    ],
)
def test_the_sources_own_names_stay_approvable(
    claim: str, source: str, verdict: GroundingVerdict | None
) -> None:
    report = verify(claim, source)
    assert report.verdict in ((verdict,) if verdict else (SUPPORTED, PARTIAL)), report.reasoning
    assert "where the source names" not in report.reasoning


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("She is the CTO.", CTO),  # a pronoun
        ("The new CTO started in March.", CTO),  # no name
        ("Budget is $5M.", "The budget is $5M and finance signed off on it."),
        ("Overall the CTO joined in March.", CTO),  # an ordinary word opens the claim
        ("Although the CTO joined in March, the reorg slipped.", CTO),  # a conjunction
        ("Engineering runs the data warehouse.", TEAM),  # a common word, not a name
        ("Dana Kim became CTO.", CTO),  # a surname added: an added detail
        ("Dana became CTO.", "Dana Kim became CTO in March."),  # first name only
        ("Marco is the CTO.", "The CTO joined in March after the reorg."),  # no rival name
        ("Marco is the CTO.", "Dana, the former CTO, now advises the board."),
        ("Marco is the CTO.", "Dana and the CTO met on Monday."),  # "and": two people
        ("Marco is the CTO.", "Dana reports to the CTO."),  # another verb: not the role
        ("Marco is the CTO.", "Dana's CTO approved the contract."),  # a possessive
        ("Tchaikowsky donated his skull.", "Tchaikovsky donated his skull to the theatre."),
        ("Bob Marley sold 75 million records.", "Marley, of the Wailers, sold 75 million records."),
    ],
)
def test_no_rival_name_no_contradiction(claim: str, source: str) -> None:
    assert "where the source names" not in verify(claim, source).reasoning


def test_a_name_absent_with_no_rival_stays_an_added_detail() -> None:
    """The rule only adds a contradiction: where the source names nobody in the role, the
    verdict is what the score and the other rules make it (here as at the session start)."""
    report = verify("Marco became CTO in March after the reorg.", "The CTO joined in March.")
    assert "where the source names" not in report.reasoning
    swapped = verify("Marco became CTO in March after the reorg.", CTO)
    assert swapped.verdict is NOT_SUPPORTED


@pytest.mark.parametrize("word", ["budget", "budgets", "yesterday", "approved", "although", "went"])
def test_common_words_are_in_the_lexicon(word: str) -> None:
    assert common_word(word)


@pytest.mark.parametrize("word", ["dana", "marco", "priyanka", "hiroshi", "ingeborg"])
def test_names_are_not(word: str) -> None:
    assert not common_word(word)


def _read_time(text: str, context: str) -> list[AnswerClaimVerdict | None]:
    async def run() -> list[AnswerClaimVerdict | None]:
        scorer = AnswerScorer(GuardsConfig())
        try:
            answer = Answer(
                answer_id="a",
                tenant_id="t",
                user_id="u",
                text=text,
                context=[ContextSource(id="mem_1", text=context, source="corpus")],
            )
            scored = (await scorer.score_batch([answer]))[0]
        finally:
            await scorer.aclose()
        return [c.verdict for c in scored.claims if c.kind is ClaimKind.FACTUAL]

    return asyncio.run(run())


def test_read_time_answers_read_the_same_rule() -> None:
    """`groundwire eval --mode answers` scores answers with the same verifier: the swapped
    name is contradicted there (it was supported: an opening name was no specific)."""
    assert _read_time("Marco is the CTO.", CTO) == [AnswerClaimVerdict.CONTRADICTED]
    assert _read_time("Dana is the CTO.", CTO) == [AnswerClaimVerdict.SUPPORTED]
