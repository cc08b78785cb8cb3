"""`spelling.may_name`: the per-evidence index answers what `same_name_in` would find.

The verifier asks it for every capitalised claim word the source never uses; it must say
yes exactly where `same_name_in` finds the source's spelling (a yes it lacks would leave
a respelled name counted as invented, a yes too many would excuse an invented one), and
it must build its index once per evidence, not once per claim.
"""

from __future__ import annotations

import pytest

from groundwire.guards.grounding.lexical.evidence import Evidence, evidence_for
from groundwire.guards.grounding.lexical.spelling import may_name, same_name_in
from groundwire.topics.records import SourceTurn

SOURCES = [
    "Cat cafes are common in Japan and Taiwan.",
    "He wrote Le Chirurgien Dentiste in 1728. It was a new yard in the north.",
    "The office moved to Stockholm last year. The film is set on Wall Street in New York.",
    "A large community lives in Queens, New York. It Takes Two is a game.",
    "Mark will bring the cake. Ann will bring the cake. They flew to Poland in May.",
    "Dana: The Global Ledger Service runs in eu-west. Marco: ok, GLS it is!",
]
# respellings (joined, initials, a doubled letter written once or twice, two neighbours
# swapped) and near spellings that are other names and different names, with controls
WORDS = [
    "Taiwaan",
    "Chriurgien",
    "Japana",
    "Japn",
    "Chirugien",
    "Chirurgiens",
    "Stockohlm",
    "Wallstreet",
    "Newyork",
    "NY",
    "GLS",
    "GL",
    "LS",
    "Takestwo",
    "ITT",
    "IT",
    "KY",
    "NYC",
    "Mike",
    "Anna",
    "Dublin",
    "Prague",
    "Portugal",
    "Paris",
    "Poland",
    "Polland",
    "Marko",
    "Dana",
    "Dane",
    "Ledgerservice",
    "Globalledger",
    "Globalledgerservice",
    "Euwest",
    "Eu",
]


def _ev(text: str) -> Evidence:
    return evidence_for([SourceTurn(id="doc-1", text=text, source="document")])


@pytest.mark.parametrize("source", SOURCES)
def test_the_index_agrees_with_the_scan(source: str) -> None:
    ev = _ev(source)
    found = [w for w in WORDS if same_name_in(w, ev.sentences) is not None]
    assert found  # every source has some respelling among the words
    assert [w for w in WORDS if may_name(w, ev)] == found


@pytest.mark.parametrize(
    ("word", "source"),
    [
        ("Wallstreet", "The film is set on Wall Street in New York."),  # joined
        ("NY", "A large community lives in Queens, New York."),  # initials
        ("Stockohlm", "The office moved to Stockholm last year."),  # one slip
    ],
)
def test_a_respelled_name_is_named(word: str, source: str) -> None:
    assert may_name(word, _ev(source))


@pytest.mark.parametrize(
    ("word", "source"),
    [
        ("Anna", "Ann will bring the cake."),  # short: one letter is another name
        ("NY", "It was a new yard in the north."),  # initials of lower-case words
        ("IT", "It Takes Two is a game."),  # initials of stop words
        ("Portugal", "They flew to Poland in May."),
    ],
)
def test_a_different_name_is_not_named(word: str, source: str) -> None:
    assert not may_name(word, _ev(source))


def test_the_index_is_built_once_per_evidence() -> None:
    ev = _ev("The office moved to Stockholm last year.")
    assert may_name("Stockohlm", ev)
    assert ev.derived is not None
    index = next(iter(ev.derived.values()))
    assert not may_name("Dublin", ev)
    assert next(iter(ev.derived.values())) is index
