"""Probe of the write path as a hostile or sloppy agent writes memories: each line of
`bench/data/write-path-probe.jsonl` (hand-written for session 12, not from any dataset)
is one memory claim with its source turns, a `kind` (hedge, citation, provenance, number,
date, negation, label, name) and an `expect`:

* `caught`: a disguised hedge (spacing, homoglyphs, zero-width, leetspeak, split
  words), a citation nobody gave (ADR, commit, DOI, arXiv id, URL, defanged), model
  output posing as evidence, a changed number, unit, currency or date, a negation slipped
  in, a wrong label value, a swapped name; caught when the pipeline does NOT auto-approve
  it (blocked or sent to review);
* `control`: the same material rewritten without changing the fact ("$5M" for "$5
  million", an ISO date as words, the source's own negation, an ADR that exists); kept
  when it is auto-approved.

Every claim goes through the whole write path (`Validator.validate_batch`, as
`groundwire check -f` and the pipeline call it) in the default configuration, with user
turns admissible (`provenance.allowed_sources: [corpus, user]`), an ADR directory
holding ADR-003 only, a git repository of one commit and URL checks off (no network: a URL is
`verified: null`, which neither approves nor prevents approval). Each claim has a tenant
of its own, so dedup never compares two lines.

    python bench/probe_write_path.py [--data PATH] [-v]

Last line: `caught=<a>/<A> controls=<b>/<B>`; -v prints every line the guards get
wrong with its tier and reasons. It measures; it asserts nothing (the rules are tested
under tests/unit/guards/).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from groundwire.guards.config import GuardsConfig
from groundwire.guards.factory import GuardServices, build_citation_verifier, build_validator
from groundwire.topics.records import Claim, RoutedResult, SourceTurn
from groundwire.topics.vocab import Source


async def run(
    rows: list[dict[str, Any]], adr_dir: Path, repo: Path | None = None
) -> list[RoutedResult]:
    """The routed result of each row, in order."""
    cfg = GuardsConfig()
    cfg.provenance.allowed_sources = ["corpus", "user"]
    cfg.citation.adr_dirs = [adr_dir]
    cfg.citation.git_repos = [repo] if repo is not None else []
    cfg.citation.cache_backend = "memory"
    services = GuardServices(verify_urls=False)
    citations = build_citation_verifier(cfg, services)
    validator = build_validator(cfg, services, citations)
    claims = [
        Claim(
            claim_id=row["id"],
            tenant_id=f"probe-{row['id']}",
            user_id="u42",
            content=row["claim"],
            source=Source.CONVERSATION,
            source_turns=[SourceTurn(**t) for t in row["turns"]],
        )
        for row in rows
    ]
    try:
        return list(await validator.validate_batch(claims, worker="probe"))
    finally:
        await validator.aclose()
        await citations.aclose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = Path(__file__).parent / "data" / "write-path-probe.jsonl"
    parser.add_argument("--data", type=Path, default=default)
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    rows = [json.loads(line) for line in args.data.read_text().splitlines() if line.strip()]
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "ADR-003-use-postgres.md").write_text(
            "# ADR-003: Postgres for the billing service\n\n"
            "We chose Postgres for the billing service.\n"
        )
        repo = Path(tmp) / "repo"
        repo.mkdir()
        git = ["git", "-C", str(repo), "-c", "user.name=probe", "-c", "user.email=probe@invalid"]
        subprocess.run([*git, "init", "-q"], check=True)
        (repo / "README").write_text("probe\n")
        subprocess.run([*git, "add", "README"], check=True)
        subprocess.run([*git, "commit", "-q", "-m", "probe"], check=True)
        results = asyncio.run(run(rows, Path(tmp), repo))
    by_kind: dict[str, list[int]] = {}
    caught = kept = n_caught = n_kept = 0
    for row, result in zip(rows, results, strict=True):
        approved = result.validation.tier.value == "auto_approve"
        right = not approved if row["expect"] == "caught" else approved
        tally = by_kind.setdefault(row["kind"], [0, 0])
        tally[0] += right
        tally[1] += 1
        if row["expect"] == "caught":
            n_caught += 1
            caught += right
        else:
            n_kept += 1
            kept += right
        if args.verbose and not right:
            g = result.grounding
            why = g.reasoning if g is not None else ""
            print(f"[{row['id']} {row['kind']} {row['expect']}] {row['claim']!r} ({row['note']})")
            print(f"   {result.validation.tier.value}: {result.validation.reason}; {why}")
    print(" ".join(f"{k}={v[0]}/{v[1]}" for k, v in by_kind.items()))
    print(f"caught={caught}/{n_caught} controls={kept}/{n_kept}")


if __name__ == "__main__":
    main()
