"""The learned verifier: the packaged model loads, scores in numpy as its trees say, and
decides; a broken model file fails when the verifier is built."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding import build_verifier
from groundwire.guards.grounding.learned import (
    LearnedVerifier,
    ModelError,
    load_model,
)
from groundwire.guards.grounding.learned.model import packaged_model_path
from groundwire.guards.grounding.learned.verifier import FEATURES_WITH_VIEW
from groundwire.guards.protocols import GroundingRequest
from groundwire.topics.records import Claim, SourceTurn
from groundwire.topics.vocab import GroundingVerdict

TURNS = [
    SourceTurn(
        id="t1",
        text="The team has 3 engineers working on the OAuth integration. "
        "We agreed to ship it after the security review.",
        source="corpus",
    )
]


def claim(text: str, i: int = 0) -> Claim:
    return Claim(claim_id=f"c{i}", tenant_id="t", content=text, source="chat", source_turns=TURNS)


def test_packaged_model_loads_and_matches_the_features() -> None:
    # session 15: the packaged model is stacked on the lexical verdict (its 33 features
    # and the lexical view, and the bound under which it overrules the lexical verdict)
    model = load_model(packaged_model_path(), FEATURES_WITH_VIEW)  # load time: bench_grounding
    assert model.features == FEATURES_WITH_VIEW
    assert model.overrule_below is not None and 0.0 < model.overrule_below < 0.5
    assert 0.0 < model.partial_threshold <= model.supported_threshold < 1.0
    assert np.all(np.diff(model.cal_y) >= 0)
    assert model.meta["groups"]  # what it was trained on is recorded


def test_vectorised_trees_equal_a_plain_walk() -> None:
    model = load_model(packaged_model_path(), FEATURES_WITH_VIEW)
    rng = np.random.default_rng(0)
    x = rng.uniform(-1, 3, size=(20, len(FEATURES_WITH_VIEW)))
    expected = []
    for row in x:
        total = model.base
        for t in range(model.trees):
            node = 0
            while model.left[t, node] != node:
                f, thr = model.feature[t, node], model.threshold[t, node]
                node = model.left[t, node] if row[f] <= thr else model.right[t, node]
            total += model.value[t, node]
        expected.append(total)
    assert np.allclose(model.raw(x), expected)
    p = model.predict(x)
    assert np.all((p >= 0) & (p <= 1))


async def test_it_decides_like_the_spec() -> None:
    verifier = build_verifier(GroundingConfig(verifier="learned"))
    assert isinstance(verifier, LearnedVerifier)
    texts = [
        "The team has three engineers on the OAuth integration",
        "Georgian works as a software developer at Google",
        "The team has 5 engineers working on the OAuth integration",
    ]
    reports = await verifier.verify_batch(
        [GroundingRequest(claim(t, i), TURNS) for i, t in enumerate(texts)]
    )
    assert reports[0].verdict in (GroundingVerdict.SUPPORTED, GroundingVerdict.PARTIAL)
    assert reports[1].verdict is GroundingVerdict.NOT_SUPPORTED
    assert reports[2].verdict is GroundingVerdict.NOT_SUPPORTED  # swapped number
    assert all(r.verifier == "learned" for r in reports)
    assert all(r.score is not None and 0.0 <= r.score <= 1.0 for r in reports)
    assert reports[0].score > reports[1].score  # type: ignore[operator]


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda d: d.update(format="other"), "not a groundwire-trees"),
        (lambda d: d.update(features=d["features"][:-1]), "other features"),
        (lambda d: d["trees"]["left"][0].__setitem__(0, 10_000), "outside its tree"),
        (lambda d: d["calibration"].update(y=d["calibration"]["y"][::-1]), "not monotone"),
    ],
)
def test_a_broken_model_file_fails_at_start(tmp_path: Path, mutate, message: str) -> None:  # type: ignore[no-untyped-def]
    doc = json.loads(packaged_model_path().read_text())
    mutate(doc)
    path = tmp_path / "model.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(ModelError, match=message):
        build_verifier(GroundingConfig(verifier="learned", learned_model_path=path))
    path.write_text("{not json")
    with pytest.raises(ModelError, match="cannot read"):
        build_verifier(GroundingConfig(verifier="learned", learned_model_path=path))
