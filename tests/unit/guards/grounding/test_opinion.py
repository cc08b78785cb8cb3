"""An evaluation the source never makes (`lexical/opinion.py`): a judgement the claim adds
to the source's facts caps the claim at PARTIAL, and makes it NOT_SUPPORTED when the
judgement is what the claim asserts; the source's own judgement in other words, a user's
reported taste, a negated or quoted or reported opinion, a reply to the other speaker and
a person's feeling are left as they were."""

from __future__ import annotations

from importlib import resources

import pytest

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding import grounding_blocks
from groundwire.guards.grounding.lexical import LexicalVerifier
from groundwire.guards.grounding.lexical.opinion import (
    added_evaluations,
    evaluative_nouns,
    evaluative_words,
)
from groundwire.guards.protocols import GroundingRequest
from groundwire.topics.records import Claim, GroundingReport, SourceTurn
from groundwire.topics.vocab import GroundingVerdict

CFG = GroundingConfig()
LAUNCH = "The Q3 launch went out on October 2 to all customers in Europe."
TICKET = "Ticket 4412: the vendor's support team replied after two days and closed the ticket."
FILM = "The film premiered at Cannes in 2017 and was directed by Ana Ruiz."


def verify(content: str, *texts: str, source: str = "user") -> GroundingReport:
    turns = [SourceTurn(id=f"t{i}", text=t, source=source) for i, t in enumerate(texts)]
    claim = Claim(claim_id="c1", tenant_id="t1", content=content, source="chat", source_turns=turns)
    return LexicalVerifier(CFG).verify_one(GroundingRequest(claim, turns))


def added(content: str, text: str) -> list[str]:
    return [a.word for a in added_evaluations(content, [SourceTurn(id="t1", text=text)])]


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("The Q3 launch to all customers in Europe was terrible.", LAUNCH),
        ("The vendor's support team is terrible.", TICKET),
        ("It is an amazing film that premiered at Cannes in 2017.", FILM),
        ("The film, which premiered at Cannes in 2017, is amazing.", FILM),
        ("Ana Ruiz did an amazing job directing the film.", FILM),
        ("The film premiered at Cannes in 2017, that's cute.", FILM),
    ],
)
def test_a_judgement_the_source_never_makes_is_not_supported(claim: str, source: str) -> None:
    report = verify(claim, source)
    assert report.verdict is GroundingVerdict.NOT_SUPPORTED
    assert "an evaluation the source does not make" in report.reasoning
    assert grounding_blocks(report, CFG)


def test_a_judgement_modifying_the_subject_caps_the_claim_at_partial() -> None:
    # the claim's assertion is the premiere; "amazing" rides on its subject
    report = verify("The amazing film premiered at Cannes in 2017.", FILM)
    assert report.verdict is GroundingVerdict.PARTIAL
    assert "'amazing'" in report.reasoning
    # control: the same claim without the judgement is supported
    plain = verify("The film premiered at Cannes in 2017.", FILM)
    assert plain.verdict is GroundingVerdict.SUPPORTED


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # the source's own words, or its synonym in WordNet
        ("The new dashboard is great.", "The new dashboard is great, the team says."),
        ("The deploy on Friday was awful.", "We deployed on Friday and it was terrible."),
        # the same judgement in other words of the same sign
        ("The new dashboard is excellent.", "The team finds the new dashboard great."),
        # a user's taste reported from the user's own words
        ("User loves sushi.", "I love sushi."),
        ("The pasta at Luigi's was delicious.", "Dinner at Luigi's: I had the pasta. Delicious!"),
    ],
)
def test_a_judgement_the_source_makes_is_no_added_evaluation(claim: str, source: str) -> None:
    assert added(claim, source) == []
    report = verify(claim, source)
    assert "an evaluation the source does not make" not in report.reasoning
    assert report.verdict is not GroundingVerdict.NOT_SUPPORTED


@pytest.mark.parametrize(
    "claim",
    [
        "The film is not bad.",  # negated praise
        'The critic called the film "amazing".',  # quoted
        "Reviewers say the film is amazing.",  # reported
        "Yeah, that's cool. The film premiered at Cannes.",  # a reply to the other speaker
        "Ana is happy with the film.",  # a person's feeling
        "Ana eventually wins, but she 's terrified of the film.",  # the same, split "'s"
        "Films like this can be amazing.",  # a possibility, not a judgement stated as fact
        "Ana talked about her favorite film.",  # whose preference
        "Is the film amazing?",  # asked
        "Yes, that is true.",  # assent
        "Ana visited the Great Barrier Reef in 2017.",  # a name
    ],
)
def test_negated_quoted_reported_replies_and_feelings_add_no_evaluation(claim: str) -> None:
    assert added(claim, FILM) == []


def test_an_added_judgement_is_found_in_the_claim() -> None:
    # controls of the controls: the same words, asserted, are found
    assert added("The film is amazing.", FILM) == ["amazing"]
    assert added("The film is bad.", FILM) == ["bad"]
    assert added("Ana is unsure, and the film is weird.", FILM) == ["weird"]


def test_the_lexicon_keeps_judgements_and_leaves_out_events_tastes_and_boosters() -> None:
    table = evaluative_words()
    for word in ("amazing", "cute", "terrible", "weird", "great", "interesting"):
        assert word in table, word
    assert table["great"][0] > 0 > table["terrible"][0]
    for word in ("killed", "war", "won", "stopped", "love", "like", "definitely"):
        assert word not in table, word
    data = resources.files("groundwire.guards.grounding").joinpath("data")
    assert "MIT" in data.joinpath("VADER-LICENSE.txt").read_text("utf-8")


def test_the_name_of_a_memory_field_is_no_judgement_but_its_value_can_be() -> None:
    # "Favorite" names the field of a "Label: value" memory, not an opinion of the writer
    assert added("Favorite food: sushi", "I love sushi.") == []
    assert added("Best friend: Dana", "Dana and I have been close since school.") == []
    # control: a judgement given as the value is still the writer's own
    assert added("Launch status: terrible", LAUNCH) == ["terrible"]


@pytest.mark.parametrize(
    ("claim", "source", "word"),
    [
        ("The Q3 launch was a disaster.", LAUNCH, "disaster"),
        ("The Q3 launch was a complete disaster.", LAUNCH, "disaster"),
        ("The film, which premiered at Cannes, was a triumph.", FILM, "triumph"),
    ],
)
def test_an_evaluative_noun_as_predicate_is_an_added_judgement(
    claim: str, source: str, word: str
) -> None:
    assert added(claim, source) == [word]
    assert verify(claim, source).verdict is GroundingVerdict.NOT_SUPPORTED


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # the source's own judgement: its adjective, or the noun's WordNet synonym
        ("The launch was a disaster.", "The launch was disastrous for sales."),
        ("The launch was a disaster.", "The launch was a catastrophe."),
        # the noun names a thing, not a judgement: no copula and article before it
        ("The disaster relief fund opened in Europe.", LAUNCH),
        ("It was a disaster movie.", FILM),
        ("The Q3 launch was not a disaster.", LAUNCH),  # negated
    ],
)
def test_an_evaluative_noun_the_source_makes_or_that_names_a_thing_is_no_judgement(
    claim: str, source: str
) -> None:
    assert added(claim, source) == []


def test_the_noun_list_is_derived_and_keeps_events_and_persons_out() -> None:
    nouns = evaluative_nouns()
    for word in ("disaster", "triumph", "success", "mess"):
        assert word in nouns, word
    assert "disastrous" in nouns["disaster"][1]  # the adjective it is linked to
    for word in ("war", "death", "critic", "friend", "amazing"):
        assert word not in nouns, word


def test_a_second_predicate_of_a_person_is_how_the_person_feels() -> None:
    source = "Alex asked about the film and the tickets."
    assert added("Alex is interested and eager.", source) == []
    assert added("She was tired and happy.", source) == []
    # controls: a second clause with a subject of its own judges that subject
    assert added("Alex is interested and the film is weird.", FILM) == ["weird"]
    assert added("The tickets are expensive and terrible.", source) == ["terrible"]


@pytest.mark.parametrize(
    ("claim", "word"),
    [
        # a comment frame or an interjection set off on its own is the speaker's opinion:
        # BEGIN and FaithDial label it a hallucination (fit half), so it stays one
        ("It's interesting that the film premiered at Cannes in 2017.", "interesting"),
        ("Funny enough, the film premiered at Cannes in 2017.", "Funny"),
        ("Cool, the film premiered at Cannes in 2017.", "Cool"),  # once read as a verb
        ("The film premiered at Cannes. Cool! The ending was weird.", "Cool"),
        ("The film is cool.", "cool"),
    ],
)
def test_a_comment_frame_or_interjection_is_the_speakers_evaluation(claim: str, word: str) -> None:
    assert word in added(claim, FILM)
    assert verify(claim, FILM).verdict is GroundingVerdict.NOT_SUPPORTED


def test_a_reply_and_a_verb_before_a_determiner_stay_as_they_were() -> None:
    # controls: "That's cool, ..." answers the other speaker; "clean the set" is a verb
    assert added("That's cool, the film premiered at Cannes in 2017.", FILM) == []
    assert added("Ana helped clean the set of the film.", FILM) == []


def test_the_partial_rewrite_drops_the_added_evaluation() -> None:
    report = verify("The amazing film premiered at Cannes in 2017.", FILM)
    assert report.verdict is GroundingVerdict.PARTIAL
    assert report.rewritten_content == "The film premiered at Cannes in 2017"


# Session 13: an exclamation ("What a disaster the launch was!", "such a success") judges
# as the copula does, and the subject it judges may follow the noun.
@pytest.mark.parametrize(
    ("claim", "word"),
    [
        ("What a disaster the Q3 launch in Europe was.", "disaster"),
        ("What a disaster the Q3 launch in Europe was!", "disaster"),
        ("What an absolute mess the Q3 launch in Europe was.", "mess"),
        ("The Q3 launch in Europe was such a success.", "success"),
    ],
)
def test_an_evaluative_noun_in_an_exclamation_is_an_added_judgement(claim: str, word: str) -> None:
    assert added(claim, LAUNCH) == [word]
    assert verify(claim, LAUNCH).verdict is GroundingVerdict.NOT_SUPPORTED


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # a kind of film, not a judgement: a noun follows the evaluative noun
        ("What a disaster movie the film at Cannes was.", FILM),
        # the source's own judgement
        ("What a disaster the Q3 launch in Europe was.", "The Q3 launch in Europe was a disaster."),
        (
            "What a disaster the Q3 launch in Europe was.",
            "The Q3 launch in Europe was a catastrophe.",
        ),
    ],
)
def test_an_exclamation_the_source_makes_or_that_names_a_kind_is_no_judgement(
    claim: str, source: str
) -> None:
    assert added(claim, source) == []


STORMS = "Jupiter has radio storms so strong that they can be picked up and heard by an AM radio."


def test_a_source_word_the_claim_repeats_does_not_vouch_for_its_added_judgement() -> None:
    # "strong" is the source's measure of the storms, which the claim restates; "amazing"
    # is a judgement of the claim's own, not the source's "strong" in other words
    claim = "Jupiter has storms so strong that they can be heard. The storms are amazing."
    assert added(claim, STORMS) == ["amazing"]
    report = verify(claim, STORMS)
    assert report.verdict is GroundingVerdict.NOT_SUPPORTED
    assert "'amazing'" in report.reasoning


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # the claim does not repeat the source's evaluative word: the source's judgement,
        # said in other words, still vouches for the claim's (as before)
        ("Jupiter's radio storms can be heard on a radio. The storms are amazing.", STORMS),
        ("The new dashboard is excellent.", "The team finds the new dashboard great."),
        # the claim repeats the source's word and says nothing more: nothing is added
        ("The new dashboard is great.", "The team finds the new dashboard great."),
    ],
)
def test_a_source_judgement_not_repeated_still_vouches(claim: str, source: str) -> None:
    assert added(claim, source) == []
    assert verify(claim, source).verdict is not GroundingVerdict.NOT_SUPPORTED
