"""The `groundwire` command line: one Typer app, one module per group of commands.

Commands are thin: they parse arguments, load settings, call library code (the guards,
the worker, the evaluation, the report) and turn its outcome into output and an exit
code: 0 success, 1 runtime failure, 2 usage error or unreadable input.
"""

from __future__ import annotations

import typer

from groundwire.streams.cli import answers, check, demo, eval, memory, pipeline, report, review

app = typer.Typer(
    name="groundwire",
    help="Screen AI memory claims before they reach a long-term store.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

for _module in (pipeline, check, eval, report, demo, review, memory, answers):
    _module.register(app)


def main() -> None:
    app()


__all__ = ["app", "main"]
