"""Cost of the grounding verifiers per claim, beside the coverage baseline in the same run.

    python bench/bench_grounding.py [--data FILE.jsonl] [--embedding]

Runs over labelled claims (`--data`; default: the synthetic sample in bench/data/; the
real set bench/data/README.md describes gives real claim and evidence lengths) the
reference baseline (content-word coverage), then the lexical and the learned verifier through
`verify_batch` in batches like the stream's (warm, then with the per-turn cache cleared before
each round), the learned model's load time and its trees + calibration alone,
and prints µs per claim and the ratio to the baseline. The baseline shares the verifier's
`tokenize`, so a faster tokenizer moves both numbers.
`--embedding` also times the optional ONNX model (when installed); `--learned-model PATH`
times the learned verifier with another model file (one fitted with `--lexical-view`).
A hostile claim at the size limits (one opposed pair repeated: "my sister X works at
Acme" against "my brother Y" in 8 turns of 60 KB) is timed through the lexical verifier,
cold, against the baseline on it: every copy was paired with every other before (36 s at
7 KB; over 10 min at the limits). Claims made of one rule's pattern repeated at the same
limits (`HOSTILE_RULES`, session 12) are timed the same way. The WordNet antonym table's
load time is timed against reading its text.
Nothing is asserted: timings belong here, not in tests.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import string
import sys
import time
from importlib import resources
from pathlib import Path

import numpy as np

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding import build_verifier
from groundwire.guards.grounding.evaluation import baseline_supported, load_examples
from groundwire.guards.grounding.lexical import antonyms, clear_turn_caches
from groundwire.guards.protocols import GroundingRequest, GroundingVerifier
from groundwire.topics.records import Claim, SourceTurn

DEFAULT_DATA = Path(__file__).resolve().parent / "data" / "grounding-sample.jsonl"
BATCH = 500  # the stream's default batch size


def time_baseline(claims: list, rounds: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        for c in claims:
            baseline_supported(c)
        best = min(best, time.perf_counter() - t0)
    return best / len(claims) * 1e6


def time_verifier(
    verifier: GroundingVerifier, claims: list, rounds: int, *, cold: bool = False
) -> float:
    reqs = [GroundingRequest(c, c.source_turns) for c in claims]

    async def once() -> float:
        if cold:
            clear_turn_caches()
        t0 = time.perf_counter()
        for i in range(0, len(reqs), BATCH):
            await verifier.verify_batch(reqs[i : i + BATCH])
        return time.perf_counter() - t0

    samples = [asyncio.run(once()) for _ in range(rounds)]
    return min(samples) / len(claims) * 1e6


def hostile_claim() -> Claim:
    """A claim and source at the codec's size limits built of one antonym pair repeated,
    with a different made-up name in every copy (so no cache or set collapses them)."""
    rng = random.Random(1)

    def name() -> str:
        return rng.choice(string.ascii_uppercase) + "".join(
            rng.choices("aeioubcdfgklmnprst", k=rng.randint(6, 9))
        )

    names = [name() for _ in range(3_000)]
    content = " ".join(f"my sister {n} works at Acme," for n in names)[:16_000]
    turn = " ".join(f"I work at Acme and my brother {n}" for n in names)[:60_000]
    turns = [SourceTurn(id=f"t{k}", text=turn, source="user") for k in range(8)]
    return Claim(
        claim_id="hostile",
        tenant_id="bench",
        content=content,
        source="conversation",
        source_turns=turns,
    )


def time_hostile(verifier: GroundingVerifier) -> tuple[float, float]:
    """(verifier, baseline) µs on the hostile claim, best of three, the turn cache cleared."""
    claim = hostile_claim()
    base = time_baseline([claim], rounds=3)
    return time_verifier(verifier, [claim], rounds=3, cold=True), base


def _repeated(fmt: str, copies: int, limit: int, rng: random.Random) -> str:
    """`fmt` repeated (`{n}`: a made-up word per copy, `{i}`: the copy's number), cut at
    `limit` characters."""
    letters = "aeioubcdfgklmnprst"
    return " ".join(
        fmt.format(i=i, n="".join(rng.choices(letters, k=rng.randint(6, 9)))) for i in range(copies)
    )[:limit]


# Claims at the size limits (16,000 characters against 50,000 of evidence, what the
# verifier reads) made of one rule's pattern repeated, each with a word of its own so no
# set collapses the copies (session 12, docs/grounding.md "Bounded work per claim"): a
# passive and its active (names), a short sentence whose words a source sentence holds in
# another order (found order), one evaluative word repeated in a clause (opinion), numbers
# in one unit against another unit (changed amounts, magnitudes), a weekday the source
# never names, a word of the claim's own between two the source has (slot swaps), one
# word through claim and source (the longest common run), a short clause whose words two
# clauses of every source sentence share (crossed clauses).
HOSTILE_RULES = {
    "names, passive": ("Dana was hired by Bob", "Bob hired Dana {n}."),
    "found order": ("cat dog fox {n}.", "fox dog cat {n}."),
    "added evaluation": ("cat great", "the cat sat on a mat {n}."),
    "changed amounts": ("cat costs {i}7 GB", "cat uses {i}3 hours."),
    "weekday": ("cat on Monday", "the cat {n} sat."),
    "slot swaps": ("the {n} team", "the {n} team."),
    "longest run": ("cat", "cat"),
    "crossed clauses": ("cat dog.", "cat sat and dog ran {n}."),
}


def time_hostile_rules(verifier: GroundingVerifier) -> list[tuple[str, float, float]]:
    """(shape, verifier, baseline) µs on each of `HOSTILE_RULES`, cold, best of three."""
    out = []
    for label, (claim_fmt, turn_fmt) in HOSTILE_RULES.items():
        rng = random.Random(1)
        claim = Claim(
            claim_id="hostile-rule",
            tenant_id="bench",
            content=_repeated(claim_fmt, 4_000, 16_000, rng),
            source="conversation",
            source_turns=[
                SourceTurn(id="t0", text=_repeated(turn_fmt, 8_000, 50_000, rng), source="user")
            ],
        )
        base = time_baseline([claim], rounds=3)
        out.append((label, time_verifier(verifier, [claim], rounds=3, cold=True), base))
    return out


def time_antonym_table() -> tuple[float, float]:
    """(parse, read) ms of the WordNet antonym table, best of five: `antonyms._load` against
    reading the same file's text, the floor any loader pays."""
    path = resources.files("groundwire.guards.grounding").joinpath("data/antonyms.tsv")
    parse = read = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        path.read_text("utf-8")
        read = min(read, time.perf_counter() - t0)
        t0 = time.perf_counter()
        antonyms._load()
        parse = min(parse, time.perf_counter() - t0)
    return parse * 1e3, read * 1e3


def time_model(verifier: GroundingVerifier, claims: list) -> str:
    """The trees + calibration alone, on features computed beforehand: per claim in a
    batch of `BATCH`, and one claim at a time."""
    from groundwire.guards.grounding.learned import LearnedVerifier

    assert isinstance(verifier, LearnedVerifier)
    rows = np.array(
        [verifier.features(c, c.source_turns)[1] for c in claims[:BATCH]], dtype=np.float64
    )
    model = verifier.model
    best_batch = best_one = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        model.predict(rows)
        best_batch = min(best_batch, (time.perf_counter() - t0) / len(rows))
        t0 = time.perf_counter()
        for r in rows[:100]:
            model.predict(r[None, :])
        best_one = min(best_one, (time.perf_counter() - t0) / 100)
    return (
        f"trees + calibration {best_batch * 1e6:.1f} µs/claim in a batch of {len(rows)}, "
        f"{best_one * 1e6:.1f} µs for a single claim"
    )


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--data",
        type=Path,
        default=DEFAULT_DATA,
        help="JSONL of labelled claims (default: the synthetic sample in bench/data/)",
    )
    ap.add_argument("--embedding", action="store_true", help="also time the embedding model")
    ap.add_argument(
        "--learned-model",
        type=Path,
        help="time the learned verifier with this model file (default: the packaged one)",
    )
    args = ap.parse_args(argv)
    if not args.data.is_file():
        ap.error(f"--data {args.data}: no such file (see bench/data/README.md)")
    path = args.data
    claims = [e.claim for e in load_examples(path)]
    chars = statistics.mean(
        len(c.content) + sum(len(t.text) for t in c.source_turns) for c in claims
    )
    print(f"{len(claims)} claims from {path.name}, mean claim+evidence {chars:.0f} chars")
    base = time_baseline(claims, rounds=5)
    print(f"baseline (content-word coverage): {base:8.1f} µs/claim")
    lexical = build_verifier(GroundingConfig())
    lex = time_verifier(lexical, claims, rounds=3)
    print(f"lexical verifier (verify_batch):  {lex:8.1f} µs/claim   ratio {lex / base:.1f}x")
    # The verifier caches per-turn work (claims of a batch often cite the same turns, and
    # the rounds above see every turn again): each round here starts with that cache empty.
    cold = time_verifier(lexical, claims, rounds=3, cold=True)
    print(f"lexical, turn cache cleared:      {cold:8.1f} µs/claim   ratio {cold / base:.1f}x")
    hostile, hostile_base = time_hostile(lexical)
    print(
        f"lexical, hostile claim (limits):  {hostile / 1e3:8.1f} ms        "
        f"ratio {hostile / hostile_base:.1f}x (baseline {hostile_base / 1e3:.1f} ms)"
    )
    for label, took, took_base in time_hostile_rules(lexical):
        print(
            f"lexical, hostile {label + ':':18s}{took / 1e3:8.1f} ms        "
            f"ratio {took / took_base:.1f}x (baseline {took_base / 1e3:.1f} ms)"
        )
    t0 = time.perf_counter()
    learned = build_verifier(
        GroundingConfig(verifier="learned", learned_model_path=args.learned_model)
    )
    load_ms = (time.perf_counter() - t0) * 1e3
    lrn = time_verifier(learned, claims, rounds=3)
    print(f"learned verifier (verify_batch):  {lrn:8.1f} µs/claim   ratio {lrn / base:.1f}x")
    lcold = time_verifier(learned, claims, rounds=3, cold=True)
    print(f"learned, turn cache cleared:      {lcold:8.1f} µs/claim   ratio {lcold / base:.1f}x")
    print(f"learned model: loaded in {load_ms:.1f} ms; " + time_model(learned, claims))
    parse_ms, read_ms = time_antonym_table()
    print(
        f"antonym table: loaded in {parse_ms:.1f} ms   ratio {parse_ms / read_ms:.1f}x "
        f"(reading its text {read_ms:.1f} ms)"
    )
    if args.embedding:
        emb = build_verifier(GroundingConfig(verifier="embedding"))
        if emb.name != "embedding":
            print("embedding verifier not installed (pip install 'groundwire[embedding]')")
            return
        sample = claims[::47]  # ~50 claims across all datasets
        t = time_verifier(emb, sample, rounds=1)
        print(f"embedding verifier (~50 claims): {t:8.1f} µs/claim   ratio {t / base:.1f}x")


if __name__ == "__main__":
    main(sys.argv[1:])
