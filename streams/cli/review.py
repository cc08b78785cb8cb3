"""`groundwire review`: run the review service, and act on your queue through its API.

`serve` runs the service (API + page, feed, relay). `list`, `show`, `approve` and
`reject` are HTTP clients of that API: they send a bearer token from `--token` or the
environment variable GW_REVIEW_TOKEN (not a GROUNDWIRE_* name: it is no setting, and the
settings loader refuses unknown GROUNDWIRE_* names) to `--url` (GW_REVIEW_URL, default
http://127.0.0.1:8080). Exit codes: 0 done, 1 the service refused or failed, 2 usage.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import httpx
import typer

from groundwire.streams.cli.common import echo_error, load_settings_or_exit, setup_logging

review_app = typer.Typer(
    help="The human review queue: serve it, or list / show / approve / reject claims.",
    no_args_is_help=True,
)

Url = Annotated[str, typer.Option(envvar="GW_REVIEW_URL", help="base URL of the review service")]
Token = Annotated[
    str,
    typer.Option(envvar="GW_REVIEW_TOKEN", help="bearer JWT (or set GW_REVIEW_TOKEN)"),
]
DEFAULT_URL = "http://127.0.0.1:8080"


@review_app.command("serve")
def serve(
    components: Annotated[
        str, typer.Option(help="comma-separated parts to run: api, feed, relay")
    ] = "api,feed,relay",
    log_level: Annotated[str, typer.Option(help="Python log level")] = "info",
) -> None:
    """Run the review service until SIGTERM/SIGINT."""
    from groundwire.streams.review.service import build_service, run

    setup_logging(log_level)
    settings = load_settings_or_exit()
    try:
        service = build_service(settings, [c.strip() for c in components.split(",") if c.strip()])
    except ValueError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    if "api" in service.components and not (
        settings.review.auth.jwks or settings.review.auth.jwks_file
    ):
        typer.echo(
            "error: the API needs GROUNDWIRE_REVIEW__AUTH__JWKS_FILE (or __JWKS): the "
            "identity provider's public keys",
            err=True,
        )
        raise typer.Exit(2)
    if settings.metrics_port:
        from prometheus_client import start_http_server

        from groundwire.metrics import REGISTRY

        start_http_server(settings.metrics_port, registry=REGISTRY)
    import uvloop

    uvloop.run(run(service))


def _call(method: str, url: str, token: str, path: str, body: dict[str, Any] | None = None) -> Any:
    if not token:
        typer.echo("error: no token: pass --token or set GW_REVIEW_TOKEN", err=True)
        raise typer.Exit(2)
    try:
        response = httpx.request(
            method,
            url.rstrip("/") + path,
            headers={"Authorization": f"Bearer {token}"},
            json=body,
            timeout=10.0,
        )
    except httpx.HTTPError as exc:
        echo_error(f"error: {url}: {exc}")
        raise typer.Exit(1) from exc
    try:
        data = response.json()
    except ValueError:
        data = {"error": "http_error", "message": response.text[:200]}
    if response.status_code >= 400:
        typer.echo(
            f"error: {response.status_code} {data.get('error')}: {data.get('message')}", err=True
        )
        raise typer.Exit(1)
    return data


@review_app.command("list")
def list_(
    url: Url = DEFAULT_URL,
    token: Token = "",
    limit: Annotated[int, typer.Option(min=1, max=1000)] = 20,
    cursor: Annotated[str, typer.Option(help="next_cursor of the previous page")] = "",
    as_json: Annotated[bool, typer.Option("--json", help="print the API's JSON")] = False,
) -> None:
    """Your pending claims, newest first."""
    params = f"?limit={limit}" + (f"&cursor={cursor}" if cursor else "")
    data = _call("GET", url, token, "/api/v1/pending" + params)
    if as_json:
        typer.echo(json.dumps(data, indent=2))
        return
    for item in data["items"]:
        typer.echo(
            f"{item['queue_id']}  {item['submitted_at'][:19]}  "
            f"{item['validation']['reason_code']:20}  {item['content'][:80]!r}"
        )
    if data.get("next_cursor"):
        typer.echo(f"more: --cursor {data['next_cursor']}")


@review_app.command("show")
def show(queue_id: str, url: Url = DEFAULT_URL, token: Token = "") -> None:
    """One pending claim, as JSON."""
    typer.echo(json.dumps(_call("GET", url, token, f"/api/v1/pending/{queue_id}"), indent=2))


@review_app.command("approve")
def approve(queue_id: str, url: Url = DEFAULT_URL, token: Token = "") -> None:
    """Approve: the claim goes to `approved` and becomes a memory."""
    data = _call("POST", url, token, f"/api/v1/pending/{queue_id}/approve", {})
    typer.echo(f"approved {data['queue_id']} at {data['decided_at']}")


@review_app.command("reject")
def reject(
    queue_id: str,
    reason: Annotated[str, typer.Option(help="why the claim is wrong (required)")],
    url: Url = DEFAULT_URL,
    token: Token = "",
) -> None:
    """Reject with a reason: the claim goes to `blocked`."""
    data = _call("POST", url, token, f"/api/v1/pending/{queue_id}/reject", {"reason": reason})
    typer.echo(f"rejected {data['queue_id']} at {data['decided_at']}")


def register(app: typer.Typer) -> None:
    app.add_typer(review_app, name="review")
