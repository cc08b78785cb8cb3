"""`groundwire report`: the weekly hallucination-risk summary from Prometheus (spec: Metrics
and alerts)."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from typing import Annotated

import typer

from groundwire.metrics.report import (
    PrometheusClient,
    PrometheusUnavailable,
    build_report,
    format_text,
    parse_duration,
)

DEFAULT_PROMETHEUS_URL = "http://127.0.0.1:9090"


def _default_url() -> str:
    """GROUNDWIRE_PROMETHEUS_URL, else Settings.prometheus_url if the settings define it."""
    env = os.environ.get("GROUNDWIRE_PROMETHEUS_URL")
    if env:
        return env
    try:
        from groundwire.streams.settings import load_settings

        return str(getattr(load_settings(), "prometheus_url", DEFAULT_PROMETHEUS_URL))
    except Exception:  # settings invalid for other reasons: the report only needs a URL
        return DEFAULT_PROMETHEUS_URL


def report(
    since: Annotated[
        str, typer.Option("--since", help="Window to summarise, e.g. 7d, 24h, 2w")
    ] = "7d",
    prometheus_url: Annotated[
        str | None,
        typer.Option(
            "--prometheus-url",
            help=f"Prometheus base URL [env GROUNDWIRE_PROMETHEUS_URL; {DEFAULT_PROMETHEUS_URL}]",
            show_default=False,
        ),
    ] = None,
    at: Annotated[
        str | None,
        typer.Option("--at", help="Evaluate at this ISO-8601 instant instead of now"),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of text")] = False,
    timeout: Annotated[float, typer.Option(help="Per-query timeout in seconds")] = 10.0,
) -> None:
    """Weekly report: candidates processed, guard-1 block rate and its trend vs the prior
    4 windows, partial/UNKNOWN rates, hedges, re-entry, dedup, dlq, overall risk."""
    try:
        window = parse_duration(since)
        instant = datetime.fromisoformat(at) if at else datetime.now(UTC)
        if instant.tzinfo is None:
            instant = instant.replace(tzinfo=UTC)
        client = PrometheusClient(prometheus_url or _default_url(), timeout_s=timeout)
    except ValueError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    try:
        with client:
            result = build_report(client.query, window, instant)
    except PrometheusUnavailable as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from exc
    if as_json:
        typer.echo(json.dumps(result.to_dict(), indent=2))
    else:
        typer.echo(format_text(result), nl=False)


def register(app: typer.Typer) -> None:
    app.command("report")(report)
