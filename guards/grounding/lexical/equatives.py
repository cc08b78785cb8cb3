"""An equality told as a difference, or a difference as an equality: "Postgres is as fast
as MySQL" where the source says "Postgres is faster than MySQL", and the other way round
(session 18, the write-path red team).

"as ADJ as" says the two things are alike in ADJ; "ADJ-er than", "more / less ADJ than"
says they differ. The adjective's stem is the source's on both sides, so overlap reads a
restatement ("faster" and "fast" differ by one unsupported word at most: partial). The
constructions are English grammar, and the comparative is read by the regular
morphology of English adjectives (fast-er, large-r, big-ger, eas-ier) and the irregular
"better" / "worse" (good, well / bad), not by a list of words.

Read: a claim equative "as ADJ as" where an aligned source sentence (`changed_terms.
aligned`) compares by the same adjective ("ADJ-er than", "more / less ADJ than") and
never writes the equative, or a claim comparative where the source writes only the
equative, is a contradiction (the claim's words, the source's). "as many / much as" is a
bound of an amount ("as many as 500"), not read.
"""

from __future__ import annotations

from collections.abc import Sequence

from groundwire.guards.grounding.lexical.turned_terms import first_turned

__all__ = ["comparisons", "equative_swaps"]

_IRREGULAR = {"better": ("good", "well"), "worse": ("bad",)}
_AMOUNT = frozenset({"many", "much", "few", "little", "well", "long", "soon", "far"})


def _bases(comparative: str) -> tuple[str, ...]:
    """The adjectives `comparative` (a word in -er) may be the comparative of."""
    if comparative in _IRREGULAR:
        return _IRREGULAR[comparative]
    if not comparative.endswith("er") or len(comparative) < 5:
        return ()
    stem = comparative[:-2]
    out = [stem, stem + "e"]  # fast-er, larg-er
    if len(stem) > 2 and stem[-1] == stem[-2]:
        out.append(stem[:-1])  # big-ger
    if stem.endswith("i"):
        out.append(stem[:-1] + "y")  # eas-ier
    return tuple(out)


def comparisons(lows: Sequence[str]) -> list[tuple[str, frozenset[str], int, int]]:
    """("equative" or "comparative", the adjective's possible forms, start, end) of each
    comparison of `lows`."""
    out: list[tuple[str, frozenset[str], int, int]] = []
    n = len(lows)
    for k, low in enumerate(lows):
        if low == "as" and k + 2 < n and lows[k + 2] == "as":
            adj = lows[k + 1]
            if adj.isalpha() and adj not in _AMOUNT:
                out.append(("equative", frozenset({adj}), k, k + 3))
        elif low == "than" and k >= 1:
            prev = lows[k - 1]
            if k >= 2 and lows[k - 2] in ("more", "less") and prev.isalpha():
                out.append(("comparative", frozenset({prev}), k - 2, k + 1))
            else:
                bases = _bases(prev)
                if bases:
                    out.append(("comparative", frozenset(bases), k - 1, k + 1))
    return out


def equative_swaps(
    lows: Sequence[str], raws: Sequence[str], sources: Sequence[tuple[Sequence[str], Sequence[str]]]
) -> list[tuple[str, str]]:
    """(claim's words, source's) for each comparison told in the other construction
    (module docstring). `sources`: (lows, raws) of the aligned sentences."""
    out: list[tuple[str, str]] = []
    for kind, adj, a, b in comparisons(lows):
        other = first_turned(
            (s_kind == kind, " ".join(s_raws[sa:sb]))
            for s_lows, s_raws in sources
            for s_kind, s_adj, sa, sb in comparisons(s_lows)
            if not adj.isdisjoint(s_adj)
        )
        if other is not None:
            out.append((" ".join(raws[a:b]), other))
    return out
