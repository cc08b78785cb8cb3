"""A name swapped inside a list (`lexical/listed_names.py`): caught alone, it was missed
inside an enumeration the claim reorders, or where the claim also names the source's
member elsewhere. Controls: a reordered list, a list with an item added, a respelled
name."""

from __future__ import annotations

import pytest

from groundwire.guards.grounding.lexical import analyze, features, listed_names
from groundwire.guards.grounding.lexical.listed_names import enumerations
from groundwire.guards.grounding.lexical.text import claim_words
from groundwire.topics.records import SourceTurn
from groundwire.topics.vocab import GroundingVerdict
from tests.unit.guards.grounding.test_lexical import verify


def _turns(*texts: str) -> list[SourceTurn]:
    return [SourceTurn(id=f"t{i}", text=t, source="user") for i, t in enumerate(texts)]


def _items(text: str) -> list[list[str]]:
    w = claim_words(text)
    return [
        [" ".join(w.raws[a:b]) for a, b in found] for found in enumerations(w.raws, w.spans, text)
    ]


def test_enumerations_read_items_of_capitalised_words() -> None:
    assert _items("We went to Airlie, Hamilton Island and Whitehaven Beach.") == [
        ["Airlie", "Hamilton Island", "Whitehaven Beach"]
    ]
    # the list may end at any "and": the longest reading first
    assert _items("We saw Paris, Rome and Berlin, and Madrid was best.") == [
        ["Paris", "Rome", "Berlin", "Madrid"],
        ["Paris", "Rome", "Berlin"],
    ]
    assert _items("Paris, Rome, Berlin") == []  # no "and" / "or": no enumeration
    assert _items("Dana met the team and Marco.") == []  # "the team" is no item


SOURCE = _turns("We visited Paris, Rome and Berlin last summer.")


def test_swap_in_a_reordered_list_is_a_contradiction() -> None:
    report = verify("We visited Madrid, Rome and Paris last summer.", SOURCE)
    assert report.verdict == GroundingVerdict.NOT_SUPPORTED
    assert "'Madrid' where the source names 'Berlin'" in report.reasoning


def test_swap_in_a_list_where_the_claim_names_the_member_elsewhere() -> None:
    turns = _turns(
        "We went to Airlie, Hamilton Island and Whitehaven Beach. Whitehaven Beach was the best."
    )
    claim = (
        "We went to Airlie, Hamilton Island and Whitehouse Beach, and Whitehaven Beach was"
        " the best."
    )
    found = analyze(claim, turns, set())
    assert ("Whitehouse", "Whitehaven") in found.names_swapped
    assert verify(claim, turns).verdict == GroundingVerdict.NOT_SUPPORTED


def test_reordered_list_stays_supported() -> None:
    report = verify("We visited Berlin, Rome and Paris last summer.", SOURCE)
    assert report.verdict == GroundingVerdict.SUPPORTED
    assert analyze("We visited Berlin, Rome and Paris last summer.", SOURCE, set()).conflicts == []


def test_list_with_an_item_added_is_no_swap() -> None:
    found = analyze("We visited Paris, Rome, Berlin and Madrid last summer.", SOURCE, set())
    assert found.names_swapped == []
    assert found.conflicts == []


def test_item_the_source_has_elsewhere_is_no_swap() -> None:
    turns = _turns("We visited Paris, Rome and Berlin last summer. Madrid was next.")
    found = analyze("We visited Madrid, Rome and Paris last summer.", turns, set())
    assert found.names_swapped == []


def test_list_reading_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """At the size limits (a 16,000-character claim list, 50,000 characters of source
    lists) each text is read for lists once, and each source list adds at most
    `MAX_ITEMS` keys per reading: counted, not timed."""
    calls = [0]
    plain = listed_names.enumerations

    def counted(*args: object) -> list[list[tuple[int, int]]]:
        calls[0] += 1
        return plain(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(listed_names, "enumerations", counted)
    names = ", ".join(f"Zq{chr(97 + i)}" for i in range(19))
    claim = f"We visited {names} and Xyzzy. "
    claim = (claim * (16_000 // len(claim)))[:16_000]
    source = f"We visited {names} and Berlin. "
    source = (source * (50_000 // len(source)))[:50_000]
    turns = _turns(source)
    found = features.analyze(claim, turns, set())
    sentences = len(features.evidence_for(turns).sentences)
    assert 1 < calls[0] <= 1 + sentences
    assert ("Xyzzy", "Berlin") in found.conflicts
