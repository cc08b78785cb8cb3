"""What every command shares: loading settings as a usage error, and logging."""

from __future__ import annotations

import logging
import sys

import typer

from groundwire.streams.settings import Settings, SettingsError, load_settings


def load_settings_or_exit() -> Settings:
    """Settings from the environment and GROUNDWIRE_CONFIG; an invalid or unknown name is
    a usage error (exit 2, the offending names on stderr), never a traceback."""
    try:
        return load_settings()
    except SettingsError as exc:
        typer.echo(f"error: invalid settings: {exc}", err=True)
        raise typer.Exit(2) from exc


def setup_logging(level: str) -> None:
    logging.basicConfig(
        level=getattr(logging, level.upper(), logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
