"""A common word swapped in place contradicts the source (`lexical/slot_swaps.py`): "the
sales team" where the source says "the payments team". Controls: the same thing said
another way (a synonym, a hypernym, another form or spelling of the word), a word only
added, a word the source states elsewhere."""

from __future__ import annotations

import pytest

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding.lexical import LexicalVerifier
from groundwire.guards.grounding.lexical.slot_swaps import claim_slot_swaps, same_thing
from groundwire.guards.grounding.lexical.text import stem
from groundwire.guards.protocols import GroundingRequest
from groundwire.topics.records import Claim, GroundingReport, SourceTurn
from groundwire.topics.vocab import GroundingVerdict


def _turns(*texts: str) -> list[SourceTurn]:
    return [SourceTurn(id=f"s{k}", text=t) for k, t in enumerate(texts)]


def _verify(content: str, *texts: str) -> GroundingReport:
    turns = _turns(*texts)
    claim = Claim(claim_id="c1", tenant_id="t1", content=content, source="chat", source_turns=turns)
    return LexicalVerifier(GroundingConfig()).verify_one(GroundingRequest(claim, turns))


SWAPS = [
    ("Priya leads the sales team.", "Priya leads the payments team since March.", "payments"),
    ("The checkout API times out.", "After the deploy, the search API times out.", "search"),
    ("She drives a red car.", "She drives a blue car to work.", "blue"),
    (
        "The user keeps the tea jar in the kitchen.",
        "I keep the coffee jar in the kitchen.",
        "coffee",
    ),
    ("Dana owns a black cat.", "Dana owns a white cat named Miso.", "white"),
    ("The billing dashboard loads slowly.", "The sales dashboard loads slowly.", "sales"),
]


@pytest.mark.parametrize(("claim", "source", "theirs"), SWAPS)
def test_a_word_swapped_in_place_contradicts_the_source(
    claim: str, source: str, theirs: str
) -> None:
    report = _verify(claim, source)
    assert report.verdict is GroundingVerdict.NOT_SUPPORTED
    assert f"where the source says {theirs!r}" in report.reasoning


def test_the_swap_is_reported_as_the_pair() -> None:
    found = claim_slot_swaps(
        "Priya leads the sales team.", _turns("Priya leads the payments team."), set()
    )
    assert found == [("sales", "payments")]


KEPT = [
    # synonyms and hypernyms by WordNet
    ("Priya leads the big team.", "Priya leads the large team."),
    ("She drives a red vehicle.", "She drives a red car."),
    ("He bought a new car.", "He purchased a new car last week."),
    # another form of the same word: plural, possessive, derived, spelling variant
    ("Priya leads the payments teams.", "Priya leads the payments team."),
    ("The payment service retries twice.", "The payments service retries twice."),
    ("The team's lead is Priya.", "Priya is the teams lead."),
    ("She drives a grey car.", "She drives a gray car."),
    ("The colour printer is broken.", "The color printer is broken."),
    # an added modifier: nothing stands in its place in the source
    ("Priya leads the new payments team.", "Priya leads the payments team. The team is new."),
    ("Priya leads the busy payments team.", "Priya leads the payments team."),
]


@pytest.mark.parametrize(("claim", "source"), KEPT)
def test_the_same_thing_said_another_way_is_no_swap(claim: str, source: str) -> None:
    assert claim_slot_swaps(claim, _turns(source), set()) == []
    assert "where the source says" not in _verify(claim, source).reasoning


def test_a_word_the_source_states_elsewhere_is_no_swap() -> None:
    source = ("Priya leads the payments team.", "She also advises the sales team.")
    assert claim_slot_swaps("Priya leads the sales team.", _turns(*source), set()) == []


def test_a_sentence_sharing_only_the_head_is_not_aligned() -> None:
    # "pub" alone: the source sentence says nothing else the claim says
    found = claim_slot_swaps("Alex suggests a new pub.", _turns("I found a cool pub"), set())
    assert found == []


def test_a_word_wordnet_does_not_define_is_not_judged() -> None:
    # "normally" / "usually": adverbs the common-word definitions leave out
    claim = "Game species are normally mammals and birds."
    source = "Game species are usually mammals and birds."
    assert claim_slot_swaps(claim, _turns(source), set()) == []


def test_a_verb_before_a_function_word_is_not_read() -> None:
    # "leads the" / "manages the": a verb reworded is a paraphrase more often than not
    assert claim_slot_swaps("Priya leads the team.", _turns("Priya manages the team."), set()) == []


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("large", "big", True),
        ("car", "vehicle", True),
        ("payment", "pay", True),
        ("colour", "color", True),
        ("sales", "payments", False),
        ("red", "blue", False),
        ("car", "cat", False),
    ],
)
def test_same_thing(a: str, b: str, same: bool) -> None:
    assert same_thing(a, stem(a), b, stem(b)) is same


def test_a_verb_after_to_is_not_read() -> None:
    # "to visit" / "to see": no determiner or preposition before the slot
    found = claim_slot_swaps(
        "Dana wants to visit Lisbon.", _turns("Dana wants to see Lisbon."), set()
    )
    assert found == []


def test_a_verb_after_an_adverb_is_not_read() -> None:
    # "quickly answers" / "quickly sends": an adverb in -ly qualifies a verb, which a
    # paraphrase rewords more often than a changed fact changes it
    found = claim_slot_swaps(
        "Dana quickly answers emails.", _turns("Dana quickly sends emails."), set()
    )
    assert found == []
    # control: a shared modifier that is no adverb still frames the slot
    found = claim_slot_swaps("Dana owns a big red car.", _turns("Dana owns a big blue car."), set())
    assert found == [("red", "blue")]


# Session 13: the object of a verb both have, read when it ends its clause or a function
# word follows it, and only as two kinds of one genus (`kinds.kin`).
OBJECT_SWAPS = [
    ("Priya teaches history.", "Priya teaches chemistry.", "chemistry"),
    (
        "Marco teaches history at the local school.",
        "Marco teaches chemistry at the local school.",
        "chemistry",
    ),
    ("Ana drinks tea every morning.", "Ana drinks coffee every morning.", "coffee"),
    ("Ana studies law at university.", "Ana studies medicine at university.", "medicine"),
]


@pytest.mark.parametrize(("claim", "source", "theirs"), OBJECT_SWAPS)
def test_a_verbs_object_swapped_contradicts_the_source(
    claim: str, source: str, theirs: str
) -> None:
    report = _verify(claim, source)
    assert report.verdict is GroundingVerdict.NOT_SUPPORTED
    assert f"where the source says {theirs!r}" in report.reasoning


OBJECT_KEPT = [
    # a hypernym or a synonym of the object (WordNet's definitions)
    ("Priya teaches science.", "Priya teaches chemistry."),
    ("Priya teaches chemistry.", "Priya teaches science."),
    ("Ana plays soccer on weekends.", "Ana plays football on weekends."),
    ("Ana drinks espresso every morning.", "Ana drinks coffee every morning."),
    ("Ana called her mom.", "Ana called her mother."),
    # no genus of their own in common: a reworded object, not two kinds of one thing
    ("Ana fixed the bug.", "Ana fixed the error."),
    # a name before the slot is its subject: the slot is a verb, not read
    ("Priya leads.", "Priya manages."),
    ("Priya leads the team.", "Priya manages the team."),
    # the source's object placed otherwise: not the same slot
    ("Priya teaches history.", "Priya teaches at the chemistry department."),
]


@pytest.mark.parametrize(("claim", "source"), OBJECT_KEPT)
def test_an_object_said_another_way_is_no_swap(claim: str, source: str) -> None:
    assert claim_slot_swaps(claim, _turns(source), set()) == []


# Session 13: WordNet defines "green" with "yellow" and "yellow" with "green"; the
# hypernyms say they are two kinds of one genus ("chromatic color"), not one thing.
@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("green", "yellow", False),
        ("yellow", "green", False),
        ("tea", "coffee", False),
        # controls: synonyms, a kind and its genus, spellings
        ("kid", "child", True),
        ("large", "big", True),
        ("grey", "gray", True),
        ("movie", "film", True),
    ],
)
def test_sister_kinds_are_not_the_same_thing(a: str, b: str, same: bool) -> None:
    assert same_thing(a, stem(a), b, stem(b)) is same


def test_sister_colours_in_a_slot_contradict_the_source() -> None:
    report = _verify("Omar wears a green jacket to the office.", "Omar wears a yellow jacket.")
    assert report.verdict is GroundingVerdict.NOT_SUPPORTED
    assert "where the source says 'yellow'" in report.reasoning
