"""`groundwire eval`: metric, split, baseline, and the command on a small synthetic file."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import orjson
import pytest
import typer
from typer.testing import CliRunner

from groundwire.streams import cli_eval
from groundwire.streams.cli_eval import (
    balanced_accuracy,
    baseline_supported,
    fit_logistic,
    load_examples,
    part_of,
)
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
