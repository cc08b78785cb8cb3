"""guards/faithfulness/evaluation.py: the answer mode of `groundwire eval` on a tiny file."""

from __future__ import annotations

from pathlib import Path

import orjson
from typer.testing import CliRunner

from groundwire.guards.config import GuardsConfig
from groundwire.guards.faithfulness.evaluation import evaluate_answers
from groundwire.streams.cli import app

TURN = [{"id": "k", "text": "Inbox3 is at 60% completion.", "source": "corpus"}]
ROWS = [
    ("Inbox3 is at 60% completion.", "supported"),
    ("Inbox3 is at 60% completion, says the report.", "supported"),
    ("Inbox3 has 9 engineers.", "not_supported"),
    ("I love it! Do you?", "not_supported"),  # nothing factual: not "fully supported"
]


def write(tmp_path: Path) -> Path:
    path = tmp_path / "dev.jsonl"
    lines = [
        {
            "claim_id": f"c{i}",
            "tenant_id": "eval",
            "content": text,
            "source": "ai_synthesis",
            "source_turns": TURN,
            "label": label,
            "dataset": "tiny",
        }
        for i, (text, label) in enumerate(ROWS)
    ]
    path.write_bytes(b"\n".join(orjson.dumps(line) for line in lines))
    return path


def test_answer_mode_scores_each_response_as_an_answer(tmp_path: Path) -> None:
    results = evaluate_answers(write(tmp_path), GuardsConfig(), "all")
    n, base, whole, answers = results["tiny"]
    assert n == 4 and answers == 1.0
    assert 0.0 <= base <= 1.0 and 0.0 <= whole <= 1.0


def test_the_cli_prints_the_answer_mode(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["eval", str(write(tmp_path)), "--mode", "answers", "--part", "all"]
    )
    assert result.exit_code == 0, result.output
    assert "answers" in result.output and "tiny" in result.output
    refused = CliRunner().invoke(app, ["eval", str(write(tmp_path)), "--mode", "answers", "--fit"])
    assert refused.exit_code == 2
