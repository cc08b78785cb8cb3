"""An order told with the other preposition of time: "Ben joined the team before the
launch" where the source says "Ben joined the team following the launch", "The patch
shipped after the freeze" where it says "prior to the freeze" (session 18, the
write-path red team).

The antonym lexicon pairs "before" and "after", but not the other prepositions of order,
so "after" against "prior to" is one unsupported word (partial). The prepositions of
time order are a closed class of English (a grammar fact): before, prior to, ahead of,
in advance of, earlier than; after, following, subsequent to, later than.

Read: a claim's order preposition and the content word it governs (the first after it,
past determiners), where an aligned source sentence (`changed_terms.aligned`) governs
the same word with a preposition of the other order and never with one of the claim's,
is a contradiction (the claim's words, the source's).
"""

from __future__ import annotations

from collections.abc import Sequence

from groundwire.guards.grounding.lexical.text import word_set
from groundwire.guards.grounding.lexical.turned_terms import first_turned

__all__ = ["ORDER_WORDS", "orders", "turned_orders"]

_BEFORE_ONE = word_set("before")
_AFTER_ONE = word_set("after following")
_TWO = {
    ("prior", "to"): True,
    ("ahead", "of"): True,
    ("earlier", "than"): True,
    ("subsequent", "to"): False,
    ("later", "than"): False,
}
ORDER_WORDS = _BEFORE_ONE | _AFTER_ONE | {a for a, _ in _TWO} | {"advance"}
_TRIGGERS = ORDER_WORDS | {"in"}
_DETERMINERS = word_set("the a an this that our their its his her my your")


def orders(lows: Sequence[str]) -> list[tuple[bool, str, int, int]]:
    """(is "before", the governed word, start, end) of each order preposition."""
    out: list[tuple[bool, str, int, int]] = []
    n = len(lows)
    for k in [i for i, w in enumerate(lows) if w in _TRIGGERS]:
        low = lows[k]
        before: bool | None = None
        end = k + 1
        if low in _BEFORE_ONE:
            before = True
        elif low in _AFTER_ONE:
            before = False
        elif k + 1 < n and (low, lows[k + 1]) in _TWO:
            before, end = _TWO[(low, lows[k + 1])], k + 2
        elif low == "in" and k + 2 < n and lows[k + 1] == "advance" and lows[k + 2] == "of":
            before, end = True, k + 3
        if before is None:
            continue
        j = end
        while j < n and lows[j] in _DETERMINERS:
            j += 1
        if j < n and lows[j].isalpha():
            out.append((before, lows[j], k, end))
    return out


def turned_orders(
    lows: Sequence[str], raws: Sequence[str], sources: Sequence[tuple[Sequence[str], Sequence[str]]]
) -> list[tuple[str, str]]:
    """(claim's words, source's) for each order preposition turned (module docstring)."""
    out: list[tuple[str, str]] = []
    for before, obj, a, b in orders(lows):
        other = first_turned(
            (s_before == before, " ".join(s_raws[sa:sb]))
            for s_lows, s_raws in sources
            for s_before, s_obj, sa, sb in orders(s_lows)
            if s_obj == obj
        )
        if other is not None:
            out.append((f"{' '.join(raws[a:b])} {obj}", f"{other} {obj}"))
    return out
