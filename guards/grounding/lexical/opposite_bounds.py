"""A number's bound turned the other way: "More than 500 people signed up" where the source
says "Nearly 500 people signed up" (session 17, the write-path red team).

`units.bound_swaps` reads a strict bound of the claim against a plain mention of the
number in the source, and leaves a source mention with a qualifier of its own alone
("about 3", "at least 3" say too little to contradict "more than 3"). Some pairs of
qualified mentions do contradict: a bound above the number against a bound below it.
"nearly 500" and "almost 500" say fewer than 500 (`assertion.py` reads them so before a
deed: "almost chose"), so "more than 500" rounds the source the wrong way.

Each side's bound is read from a closed class of English, with its direction and
whether it excludes the number itself:

* above, strict: "over", "above", "exceeding", "more than", "greater than";
* above: "at least", "a minimum of";
* below, strict: "under", "below", "fewer than", "less than", "nearly", "almost";
* below: "at most", "up to", "a maximum of", "no more than".

`opposite_bounds`: a claim number with a bound where every mention of the number in the
source sentences sharing words with the claim has a bound of the other direction, and
one of the two is strict (at least 3 and at most 3 both hold of 3): (the claim's bound
and number, the source's).
"""

from __future__ import annotations

from collections.abc import Sequence

from groundwire.guards.grounding.lexical.evidence import Sentence
from groundwire.guards.grounding.lexical.text import ClaimWords, number_value, same_number

__all__ = ["BOUND_WORDS", "bound_of", "opposite_bounds"]

_ONE: dict[str, tuple[str, bool]] = {
    "over": ("above", True),
    "above": ("above", True),
    "exceeding": ("above", True),
    "under": ("below", True),
    "below": ("below", True),
    "nearly": ("below", True),
    "almost": ("below", True),
}
_TWO: dict[tuple[str, str], tuple[str, bool]] = {
    ("more", "than"): ("above", True),
    ("greater", "than"): ("above", True),
    ("fewer", "than"): ("below", True),
    ("less", "than"): ("below", True),
    ("at", "least"): ("above", False),
    ("minimum", "of"): ("above", False),
    ("at", "most"): ("below", False),
    ("up", "to"): ("below", False),
    ("maximum", "of"): ("below", False),
}


# a word every bound holds (the caller's cheap test)
# (the distinctive word of each: "least" of "at least", not "at", "to" or "than")
BOUND_WORDS: frozenset[str] = frozenset(_ONE) | {b if a == "at" else a for a, b in _TWO}


def bound_of(lows: Sequence[str], k: int) -> tuple[str, bool, int] | None:
    """(direction, strict, where the bound starts) of the number at `k`, else None."""
    if k > 1:
        two = _TWO.get((lows[k - 2], lows[k - 1]))
        if two is not None:
            if two == ("above", True) and k > 2 and lows[k - 3] in ("no", "not"):
                return ("below", False, k - 3)  # "no more than 3": at most 3
            if two == ("below", True) and k > 2 and lows[k - 3] in ("no", "not"):
                return ("above", False, k - 3)  # "no fewer than 3": at least 3
            return (*two, k - 2)
    if k > 0:
        one = _ONE.get(lows[k - 1])
        if one is not None:
            return (*one, k - 1)
    return None


def opposite_bounds(
    words: ClaimWords, sentences: Sequence[Sentence], shared: Sequence[set[str] | frozenset[str]]
) -> list[tuple[str, str]]:
    """(claim's bound and number, source's) for each claim bound that every source
    mention of its number bounds the other way (module docstring)."""
    lows, nums, raws = words.lows, words.numbers, words.raws
    if BOUND_WORDS.isdisjoint(lows):
        return []  # the cheap test first: most claims bound no number
    out: list[tuple[str, str]] = []
    for i, value in enumerate(nums):
        if value is None:
            continue
        mine = bound_of(lows, i)
        if mine is None:
            continue
        theirs: str | None = None
        for s, hit in zip(sentences, shared, strict=True):
            if not hit:
                continue
            for j, low in enumerate(s.lows):
                if not same_number(number_value(low), value):
                    continue
                other = bound_of(s.lows, j)
                if other is None or other[0] == mine[0] or not (other[1] or mine[1]):
                    return out  # a mention that agrees or says too little: nothing read
                theirs = theirs or " ".join(s.raws[other[2] : j + 1])
        if theirs is not None:
            out.append((" ".join(raws[mine[2] : i + 1]), theirs))
    return out
