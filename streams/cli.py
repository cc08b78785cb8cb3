"""The `groundwire` command line.

Sub-commands live in their own modules (`cli_*.py`) and register themselves on the one
Typer app, so each feature's CLI sits next to the code it drives and this file stays an
index. Exit codes: 0 success, 1 runtime failure, 2 usage / unreadable input.
"""

from __future__ import annotations

import importlib

import typer

app = typer.Typer(
    name="groundwire",
    help="Screen AI memory claims before they reach a long-term store.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# Each module exposes `register(app: typer.Typer) -> None`.
_COMMAND_MODULES = (
    "groundwire.streams.cli_pipeline",  # worker, topics, produce, tail, demo, schemas
    "groundwire.streams.cli_check",  # check
    "groundwire.streams.cli_eval",  # eval (grounding on labelled data)
    "groundwire.streams.cli_report",  # report (weekly summary from Prometheus)
)

for _name in _COMMAND_MODULES:
    try:
        _module = importlib.import_module(_name)
    except ModuleNotFoundError as exc:  # a feature not built yet must not break the rest
        if exc.name != _name:
            raise
        continue
    _module.register(app)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
