"""`groundwire eval FILE.jsonl`: grounding quality on labelled data, beside a baseline;
`--mode answers` scores each labelled response as an answer (read-time faithfulness).

The measuring and fitting live in `groundwire.guards.grounding.evaluation`; this command
parses arguments and prints.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated, Literal, cast

import typer

from groundwire.guards.config import GuardsConfig
from groundwire.guards.faithfulness.evaluation import evaluate_answers
from groundwire.guards.grounding import build_verifier
from groundwire.guards.grounding.evaluation import DIRECTION_DIMS, evaluate_columns, fit
from groundwire.streams.cli.common import load_settings_or_exit

VERIFIER_NAMES = ("lexical", "learned", "embedding", "nli", "llm")


def eval_command(
    file: Annotated[Path, typer.Argument(exists=True, dir_okay=False, help="labelled JSONL")],
    verifier: Annotated[
        str | None,
        typer.Option(
            help="lexical | learned | embedding | nli | llm, or a comma-separated ensemble "
            "such as learned,nli (default: settings)"
        ),
    ] = None,
    part: Annotated[str, typer.Option(help="test (default) | fit | all")] = "test",
    refit: Annotated[bool, typer.Option("--fit", help="refit the weights on the fit part")] = False,
    save_direction: Annotated[
        Path | None,
        typer.Option(help="with --fit --verifier embedding: write the claim direction (.npy)"),
    ] = None,
    mode: Annotated[
        str,
        typer.Option(
            help="claims (default): each line is one claim; answers: each line is a response "
            "scored as an answer (read-time faithfulness)"
        ),
    ] = "claims",
) -> None:
    """Balanced accuracy of the grounding verifier per dataset, beside the baseline."""
    guards = load_settings_or_exit().guards
    cfg = guards.grounding
    if verifier:
        names = [v.strip() for v in verifier.split(",") if v.strip()]
        if not names or any(v not in VERIFIER_NAMES for v in names):
            raise typer.BadParameter(f"verifier must be one of {', '.join(VERIFIER_NAMES)}")
        cfg = cfg.model_copy(update={"verifier": names[0] if len(names) == 1 else names})
    if part not in ("fit", "test", "all"):
        raise typer.BadParameter("part must be fit, test or all")
    if mode not in ("claims", "answers"):
        raise typer.BadParameter("mode must be claims or answers")
    if mode == "answers":
        if refit:
            raise typer.BadParameter("--fit applies to --mode claims")
        _answers(file, guards.model_copy(update={"grounding": cfg}), part)
        return
    try:
        if refit:
            result = fit(file, cfg, save_direction)
            if result.verifier == "embedding":
                where = save_direction or "(not saved: pass --save-direction PATH)"
                typer.echo(f"claim direction: {DIRECTION_DIMS} principal components -> {where}")
            typer.echo(result.as_python(), nl=False)
            return
        names, results = evaluate_columns(file, cfg, cast(Literal["fit", "test", "all"], part))
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from exc
    typer.echo(f"part: {part} (split by sha1(claim_id); weights were fitted on 'fit')")
    typer.echo("predicted supported = not blocked on grounding")
    width = max(10, *(len(n) for n in names))
    header = " ".join(f"{n:>{width}}" for n in names)
    typer.echo(f"{'dataset':<20} {'n':>5} {'baseline':>9} {header}")
    for ds, (n, base, mine) in results.items():
        cells = " ".join(f"{_fmt(mine[name]):>{width}}" for name in names)
        typer.echo(f"{ds:<20} {n:>5} {_fmt(base):>9} {cells}")


def _answers(file: Path, guards: GuardsConfig, part: str) -> None:
    try:
        results = evaluate_answers(file, guards, cast(Literal["fit", "test", "all"], part))
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from exc
    name = build_verifier(guards.grounding).name
    typer.echo(f"part: {part} (split by sha1(claim_id); weights were fitted on 'fit')")
    typer.echo("predicted faithful: whole = the verifier does not block the response as one claim;")
    typer.echo("answers = every factual claim of the response, scored as an answer, supported")
    typer.echo(f"{'dataset':<20} {'n':>5} {'baseline':>9} {'whole':>7} {'answers':>8}  ({name})")
    for ds, (n, base, whole, answers) in results.items():
        typer.echo(f"{ds:<20} {n:>5} {_fmt(base):>9} {_fmt(whole):>7} {_fmt(answers):>8}")


def _fmt(v: float) -> str:
    return "n/a" if math.isnan(v) else f"{v:.3f}"


def register(app: typer.Typer) -> None:
    app.command("eval")(eval_command)
