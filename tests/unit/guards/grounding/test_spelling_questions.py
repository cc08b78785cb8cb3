"""Two general causes of misreads on public dialogue data, each tested both ways.

* A name the claim spells differently from the source (a doubled letter written once or
  two neighbours swapped in a long name, two words joined, initials) is the source's
  name: found, not an invented or swapped one. A different name in the same slot is
  still a swap, and so is a letter added, dropped or changed ("Daniela" / "Daniel"):
  that makes another person's name as easily as a typo (`spelling.one_name`).
* A claim that only asks states nothing, so nothing in it is supported; a question that
  tells what follows ("Did you know that ...?") and a statement followed by a question
  are read as before.
"""

from __future__ import annotations

import pytest

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding.lexical import LexicalVerifier, analyze
from groundwire.guards.grounding.lexical.assertion import asks_only, speaks_of_itself
from groundwire.guards.grounding.lexical.evidence import evidence_for
from groundwire.guards.grounding.lexical.spelling import one_name, same_name_in
from groundwire.guards.grounding.lexical.text import claim_words
from groundwire.guards.protocols import GroundingRequest
from groundwire.topics.records import Claim, GroundingReport, SourceTurn
from groundwire.topics.vocab import GroundingVerdict


def _turns(text: str) -> list[SourceTurn]:
    return [SourceTurn(id="doc-1", text=text, source="document")]


def _verify(content: str, text: str, verifier: LexicalVerifier | None = None) -> GroundingReport:
    turns = _turns(text)
    claim = Claim(claim_id="c1", tenant_id="t1", content=content, source="chat", source_turns=turns)
    return (verifier or LexicalVerifier(GroundingConfig())).verify_one(
        GroundingRequest(claim, turns)
    )


# --- names written differently ---------------------------------------------------------


@pytest.mark.parametrize(
    ("claim_word", "source", "found"),
    [
        ("Chirrurgien", "He wrote Le Chirurgien Dentiste in 1728.", "Chirurgien"),
        ("Stockohlm", "The office moved to Stockholm last year.", "Stockholm"),  # a swap
        ("Anette", "The venue was suggested by Annette.", "Annette"),  # doubled letter
        ("Phillip", "The talk was given by Philip.", "Philip"),
        ("Missisippi", "The team met in Mississippi's capital.", "Mississippi's"),
        ("Wallstreet", "The film is set on Wall Street in New York.", "Wall Street"),
        ("NY", "A large community lives in Queens, New York.", "New York"),
    ],
)
def test_a_respelled_name_is_the_source_name(claim_word: str, source: str, found: str) -> None:
    assert same_name_in(claim_word, evidence_for(_turns(source)).sentences) == found


@pytest.mark.parametrize(
    ("claim_word", "source"),
    [
        ("Mike", "Mark will bring the cake."),  # short names: one letter is another name
        ("Anna", "Ann will bring the cake."),
        ("Dublin", "The office moved to Berlin last year."),  # same length, other name
        ("Prague", "The office moved to Paris last year."),
        ("NY", "It was a new yard in the north."),  # initials of lower-case words
        ("IT", "It Takes Two is a game."),  # initials of stop words
        ("Portugal", "They flew to Poland in May."),
        # a letter added, dropped or changed: another name as easily as a typo
        ("Daniela", "The platform team is led by Daniel."),
        ("Christina", "The budget was approved by Christine."),
        ("Marcela", "The budget was approved by Marcelo."),
        ("Francis", "The budget was approved by Frances."),  # the ending differs
        ("Alexandra", "The new CTO is Alexander."),  # two edits in nine letters
        ("Adriana", "The onboarding is run by Ariana."),  # a dropped letter
        ("Japana", "Cat cafes are common in Japan and Taiwan."),
        ("Chirugien", "He wrote Le Chirurgien Dentiste in 1728."),
        ("Marina", "The invoice was sent to Marian."),  # neighbours swapped at the end
    ],
)
def test_a_different_name_is_not_a_respelling(claim_word: str, source: str) -> None:
    assert same_name_in(claim_word, evidence_for(_turns(source)).sentences) is None


DENTIST = (
    "Pierre Fauchard is known for writing the first complete scientific description of "
    "dentistry, Le Chirurgien Dentiste, published in 1728."
)


def test_a_misspelled_title_is_neither_invented_nor_swapped() -> None:
    claim = "Pierre Fauchard wrote Le Chirrurgien Dentiste, the first complete description."
    a = analyze(claim, _turns(DENTIST), set())
    assert a.missing_entities == [] and a.conflicts == []
    assert _verify(claim, DENTIST).verdict is not GroundingVerdict.NOT_SUPPORTED


def test_a_letter_dropped_reads_as_another_name() -> None:
    # a dropped letter is no mechanical slip: "Chirugien" could be another word as
    # "Ariana" is another name than "Adriana"; in the slot of the source's, a swap
    claim = "Pierre Fauchard wrote Le Chirugien Dentiste, the first complete description."
    a = analyze(claim, _turns(DENTIST), set())
    assert a.missing_entities == ["Chirugien"]
    assert ("Chirugien", "Chirurgien") in a.conflicts
    assert _verify(claim, DENTIST).verdict is GroundingVerdict.NOT_SUPPORTED


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("annette", "anette"),  # a doubled letter written once, either way round
        ("anette", "annette"),
        ("mohammed", "mohamed"),
        ("stockholm", "stockohlm"),  # two neighbours swapped
        ("mississippi", "missisippi"),
    ],
)
def test_one_name_takes_the_mechanical_slips(a: str, b: str) -> None:
    assert one_name(a, b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("daniela", "daniel"),  # a letter added
        ("christina", "christine"),  # a letter changed at the end
        ("frances", "francis"),  # ... before the last one
        ("adriana", "ariana"),  # a letter dropped, not a doubled one
        ("tchaikovsky", "tchaikowsky"),  # a letter changed inside
        ("marian", "marina"),  # neighbours swapped in the ending
        ("philipp", "philip"),  # a doubled letter at the end: "-pp" is no "-ip"
        ("dennis", "denis"),  # five letters: too short to tell
        ("daniel", "daniel"),  # the same word is no slip
        ("kaspar", "jaspar"),  # another first letter
    ],
)
def test_one_name_refuses_what_makes_another_name(a: str, b: str) -> None:
    assert not one_name(a, b)


def test_another_name_in_the_same_slot_still_contradicts() -> None:
    claim = "Pierre Fauchard wrote Le Barbier Dentiste, the first complete description."
    a = analyze(claim, _turns(DENTIST), set())
    assert a.missing_entities == ["Barbier"]
    assert ("Barbier", "Chirurgien") in a.conflicts
    assert _verify(claim, DENTIST).verdict is GroundingVerdict.NOT_SUPPORTED


def test_initials_count_as_found_words() -> None:
    source = "Since the 1960s a large Caribbean community has developed in Queens, New York."
    turns = _turns(source)
    with_initials = analyze("A large Caribbean community lives in Queens, NY.", turns, set())
    invented = analyze("A large Caribbean community lives in Queens, KY.", turns, set())
    assert with_initials.missing_entities == [] and "NY" not in with_initials.missing_words
    assert invented.missing_entities == ["KY"]
    assert with_initials.features["coverage"] > invented.features["coverage"]


# --- claims that only ask ----------------------------------------------------------------

RADIO = "Our team listens to the radio every morning while the build runs."


@pytest.mark.parametrize(
    "claim",
    [
        "Does the team listen to the radio every morning?",
        "What does the team listen to every morning while the build runs?",
        "Does the team listen to the radio? Every morning?",
    ],
)
def test_a_claim_that_only_asks_is_not_supported(claim: str) -> None:
    assert asks_only(claim_words(claim), claim)
    report = _verify(claim, RADIO)
    assert report.verdict is GroundingVerdict.NOT_SUPPORTED
    assert "only asks" in report.reasoning


@pytest.mark.parametrize(
    "claim",
    [
        "The team listens to the radio every morning while the build runs.",
        "Did you know the team listens to the radio every morning?",  # tells, not asks
        "The team listens to the radio every morning. Do you?",  # a statement first
        "Why does the team listen to the radio every morning?",  # takes it as given
    ],
)
def test_statements_and_telling_questions_are_not_read_as_asking(claim: str) -> None:
    assert not asks_only(claim_words(claim), claim)
    report = _verify(claim, RADIO)
    assert "only asks" not in report.reasoning


def test_the_rule_is_off_where_a_subclass_says_so() -> None:
    class Keeps(LexicalVerifier):
        questions_assert_nothing = False

    claim = "Does the team listen to the radio every morning while the build runs?"
    assert _verify(claim, RADIO).verdict is GroundingVerdict.NOT_SUPPORTED
    kept = _verify(claim, RADIO, Keeps(GroundingConfig()))
    assert kept.verdict is not GroundingVerdict.NOT_SUPPORTED  # the score alone passes it
    assert "only asks" not in kept.reasoning


# --- the speaker's own tastes and doings -----------------------------------------------

CATS = "A cat lover is known as an ailurophile. Cats are among the most popular pets."


@pytest.mark.parametrize(
    "claim",
    [
        "I love cats, cats are among the most popular pets.",
        "I am an ailurophile, a cat lover.",
        "I do like cats, the most popular pets.",
        "Cats are popular pets and I have two of them.",
    ],
)
def test_the_speaker_own_tastes_are_not_supported_by_a_third_person_source(claim: str) -> None:
    assert speaks_of_itself(claim_words(claim), claim)
    report = _verify(claim, CATS)
    assert report.verdict is GroundingVerdict.NOT_SUPPORTED
    assert "own tastes" in report.reasoning


@pytest.mark.parametrize(
    "claim",
    [
        "I think cats are among the most popular pets.",  # frames what follows
        "I heard that a cat lover is known as an ailurophile.",
        "I'm not sure, but cats are among the most popular pets.",
        "I do! Cats are among the most popular pets.",  # a bare answer, then a fact
        "No, I don't, but cats are among the most popular pets.",
        "Cats are among the most popular pets.",
    ],
)
def test_framing_and_bare_answers_are_not_the_speaker_own_doings(claim: str) -> None:
    assert not speaks_of_itself(claim_words(claim), claim)
    assert "own tastes" not in _verify(claim, CATS).reasoning


def test_a_first_person_source_can_attest_the_speaker() -> None:
    turns = "User: I love cats. I am an ailurophile."
    report = _verify("I love cats and I am an ailurophile.", turns)
    assert report.verdict is GroundingVerdict.SUPPORTED
    assert "own tastes" not in report.reasoning


@pytest.mark.parametrize(
    "claim",
    ["I am an ailurophile, a cat lover.", "I own cats, which are among the most popular pets."],
)
def test_the_rule_not_the_score_blocks_a_taste_claim(claim: str) -> None:
    # the score alone would let these through as partial (above the partial threshold)
    report = _verify(claim, CATS)
    assert report.score >= LexicalVerifier(GroundingConfig()).partial_threshold
    assert report.verdict is GroundingVerdict.NOT_SUPPORTED


def test_us_and_our_in_the_source_are_no_speaker_of_the_claim() -> None:
    review = "Critics said the film wants us to care about cats, our most popular pets."
    claim = "I love cats, the most popular pets in the film."
    report = _verify(claim, review)
    assert report.verdict is GroundingVerdict.NOT_SUPPORTED
    assert "own tastes" in report.reasoning


def test_a_source_where_someone_speaks_of_themselves_is_left_to_the_score() -> None:
    told = "My cats are the most popular pets on the street, and cats love me."
    report = _verify("I love cats, the most popular pets on the street.", told)
    assert "own tastes" not in report.reasoning


@pytest.mark.parametrize(
    ("text", "has_i"),
    [
        ("I love cats", True),
        ("'I love cats,' she said", True),
        ("I 've heard so", True),
        ("yes i'm a fan", True),
        ("Is it iPhone or AI?", False),
        ("It is his idea", False),
    ],
)
def test_the_cheap_test_passes_every_claim_with_an_i(text: str, has_i: bool) -> None:
    from groundwire.guards.grounding.lexical.assertion import may_speak_of_itself

    assert may_speak_of_itself(text) is has_i
    assert has_i == ("i" in claim_words(text).lows or "i'm" in claim_words(text).lows)
