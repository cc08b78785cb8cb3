"""A multiplication told in other words: "Latency fell by half" where the source says
"Latency halved" (session 17, the write-path red team).

`factor_verbs.py` reads the closed class of words that state a factor ("halve",
"double", "tenfold", "in half"). English also states a factor with "by half" after a
verb of change, and the verb decides which: "fell by half", "was cut by half" (a
decrease: the value times 0.5) against "rose by half", "grew by half" (an increase: the
value times 1.5). The verb's direction is read from WordNet's antonym table, not from a
word list: a verb on the opposite side of a pair from "increase", "rise" or "grow" is a
decrease ("fall", "drop", "cut", "reduce", "shrink", "decline", "sink"), one opposite
"decrease", "fall" or "shrink" an increase ("rise", "grow", "climb", "raise",
"expand", "soar"); a verb WordNet puts on neither side ("lower", "slash", "go") or on
both states no factor and is read as before.

Word overlap read "fell by half" against "halved" as two words the source lacks and a
number ("half") it never wrote: a faithful restatement blocked. Two readings follow:

* `by_half`: the factor of "<verb> by half" (`factor_verbs._factors` asks it, so "rose
  by half" against "halved" is a changed factor, as "doubled" is);
* `restated_factor_words`: the claim positions of a factor phrase ("fell" and "half" of
  "fell by half", "cut" and "half" of "cut in half", "halved") whose factor a source
  sentence sharing a content word with the claim states in another way. They count as
  found, and "half" there is no number the source lacks: the factor is the source's.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from groundwire.guards.grounding.lexical.antonyms import antonymous
from groundwire.guards.grounding.lexical.evidence import Sentence

__all__ = ["by_half", "restated_factor_words"]

# the verbs whose antonyms mark a decrease / an increase (WordNet's antonym pairs)
_UP = ("increase", "rise", "grow")
_DOWN = ("decrease", "fall", "shrink")


@functools.lru_cache(maxsize=4096)
def direction(verb: str) -> str | None:
    """ "down" for a verb of decrease, "up" for one of increase (module docstring), None
    for a verb WordNet puts on neither side or on both."""
    down = any(antonymous(verb, w) for w in _UP)
    up = any(antonymous(verb, w) for w in _DOWN)
    if down == up:
        return None
    return "down" if down else "up"


def by_half(lows: Sequence[str], k: int) -> str | None:
    """The factor "half" at `k` states as "<verb> by half" ("0.5" after a decrease,
    "1.5" after an increase), else None."""
    if k < 2 or lows[k] != "half" or lows[k - 1] != "by":
        return None
    way = direction(lows[k - 2])
    if way is None:
        return None
    return "0.5" if way == "down" else "1.5"


def _phrases(lows: Sequence[str]) -> list[tuple[str, tuple[int, ...]]]:
    """(factor, the positions of its words) of each factor phrase of a text."""
    # imported here: factor_verbs asks `by_half` of this module
    from groundwire.guards.grounding.lexical.factor_verbs import factor_at

    out: list[tuple[str, tuple[int, ...]]] = []
    for k, low in enumerate(lows):
        factor = factor_at(lows, k)
        if factor is None:
            continue
        at: tuple[int, ...] = (k,)
        if low == "half" and k >= 2 and direction(lows[k - 2]) is not None:
            at = (k - 2, k)  # "fell by half", "cut in half": the verb is the phrase's
        out.append((factor, at))
    return out


def restated_factor_words(
    claim_lows: Sequence[str],
    claim_stems: Sequence[str],
    content: Sequence[bool],
    sentences: Sequence[Sentence],
) -> set[int]:
    """The claim positions of the words of each factor phrase whose factor a source
    sentence sharing a claim content stem outside the phrase states with other words:
    "fell" and "half" of "Latency fell by half" against "Latency halved"."""
    mine = _phrases(claim_lows)
    if not mine:
        return set()
    out: set[int] = set()
    for factor, at in mine:
        rest = {
            st
            for i, (st, c) in enumerate(zip(claim_stems, content, strict=True))
            if c and i not in at
        }
        for s in sentences:
            if rest.isdisjoint(s.stems):
                continue
            # the same factor, and some word of the claim's phrase the sentence lacks
            if any(claim_lows[i] not in s.lows for i in at) and any(
                f == factor for f, _ in _phrases(s.lows)
            ):
                out.update(at)
                break
    return out
