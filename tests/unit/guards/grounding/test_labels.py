"""Memories written the way agent-memory layers write them, against the user's own turns:
"Label: value" claims (`lexical/labels.py`), the verb "own", a wish behind "I'd", and a
subjectless claim the user says of someone else (docs/grounding.md, the owner section).

Each case that must be let through is paired with the minimal edit that must be caught
(a wrong value, another person, a wording that does not fill the label, a negation or a
wish), so a rule that becomes too eager fails as surely as one that misses.
"""

from __future__ import annotations

import pytest

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding import grounding_blocks
from groundwire.guards.grounding.lexical import LexicalVerifier
from groundwire.guards.grounding.lexical.assertion import sentence_moods
from groundwire.guards.grounding.lexical.evidence import evidence_for
from groundwire.guards.grounding.lexical.labels import gloss_stems, label_parts
from groundwire.guards.grounding.lexical.text import claim_words, stem
from groundwire.guards.protocols import GroundingRequest
from groundwire.topics.records import Claim, GroundingReport, SourceTurn
from groundwire.topics.vocab import GroundingVerdict

CFG = GroundingConfig()


def said(*texts: str, source: str = "user") -> list[SourceTurn]:
    return [SourceTurn(id=f"u{i}", text=t, source=source) for i, t in enumerate(texts)]


def verify(content: str, turns: list[SourceTurn]) -> GroundingReport:
    claim = Claim(
        claim_id="c1",
        tenant_id="t1",
        user_id="u42",
        content=content,
        source="conversation",
        source_turns=turns,
    )
    return LexicalVerifier(CFG).verify_one(GroundingRequest(claim, turns))


@pytest.mark.parametrize(
    ("claim", "text"),
    [
        ("Age: 34", "I'm 34."),
        ("Age: 34", "I'm 34 years old."),  # old: "... attained a specific age"
        ("Birthday: May 3", "I was born on May 3."),  # birthday: "... a person was born"
        ("Hometown: Porto", "I grew up in Porto."),  # hometown: "... where you grew up"
        ("Hometown is Porto", "I grew up in Porto, Portugal."),
        ("Job: nurse", "I work as a nurse."),  # job: "... work ..."
        ("Job: nurse", "I'm a nurse at St Mary's."),
        ("Job: nurse", "I've been a nurse for ten years."),  # still one
        ("Name is Priya", "Hi, I'm Priya."),
        ("Diet: vegetarian", "I am vegetarian."),
        ("Age: 34", "My son is 5 and I'm 34."),
        ("User's hometown: Porto", "I grew up in Porto."),
        ("Employer: Acme", "I work for Acme."),  # work (verb): "be employed"
        ("Occupation: nurse", "My job is nurse."),  # a synonym of the label's
        ("Spouse: Dana", "My husband is Dana."),  # its genus: a husband is a spouse
    ],
)
def test_a_label_the_speaker_fills_with_the_value_is_grounded(claim: str, text: str) -> None:
    report = verify(claim, said(text))
    assert report.verdict is GroundingVerdict.SUPPORTED, report.reasoning
    assert "unsupported words" not in report.reasoning


@pytest.mark.parametrize(
    ("claim", "text"),
    [
        ("Age: 43", "I'm 34."),
        ("Hometown: Lisbon", "I grew up in Porto."),
        ("Birthday: June 3", "I was born on May 3."),
        ("Job: teacher", "I work as a nurse."),
        ("Name is Anika", "Hi, I'm Priya."),
    ],
)
def test_a_wrong_value_stays_unsupported(claim: str, text: str) -> None:
    report = verify(claim, said(text))
    assert report.verdict is GroundingVerdict.NOT_SUPPORTED, report.reasoning


@pytest.mark.parametrize(
    ("claim", "text"),
    [
        ("Hometown: Porto", "I'm flying to Porto next week."),  # a trip, not a hometown
        ("Age: 34", "I'm 34 minutes late."),  # no bare "34"
        ("Age: 34", "I have 34 students."),
        ("Job: nurse", "I'm not a nurse."),  # negated
        ("Job: nurse", "I want to be a nurse."),  # a wish
        ("Hometown: Porto", "Did I grow up in Porto?"),  # asked
        ("Job: nurse", "I work with a nurse."),  # a companion, not the job
        ("Job: nurse", "I was a nurse for ten years."),  # no longer
        ("Job: nurse", "I had been a nurse before the war."),
        ("Manager: Dana", "My wife is Dana."),
        ("Spouse: Dana", "My husband's sister is Dana."),
        ("Dana is vegetarian", "I'm vegetarian."),  # a name, not a label
        ("Mary is 34", "I'm 34."),  # WordNet's "Mary" is a proper name: no entry
    ],
)
def test_a_label_the_turn_does_not_fill_stays_unsupported(claim: str, text: str) -> None:
    report = verify(claim, said(text))
    assert report.verdict is GroundingVerdict.NOT_SUPPORTED, report.reasoning


@pytest.mark.parametrize(
    ("claim", "text", "who"),
    [
        ("Birthday: May 3", "My son was born on May 3.", "My son"),
        ("Age: 34", "My sister is 34.", "My sister"),
        ("Hometown: Porto", "My wife grew up in Porto, I'm from Lyon.", "My wife"),
        ("Birthday: May 3", "He was born on May 3.", "He"),
        ("Occupation: nurse", "My wife's job is nurse.", "My wife's"),
        ("Age: 5", "My son is 5 and I'm 34.", "My son"),
    ],
)
def test_a_label_filled_for_someone_else_contradicts_the_owner(
    claim: str, text: str, who: str
) -> None:
    report = verify(claim, said(text))
    assert report.verdict is GroundingVerdict.NOT_SUPPORTED, report.reasoning
    assert "'(the user)' where the source says " in report.reasoning
    assert who in report.reasoning.split("where the source says")[-1]


def test_a_noun_the_turn_names_is_not_the_labels_wording() -> None:
    # "day" and "date" are words of birthday's definition, but here things the user has
    report = verify("Birthday: May 3", said("I have a day off on May 3."))
    assert "unsupported words: Birthday" in report.reasoning
    assert report.verdict is not GroundingVerdict.SUPPORTED


@pytest.mark.parametrize(
    ("claim", "question", "answer", "grounded"),
    [
        ("Age: 34", "How old are you?", "34.", True),  # old: "... a specific age"
        ("Hometown: Porto", "Where did you grow up?", "Porto.", True),  # grow: grew's lemma
        ("Age: 43", "How old are you?", "34.", False),
        ("Age: 34", "How many students do you have?", "34.", False),
        ("Age: 34", "How old is your son?", "34.", False),  # asked of someone else
        ("Hometown: Porto", "Where are you flying to?", "Porto.", False),
    ],
)
def test_a_bare_answer_takes_the_questions_wording(
    claim: str, question: str, answer: str, grounded: bool
) -> None:
    turns = [SourceTurn(id="a", text=question, source="assistant"), *said(answer)]
    report = verify(claim, turns)
    verdict = GroundingVerdict.SUPPORTED if grounded else GroundingVerdict.NOT_SUPPORTED
    assert report.verdict is verdict, report.reasoning


def test_a_label_is_read_only_against_the_users_own_turns() -> None:
    # a document in the first person is not the user speaking: read as before
    report = verify("Age: 34", said("I'm 34.", source="corpus"))
    assert report.verdict is GroundingVerdict.NOT_SUPPORTED
    assert "unsupported words: Age" in report.reasoning


def test_label_parts_finds_the_slot_and_nothing_else() -> None:
    def label(text: str, known: frozenset[str] = frozenset()) -> list[str] | None:
        words = claim_words(text)
        found = label_parts(words, text, known)
        return None if found is None else [words.lows[i] for i in found]

    assert label("Age: 34") == ["age"]
    assert label("Favourite food is sushi") == ["favourite", "food"]
    assert label("User's manager: Dana", frozenset({"user's"})) == ["manager"]
    assert label("Prefers dark mode") is None
    assert label("User prefers dark mode", frozenset({"user"})) is None
    assert label("Age:") is None  # no value


def test_gloss_stems_come_from_the_wordnet_definitions() -> None:
    assert stem("grew") in gloss_stems("hometown")
    assert stem("born") in gloss_stems("birthday")
    assert stem("age") in gloss_stems("old")
    assert gloss_stems("hometowns") == gloss_stems("hometown")  # WordNet's detachment
    assert gloss_stems("qwzx") == frozenset()


# --- "own": the verb against its use as a possessive's stress ----------------------------


def test_the_verb_own_grounds_owns() -> None:
    assert not grounding_blocks(verify("Owns a Tesla", said("I own a Tesla.")), CFG)
    assert not grounding_blocks(verify("Owns a house in Leeds", said("We own a house.")), CFG)
    other = verify("Owns a Tesla", said("My neighbour owns a Tesla."))
    assert other.verdict is GroundingVerdict.NOT_SUPPORTED, other.reasoning
    denied = verify("Owns a car", said("I don't own a car."))
    assert denied.verdict is GroundingVerdict.NOT_SUPPORTED, denied.reasoning


def test_own_after_a_possessive_stays_a_function_word() -> None:
    assert "own" in evidence_for(said("I own a car.")).stems
    assert "own" not in evidence_for(said("I have my own car.")).stems
    assert not grounding_blocks(verify("Has own car", said("I have my own car.")), CFG)


# --- "I'd love to ...": would, a wish -----------------------------------------------------


def test_a_wish_with_id_is_not_a_fact() -> None:
    wish = verify("Lives in Berlin", said("I'd love to live in Berlin someday."))
    assert wish.verdict is GroundingVerdict.PARTIAL, wish.reasoning
    assert wish.confidence_penalty == pytest.approx(0.3)
    assert "intended, not done" in wish.reasoning


@pytest.mark.parametrize("text", ["I'd moved to Berlin in 2019.", "I'd been to Berlin before."])
def test_id_before_a_participle_is_had_not_a_wish(text: str) -> None:
    (s,) = evidence_for(said(text)).sentences
    assert sentence_moods(s) == {}


# --- a subjectless claim against what the user says of someone else ---------------------


def test_a_subjectless_claim_is_not_said_of_a_named_relative() -> None:
    report = verify("Works at Acme", said("My brother Tom works at Acme."))
    assert report.verdict is GroundingVerdict.NOT_SUPPORTED
    assert "where the source says 'My brother'" in report.reasoning
    both = verify("Works at Acme", said("My brother and I both work at Acme."))
    assert not grounding_blocks(both, CFG), both.reasoning


@pytest.mark.parametrize(
    "text",
    [
        "Tom, my brother, works at Acme.",  # the verb's clause has no subject of its own
        "My brother lives in Paris, and works at Acme.",
        "My sister, who is great, works at Acme.",
        "My brother works at Acme but I don't.",
    ],
)
def test_a_clause_without_its_own_subject_is_said_of_the_sentences(text: str) -> None:
    report = verify("Works at Acme", said(text))
    assert report.verdict is GroundingVerdict.NOT_SUPPORTED, report.reasoning
    assert "'(the user)' where the source says " in report.reasoning


@pytest.mark.parametrize(
    "text",
    [
        "I live in Paris, and work at Acme.",
        "My brother works at Acme and so do I.",  # the speaker's predicate by ellipsis
        "My brother works at Acme, me too.",
    ],
)
def test_the_speaker_in_the_sentence_keeps_the_claim_the_speakers(text: str) -> None:
    report = verify("Works at Acme", said(text))
    assert not grounding_blocks(report, CFG), report.reasoning


@pytest.mark.parametrize(
    ("claim", "text", "grounded"),
    [
        ("Name: Priya", "My name's Priya.", True),  # "'s" is "is": the value follows
        ("User's manager: Dana", "My manager's Dana.", True),
        ("User's birthday is May 3", "My birthday's May 3.", True),
        ("User's manager: Dana", "My manager's manager is Dana.", False),  # a chain
        ("User's manager: Dana", "My manager's assistant is Dana.", False),
    ],
)
def test_a_contracted_is_after_the_owners_thing_is_no_chain_of_owners(
    claim: str, text: str, grounded: bool
) -> None:
    report = verify(claim, said(text))
    assert grounding_blocks(report, CFG) is not grounded, report.reasoning


def test_a_hope_stated_as_fact_is_partial_with_the_largest_penalty() -> None:
    report = verify("Works at Acme", said("I'm hoping to work at Acme."))
    assert report.verdict is GroundingVerdict.PARTIAL  # docs/spec.md: an intention
    assert report.confidence_penalty == pytest.approx(0.3)
    # restated with the source's own verb of intention, not stored as done
    assert report.rewritten_content == "Hopes to work at Acme"


@pytest.mark.parametrize(
    ("claim", "text", "restated"),
    [
        ("Lives in Berlin", "I'd love to live in Berlin someday.", "Would love to live in Berlin"),
        (
            "The user lives in Berlin",
            "I want to live in Berlin.",
            "The user wants to live in Berlin",
        ),
        ("Studies law", "I plan to study law.", "Plans to study law"),
        # no present verb to restate ("Moved to Berlin" tells the plan as done: not
        # supported since session 14 round 2, tests/.../test_changed_facts.py)
        ("Moving to Berlin", "I plan to move to Berlin.", None),
        ("Works at Acme", "I should work at Acme.", None),  # no verb of intention to use
    ],
)
def test_an_intention_is_restated_as_one(claim: str, text: str, restated: str | None) -> None:
    report = verify(claim, said(text))
    assert report.verdict is GroundingVerdict.PARTIAL, report.reasoning
    assert report.rewritten_content == restated
