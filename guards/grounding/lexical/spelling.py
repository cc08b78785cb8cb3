"""A name the claim writes differently from the source is still the source's name.

People retype the names they read: they drop or double a letter ("Chirugien" for
"Chirurgien", "Japana" for "Japan"), join a name the source writes as two words
("Wallstreet" for "Wall Street"), or shorten it to its initials ("NY" for "New York").
Read as an unknown name, such a spelling makes the claim look as if it adds a specific
the source never gave, and, sitting where the source has the real name, as if it swapped
one name for another: a contradiction. `same_name_in` finds the source's spelling of the
name instead, so the claim is read as naming what the source names.

Three forms only, each tight enough that two different names do not pass:

* joined: the claim's word is two or three consecutive source words written as one,
* initials: the claim's word is written in capitals (two or three letters) and is the
  initials of as many consecutive capitalised source words,
* one slip: a capitalised source word of the same first letter, one edit away (an
  insertion, deletion, substitution or swap of neighbours) from a claim word of six
  letters or more; two edits from one of nine or more. Short names ("Ann", "Anna",
  "Mark", "Mike") never match this way: one letter there is a different name.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import cast

from groundwire.guards.grounding.lexical.evidence import Evidence, Sentence
from groundwire.guards.grounding.lexical.text import capitals as capital_positions

__all__ = ["may_name", "same_name_in"]

# claim-word lengths at which one, then two, edits are read as a slip of the same name
ONE_SLIP = 6
TWO_SLIPS = 9


def _edits_within(a: str, b: str, limit: int) -> bool:
    """Whether `a` becomes `b` in at most `limit` edits (insert, delete, substitute,
    swap two neighbours): optimal string alignment, stopped once a row exceeds it."""
    if abs(len(a) - len(b)) > limit:
        return False
    before: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], before[j - 2] + 1)
        if min(cur) > limit:
            return False
        before, prev = prev, cur
    return prev[-1] <= limit


def same_name_in(raw: str, sentences: Sequence[Sentence]) -> str | None:
    """The source's spelling of the name the claim writes as `raw` (joined, initials or
    one slip away; see the module docstring), or None when the source has no such name.
    (`may_name` answers whether this finds one from an index per evidence: a new form
    here needs its key there.)"""
    low = raw.lower()
    initials = raw.isupper() and raw.isalpha() and 2 <= len(raw) <= 3
    slips = 0 if len(low) < ONE_SLIP else 1 if len(low) < TWO_SLIPS else 2
    for s in sentences:
        raws, lows = s.raws, s.lows
        for k, word in enumerate(raws):
            for n in (2, 3):
                if k + n > len(lows):
                    break
                if "".join(lows[k : k + n]) == low:
                    return " ".join(raws[k : k + n])
                run = raws[k : k + n]
                if (
                    initials
                    and all(w[:1].isupper() for w in run)
                    and all(s.content[k : k + n])
                    and "".join(w[0] for w in run).lower() == low
                ):
                    return " ".join(run)
            if (
                slips
                and word[:1].isupper()
                and lows[k][:1] == low[:1]
                and lows[k] != low
                and _edits_within(low, lows[k], slips)
            ):
                return word
    return None


# what `may_name` reads of an evidence: its joined runs, its initials and its capitalised
# words by first letter (kept in `Evidence.derived` under this key)
_NAMES_KEY = "spelling.names"
_Names = tuple[set[str], set[str], dict[str, tuple[str, ...]]]


def _names_of(ev: Evidence) -> _Names:
    """The index `may_name` reads, built once per evidence: the lower-case joins of two
    and three consecutive words of a sentence, the initials of as many consecutive
    capitalised content words, and the distinct lower-case capitalised words by their
    first letter (the three forms `same_name_in` accepts, as keys)."""
    memo = ev.derived
    if memo is None:
        memo = ev.derived = {}
    got = memo.get(_NAMES_KEY)
    if got is not None:
        return cast("_Names", got)
    joined: set[str] = set()
    initials: set[str] = set()
    capitals: dict[str, set[str]] = {}
    for s in ev.sentences:
        raws, lows, content = s.raws, s.lows, s.content
        # C-level passes: the joins of each two, then each three, neighbours
        pairs = list(map(operator.add, lows, lows[1:]))
        joined.update(pairs)
        joined.update(map(operator.add, pairs, lows[2:]))
        caps = list(capital_positions(raws))
        for k in caps:
            capitals.setdefault(lows[k][:1], set()).add(lows[k])
        if len(caps) < 2:
            continue
        named = {k for k in caps if content[k]}  # capitalised content words
        for k in named:
            if k + 1 in named:
                two = raws[k][0] + raws[k + 1][0]
                initials.add(two.lower())
                if k + 2 in named:
                    initials.add((two + raws[k + 2][0]).lower())
    # never changed once built (shared by every claim that cites the evidence)
    names: _Names = (joined, initials, {a: tuple(lows) for a, lows in capitals.items()})
    memo[_NAMES_KEY] = names
    return names


def may_name(raw: str, ev: Evidence) -> bool:
    """Whether `same_name_in(raw, ev.sentences)` finds a name: the same three tests, read
    from an index of the evidence built once (`_names_of`) instead of by a pass over every
    word of every sentence for each capitalised word of each claim (that pass was ~7 % of
    the lexical verifier's time on the dev file, a cost paid per claim for what is a
    property of the turns)."""
    joined, initials, capitals = _names_of(ev)
    low = raw.lower()
    if low in joined:
        return True
    if raw.isupper() and raw.isalpha() and 2 <= len(raw) <= 3 and low in initials:
        return True
    slips = 0 if len(low) < ONE_SLIP else 1 if len(low) < TWO_SLIPS else 2
    if not slips:
        return False
    return any(
        other != low and _edits_within(low, other, slips) for other in capitals.get(low[:1], ())
    )
