"""The stacked learned verifier (session 15): the lexical verdict stands unless the
learned score is under the model's `overrule_below`; then NOT_SUPPORTED. Never the
other way round, never without the lexical reading."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding.learned import FEATURES, LearnedVerifier, ModelError
from groundwire.guards.grounding.learned.lexical_view import VIEW
from groundwire.guards.grounding.lexical import LexicalVerifier
from groundwire.guards.grounding.training import Pair, choose_overrule
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
CLAIMS = [
    "Priya has led the payments team since March.",  # supported (not verbatim)
    "Priya leads the payments team at Acme.",  # an added name: partial, rewritten
    "Priya leads the sales team.",  # a swap: not supported
    "Bob writes poems about the sea.",  # nothing in common: not supported
    # verbatim: decided by the lexical reading before any score, so never overruled
    "Priya leads the payments team since March.",
]

KEPT = {"verifier", "score"}  # what the stacked report sets itself


def _claim(text: str) -> Claim:
    return Claim(claim_id="c1", tenant_id="t", content=text, source="chat", source_turns=TURNS)


def _reports(path: Path) -> list:
    v = LearnedVerifier(GroundingConfig(verifier="learned", learned_model_path=path))
    return v.verify_many([GroundingRequest(_claim(c), TURNS) for c in CLAIMS])


def _lexical() -> list:
    v = LexicalVerifier(GroundingConfig())
    return [v.verify_one(GroundingRequest(_claim(c), TURNS)) for c in CLAIMS]


def test_a_high_learned_score_keeps_the_lexical_report_whole(tmp_path: Path) -> None:
    path = leaf_model(tmp_path / "m.json", (*FEATURES, *VIEW), raw=2.0, overrule_below=0.2)
    lexical = _lexical()
    assert [r.verdict for r in lexical][:3] == [
        GroundingVerdict.SUPPORTED,
        GroundingVerdict.PARTIAL,
        GroundingVerdict.NOT_SUPPORTED,
    ]
    assert lexical[1].rewritten_content  # the rewrite the stacked report must keep
    got = _reports(path)
    for r, want in zip(got[:4], lexical[:4], strict=True):
        assert r.verifier == "learned"
        assert r.score == pytest.approx(0.7)  # the learned P(supported)
        # verdict, spans, reasoning, penalty and the PARTIAL rewrite: the lexical ones
        assert r.model_dump(exclude=KEPT) == want.model_dump(exclude=KEPT)
    # a verbatim quote is decided before any score: the lexical report, its score 1.0
    assert got[4].model_dump(exclude={"verifier"}) == lexical[4].model_dump(exclude={"verifier"})


def test_a_low_learned_score_overrules_a_passing_lexical_verdict(tmp_path: Path) -> None:
    path = leaf_model(tmp_path / "m.json", (*FEATURES, *VIEW), raw=-4.0, overrule_below=0.2)
    got, lexical = _reports(path), _lexical()
    for r in got[:2]:  # SUPPORTED and PARTIAL by the lexical verdict: overruled
        assert r.verdict is GroundingVerdict.NOT_SUPPORTED
        assert "overrules the lexical verdict" in r.reasoning
        assert r.score == pytest.approx(0.1)
        assert r.rewritten_content is None and r.adjusted_confidence == 0.0
    # already NOT_SUPPORTED, or a verbatim quote: the lexical report stands
    assert got[4].verdict is GroundingVerdict.SUPPORTED
    for r, want in zip(got[2:], lexical[2:], strict=True):
        assert r.model_dump(exclude=KEPT) == want.model_dump(exclude=KEPT)


def test_the_bound_is_strict_and_never_lifts_a_verdict(tmp_path: Path) -> None:
    # P = 0.5 against a bound of 0.5: not under it, so nothing is overruled; and a high
    # score never turns a lexical NOT_SUPPORTED into anything else
    path = leaf_model(tmp_path / "m.json", (*FEATURES, *VIEW), raw=0.0, overrule_below=0.5)
    assert [r.verdict for r in _reports(path)] == [r.verdict for r in _lexical()]
    path = leaf_model(tmp_path / "hi.json", (*FEATURES, *VIEW), raw=5.0, overrule_below=0.5)
    assert _reports(path)[3].verdict is GroundingVerdict.NOT_SUPPORTED


def test_without_the_bound_the_learned_score_decides(tmp_path: Path) -> None:
    # the control: the same low score with no `overrule_below` reads through the learned
    # thresholds (0.1 < partial 0.3): not supported, with the learned verdict's reasoning
    path = leaf_model(tmp_path / "m.json", (*FEATURES, *VIEW), raw=-4.0, overrule_below=None)
    r = _reports(path)[0]
    assert r.verdict is GroundingVerdict.NOT_SUPPORTED
    assert "overrules" not in r.reasoning


@pytest.mark.parametrize("bound", [1.5, -0.1])
def test_a_bound_outside_zero_one_fails_at_start(tmp_path: Path, bound: float) -> None:
    path = leaf_model(tmp_path / "m.json", (*FEATURES, *VIEW), raw=0.0, overrule_below=bound)
    with pytest.raises(ModelError, match="probability"):
        LearnedVerifier(GroundingConfig(verifier="learned", learned_model_path=path))


def test_a_bound_without_the_lexical_view_fails_at_start(tmp_path: Path) -> None:
    path = leaf_model(tmp_path / "m.json", FEATURES, raw=0.0, overrule_below=0.2)
    with pytest.raises(ModelError, match="lexical view"):
        LearnedVerifier(GroundingConfig(verifier="learned", learned_model_path=path))


def _pairs(labels: list[bool]) -> list[Pair]:
    return [Pair("g", "c", "s", y, str(i), in_domain=True) for i, y in enumerate(labels)]


def test_choose_overrule_finds_where_the_lexical_verdict_errs() -> None:
    # the lexical verdict passes all six; the two unsupported ones score low
    labels = [True, True, True, True, False, False]
    scores = np.array([0.9, 0.8, 0.7, 0.6, 0.1, 0.15])
    bound, per = choose_overrule(scores, np.ones(6, dtype=bool), _pairs(labels))
    assert 0.15 < bound <= 0.6
    assert per["g"] == 1.0


def test_choose_overrule_overrules_nothing_when_the_lexical_verdict_is_right() -> None:
    labels = [True, True, False, False]
    scores = np.array([0.1, 0.2, 0.05, 0.3])  # the learned score would only hurt
    passes = np.array([True, True, False, False])
    bound, per = choose_overrule(scores, passes, _pairs(labels))
    assert bound == 0.0 and per["g"] == 1.0
