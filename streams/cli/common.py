"""What every command shares: loading settings as a usage error, and logging."""

from __future__ import annotations

import logging
import sys

import typer

from groundwire.streams.settings import Settings, SettingsError, load_settings
from groundwire.topics.redact import redact_url


def load_settings_or_exit() -> Settings:
    """Settings from the environment and GROUNDWIRE_CONFIG; an invalid or unknown name is
    a usage error (exit 2, the offending names on stderr), never a traceback."""
    try:
        return load_settings()
    except SettingsError as exc:
        typer.echo(f"error: invalid settings: {exc}", err=True)
        raise typer.Exit(2) from exc


LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class RedactingFormatter(logging.Formatter):
    """The backstop behind redacting at the source: every formatted line, traceback
    included, loses the credentials of any URL in it (`topics/redact.py`), so an exception
    from a client library that names its URL cannot print a password to the log."""

    def format(self, record: logging.LogRecord) -> str:
        return redact_url(super().format(record))


def setup_logging(level: str, fmt: str = LOG_FORMAT) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(RedactingFormatter(fmt))
    logging.basicConfig(level=getattr(logging, level.upper(), logging.INFO), handlers=[handler])


def echo_error(message: str) -> None:
    """An error line on stderr, without the credentials of any URL it names."""
    typer.echo(redact_url(message), err=True)
