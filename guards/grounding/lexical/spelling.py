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

from collections.abc import Sequence

from groundwire.guards.grounding.lexical.evidence import Sentence

__all__ = ["same_name_in"]

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
    one slip away; see the module docstring), or None when the source has no such name."""
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
