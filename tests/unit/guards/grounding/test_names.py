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
from groundwire.guards.grounding.lexical.evidence import evidence_for
from groundwire.guards.grounding.lexical.names import common_word, stem_only_names
from groundwire.guards.grounding.lexical.text import claim_words
from groundwire.topics.answers import Answer, ContextSource
from groundwire.topics.records import SourceTurn
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
        # one name spelled with a doubled letter written once: not another person
        ("Mohamed donated his skull.", "Mohammed donated his skull to the theatre."),
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


# --- a name matches only as the whole word ------------------------------------------------
# The stem truncates to six letters and strips endings: "Daniela" ~ "Daniel", "Christina" ~
# "Christine", "Hans" ~ "Han". A name is matched only by the whole word (any case, "'s"
# removed), so another person's near-name is absent, and in the slot of the source's name
# a swap (`names.stem_only_names`).
LED = "The platform team is led by Daniel."


@pytest.mark.parametrize(
    ("claim", "source", "named", "instead"),
    [
        ("The platform team is led by Daniela.", LED, "Daniela", "Daniel"),
        (
            "Daniela leads the platform team.",
            "Daniel leads the platform team.",
            "Daniela",
            "Daniel",
        ),
        (
            "Christina approved the budget.",
            "Christine approved the budget.",
            "Christina",
            "Christine",
        ),
        (
            "The budget was approved by Marcela.",
            "Marcelo approved the budget.",
            "Marcela",
            "Marcelo",
        ),
        ("Francis approved the budget.", "Frances approved the budget.", "Francis", "Frances"),
        (
            "Fernanda's team runs the gateway.",
            "Fernando's team runs the gateway.",
            "Fernanda",
            "Fernando",
        ),
        ("Hans wrote the design doc.", "Han wrote the design doc.", "Hans", "Han"),  # not a plural
        # "-n" makes given names: no demonym
        ("Julian leads the platform team.", "Julia leads the platform team.", "Julian", "Julia"),
        (
            "The merge was approved by Williams.",
            "William approved the merge.",
            "Williams",
            "William",
        ),
    ],
)
def test_a_near_name_is_another_person(claim: str, source: str, named: str, instead: str) -> None:
    report = verify(claim, source)
    assert report.verdict is NOT_SUPPORTED, report.reasoning
    assert (
        f"names {named!r} where the source names {instead!r}" in report.reasoning
        or f"{named!r} where the source says {instead!r}" in report.reasoning
    )
    assert _read_time(claim, source) == [AnswerClaimVerdict.CONTRADICTED]


@pytest.mark.parametrize(
    ("claim", "source", "verdict"),
    [
        ("daniel leads the platform team.", "Daniel leads the platform team.", SUPPORTED),
        ("The platform team is led by DANIEL.", LED, SUPPORTED),
        ("The platform is owned by Daniel's team.", "Daniel owns the platform team.", SUPPORTED),
        (
            "The platform team is led by Daniel.",
            "Daniel's platform team is led by Daniel.",
            SUPPORTED,
        ),
        ("Daniel leads the platform team.", "Daniel Kim leads the platform team.", SUPPORTED),
        (
            "Our supplier is based in Cincinnatti.",
            "Our supplier is based in Cincinnati.",
            SUPPORTED,
        ),
        (
            "The APIs are owned by the platform team.",
            "The API is owned by the platform team.",
            SUPPORTED,
        ),
        ("Budgets were approved on Friday.", "The budget was approved on Friday.", SUPPORTED),
        ("Directors signed the contract.", "The director signed the contract.", SUPPORTED),
        # a name's derivation in -ese, -ity, -ism, -ist names no other person
        (
            "The film is set during the Vietnamese war.",
            "The film is set during the Vietnam war.",
            SUPPORTED,
        ),
        ("It is a branch of Christianity.", "It is a Christian branch.", SUPPORTED),
        ("Christine Baker approved the budget.", "Christine approved the budget.", PARTIAL),
    ],
)
def test_the_same_name_in_another_form_is_still_found(
    claim: str, source: str, verdict: GroundingVerdict
) -> None:
    report = verify(claim, source)
    assert report.verdict is verdict, report.reasoning
    assert "where the source names" not in report.reasoning


def test_stem_only_names_are_the_names_the_source_has_only_by_stem() -> None:
    claim = "Daniela and DANIEL met the directors about the APIs of Marcela's team."
    source = "Daniel met the director about the API of Marcelo's team."
    ev = evidence_for([SourceTurn(id="t", text=source, source="user")])
    words = claim_words(claim)
    found = stem_only_names(words, claim, ev.lows, ev.stems, set())
    assert [words.raws[i] for i in found] == ["Daniela", "Marcela's"]
    # the owner of the memory is named by the claim as it likes
    owned = stem_only_names(words, claim, ev.lows, ev.stems, {"daniela"})
    assert [words.raws[i] for i in owned] == ["Marcela's"]


@pytest.mark.parametrize("word", ["frances", "moses", "charles"])
def test_a_bare_es_is_undone_only_where_english_writes_one(word: str) -> None:
    # "frances" is no form of "franc": WordNet undoes a bare "-es" for verbs after s, x,
    # z, ch, sh or o only ("goes", "fixes")
    assert not common_word(word)


@pytest.mark.parametrize("word", ["goes", "fixes", "passes", "watches", "approves"])
def test_verbs_in_es_are_still_common(word: str) -> None:
    assert common_word(word)
