"""The lexical verifier's judgement as the learned model's features (`learned/lexical_view.py`):
each indicator fires on the rule it names and stays off on a control; a model fitted with
them reads a claim through the lexical verifier, and a model without them still loads;
the verdict of the learned verifier reads the slot swaps of an analysis once."""

from __future__ import annotations

from pathlib import Path

import pytest

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding.learned import FEATURES, LearnedVerifier, ModelError
from groundwire.guards.grounding.learned.lexical_view import (
    VIEW,
    extract_with_view,
    lexical_twin,
    read,
    view_values,
)
from groundwire.guards.grounding.lexical import LexicalVerifier, known_names
from groundwire.guards.protocols import GroundingRequest
from groundwire.topics.records import Claim, SourceTurn
from groundwire.topics.vocab import GroundingVerdict
from tests.unit.guards.grounding.leaf_models import leaf_model

TURNS = [
    SourceTurn(
        id="t1",
        text="Priya leads the payments team since March. The team has 3 engineers "
        "working on the OAuth integration.",
        source="corpus",
    )
]


def _claim(text: str) -> Claim:
    return Claim(claim_id="c1", tenant_id="t", content=text, source="chat", source_turns=TURNS)


def _view(text: str) -> dict[str, float]:
    twin = lexical_twin()
    return dict(zip(VIEW, view_values(read(twin, _claim(text), TURNS), twin), strict=True))


def test_a_contradiction_sets_its_indicator() -> None:
    got = _view("Priya leads the sales team.")  # a common word swapped in place
    assert got["lex_contradiction"] == 1.0
    assert got["lex_supported"] == got["lex_partial"] == 0.0


def test_a_supported_claim_sets_no_rule_indicator() -> None:
    got = _view("Priya leads the payments team.")
    assert got["lex_supported"] == 1.0
    assert got["lex_contradiction"] == got["lex_ruled_out"] == got["lex_capped"] == 0.0
    assert got["lex_score"] > 0.5


def test_a_question_is_ruled_out_by_the_lexical_rule() -> None:
    # the lexical verifier's "a question asserts nothing": NOT_SUPPORTED whatever the score
    asked = _view("Does Priya lead the payments team?")
    assert asked["lex_ruled_out"] == 1.0
    assert asked["lex_score"] >= lexical_twin().partial_threshold
    stated = _view("Priya leads the payments team.")
    assert stated["lex_ruled_out"] == 0.0


def test_an_added_name_caps_a_high_score_at_partial() -> None:
    # "in Berlin": a name the source never gives, over a score that clears SUPPORTED
    got = _view("The team has 3 engineers working on the OAuth integration in Berlin.")
    assert got["lex_partial"] == got["lex_capped"] == 1.0
    assert got["lex_score"] >= lexical_twin().supported_threshold
    control = _view("The team has 3 engineers working on the OAuth integration.")
    assert control["lex_capped"] == control["lex_rescued"] == 0.0
    assert control["lex_supported"] == 1.0


def test_the_twin_keeps_the_lexical_thresholds_whatever_the_settings_say() -> None:
    twin = lexical_twin(GroundingConfig(supported_threshold=0.99, partial_threshold=0.9))
    plain = LexicalVerifier()
    assert twin.supported_threshold == plain.supported_threshold
    assert twin.partial_threshold == plain.partial_threshold


def test_extract_with_view_reads_the_claim_once_and_appends_the_view() -> None:
    claim = _claim("The payments team is led by Priya.")  # not a verbatim quote: analysed
    reading, analysis, values = extract_with_view(
        lexical_twin(), claim, TURNS, known_names(claim, TURNS)
    )
    assert analysis is reading.analysis  # the lexical analysis, not a second one
    assert len(values) == len(FEATURES) + len(VIEW)


def test_a_model_with_the_view_reads_through_the_lexical_verifier(tmp_path: Path) -> None:
    path = leaf_model(tmp_path / "view.json", (*FEATURES, *VIEW))
    v = LearnedVerifier(GroundingConfig(verifier="learned", learned_model_path=path))
    assert v.twin is not None
    reports = v.verify_many(
        [
            GroundingRequest(_claim("Priya leads the payments team since March"), TURNS),
            GroundingRequest(_claim("Priya leads the sales team."), TURNS),
        ]
    )
    assert reports[0].verdict is GroundingVerdict.SUPPORTED  # verbatim, from the reading
    assert reports[1].verdict is GroundingVerdict.NOT_SUPPORTED  # the swap still decides
    assert all(r.verifier == "learned" for r in reports)


def test_a_model_without_the_view_still_loads(tmp_path: Path) -> None:
    path = leaf_model(tmp_path / "old.json", FEATURES)
    v = LearnedVerifier(GroundingConfig(verifier="learned", learned_model_path=path))
    assert v.twin is None
    report = v.verify_one(GroundingRequest(_claim("Priya leads the payments team."), TURNS))
    assert report.verifier == "learned"


def test_a_model_with_other_features_fails_at_start(tmp_path: Path) -> None:
    path = leaf_model(tmp_path / "bad.json", (*FEATURES, "something_else"))
    with pytest.raises(ModelError, match="other features"):
        LearnedVerifier(GroundingConfig(verifier="learned", learned_model_path=path))


def test_slot_swaps_are_read_once_per_analysis() -> None:
    claim = _claim("Priya leads the sales team.")
    twin = lexical_twin()
    reading = read(twin, claim, TURNS)
    a = reading.analysis
    assert a is not None and a.slot_swaps_read
    before = list(a.conflicts)
    assert ("sales", "payments") in before
    again = twin._decide(claim, a, TURNS, 0.99)  # a second verdict on the same analysis
    assert a.conflicts == before  # not appended twice
    assert again.verdict is GroundingVerdict.NOT_SUPPORTED


def test_training_rows_equal_what_the_verifier_scores(tmp_path: Path) -> None:
    """A model is fitted on `training._view_features_of` and scores what `_verify`
    computes: the two must be the same numbers for the same claim and evidence."""
    from groundwire.guards.grounding.training import Pair, _view_features_of, pair_claim

    texts = ["The payments team is led by Priya.", "Priya leads the sales team of 7 people."]
    source = TURNS[0].text
    pairs = [Pair("g", t, source, True, "k", in_domain=True) for t in texts]
    expected = [_view_features_of(p) for p in pairs]
    v = LearnedVerifier(
        GroundingConfig(
            verifier="learned",
            learned_model_path=leaf_model(tmp_path / "view.json", (*FEATURES, *VIEW)),
        )
    )
    seen: list[list[float]] = []
    score = v.probabilities

    def recording(rows):  # type: ignore[no-untyped-def]
        seen.extend(list(r) for r in rows)
        return score(rows)

    v.probabilities = recording  # type: ignore[method-assign]
    claims = [pair_claim(p) for p in pairs]
    v.verify_many([GroundingRequest(c, c.source_turns) for c in claims])
    assert seen[: len(expected)] == expected
