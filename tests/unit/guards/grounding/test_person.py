"""A pronoun the lexicon has only in lower case, written in capitals, is another word
(`lexical/person.py`): "the US" is the country, not "us", so it sets no first-person
signal, in the claim or in the source, and it is a word of its own (a name) to the
coverage. "tell us about it", "Us too." and text written all in capitals read as before."""

from __future__ import annotations

import pytest

from groundwire.guards.grounding.lexical import analyze, evidence, person
from groundwire.guards.grounding.lexical.evidence import evidence_for, users_own_words
from groundwire.guards.grounding.lexical.person import first_person_in
from groundwire.guards.grounding.lexical.text import claim_words
from groundwire.topics.records import SourceTurn
from groundwire.topics.vocab import GroundingVerdict
from tests.unit.guards.grounding.test_lexical import verify


def _turns(*texts: str, source: str = "corpus") -> list[SourceTurn]:
    return [SourceTurn(id=f"t{i}", text=t, source=source) for i, t in enumerate(texts)]


def _first(text: str) -> bool:
    words = claim_words(text)
    return first_person_in(words.raws, words.lows)


def test_country_abbreviation_is_no_pronoun() -> None:
    assert not _first("He moved to the US in 2010.")
    assert not _first("Sales in the US fell.")


def test_pronoun_written_as_pronoun_stays_first_person() -> None:
    assert _first("She will tell us about it.")
    assert _first("Us too.")
    assert _first("I'M not sure about the US.")  # "I" and its contractions are capitals
    assert _first("WE LEFT EARLY")  # all in capitals: the case says nothing


def test_claim_with_the_us_is_no_first_person_statement() -> None:
    turns = _turns("The company sells software and ships products across the country.")
    found = analyze("The company ships products across the US.", turns, set())
    assert found.features["first_person"] == 0.0
    control = analyze("The company ships products to us.", turns, set())
    assert control.features["first_person"] == 1.0


def test_the_us_is_a_word_of_its_own() -> None:
    """Read as "us" it was a function word, invisible to the coverage: "the US" against
    "Canada" was held only by the wrong first-person signal."""
    words = claim_words("He moved to the US in 2010.")
    assert words.content[words.raws.index("US")]
    found = analyze("He moved to the US in 2010.", _turns("He moved to Canada in 2010."), set())
    assert found.features["coverage"] < 1.0
    assert found.features["unsupported_entities"] == 1.0
    held = analyze("He moved to the US in 2010.", _turns("He moved to the US in 2010."), set())
    assert held.features["coverage"] == 1.0
    assert not claim_words("Tell us.").content[1]


def test_source_with_the_us_is_not_first_person() -> None:
    """A document about "the US" no longer hides a claim's own first person."""
    assert not evidence_for(_turns("Sales in the US fell sharply last year.")).first
    assert evidence_for(_turns("Sales to us fell sharply last year.")).first
    found = analyze("I agree, sales fell sharply.", _turns("Sales in the US fell sharply."), set())
    assert found.features["first_person"] == 1.0


def test_users_turn_about_the_us_is_not_the_user_speaking_of_themself() -> None:
    assert not users_own_words(_turns("The US economy grew last year.", source="user"))
    assert users_own_words(_turns("Tell us how the economy grew.", source="user"))
    assert users_own_words(_turns("WE MOVED LAST YEAR", source="user"))


def test_owner_swap_in_a_clause_with_the_us() -> None:
    """ "the US" in the clause is no first-person subject that keeps the speaker in it
    (`owner._someone_else`): the brother moved, not the user."""
    said = _turns("My brother moved to the US last year.", source="user")
    report = verify("The user moved to the US.", said)
    assert report.verdict == GroundingVerdict.NOT_SUPPORTED
    assert "My brother" in report.reasoning
    both = _turns("My brother moved to the US last year, and so did we.", source="user")
    assert verify("The user moved to the US.", both).verdict == GroundingVerdict.SUPPORTED


def test_first_person_reading_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """At the size limits (50,000 characters of evidence, all "US"), the first-person
    reading tests the case of a sentence once and a turn's head once: counted, not
    timed."""
    searches = [0]

    class _Counted:
        def search(self, text: str) -> object:
            searches[0] += 1
            return _LOWER.search(text)

    _LOWER = person._LOWER
    monkeypatch.setattr(person, "_LOWER", _Counted())
    text = "The US and the US. " * (50_000 // 19)
    evidence._turn_evidence.cache_clear()
    ev = evidence_for(_turns(text))
    assert not ev.first
    assert 0 < searches[0] <= len(ev.sentences)
    searches[0] = 0
    evidence._first_person_head.cache_clear()
    assert not users_own_words(_turns(text, source="user"))
    assert searches[0] == 1
