"""Read-time faithfulness: answers per second with the offline verifier, beside an in-run
baseline.

    python bench/bench_answers.py [--answers 3000] [--batch 100] [--rounds 3]

Builds synthetic answers of five sentences, each with its own context of five memories
(unique texts, so no answer profits from another's turn cache, as in a stream where every
answer brings its own retrieval): two cited sentences the context supports, one uncited
paraphrase, one with a number the context lacks, one citing a source that does not exist.
Then, on the same machine in the same run:

* **baseline**: the offline lexical verifier alone, each sentence as one claim against
  the whole context (`verify_batch`), which is the grounding work any read-time check
  must do;
* **scorer, batched**: `AnswerScorer.score_batch` in batches of `--batch` (the answers
  stage's way), default policy (warn), no cache: splitting, kinds, citations, provenance,
  fields, verification, the flagger, risk and the policy;
* **scorer, one at a time**: `AnswerScorer.score` per answer (the HTTP endpoint's way),
  for the latency distribution.

Prints answers/s for each, the ratio of the scorer to the baseline, and ends with the line
`answers_per_s=<batched> p99_ms=<one at a time>`. Best of `--rounds` rounds for the
rates; the p99 over every answer of the one-at-a-time rounds. Beside each wall-clock rate
it prints the rate per second of this process's CPU time (`time.process_time`): on a
machine shared with other work the wall-clock rate is the machine's, the CPU rate is
closer to the code's (what one process gets from a core of its own). Nothing is asserted.

Garbage collection is tuned as a worker's stage process tunes it (`streams/worker.py
tune_gc` with the default settings: long-lived objects frozen once built, gen-0 threshold
50,000); here the long-lived objects include the pre-built answers of every round, which a
worker never holds. `--python-gc` keeps Python's default GC instead, for comparison.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import statistics
import sys
import time

from groundwire.guards.config import GuardsConfig
from groundwire.guards.faithfulness.score import AnswerScorer
from groundwire.guards.grounding.lexical import LexicalVerifier, clear_turn_caches
from groundwire.guards.protocols import GroundingRequest
from groundwire.streams.settings import Settings
from groundwire.streams.worker import tune_gc
from groundwire.topics.answers import Answer
from groundwire.topics.records import Claim, SourceTurn
from groundwire.topics.vocab import Source

PROJECTS = (
    *("Inbox3", "Billing", "Atlas", "Nimbus", "Ledger"),
    *("Orbit", "Relay", "Quartz", "Harbor", "Falcon"),
)
THINGS = (
    "the OAuth migration",
    "the rate limiter",
    "the export job",
    "the search index",
    "the invoice service",
    "the mobile release",
    "the data retention policy",
    "the staging cluster",
)
PEOPLE = ("Priya", "Georgian", "Amara", "Tomas", "Lena", "Kofi", "Sven", "Mei")


def build_answer(k: int, rng: random.Random) -> Answer:
    project = f"{rng.choice(PROJECTS)}{k}"
    person = rng.choice(PEOPLE)
    things = rng.sample(THINGS, 3)
    pct, day, count = rng.randint(10, 95), rng.randint(1, 28), rng.randint(2, 9)
    context = [
        f"{project} is at {pct}% completion and ships on March {day}.",
        f"The main blockers of {project} are {things[0]} and {things[1]}.",
        f"{person} owns {things[2]} for {project} since the last planning meeting.",
        f"The {project} team meets every Tuesday to review open incidents ({k}).",
        f"{project} stores its records in PostgreSQL {rng.randint(12, 16)} with daily backups.",
    ]
    sentences = [
        f"{project} is at {pct}% completion [source:1].",
        f"Its main blockers are {things[0]} and {things[1]} [source:2].",
        f"{person} is responsible for {things[2]} on {project}.",
        f"The team of {count + 7} engineers meets every Tuesday.",
        f"Backups of {project} run daily [source:9].",
    ]
    return Answer(
        answer_id=f"bench-{k}",
        tenant_id=f"tenant-{k % 17}",
        user_id="bench",
        text=" ".join(sentences),
        context=[
            {"id": f"m{k}-{i}", "text": text, "source": "corpus"} for i, text in enumerate(context)
        ],
    )


def baseline_requests(answers: list[Answer]) -> list[GroundingRequest]:
    """Each sentence of each answer as one claim against the answer's whole context."""
    out = []
    for a in answers:
        turns = [SourceTurn(id=s.id, text=s.text, source=s.source) for s in a.context]
        for i, sentence in enumerate(a.text.split(". ")):
            claim = Claim(
                claim_id=f"{a.answer_id}-{i}",
                tenant_id=a.tenant_id,
                content=sentence,
                source=Source.AI_SYNTHESIS,
            )
            out.append(GroundingRequest(claim, turns))
    return out


Rates = tuple[float, float]  # answers per wall-clock second, per CPU second


async def time_baseline(requests: list[GroundingRequest], batch: int, n_answers: int) -> Rates:
    verifier = LexicalVerifier(GuardsConfig().grounding)
    clear_turn_caches()
    t0, c0 = time.perf_counter(), time.process_time()
    per_answer = len(requests) // n_answers
    step = batch * per_answer
    for i in range(0, len(requests), step):
        await verifier.verify_batch(requests[i : i + step])
    return n_answers / (time.perf_counter() - t0), n_answers / (time.process_time() - c0)


async def time_batched(scorer: AnswerScorer, answers: list[Answer], batch: int) -> Rates:
    clear_turn_caches()
    t0, c0 = time.perf_counter(), time.process_time()
    for i in range(0, len(answers), batch):
        await scorer.score_batch(answers[i : i + batch])
    n = len(answers)
    return n / (time.perf_counter() - t0), n / (time.process_time() - c0)


async def time_single(scorer: AnswerScorer, answers: list[Answer]) -> list[float]:
    clear_turn_caches()
    latencies = []
    for answer in answers:
        t0 = time.perf_counter()
        await scorer.score(answer)
        latencies.append(time.perf_counter() - t0)
    return latencies


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--answers", type=int, default=3_000)
    ap.add_argument("--batch", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--python-gc", action="store_true", help="Python's default GC settings")
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    # fresh answers per round: unique context texts, cold turn caches every time
    rounds = [
        [build_answer(r * args.answers + k, rng) for k in range(args.answers)]
        for r in range(args.rounds + 1)
    ]
    scorer = AnswerScorer(GuardsConfig(), worker="bench")
    sample = asyncio.run(scorer.score(rounds[0][0]))
    kinds = [c.kind.value for c in sample.claims]
    print(
        f"{args.answers} answers x {len(rounds) - 1} rounds, five sentences and five memories "
        f"each; a sample: {len(kinds)} pieces, faithfulness {sample.faithfulness}, "
        f"risk {sample.risk.value}, {len(sample.warnings)} warnings"
    )
    asyncio.run(time_batched(scorer, rounds[0][: args.batch * 2], args.batch))  # warm-up
    gc.collect()
    if not args.python_gc:
        settings = Settings()
        tune_gc(settings)
        print(f"gc: the worker's (freeze, gen-0 threshold {settings.gc_gen0_threshold})")
    else:
        print(f"gc: Python's defaults {gc.get_threshold()}")
    requests = [baseline_requests(r) for r in rounds[1:]]
    bases = [
        asyncio.run(time_baseline(q, args.batch, len(r)))
        for q, r in zip(requests, rounds[1:], strict=True)
    ]
    batches = [asyncio.run(time_batched(scorer, r, args.batch)) for r in rounds[1:]]
    base, base_cpu = max(b[0] for b in bases), max(b[1] for b in bases)
    batched, batched_cpu = max(b[0] for b in batches), max(b[1] for b in batches)
    c0 = time.process_time()
    latencies = [t for r in rounds[1:] for t in asyncio.run(time_single(scorer, r))]
    single_cpu = len(latencies) / (time.process_time() - c0)
    single = len(latencies) / sum(latencies)
    p50 = statistics.median(latencies) * 1e3
    p99 = sorted(latencies)[int(0.99 * (len(latencies) - 1))] * 1e3
    print("                                          wall-clock      per CPU second")
    print(
        f"baseline (lexical verifier, 5 claims/answer): {base:8.0f} answers/s"
        f" {base_cpu:8.0f} answers/s"
    )
    print(
        f"scorer, batches of {args.batch}:                  {batched:8.0f} answers/s"
        f" {batched_cpu:8.0f} answers/s   ratio {batched / base:.2f}"
        f" (CPU {batched_cpu / base_cpu:.2f})"
    )
    print(
        f"scorer, one at a time:                   {single:8.0f} answers/s"
        f" {single_cpu:8.0f} answers/s   p50 {p50:.2f} ms, p99 {p99:.2f} ms"
    )
    print(f"cpu_answers_per_s={batched_cpu:.0f}")
    print(f"answers_per_s={batched:.0f} p99_ms={p99:.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
