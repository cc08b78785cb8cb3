"""`groundwire report`: the weekly hallucination-risk summary from Prometheus (spec: Metrics
and alerts)."""

from __future__ import annotations

import json
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
from groundwire.streams.cli.common import echo_error, load_settings_or_exit
from groundwire.streams.settings import Settings


def report(
    since: Annotated[
        str, typer.Option("--since", help="Window to summarise, e.g. 7d, 24h, 2w")
    ] = "7d",
    prometheus_url: Annotated[
        str | None,
        typer.Option(
            "--prometheus-url",
            help="Prometheus base URL (default: the prometheus_url setting, env "
            f"GROUNDWIRE_PROMETHEUS_URL, else {Settings.model_fields['prometheus_url'].default})",
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
    settings = load_settings_or_exit()
    try:
        window = parse_duration(since)
        instant = datetime.fromisoformat(at) if at else datetime.now(UTC)
        if instant.tzinfo is None:
            instant = instant.replace(tzinfo=UTC)
        client = PrometheusClient(prometheus_url or settings.prometheus_url, timeout_s=timeout)
    except ValueError as exc:
        echo_error(f"error: {exc}")
        raise typer.Exit(2) from exc
    try:
        with client:
            result = build_report(client.query, window, instant)
    except PrometheusUnavailable as exc:
        echo_error(f"error: {exc}")
        raise typer.Exit(1) from exc
    if as_json:
        typer.echo(json.dumps(result.to_dict(), indent=2))
    else:
        typer.echo(format_text(result), nl=False)


def register(app: typer.Typer) -> None:
    app.command("report")(report)
