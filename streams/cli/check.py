"""`groundwire check`: validate claims in-process, without Kafka or any service.

One claim from the command line, or a JSONL stream of wire-format claims (`--file PATH`,
`-` for stdin); one JSON result per input line on stdout. A malformed line produces an
error result for that line and the run goes on, because one bad record in a 10k-line
export should not hide the other 9,999 verdicts. Unreadable input as a whole (missing
file, not UTF-8) is a usage error: exit 2 with a message on stderr.

Dedup is in memory (the claims of this run are checked against each other) unless
`--redis URL` points at the shared index. Settings come from the usual GROUNDWIRE_*
environment and YAML; the flags override the citation-verification roots.
"""

from __future__ import annotations

import asyncio
import hashlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import orjson
import typer
from pydantic import ValidationError

from groundwire.guards.config import GuardsConfig
from groundwire.guards.factory import GuardServices, build_citation_verifier, build_validator
from groundwire.guards.producer_auth import AuthResult, ProducerAuthenticator, build_authenticator
from groundwire.streams.cli.common import load_settings_or_exit
from groundwire.topics.codec import DecodeFailure, DecodeLimits, decode_signed_claim
from groundwire.topics.records import Claim, RoutedResult, Source, SourceTurn
from groundwire.topics.vocab import DlqReason

BATCH = 256


def _err(message: str) -> None:
    typer.echo(f"groundwire check: {message}", err=True)


def result_json(r: RoutedResult, line: int | None = None) -> dict[str, Any]:
    """The flat per-claim result of the CLI contract."""
    out: dict[str, Any] = {}
    if line is not None:
        out["line"] = line
    out |= {
        "claim_id": r.claim.claim_id,
        "tier": r.validation.tier.value,
        "approved": r.validation.approved,
        "reason": r.validation.reason,
        "reason_code": r.validation.reason_code.value,
        "checks_passed": r.validation.checks_passed,
        "checks_failed": r.validation.checks_failed,
        "hedge": r.hedge.model_dump(),
        "citations": [c.model_dump() for c in r.citations],
        "grounding": r.grounding.model_dump(
            include={
                *("verdict", "score", "evidence_spans", "reasoning", "confidence_penalty"),
                *("adjusted_confidence", "rewritten_content"),
            }
        ),
        "phantoms": r.phantoms,
        "duplicate_of": r.duplicate_of,
        "similarity": r.similarity,
        "pending_duplicate_of": r.pending_duplicate_of,
        # a near-duplicate of a memory but for a negation or a number (docs/dedup.md)
        "variant_of": (
            r.validation.conflicting_memory_id if r.validation.dedup == "variant" else None
        ),
        "producer_auth": r.producer_auth.model_dump(mode="json") if r.producer_auth else None,
        "tags": r.tags,
        "evidence": r.validation.evidence.model_dump(mode="json"),
        "timings_ms": {k: round(v, 4) for k, v in r.timings_ms.items()},
    }
    return out


def _parse_line(
    raw: bytes, lineno: int, limits: DecodeLimits, auth: ProducerAuthenticator
) -> AuthResult | dict[str, Any]:
    """The claim after its producer check, or this line's error result: the same
    decoding, limits, producer check and dlq reasons as the pipeline's screen stage, so
    `check` refuses exactly what the pipeline would."""
    decoded = decode_signed_claim(raw, limits)
    if isinstance(decoded, DecodeFailure):
        return {"line": lineno, "error": decoded.detail, "reason": decoded.reason.value}
    checked = auth.check(decoded.claim, decoded.signed_payload)
    if checked.refused:
        report = checked.report
        return {
            "line": lineno,
            "error": f"source {report.claimed_source.value!r} needs an authenticated producer:"
            f" {report.outcome.value}",
            "reason": DlqReason.UNAUTHENTICATED_SOURCE.value,
        }
    return checked


def _read_input(file: str) -> list[bytes]:
    if file == "-":
        data = sys.stdin.buffer.read()
    else:
        path = Path(file)
        if not path.is_file():
            _err(f"cannot read {file}: no such file")
            raise typer.Exit(2)
        try:
            data = path.read_bytes()
        except OSError as exc:
            _err(f"cannot read {file}: {exc.strerror or exc}")
            raise typer.Exit(2) from exc
    # Split on bytes: a line that is not UTF-8 is that line's error (invalid_utf8), and
    # the lines around it are still checked.
    return data.split(b"\n")


def _chunks(items: list[tuple[int, bytes]]) -> Iterator[list[tuple[int, bytes]]]:
    for i in range(0, len(items), BATCH):
        yield items[i : i + BATCH]


async def _run(
    lines: list[tuple[int | None, bytes]] | None,
    single: Claim | None,
    cfg: GuardsConfig,
    limits: DecodeLimits,
    redis: str | None,
    verify_urls: bool,
    cluster: bool = False,
) -> None:
    auth = build_authenticator(cfg)
    services = GuardServices(redis_url=redis, redis_cluster=cluster, verify_urls=verify_urls)
    citation_verifier = build_citation_verifier(cfg, services)
    validator = build_validator(cfg, services, citation_verifier)
    out = sys.stdout.buffer
    try:
        if single is not None:
            checked = auth.check(single)
            if checked.refused:
                row = {
                    "error": f"source {single.source.value!r} needs an authenticated producer",
                    "reason": DlqReason.UNAUTHENTICATED_SOURCE.value,
                }
                out.write(orjson.dumps(row) + b"\n")
                return
            (result,) = await validator.validate_batch(
                [checked.claim], worker="cli", producer_auth=[checked.report]
            )
            out.write(orjson.dumps(result_json(result)) + b"\n")
            return
        numbered = [(n or 0, raw) for n, raw in (lines or []) if raw.strip()]
        for chunk in _chunks(numbered):
            parsed = [(n, _parse_line(raw.rstrip(b"\r"), n, limits, auth)) for n, raw in chunk]
            checked_claims = [p for _, p in parsed if isinstance(p, AuthResult)]
            results = iter(
                await validator.validate_batch(
                    [c.claim for c in checked_claims],
                    worker="cli",
                    producer_auth=[c.report for c in checked_claims],
                )
                if checked_claims
                else []
            )
            for n, p in parsed:
                row = result_json(next(results), n) if isinstance(p, AuthResult) else p
                out.write(orjson.dumps(row) + b"\n")
            out.flush()
    finally:
        await validator.aclose()
        await citation_verifier.aclose()


def _load_settings() -> tuple[GuardsConfig, DecodeLimits]:
    settings = load_settings_or_exit()
    return settings.guards.model_copy(deep=True), settings.decode_limits


def check(
    content: Annotated[str | None, typer.Argument(help="The claim text to check.")] = None,
    file: Annotated[
        str | None, typer.Option("--file", "-f", help="JSONL file of wire-format claims; - = stdin")
    ] = None,
    source: Annotated[
        str, typer.Option(help="Claim source (user, conversation, ...)")
    ] = "ai_synthesis",
    memory_type: Annotated[
        str, typer.Option("--type", help="fact, preference, decision, ...")
    ] = "fact",
    tenant: Annotated[str, typer.Option(help="Tenant id for a command-line claim")] = "cli",
    turn: Annotated[
        list[str] | None, typer.Option(help="Source turn text (repeatable; source=corpus)")
    ] = None,
    adr_dir: Annotated[
        list[Path] | None, typer.Option(help="Directory of ADR files (repeatable)")
    ] = None,
    git_repo: Annotated[list[Path] | None, typer.Option(help="Git repository (repeatable)")] = None,
    url_allow: Annotated[
        list[str] | None, typer.Option(help="Host or CIDR URL checks may reach though private")
    ] = None,
    verify_urls: Annotated[bool, typer.Option("--verify-urls/--no-verify-urls")] = True,
    verify: Annotated[bool, typer.Option("--verify/--no-verify", help="Verify citations")] = True,
    redis: Annotated[
        str | None, typer.Option(help="Redis URL: shared dedup index, citation cache")
    ] = None,
    redis_cluster: Annotated[
        bool, typer.Option(help="--redis names one node of a Redis Cluster")
    ] = False,
) -> None:
    """Validate one claim or a JSONL stream of claims; one JSON result per line."""
    if (content is None) == (file is None):
        _err("give either a claim text or --file PATH (- for stdin)")
        raise typer.Exit(2)
    cfg, limits = _load_settings()
    if adr_dir:
        cfg.citation.adr_dirs = list(adr_dir)
    if git_repo:
        cfg.citation.git_repos = list(git_repo)
    if url_allow:
        cfg.citation.url_allowlist = list(url_allow)
    cfg.citation.verify = verify
    single: Claim | None = None
    lines: list[tuple[int | None, bytes]] | None = None
    if content is not None:
        try:
            src = Source(source)
        except ValueError as exc:
            _err(f"unknown --source {source!r}; one of {', '.join(s.value for s in Source)}")
            raise typer.Exit(2) from exc
        digest = hashlib.sha256(f"{tenant}\0{content}".encode()).hexdigest()[:16]
        try:
            single = Claim(
                claim_id=f"cli-{digest}",
                tenant_id=tenant,
                content=content,
                memory_type=memory_type,
                source=src,
                source_turns=[
                    SourceTurn(id=f"turn-{i + 1}", text=t, source="corpus")
                    for i, t in enumerate(turn or [])
                ],
            )
        except ValidationError as exc:
            _err(f"invalid claim: {exc.errors()[0].get('msg')}")
            raise typer.Exit(2) from exc
    else:
        assert file is not None
        lines = list(enumerate(_read_input(file), start=1))
    if redis_cluster and not redis:
        _err("--redis-cluster needs --redis URL (any one node of the cluster)")
        raise typer.Exit(2)
    asyncio.run(_run(lines, single, cfg, limits, redis, verify_urls, redis_cluster))


def register(app: typer.Typer) -> None:
    app.command("check")(check)
