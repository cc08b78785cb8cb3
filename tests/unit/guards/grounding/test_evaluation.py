"""`groundwire eval`: metric, split, baseline, and the command on a small synthetic file."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import orjson
import pytest
import typer
from typer.testing import CliRunner

from groundwire.guards.grounding.embedding import (
    CLAIM_DIRECTION_FILE,
    EmbeddingUnavailable,
    load_claim_direction,
)
from groundwire.guards.grounding.evaluation import (
    SCALAR_L2,
    balanced_accuracy,
    baseline_supported,
    fit_logistic,
    fit_with_direction,
    load_examples,
    part_of,
)
from groundwire.streams.cli import eval as cli_eval
from groundwire.topics.records import Claim, SourceTurn


def test_balanced_accuracy_is_mean_recall_per_label() -> None:
    pairs = [(True, True)] * 3 + [(True, False)] + [(False, False)] * 1 + [(False, True)] * 1
    assert balanced_accuracy(pairs) == pytest.approx((3 / 4 + 1 / 2) / 2)
    # predicting the majority label everywhere scores 0.5, whatever the imbalance
    assert balanced_accuracy([(False, False)] * 9 + [(True, False)]) == pytest.approx(0.5)


def test_split_is_deterministic_and_roughly_even() -> None:
    ids = [f"claim-{i}" for i in range(2000)]
    parts = [part_of(i) for i in ids]
    assert parts == [part_of(i) for i in ids]
    assert 800 < parts.count("fit") < 1200


def test_baseline_is_content_word_coverage() -> None:
    turns = [SourceTurn(id="k", text="Crayons were first sold by the company in 1903.")]
    yes = Claim(
        claim_id="a", tenant_id="t", content="crayons sold 1903", source="model", source_turns=turns
    )
    no = Claim(
        claim_id="b",
        tenant_id="t",
        content="markers invented in Paris",
        source="model",
        source_turns=turns,
    )
    assert baseline_supported(yes) and not baseline_supported(no)


def test_fit_logistic_separates_a_separable_feature() -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(400, 2))
    y = (x[:, 0] > 0).astype(float)
    coef, _ = fit_logistic(x, y, np.ones(len(y)))
    assert coef[0] > 5 * abs(coef[1])


def test_fit_logistic_penalises_each_feature_by_its_own_l2() -> None:
    rng = np.random.default_rng(1)
    signal = rng.normal(size=400)
    x = np.column_stack([signal, signal + 0.01 * rng.normal(size=400)])
    y = (signal + 0.5 * rng.normal(size=400) > 0).astype(float)
    coef, _ = fit_logistic(x, y, np.ones(len(y)), np.array([1e-4, 10.0]))
    assert coef[0] > 10 * abs(coef[1])
    flipped, _ = fit_logistic(x, y, np.ones(len(y)), np.array([10.0, 1e-4]))
    assert flipped[1] > 10 * abs(flipped[0])


def test_fit_with_direction_folds_the_components_into_one_direction() -> None:
    rng = np.random.default_rng(2)
    n, dim = 600, 12
    planted = np.zeros(dim)
    planted[3] = 1.0
    vectors = rng.normal(size=(n, dim)) * np.linspace(3.0, 0.5, dim)
    x = rng.normal(size=(n, 2))
    z = 2.0 * x[:, 0] + 1.5 * (vectors @ planted) + 0.3 * rng.normal(size=n)
    y = (z > 0).astype(float)
    w = np.ones(n)
    coef, scale, direction, bias = fit_with_direction(x, vectors, y, w, dims=6, l2=1e-3)
    assert np.linalg.norm(direction) == pytest.approx(1.0)
    assert direction @ planted > 0.9  # found the planted axis, with the right sign
    assert scale > 0 and coef[0] > 5 * abs(coef[1])
    # the folded form scores exactly like the model over the principal components
    mu = vectors.mean(axis=0)
    _, _, vt = np.linalg.svd(vectors - mu, full_matrices=False)
    comps = (vectors - mu) @ vt[:6].T
    l2 = np.r_[np.full(2, SCALAR_L2), np.full(6, 1e-3)]
    full, full_bias = fit_logistic(np.hstack([x, comps]), y, w, l2)
    folded = x @ coef + scale * (vectors @ direction) + bias
    assert np.allclose(folded, np.hstack([x, comps]) @ full + full_bias)


def test_claim_direction_file_is_shipped_and_checked(tmp_path: Path) -> None:
    assert CLAIM_DIRECTION_FILE.is_file()
    direction = load_claim_direction()
    assert direction.shape == (384,)
    assert np.linalg.norm(direction) == pytest.approx(1.0)
    bad = tmp_path / "bad.npy"
    np.save(bad, np.ones(10))
    with pytest.raises(EmbeddingUnavailable):
        load_claim_direction(bad)
    with pytest.raises(EmbeddingUnavailable):
        load_claim_direction(tmp_path / "missing.npy")


def _row(i: int, supported: bool) -> dict[str, object]:
    # synthetic pairs: a supported claim restates its source, the other invents
    text = f"The build server number {i} runs nightly tests for the payments team."
    content = text if supported else f"The office in city {i + 1000} hosts a weekly quiz night."
    return {
        "claim_id": f"syn-{i}",
        "tenant_id": "eval",
        "content": content,
        "source": "ai_synthesis",
        "source_turns": [{"id": "k0", "text": text, "source": "corpus"}],
        "label": "supported" if supported else "not_supported",
        "dataset": "synthetic",
    }


def test_eval_command_prints_baseline_and_verifier(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    path.write_bytes(b"\n".join(orjson.dumps(_row(i, i % 2 == 0)) for i in range(40)))
    assert len(load_examples(path)) == 40
    assert len(load_examples(path, "fit")) + len(load_examples(path, "test")) == 40
    app = typer.Typer()
    app.command("version")(lambda: None)  # two commands, so Typer keeps sub-command names
    cli_eval.register(app)
    result = CliRunner().invoke(app, ["eval", str(path), "--part", "all"])
    assert result.exit_code == 0, result.output
    line = next(ln for ln in result.output.splitlines() if ln.startswith("synthetic"))
    _, n, base, lexical = line.split()
    assert int(n) == 40
    assert float(base) == pytest.approx(1.0)
    assert float(lexical) == pytest.approx(1.0)
    bad = CliRunner().invoke(app, ["eval", str(path), "--part", "nope"])
    assert bad.exit_code != 0
