"""A rank changed before a superlative: "Acme is our largest customer" where the source
says "Acme is our second largest customer" (session 18, the write-path red team).

An ordinal before a superlative ("second largest", "third fastest") moves the rank the
superlative gives; dropped, the claim promotes its subject to the top, and the ordinal
is a function word that overlap and the number rules do not weigh ("second" is no
count). The ordinals are a closed class (second ... tenth, and "2nd" ... "10th"); a
superlative is a word in "-est" (of five letters or more), "most" / "least" before a
word, or the irregular "best", "worst", right after a determiner, a possessive or an
ordinal ("the largest", "our second biggest": so "most services", "a request", "the
forest" read as what they are only where an ordinal stands too, which is rare).

Read: a claim superlative whose rank (1 with no ordinal) differs from the rank of every
occurrence of the same superlative in an aligned source sentence (`changed_terms.
aligned`) is a contradiction (the claim's words, the source's).
"""

from __future__ import annotations

from collections.abc import Sequence

from groundwire.guards.grounding.lexical.text import word_set
from groundwire.guards.grounding.lexical.turned_terms import first_turned

__all__ = ["ORDINALS", "changed_ranks", "ranked_superlatives"]

_WORDS = ["second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"]
ORDINALS: dict[str, int] = {w: n for n, w in enumerate(_WORDS, 2)}
ORDINALS.update({f"{n}{'nd' if n == 2 else 'rd' if n == 3 else 'th'}": n for n in range(2, 11)})
_IRREGULAR = word_set("best worst")
_BEFORE = word_set("the our its their his her my your whose")


def _superlative(lows: Sequence[str], k: int) -> str | None:
    low = lows[k]
    prev = lows[k - 1] if k else ""
    if prev not in _BEFORE and prev not in ORDINALS:
        return None
    if low in ("most", "least") and k + 1 < len(lows) and lows[k + 1].isalpha():
        return f"{low} {lows[k + 1]}"
    if low in _IRREGULAR:
        return low
    if len(low) >= 5 and low.endswith("est") and low.isalpha():
        return low
    return None


def ranked_superlatives(lows: Sequence[str]) -> list[tuple[str, int, int]]:
    """(superlative, rank, start) of each superlative of `lows`."""
    out: list[tuple[str, int, int]] = []
    for k in range(len(lows)):
        sup = _superlative(lows, k)
        if sup is None:
            continue
        prev = lows[k - 1] if k else ""
        rank = ORDINALS.get(prev, 1)
        out.append((sup, rank, k - 1 if rank > 1 else k))
    return out


def changed_ranks(
    lows: Sequence[str], raws: Sequence[str], sources: Sequence[tuple[Sequence[str], Sequence[str]]]
) -> list[tuple[str, str]]:
    """(claim's words, source's) for each superlative ranked otherwise (module docstring)."""
    out: list[tuple[str, str]] = []
    for sup, rank, start in ranked_superlatives(lows):
        other = first_turned(
            (s_rank == rank, " ".join(s_raws[s_start : s_start + (2 if s_rank > 1 else 1)]))
            for s_lows, s_raws in sources
            for s_sup, s_rank, s_start in ranked_superlatives(s_lows)
            if s_sup == sup
        )
        if other is not None:
            out.append((" ".join(raws[start : start + (2 if rank > 1 else 1)]), other))
    return out
