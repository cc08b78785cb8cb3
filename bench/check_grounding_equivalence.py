"""Golden-output check for performance work on the route stage (grounding + policy).

    python bench/check_grounding_equivalence.py --record [GOLDEN] [--data PATH]  # before
    python bench/check_grounding_equivalence.py [GOLDEN] [--data PATH]           # after

Runs every claim of the labelled data file (`--data`, default: the synthetic sample in
bench/data/; use a large real set such as the one bench/data/README.md describes) through

* the lexical verifier (`verify_batch`, batches of 500) plus the raw model score and
  features of `analyze` (rounded to 9 digits),
* the learned verifier (`verify_batch`, batches of 500) plus the features of `extract`
  and the trees' raw log-odds (exact: `repr` of each float), and
* `Validator.decide_batch` after `screen_batch` (default guards, in-memory dedup index,
  claims shaped like bench/bench_pipeline.py's `claim()`: user ids, mixed sources),

and writes one JSON line per claim and path: verdict, score, spans, penalty, reasoning,
tier, reason, checks, tags. `--record` saves the golden file (default
/tmp/route_golden.jsonl); without it the current output is compared byte for byte and
the first differing lines are printed. Exit status 1 on any difference.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

import orjson

from groundwire.guards.config import GuardsConfig
from groundwire.guards.dedup import build_dedup_index
from groundwire.guards.grounding import build_verifier
from groundwire.guards.grounding.base import bounded_turns
from groundwire.guards.grounding.learned import LearnedVerifier
from groundwire.guards.grounding.learned.features import extract
from groundwire.guards.grounding.lexical import LexicalVerifier, analyze, known_names
from groundwire.guards.protocols import GroundingRequest
from groundwire.guards.screening import screen_batch
from groundwire.guards.validator import Validator
from groundwire.topics.records import Claim

DEFAULT_DATA = Path(__file__).resolve().parent / "data" / "grounding-sample.jsonl"
GOLDEN = Path("/tmp/route_golden.jsonl")
BATCH = 500


def _r(x: float | None) -> float | None:
    return None if x is None else round(float(x), 9)


def _spans(report) -> list:
    return [[s.turn_id, s.start, s.end, s.text] for s in report.evidence_spans]


def _rows(path: Path) -> list[dict]:
    with path.open("rb") as f:
        return [orjson.loads(line) for line in f if line.strip()]


def _claim(i: int, row: dict) -> Claim:
    """Shaped like bench_pipeline.claim(): user ids (known names), three sources."""
    return Claim.model_validate(
        {
            "claim_id": f"route-{i}",
            "tenant_id": "tenant-0",
            "user_id": f"user-{i % 500}",
            "content": row["content"],
            "memory_type": "fact",
            "source": ("conversation", "ai_synthesis", "user")[i % 3],
            "source_turns": row["source_turns"],
        }
    )


async def _reports(verifier: LexicalVerifier, claims: list[Claim]) -> list:
    """The verifier's reports for the claims against their own turns, in stream batches."""
    reqs = [GroundingRequest(c, c.source_turns) for c in claims]
    reports = []
    for i in range(0, len(reqs), BATCH):
        reports.extend(await verifier.verify_batch(reqs[i : i + BATCH]))
    return reports


async def _lexical_lines(rows: list[dict]) -> list[str]:
    cfg = GuardsConfig()
    verifier = LexicalVerifier(cfg.grounding)
    claims = [Claim.model_validate(r) for r in rows]
    reports = await _reports(verifier, claims)
    out = []
    for c, rep in zip(claims, reports, strict=True):
        turns = bounded_turns(c.source_turns, cfg.grounding.max_evidence_chars)
        raw = None
        feats = None
        if turns:
            a = analyze(c.content, turns, known_names(c, turns))
            raw = _r(verifier.score(a))
            feats = {k: _r(v) for k, v in a.features.items()}
        doc = {
            "path": "lexical",
            "claim_id": c.claim_id,
            "verdict": str(rep.verdict),
            "score": _r(rep.score),
            "raw_score": raw,
            "features": feats,
            "spans": _spans(rep),
            "penalty": _r(rep.confidence_penalty),
            "adjusted": _r(rep.adjusted_confidence),
            "reasoning": rep.reasoning,
        }
        out.append(orjson.dumps(doc).decode())
    return out


async def _learned_lines(rows: list[dict]) -> list[str]:
    cfg = GuardsConfig()
    verifier = LearnedVerifier(cfg.grounding)
    claims = [Claim.model_validate(r) for r in rows]
    reports = await _reports(verifier, claims)
    values: list[list[float] | None] = []
    for c in claims:
        turns = bounded_turns(c.source_turns, cfg.grounding.max_evidence_chars)
        if not turns:
            values.append(None)
        elif verifier.twin is not None:  # a model with the lexical view (session 15)
            values.append(verifier.features(c, turns)[1])
        else:
            values.append(extract(c.content, turns, known_names(c, turns)).values)
    rows_x = [v for v in values if v is not None]
    raws = iter(verifier.model.raw(rows_x).tolist() if rows_x else [])
    out = []
    for c, rep, v in zip(claims, reports, values, strict=True):
        doc = {
            "path": "learned",
            "claim_id": c.claim_id,
            "verdict": str(rep.verdict),
            "score": repr(rep.score),
            "raw_score": None if v is None else repr(next(raws)),
            "features": None if v is None else [repr(x) for x in v],
            "spans": _spans(rep),
            "penalty": _r(rep.confidence_penalty),
            "adjusted": _r(rep.adjusted_confidence),
            "reasoning": rep.reasoning,
        }
        out.append(orjson.dumps(doc).decode())
    return out


async def _route_lines(rows: list[dict]) -> list[str]:
    cfg = GuardsConfig()
    validator = Validator(
        cfg, dedup=build_dedup_index(cfg.dedup), verifier=build_verifier(cfg.grounding)
    )
    claims = [_claim(i, r) for i, r in enumerate(rows)]
    out = []
    for i in range(0, len(claims), BATCH):
        screened = await screen_batch(claims[i : i + BATCH], cfg)
        for res in await validator.decide_batch(screened):
            g, v = res.grounding, res.validation
            doc = {
                "path": "route",
                "claim_id": res.claim.claim_id,
                "verdict": str(g.verdict),
                "score": _r(g.score),
                "spans": _spans(g),
                "penalty": _r(g.confidence_penalty),
                "adjusted": _r(g.adjusted_confidence),
                "reasoning": g.reasoning,
                "tier": str(v.tier),
                "reason": v.reason,
                "checks": [list(v.checks_passed), list(v.checks_failed)],
                "tags": list(res.tags),
                "evidence_source_id": v.evidence.source_id,
                "evidence_meta": v.evidence.metadata,
                "duplicate_of": res.duplicate_of,
                "similarity": _r(res.similarity),
            }
            out.append(orjson.dumps(doc).decode())
    return out


async def _all(path: Path) -> list[str]:
    rows = _rows(path)
    return [
        *(await _lexical_lines(rows)),
        *(await _learned_lines(rows)),
        *(await _route_lines(rows)),
    ]


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("golden", nargs="?", type=Path, default=GOLDEN, help=f"default {GOLDEN}")
    ap.add_argument("--record", action="store_true", help="write the golden file")
    ap.add_argument(
        "--data",
        type=Path,
        default=DEFAULT_DATA,
        help="JSONL of labelled claims (default: the synthetic sample in bench/data/)",
    )
    args = ap.parse_args(argv)
    if not args.data.is_file():
        ap.error(f"--data {args.data}: no such file (see bench/data/README.md)")
    golden = args.golden
    lines = asyncio.run(_all(args.data))
    text = "\n".join(lines) + "\n"
    if args.record:
        golden.write_text(text, encoding="utf-8")
        print(f"recorded {len(lines)} lines to {golden}")
        return 0
    want = golden.read_text(encoding="utf-8")
    if want == text:
        print(f"identical: {len(lines)} lines match {golden}")
        return 0
    old = want.splitlines()
    diffs = [(i, a, b) for i, (a, b) in enumerate(zip(old, lines, strict=False)) if a != b]
    print(f"DIFFERENT: {len(diffs)} lines differ ({len(old)} golden, {len(lines)} now)")
    for i, a, b in diffs[:5]:
        print(f"line {i}:\n  golden: {a[:400]}\n  now:    {b[:400]}")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
