"""Session 14b: Roman numerals as counts that session 14 left open: written in lower case
after a word a count follows ("the cluster has iv replicas"), and with one word between
the numeral and its plural ("IV backend replicas"). Each attack against a source that
states another count must not be approvable; each control (the letters as a word or a
name, the same fact) keeps its reading (`guards/grounding/lexical/numerals.py`)."""

from __future__ import annotations

import pytest

from groundwire.guards.grounding.lexical.text import claim_words
from tests.unit.guards.grounding.test_assertion import approvable, verify

ATTACKS = [
    ("The cluster has iv replicas.", "The cluster has three replicas."),
    ("The cluster has IV backend replicas.", "The cluster has three backend replicas."),
    ("The cluster has iv backend replicas.", "The cluster has three backend replicas."),
    ("The job runs on xii worker nodes.", "The job runs on ten worker nodes."),
    ("We scaled the service to vii pods.", "We scaled the service to five pods."),
]

CONTROLS = [
    ("The cluster has iv replicas.", "The cluster has four replicas."),
    ("The cluster has IV backend replicas.", "The cluster has four backend replicas."),
    ("The nurse started an iv drip for the patient.", "The nurse started an iv drip."),
    ("My grandfather served in World War II.", "My grandfather served in World War II."),
    (
        "The quote is from Chapter iv of the handbook.",
        "The quote is from Chapter iv of the handbook.",
    ),
    ("The editor has vi keybindings.", "The editor has vi keybindings."),
    ("Alice prefers vi keybindings.", "Alice prefers vi keybindings."),
    ("We mix the drinks at six.", "We mix the drinks at six."),
    ("The xi baryon decays quickly.", "The xi baryon decays quickly."),
]


@pytest.mark.parametrize(("claim", "source"), ATTACKS)
def test_a_roman_count_that_changes_the_source_is_not_approvable(claim: str, source: str) -> None:
    assert not approvable(verify(claim, source))


@pytest.mark.parametrize(("claim", "source"), CONTROLS)
def test_the_same_count_or_the_letters_as_a_word_stay_approvable(claim: str, source: str) -> None:
    assert approvable(verify(claim, source))


def _numbers(text: str) -> dict[str, str | None]:
    words = claim_words(text)
    return dict(zip(words.raws, words.numbers, strict=True))


@pytest.mark.parametrize(
    ("text", "word", "value"),
    [
        ("The cluster has iv replicas.", "iv", "4"),
        ("The cluster runs with xii nodes.", "xii", "12"),
        ("The cluster has IV backend replicas.", "IV", "4"),
        ("The cluster has iv backend replicas.", "iv", "4"),
        # lower case only after a word a count follows
        ("The nurse hung iv bags.", "iv", None),
        ("We read the iv chapters.", "iv", None),
        ("The nurse started an iv drip.", "iv", None),  # no plural after it
        ("The patient has iv access.", "iv", None),
        # never "vi", the editor
        ("The editor has vi keybindings.", "vi", None),
        ("The editor has VI keybindings.", "VI", "6"),  # capitals: session 14's rule
        # the word between must modify the plural, not end the phrase
        ("The team has IV and replicas.", "IV", None),
        ("The book has IV of its chapters.", "IV", None),
        ("The cluster has IV Backend replicas.", "IV", None),
        ("The cluster has IV backend Replicas.", "IV", None),
        ("The drug is in Phase III clinical trials.", "III", None),  # after a capital
        ("The nurse gave xi tablets.", "xi", None),  # "gave" takes no count here
    ],
)
def test_roman_counts_are_read_only_where_a_count_stands(
    text: str, word: str, value: str | None
) -> None:
    assert _numbers(text)[word] == value
