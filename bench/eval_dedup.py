"""Precision/recall of the dedup index against a brute-force Jaccard scan, on real sentences.

Corpus: the sentences of `source_turns` and the claims of a labelled claims file (`--data`;
default: the small synthetic sample in bench/data/; the figures in docs/dedup.md use the
public, human-written set bench/data/README.md describes). Near-duplicates are made
synthetically by random word edits (drop, insert or replace with another corpus word, swap
neighbours, change case or punctuation) stopped at a random target Jaccard in [0.84, 1.0],
so many pairs sit right at the 0.92 threshold. Originals and variants are shuffled into
one stream per tenant and fed in batches to the index; an independent sequential
brute-force scan over the same stream is the reference. "Positive" = blocked as a
duplicate.

Paraphrases: claims labelled `supported` in the same file restate their source in other
words; the script reports the highest Jaccard of each against its source's sentences and
how many would be caught at the threshold (docs/spec.md §Near-duplicates accepts that
lexical dedup misses them).

    python bench/eval_dedup.py [--data PATH] [--redis redis://127.0.0.1:6379/15] [--limit N]
                               [--seed S]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import sys
import uuid
from dataclasses import dataclass
from pathlib import Path

from bench_pipeline import drop_keys

from groundwire.guards.config import DedupConfig
from groundwire.guards.dedup import build_dedup_index
from groundwire.guards.dedup.minhash import (
    NEGATION_HASHES,
    PIECE_BREAK,
    SENTENCE_BREAK,
    claim_words,
    contrasts,
    jaccard,
    marks,
    negation_spellings,
    order_breaks,
    replaced_in_place,
    reversed_roles,
    token_hash,
    tokenize,
)
from groundwire.guards.protocols import DedupRequest

DEFAULT_DATA = Path(__file__).resolve().parent / "data" / "grounding-sample.jsonl"
_SENT = re.compile(r"(?<=[.!?])\s+")


def load_sentences(path: Path = DEFAULT_DATA, min_words: int = 6) -> list[str]:
    seen: set[str] = set()
    out: list[str] = []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            texts = [row["content"], *(t["text"] for t in row["source_turns"])]
            for text in texts:
                for sent in _SENT.split(text):
                    sent = " ".join(sent.split())
                    if len(sent.split()) >= min_words and sent not in seen:
                        seen.add(sent)
                        out.append(sent)
    return out


def make_variant(rng: random.Random, text: str, vocab: list[str], target: float) -> str:
    """Random edits until the word Jaccard to `text` falls to `target` (or edits run out)."""
    original = tokenize(text)
    words = text.split()
    for _ in range(60):
        if jaccard(original, tokenize(" ".join(words))) <= target:
            break
        op = rng.randrange(6)
        pos = rng.randrange(len(words))
        if op == 0 and len(words) > 3:
            del words[pos]
        elif op == 1:
            words.insert(pos, rng.choice(vocab))
        elif op == 2:
            words[pos] = rng.choice(vocab)
        elif op == 3 and pos + 1 < len(words):
            words[pos], words[pos + 1] = words[pos + 1], words[pos]  # order: invisible to Jaccard
        elif op == 4:
            words[pos] = words[pos].upper()  # case: invisible after normalisation
        else:
            words[pos] = words[pos] + ","
    return " ".join(words)


@dataclass(frozen=True, slots=True)
class Stream:
    requests: list[DedupRequest]
    near_threshold: int  # variants whose Jaccard to their original is within 0.02 of 0.92


def build_stream(sentences: list[str], seed: int, tenants: int = 4) -> Stream:
    rng = random.Random(seed)
    vocab = sorted({w for s in sentences[:2000] for w in s.split()})
    reqs: list[DedupRequest] = []
    near = 0
    for i, sent in enumerate(sentences):
        tenant = f"t{i % tenants}"
        reqs.append(DedupRequest(tenant, f"o{i}", sent))
        if len(tokenize(sent)) < 10:
            continue
        for k in range(rng.randint(0, 2)):
            variant = make_variant(rng, sent, vocab, rng.uniform(0.84, 1.0))
            near += abs(jaccard(tokenize(sent), tokenize(variant)) - 0.92) <= 0.02
            reqs.append(DedupRequest(tenant, f"v{i}.{k}", variant))
    rng.shuffle(reqs)
    return Stream(reqs, near)


Answer = tuple[str | None, str | None]  # (duplicate of, variant of)


def _spelled(spelling: tuple[tuple[str, ...], tuple[str, ...]] | None, mem: frozenset[str]) -> bool:
    """The memory writes the claim's negation another way: a one-word spelling, or an
    auxiliary and "not"."""
    if spelling is None:
        return False
    one, aux = spelling
    return any(w in mem for w in one) or ("not" in mem and any(a in mem for a in aux))


def brute_force(requests: list[DedupRequest], threshold: float) -> list[Answer]:
    """Sequential exact scan (length filter only: J > t needs min/max size > t). A memory
    above the threshold that the claim differs from in a negation or a number makes it a
    variant (docs/dedup.md §Variants), which is queued, not stored: it is not kept here; so
    is one the claim has every word of but with roles swapped, or one whose own negation or
    number the claim dropped; so is one the claim put a name or an antonym in the place of
    a word of (`minhash.contrasts`), or one whose own name the claim dropped for another
    word. A negation the other side writes another way ("can't" / "cannot" / "can not",
    `minhash.negation_spellings`) is the same negation. Since session 12: one whose unit,
    lower-case month or weekday, or particle the claim replaced (`minhash.class_forms`),
    or whose word before a word both have the claim replaced (`replaced_in_place`)."""
    Memory = tuple[str, frozenset[str], dict[int, int], list[str], list[int]]
    memories: dict[str, dict[int, list[Memory]]] = {}
    out: list[Answer] = []
    for req in requests:
        words, names, openers = claim_words(req.text)
        toks = frozenset(words)
        qmarks = frozenset(marks(toks) + names)
        qcon = contrasts(words, openers)
        breaks = {",": PIECE_BREAK, ".": SENTENCE_BREAK}
        order = [breaks[w] if w in breaks else token_hash(w) for w in order_breaks(req.text)]
        # the claim's negations in other spellings ("can't" / "cannot" / "can not")
        spells = {n: (one, aux) for n, one, aux in negation_spellings(req.text, toks)}
        covered = toks.union(*(one + (("not",) if aux else ()) for one, aux in spells.values()))
        qhashes = frozenset(map(token_hash, covered))
        by_len = memories.setdefault(req.tenant_id, {})
        best: tuple[float, str] | None = None
        variant: tuple[float, str] | None = None
        n = len(toks)
        lo, hi = int(n * threshold), int(n / threshold) + 1 if threshold > 0 else 10**9
        for size in range(lo, hi + 1):
            for cid, mem, places, mem_names, hashes in by_len.get(size, ()):
                j = jaccard(toks, mem)
                if j <= threshold:
                    continue
                differs = (
                    any(not _spelled(spells.get(w), mem) for w in qmarks - mem)
                    or (not toks <= mem and any(w not in covered for w in marks(mem) + mem_names))
                    or any(token_hash(w) in NEGATION_HASHES for w in mem - covered)
                    or (bool(order) and reversed_roles(order, places))
                    or (bool(order) and replaced_in_place(order, places, hashes, qhashes))
                    or any(
                        any(f in mem and f not in toks for f in forms)
                        if forms
                        else (w not in mem and not mem <= toks)
                        for w, forms in qcon
                    )
                )
                if differs and (variant is None or j > variant[0]):
                    variant = (j, cid)
                elif not differs and (best is None or j > best[0]):
                    best = (j, cid)
        out.append((best[1], None) if best else (None, variant[1] if variant else None))
        if best is None and variant is None and toks and req.insert:
            hashes = [token_hash(w) for w in words]
            places = {h: i for i, h in enumerate(hashes)}
            by_len.setdefault(n, []).append((req.claim_id, toks, places, names + openers, hashes))
    return out


async def run_index(
    requests: list[DedupRequest], cfg: DedupConfig, redis_url: str | None, batch: int
) -> list[Answer]:
    index = build_dedup_index(cfg, redis_url)
    got: list[Answer] = []
    try:
        for start in range(0, len(requests), batch):
            res = await index.check_and_insert(requests[start : start + batch])
            if any(r.failed for r in res):
                raise RuntimeError(next(r.error for r in res if r.failed))
            got += [(r.duplicate_of, r.variant_of) for r in res]
    finally:
        await index.aclose()
        if redis_url:
            drop_keys(redis_url, (f"{cfg.redis_prefix}:",))
    return got


def paraphrase_report(threshold: float, path: Path = DEFAULT_DATA) -> tuple[int, int, float]:
    """(supported claims, caught as duplicates, median best Jaccard to a source sentence)."""
    best: list[float] = []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            if row["label"] != "supported":
                continue
            claim = tokenize(row["content"])
            sents = [s for t in row["source_turns"] for s in _SENT.split(t["text"])]
            best.append(max((jaccard(claim, tokenize(s)) for s in sents), default=0.0))
    best.sort()
    return len(best), sum(b > threshold for b in best), best[len(best) // 2]


def add_data_argument(ap: argparse.ArgumentParser) -> None:
    """`--data PATH` (default: the synthetic sample); checked when the arguments are parsed."""

    def existing(text: str) -> Path:
        path = Path(text)
        if not path.is_file():
            raise argparse.ArgumentTypeError(f"{text}: no such file (see bench/data/README.md)")
        return path

    ap.add_argument(
        "--data",
        type=existing,
        default=str(DEFAULT_DATA),
        help="JSONL of labelled claims (default: the synthetic sample in bench/data/)",
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--redis", default=None, help="Redis URL (default: in-memory index)")
    ap.add_argument("--limit", type=int, default=0, help="use only the first N sentences")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--batch", type=int, default=256)
    add_data_argument(ap)
    args = ap.parse_args()

    cfg = DedupConfig(redis_prefix=f"gweval:{uuid.uuid4().hex[:8]}")
    sentences = load_sentences(args.data)
    if args.limit:
        sentences = sentences[: args.limit]
    stream = build_stream(sentences, args.seed)
    answers = brute_force(stream.requests, cfg.threshold)
    found = asyncio.run(run_index(stream.requests, cfg, args.redis, args.batch))
    expected = [a[0] for a in answers]
    got = [a[0] for a in found]
    variants = sum(a[1] is not None for a in answers)
    same_variants = sum(a[1] is not None and a == b for a, b in zip(answers, found, strict=True))
    index_variants = sum(b[1] is not None for b in found)
    tp = sum(e is not None and g is not None for e, g in zip(expected, got, strict=True))
    fp = sum(e is None and g is not None for e, g in zip(expected, got, strict=True))
    fn = sum(e is not None and g is None for e, g in zip(expected, got, strict=True))
    same_match = sum(e == g for e, g in zip(expected, got, strict=True) if e is not None)
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    n_para, caught, median = paraphrase_report(cfg.threshold, args.data)
    home = "redis" if args.redis else "memory"
    print(f"corpus: {len(sentences)} sentences, {len(stream.requests)} claims, home={home}")
    print(f"edited copies within 0.02 of the threshold: {stream.near_threshold}")
    print(f"brute-force duplicates: {tp + fn}; index: tp={tp} fp={fp} fn={fn}")
    print(f"same matched memory as brute force: {same_match}/{tp + fn}")
    print(
        "a negation, a number, a name or an antonym apart, or roles swapped (variants, "
        f"reviewed): brute force {variants}, "
        f"index {index_variants}, same memory {same_variants}"
    )
    print(
        f"paraphrases (supported claims vs their source sentences): {caught}/{n_para} caught, "
        f"median best Jaccard {median:.2f}"
    )
    print(f"precision={precision:.4f} recall={recall:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
