"""Tokens and wall time per claim of the LLM grounding verifier against a real server.

    bash scripts/stack.sh llm start
    python bench/bench_llm.py [--url URL] [--model NAME] [--data FILE.jsonl] [--claims N]
                              [--concurrency C] [--max-tokens T] [--rewrite]

Sends `--claims` labelled claims (default: the first 12 of bench/data/grounding-sample.jsonl)
through `LlmVerifier.verify_batch` (default URL and model: `scripts/stack.sh llm env`, the
local llama-cpp-python server with Gemma 3 270M) and prints the structured-output mode it
detected, tokens in and out per claim (the server's `usage`), wall time per claim and per
call (both include the wait for a turn at the server: a server that answers one request
at a time queues the rest, so the run time per claim is the serial cost), the calls'
outcomes, the verdicts beside the labels and why the UNKNOWN ones are. The local model is
a 270M model on two shared CPU cores: its verdicts are near chance and its speed is this
machine's; the prompt tokens per claim are what carries over to a real deployment, where
the prompt is the same. Nothing is asserted: timings belong here, not in tests.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding.evaluation import load_examples
from groundwire.guards.grounding.llm import LlmVerifier
from groundwire.guards.grounding.llm_client import LlmCallUsage, LlmClaimUsage, set_observers
from groundwire.guards.protocols import GroundingRequest

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA = REPO / "bench" / "data" / "grounding-sample.jsonl"


def stack_env() -> dict[str, str]:
    out = subprocess.run(
        ["bash", str(REPO / "scripts" / "stack.sh"), "llm", "env"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)


def describe(name: str, values: list[float], unit: str) -> str:
    if not values:
        return f"{name}: none"
    return (
        f"{name}: mean {statistics.fmean(values):.1f} {unit}, "
        f"median {statistics.median(values):.1f}, min {min(values):.1f}, max {max(values):.1f}"
    )


async def main() -> int:
    env = stack_env()
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--url", default=env.get("GROUNDWIRE_TEST_LLM_URL"))
    parser.add_argument("--model", default=env.get("GROUNDWIRE_TEST_LLM_MODEL"))
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--claims", type=int, default=12)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--max-tokens", type=int, default=512)
    parser.add_argument("--rewrite", action="store_true", help="rewrite PARTIAL claims")
    args = parser.parse_args()

    examples = load_examples(args.data)[: args.claims]
    cfg = GroundingConfig(
        verifier="llm",
        llm_base_url=args.url,
        llm_model=args.model,
        llm_timeout_s=300.0,
        llm_max_concurrency=args.concurrency,
        llm_max_tokens=args.max_tokens,
        rewrite_partial=args.rewrite,
    )
    calls: list[LlmCallUsage] = []
    claims: list[LlmClaimUsage] = []
    set_observers(on_call=calls.append, on_claim=claims.append)
    verifier = LlmVerifier(cfg)
    started = time.perf_counter()
    reports = await verifier.verify_batch(
        [GroundingRequest(e.claim, e.claim.source_turns) for e in examples]
    )
    elapsed = time.perf_counter() - started
    await verifier.aclose()

    print(
        f"server {args.url} model {args.model}: structured output {verifier.client.mode},"
        f" system role {'kept' if verifier.client.system_role else 'dropped (merged)'}"
    )
    print(f"{len(examples)} claims, concurrency {args.concurrency}, {elapsed:.1f} s in all")
    sent = [c for c in claims if c.outcome != "over_budget"]
    print(describe("prompt tokens per claim", [c.prompt_tokens for c in sent], "tokens"))
    print(describe("completion tokens per claim", [c.completion_tokens for c in sent], "tokens"))
    print(describe("wall time per claim", [c.seconds for c in sent], "s"))
    grounding = [c for c in calls if c.caller == "grounding"]
    print(describe("wall time per verdict call", [c.seconds for c in grounding], "s"))
    out_tokens = sum(c.completion_tokens for c in calls)
    print(f"completion tokens/s over the run: {out_tokens / elapsed:.1f}")
    print("call outcomes:", dict(Counter(f"{c.caller}:{c.outcome}" for c in calls)))
    pairs = Counter(
        (("supported" if e.supported else "not_supported"), r.verdict.value)
        for e, r in zip(examples, reports, strict=True)
    )
    print("label -> verdict:", dict(sorted(pairs.items())))
    unknown = Counter(
        r.reasoning.split(";")[0][:60] for r in reports if r.verdict.value == "unknown"
    )
    print("why unknown:", dict(unknown.most_common()))
    print(f"run time per claim: {elapsed / max(1, len(examples)):.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
