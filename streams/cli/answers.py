"""`groundwire answers score FILE.jsonl`: score answers in-process (read-time
faithfulness), without Kafka or any service.

One answer per line in the wire format (topics/schemas/answer.json; `-` for stdin). Each
line prints one result: by default a line of text (answer id, faithfulness, risk, what
the policy did, warnings), with `--json` the whole `ScoredAnswer`. A malformed line
prints its error (the reason the answers stage would dead-letter it) and the run goes
on. No cache and no webhook: the `regenerate` policy has nobody to ask here and blocks,
as the stage does when its webhook fails. Exit 0, 1 when an answer scored at or above
`--fail-on` risk, 2 for unreadable input.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import orjson
import typer

from groundwire.guards.faithfulness.policy import at_least
from groundwire.guards.faithfulness.score import AnswerScorer
from groundwire.streams.answers.factory import answer_limits
from groundwire.streams.cli.common import load_settings_or_exit
from groundwire.topics.answers import Answer, ScoredAnswer, decode_answer
from groundwire.topics.codec import DecodeFailure
from groundwire.topics.vocab import RiskLevel

BATCH = 64
answers_app = typer.Typer(help="Read-time faithfulness: score answers.", no_args_is_help=True)


def _lines(file: str) -> Iterator[bytes]:
    if file == "-":
        yield from sys.stdin.buffer
        return
    path = Path(file)
    if not path.is_file():
        typer.echo(f"groundwire answers score: {path} is not a file", err=True)
        raise typer.Exit(2)
    with path.open("rb") as fh:
        yield from fh


def _text(scored: ScoredAnswer) -> str:
    score = "n/a" if scored.faithfulness is None else f"{scored.faithfulness:.2f}"
    head = (
        f"{scored.answer.answer_id}: faithfulness {score} "
        f"({scored.supported_claims}/{scored.factual_claims}) risk {scored.risk.value} "
        f"-> {scored.action.value}"
    )
    details = [f"  {w.type.value}: {w.message}" for w in scored.warnings]
    if scored.degraded:
        details.insert(0, f"  degraded: {scored.degradation}")
    return "\n".join([head, *details])


@answers_app.command("score")
def score_command(
    file: Annotated[str, typer.Argument(help="answers, one JSON object a line ('-': stdin)")],
    json_out: Annotated[bool, typer.Option("--json", help="print each ScoredAnswer")] = False,
    fail_on: Annotated[
        str, typer.Option(help="exit 1 when an answer is at least this risky: low|medium|high")
    ] = "high",
) -> None:
    """Score answers against their context, with each tenant's policy."""
    if fail_on not in ("low", "medium", "high"):
        raise typer.BadParameter("--fail-on must be low, medium or high")
    settings = load_settings_or_exit()
    limits = answer_limits(settings)
    scorer = AnswerScorer(settings.guards, worker="cli")
    risky = False

    def emit(item: ScoredAnswer | str) -> None:
        nonlocal risky
        if isinstance(item, str):
            typer.echo(item)
            return
        risky |= at_least(item.risk, RiskLevel(fail_on)) and item.risk is not RiskLevel.NONE
        typer.echo(item.model_dump_json() if json_out else _text(item))

    async def run() -> None:
        batch: list[Answer] = []
        try:
            for lineno, raw in enumerate(_lines(file), 1):
                if not raw.strip():
                    continue
                decoded = decode_answer(raw.rstrip(b"\r\n"), limits)
                if isinstance(decoded, DecodeFailure):
                    for scored in await scorer.score_batch(batch):
                        emit(scored)
                    batch = []
                    error = {
                        "line": lineno,
                        "error": decoded.reason.value,
                        "detail": decoded.detail,
                    }
                    emit(orjson.dumps(error).decode())
                    continue
                batch.append(decoded)
                if len(batch) >= BATCH:
                    for scored in await scorer.score_batch(batch):
                        emit(scored)
                    batch = []
            for scored in await scorer.score_batch(batch):
                emit(scored)
        finally:
            await scorer.aclose()

    asyncio.run(run())
    if risky:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.add_typer(answers_app, name="answers")
