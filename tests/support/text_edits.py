"""Synthetic near-duplicates for dedup tests: random word deletions, insertions, swaps."""

from __future__ import annotations

import random


def random_edit(rng: random.Random, text: str, edits: int) -> str:
    words = text.split()
    for _ in range(edits):
        pos = rng.randrange(len(words))
        op = rng.choice("dai")
        if op == "d" and len(words) > 2:
            del words[pos]
        elif op == "a":
            words.insert(pos, "".join(rng.choices("uvwxyz", k=5)))
        else:
            words[pos] = "".join(rng.choices("uvwxyz", k=6))
    return " ".join(words)
