"""A bound or a range told as an exact value: "We run 10 replicas" where the source says
"We run up to 10 replicas", "The rollout takes 5 days" where it says "between 3 and 5
days" (session 18, the write-path red team).

The number is the source's, every word is the source's, so overlap reads a restatement.
But the source never gave the value: it gave a limit ("up to", "at least", "more than",
"under", ... `opposite_bounds.bound_of`) or the end of a range ("between 3 and 5", "two
to three", "3-5", "range(s) from 90k to 120k"). A memory is read later without its
source, so the exact value stands as a fact nobody stated. "as many / much / few /
little as N" is a bound too; a claim number the claim approximates ("about 500") is no
exact value, nor one the claim limits with a word of limit in the source's direction
("capped at 5000", "limited to 10", "500 max" for "at most 5000"; the other direction
is still read: "capped at 5000" against "at least 5000").

Read: a claim number with no bound and no range of its own whose every mention in the
source sentences aligned with the claim (`aligned` in `changed_terms.py`) is bounded or
a range's end, is a contradiction (the claim's number, the source's phrase). A mention
of the number without a bound anywhere in those sentences states it, and nothing is
read. "from N to M" is a range only after a verb of ranging ("range", "vary"): after
another verb it tells a change ("went from 50 ms to 200 ms"), whose end is a value the
source does state. A year (four digits, 1000 to 2999, no unit) as a range's end is
left alone: "worked there 2019-2021" holds of 2021.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from groundwire.guards.grounding.lexical.opposite_bounds import BOUND_WORDS, bound_of
from groundwire.guards.grounding.lexical.text import number_value, same_number, word_set

__all__ = ["RANGE_WORDS", "bounded_at", "dropped_bounds"]

_RANGE_VERBS = word_set("range ranges ranged ranging vary varies varied varying")
# the cheap gate's words for a range (a bound's are `BOUND_WORDS`); a dash is read from
# the text
RANGE_WORDS = word_set("between to")
GATE_WORDS = BOUND_WORDS | RANGE_WORDS
_DASH_RANGE = re.compile(
    r"(?<![\d.\-/])(\d+(?:\.\d+)?[kKmM]?)\s?[-\u2013]\s?\$?(\d+(?:\.\d+)?[kKmM]?)(?![\d\-/])"
)


# "as many / much / few / little as N" bounds N as "up to" / "at least" do
_AS_AMOUNT = word_set("many much few little")
# a claim number the claim itself approximates is its own hedge (the hedge guard's), not
# an exact value
_APPROXIMATE = word_set("about around roughly approximately some circa")


# a claim's own limit written with a word of limit rather than a bound phrase: "capped
# at 5000", "limited to 10", "a cap of 10", "500 max", "a floor of 3" (audit of session
# 18); its direction as `opposite_bounds.bound_of` names it ("below": at most)
_LIMITS = {
    "capped": "below",
    "cap": "below",
    "limited": "below",
    "limit": "below",
    "max": "below",
    "ceiling": "below",
    "min": "above",
    "floor": "above",
}


def _claim_limit(lows: Sequence[str], k: int) -> str | None:
    """The direction of a word of limit bounding the claim number at k: within the two
    words before it ("capped at", "a cap of") or right after it ("500 max")."""
    for j in (k - 1, k - 2, k + 1, k + 2):
        if 0 <= j < len(lows) and lows[j] in _LIMITS:
            if j > k and j == k + 2 and number_value(lows[k + 1]) is not None:
                continue
            return _LIMITS[lows[j]]
    return None


def _is_year(value: str | None) -> bool:
    return value is not None and value.isdigit() and len(value) == 4 and 1000 <= int(value) < 3000


def _num(nums: Sequence[str | None], k: int) -> str | None:
    return nums[k] if 0 <= k < len(nums) else None


def _from_is_range(lows: Sequence[str], k: int) -> bool:
    """Whether "from" at k opens a range (after a verb of ranging), not a change."""
    return any(lows[j] in _RANGE_VERBS for j in range(max(0, k - 3), k))


def _joined_by_to(lows: Sequence[str], nums: Sequence[str | None], a: int, b: int, at: int) -> bool:
    """Whether numbers a and b joined by "to" are a range: not two years, and not after a
    "from" (at position `at`) that opens a change rather than a range."""
    if _num(nums, a) is None or _num(nums, b) is None:
        return False
    if _is_year(nums[a]) and _is_year(nums[b]):
        return False
    opener = lows[at] if at >= 0 else ""
    return not (opener == "from" and not _from_is_range(lows, at))


def bounded_at(lows: Sequence[str], nums: Sequence[str | None], k: int) -> str | None:
    """The bound or range phrase that holds the number at k (as lower-case words), or
    None when the number stands alone."""
    b = bound_of(lows, k)
    if b is not None:
        return " ".join(lows[b[2] : k + 1])
    if k >= 3 and lows[k - 1] == "as" and lows[k - 3] == "as" and lows[k - 2] in _AS_AMOUNT:
        return " ".join(lows[k - 3 : k + 1])  # "as many as 500": at most, said loudly
    prev = lows[k - 1] if k else ""
    nxt = lows[k + 1] if k + 1 < len(lows) else ""
    if prev == "between" and nxt == "and" and _num(nums, k + 2) is not None:
        return " ".join(lows[k - 1 : k + 3])
    if prev == "and" and k >= 3 and lows[k - 3] == "between" and _num(nums, k - 2) is not None:
        return " ".join(lows[k - 3 : k + 1])
    # "two to three days", "range from 90k to 120k"; "went from 50 to 200" is a change
    if nxt == "to" and _joined_by_to(lows, nums, k, k + 2, k - 1):
        return " ".join(lows[k : k + 3])
    if prev == "to" and _joined_by_to(lows, nums, k - 2, k, k - 3):
        return " ".join(lows[k - 2 : k + 1])
    return None


def dash_range_values(text: str) -> set[str]:
    """The values at either end of a range written with a dash ("3-5 days", "1–2
    hours"), years excepted."""
    out: set[str] = set()
    if "-" not in text and "\u2013" not in text:
        return out
    for m in _DASH_RANGE.finditer(text):
        a, b = number_value(m.group(1).lower()), number_value(m.group(2).lower())
        if a is None or b is None or (_is_year(a) and _is_year(b)):
            continue
        out.update((a, b))
    return out


def dropped_bounds(
    lows: Sequence[str],
    nums: Sequence[str | None],
    raws: Sequence[str],
    claim_text: str,
    sentences: Sequence[tuple[Sequence[str], Sequence[str | None], Sequence[str], str]],
) -> list[tuple[str, str]]:
    """(claim number, source phrase) for each claim number the aligned source sentences
    give only as a bound or a range's end (module docstring). `sentences` are (lows,
    numbers, raws, text) of the aligned source sentences."""
    out: list[tuple[str, str]] = []
    claim_dash = dash_range_values(claim_text)
    dashed: dict[int, set[str]] = {}  # read on first need: most numbers stand alone
    for i, value in enumerate(nums):
        if value is None or bounded_at(lows, nums, i) is not None or value in claim_dash:
            continue
        if i and lows[i - 1] in ("between", "and", "to", "from"):
            continue  # a range or change of the claim's own, read as written
        if i and lows[i - 1] in _APPROXIMATE:
            continue
        limit = _claim_limit(lows, i)
        phrase: str | None = None
        bare = False
        for n, (s_lows, s_nums, _s_raws, s_text) in enumerate(sentences):
            for j, sv in enumerate(s_nums):
                if sv is None or not same_number(sv, value):
                    continue
                if limit is not None and (b := bound_of(s_lows, j)) and b[0] == limit:
                    bare = True  # "capped at 5000" for "at most 5000": the same bound
                    break
                held = bounded_at(s_lows, s_nums, j)
                if held is None and n not in dashed:
                    dashed[n] = dash_range_values(s_text)
                if held is None and sv in dashed[n]:
                    held = f"{sv} (a range's end)"
                if held is None:
                    bare = True
                    break
                phrase = phrase or held
            if bare:
                break
        if phrase is not None and not bare:
            out.append((raws[i], phrase))
    return out
