"""Who did what to whom: two names the claim puts in the opposite order of the source's,
around the same words, have swapped roles ("Bob approved Alice's request" against
"Alice approved Bob's request"; "Tom is the manager of Maria" against "Maria is the
manager of Tom"). Word overlap sees every word; only the order tells.

Not a swap: a change of voice (one side has "by" between the names: "Bob's request was
approved by Alice"), names joined by nothing but function words ("Tom and Maria"), and
relations that read the same both ways ("met", "married", "talked with").

"Only" is a claim about the others too: "only the gateway uses mTLS" against "the gateway
and the billing API use mTLS" (`only_one_of_many`).

A direction is an order too: "moved from Jenkins to GitHub Actions" against "moved from
GitHub Actions to Jenkins" (`reversed_direction`) has every word of the source and the
two ends the other way round.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

from groundwire.guards.grounding.lexical.evidence import Sentence
from groundwire.guards.grounding.lexical.text import (
    SYMMETRIC_RELATIONS,
    ClaimWords,
    capitals,
)

__all__ = [
    "many_for_only_one",
    "only_one_of_many",
    "reversed_direction",
    "swapped_arguments",
    "swapped_roles",
]

_SYMMETRIC = SYMMETRIC_RELATIONS  # swapping their two sides says the same


def _names(raws: Sequence[str], content: Sequence[bool]) -> list[int]:
    """Positions of the capitalised content words."""
    return [i for i in capitals(raws) if content[i]]


def _capitals(s: Sentence) -> dict[str, int]:
    """Stem -> first position of the sentence's capitalised words (cached on it)."""
    if s._capitals is None:
        where: dict[str, int] = {}
        for j, raw in enumerate(s.raws):
            if raw[:1].isupper():
                where.setdefault(s.word_stems[j], j)
        s._capitals = where
    return s._capitals


# The most words two names may stand apart in the claim to be read as one relation's two
# arguments: a relation is a clause ("Marco reviewed Priya's pull request"), and without a
# bound a claim made of names at the size limit pairs every name with every other.
ROLE_SPAN = 40
# The most work one call of `swapped_roles` or `swapped_arguments` does, in claim words
# read: each (claim word, claim word, source sentence) triple costs one plus the words
# between the two. A claim and source at the size limits made of one relation repeated
# (each copy with a word of its own, so no set collapses them) otherwise pair every copy
# with every other in every source sentence (a minute and more per claim). Past the
# budget the call returns what it found so far; no claim of the dev file comes near it.
MAX_STEPS = 400_000


def swapped_roles(
    words: ClaimWords,
    content: Sequence[bool],
    sentences: Sequence[Sentence],
    shared: Sequence[set[str] | frozenset[str]],
    source_stems: set[str],
) -> list[tuple[str, str]]:
    """(claim name, source name) for each pair of names that a source sentence sharing
    three content words with the claim puts around the same words the other way round
    (`source_stems`: every content stem of the source)."""
    raws, lows, stems = words.raws, words.lows, words.stems
    names = [i for i in _names(raws, content) if stems[i] in source_stems]
    if len(names) < 2:
        return []
    out: list[tuple[str, str]] = []
    name_stems = {stems[i] for i in names}
    budget = [MAX_STEPS]
    # the sentences sharing three content words with the claim, two of them its names
    three = map((2).__lt__, map(len, shared))
    for s, hit in itertools.compress(zip(sentences, shared, strict=True), three):
        if budget[0] <= 0:
            break  # bounded work per claim (`MAX_STEPS`)
        if len(name_stems.intersection(hit)) < 2:
            continue
        where = _capitals(s)
        found = [(i, where[stems[i]]) for i in names if stems[i] in where]
        for (i1, j1), (i2, j2) in _near_pairs(found, budget):
            if stems[i1] == stems[i2] or j2 >= j1:
                continue
            between = [k for k in range(i1 + 1, i2) if content[k]]
            s_between = set(s.word_stems[j2 + 1 : j1])
            if not between or not all(stems[k] in s_between for k in between):
                continue
            if not _same_relation(set(lows[i1 + 1 : i2]), set(s.lows[j2 + 1 : j1])):
                continue
            pair = (raws[i1], s.raws[j2])
            if pair not in out:
                out.append(pair)
    return out


def _near_pairs(
    found: Sequence[tuple[int, int]], budget: list[int]
) -> Iterator[tuple[tuple[int, int], tuple[int, int]]]:
    """The pairs of `found` (claim position, source position; in claim order) at most
    `ROLE_SPAN` claim words apart, while `budget[0]` lasts (each pair costs one plus the
    words between)."""
    for a, (i1, j1) in enumerate(found):
        for i2, j2 in found[a + 1 :]:
            if i2 - i1 > ROLE_SPAN:
                break  # `found` is in claim order: every later one is farther
            if budget[0] <= 0:
                return
            budget[0] -= 1 + i2 - i1
            yield (i1, j1), (i2, j2)


def _same_relation(c_lows: set[str], s_lows: set[str]) -> bool:
    """Whether the words between two swapped arguments (claim side, source side) state one
    relation that a swap reverses: the same voice (no "by" on one side only: active
    against passive) and no relation that reads the same both ways."""
    return ("by" in c_lows) == ("by" in s_lows) and _SYMMETRIC.isdisjoint(c_lows | s_lows)


def swapped_arguments(
    words: ClaimWords,
    content: Sequence[bool],
    sentences: Sequence[Sentence],
    shared: Sequence[set[str] | frozenset[str]],
    uniq: set[str] | frozenset[str],
    budget: list[int] | None = None,
) -> list[tuple[str, str]]:
    """`swapped_roles` for any two content words, not only names, in a source sentence
    that has every content word of the claim ("the auth service calls the billing
    service" against "the billing service calls the auth service"): with the same words
    on both sides only the order tells who does what. The same conditions: the claim's
    content words between the two stand between them in the source too, not active
    against passive ("by" on one side only), no relation that reads both ways; and
    neither side links the two with "be" where the other does not (a copula reads both
    ways: "X is the most common type" / "the most common types include X").
    `budget`: the steps left (`MAX_STEPS`), shared by a caller's calls; one of its own
    when None."""
    stems = words.stems
    out: list[tuple[str, str]] = []
    # numbers are no roles: a date written the other way round ("2024-03-05" /
    # "05/03/2024") is read as one value by `units.date_swaps`
    positions = [i for i, c in enumerate(content) if c and words.numbers[i] is None]
    left = [MAX_STEPS] if budget is None else budget
    cost: int | None = None  # the steps all pairs of `positions` take (`_pairs_cost`)
    for s, hit in zip(sentences, shared, strict=True):
        if len(hit) < len(uniq):
            continue  # only a sentence with every content word of the claim
        if left[0] <= 0:
            return out  # bounded work per claim (`MAX_STEPS`)
        left[0] -= len(s.word_stems)  # the sentence's words (read once, then kept)
        first, last = _content_ends(s)
        if cost is None:
            cost = _pairs_cost(positions)
        if left[0] >= cost:  # the budget lasts through every pair: only the reversed ones
            left[0] -= cost
            for i1, i2 in _reversed_pairs(positions, stems, first, last):
                pair = _swapped_pair(words, content, s, first[stems[i1]], last[stems[i2]], i1, i2)
                if pair is not None and pair not in out:
                    out.append(pair)
            continue
        for a, i1 in enumerate(positions):
            for i2 in positions[a + 2 :]:  # a content word between them
                if left[0] <= 0:
                    return out  # bounded work per claim (`MAX_STEPS`)
                left[0] -= 1 + i2 - i1
                # every place of the one before every place of the other ("the National
                # Football League (NFL) is a professional football league": no order)
                j1, j2 = first.get(stems[i1]), last.get(stems[i2])
                if j1 is None or j2 is None or stems[i1] == stems[i2] or j2 >= j1:
                    continue
                pair = _swapped_pair(words, content, s, j1, j2, i1, i2)
                if pair is not None and pair not in out:
                    out.append(pair)
    return out


def _content_ends(s: Sentence) -> tuple[dict[str, int], dict[str, int]]:
    """Content stem -> its first place and its last place in the sentence, read once per
    sentence and kept on it: a source sentence is read against every claim it holds
    whole, and the maps depend on the sentence alone (callers only read them)."""
    if s._ends is None:
        first: dict[str, int] = {}
        last: dict[str, int] = {}
        for j, st in enumerate(s.word_stems):
            if s.content[j]:
                first.setdefault(st, j)
                last[st] = j
        s._ends = (first, last)
    return s._ends


def _pairs_cost(positions: Sequence[int]) -> int:
    """The steps `swapped_arguments` takes over every pair of `positions` with a word
    between them (one plus the words between, per pair), in closed form: the sum over
    i1 < i2, at least two places apart, of 1 + i2 - i1."""
    n = len(positions)
    total = 0
    ahead = 0  # sum of the positions from index a + 2 on
    for a in range(n - 3, -1, -1):
        ahead += positions[a + 2]
        count = n - 2 - a  # how many there are
        total += count + ahead - count * positions[a]
    return total


def _reversed_pairs(
    positions: Sequence[int], stems: Sequence[str], first: dict[str, int], last: dict[str, int]
) -> list[tuple[int, int]]:
    """The pairs (i1, i2) of `positions`, at least two places apart and in claim order,
    where the sentence has every place of i2's stem before every place of i1's (`first`,
    `last`: each content stem's first and last place in it) and the two stems differ; in
    the order `swapped_arguments` visits pairs. A source that keeps the claim's order has
    none: the least last place after each word is compared with its first place before any
    pair is visited."""
    n = len(positions)
    starts = [first.get(stems[i]) for i in positions]
    ends = [last.get(stems[i]) for i in positions]
    # least[b]: the least known last place from index b on (None: none known)
    least: list[int | None] = [None] * (n + 1)
    for b in range(n - 1, -1, -1):
        e, m = ends[b], least[b + 1]
        least[b] = e if m is None or (e is not None and e < m) else m
    out: list[tuple[int, int]] = []
    for a in range(n - 2):
        j1, m = starts[a], least[a + 2]
        if j1 is None or m is None or m >= j1:
            continue
        i1 = positions[a]
        for b in range(a + 2, n):
            j2 = ends[b]
            if j2 is None or j2 >= j1 or stems[i1] == stems[positions[b]]:
                continue
            out.append((i1, positions[b]))
    return out


def _swapped_pair(
    words: ClaimWords,
    content: Sequence[bool],
    s: Sentence,
    j1: int,
    j2: int,
    i1: int,
    i2: int,
) -> tuple[str, str] | None:
    """(claim word at i1, source word at j2) when the words between the two claim words
    and between the two source places state one relation the swap reverses (the tests of
    `swapped_arguments`), else None."""
    stems, lows = words.stems, words.lows
    between = [k for k in range(i1 + 1, i2) if content[k]]
    s_between = set(s.word_stems[j2 + 1 : j1])
    if not all(stems[k] in s_between for k in between):
        return None
    if stems[i1] in s_between or stems[i2] in s_between:
        return None  # a word the claim repeats: no single place to swap
    c_lows = set(lows[i1 + 1 : i2])
    s_lows = set(s.lows[j2 + 1 : j1])
    if _COPULA.isdisjoint(c_lows) != _COPULA.isdisjoint(s_lows):
        return None  # "X is the most common type" / "the most common types include X"
    if not _same_relation(c_lows, s_lows):
        return None
    return (words.raws[i1], s.raws[j2])


# "be" links a subject to what it is, and either may come first ("Paris is the capital" /
# "the capital is Paris"): one side with it and the other without is a rephrasing
_COPULA = frozenset(("is", "are", "was", "were", "be", "been", "being", "am", "'s", "'re"))


_ARTICLES = frozenset(("a", "an", "the"))
_REACH = 6  # words from "from" to its "to", and content words after "to"


def _ends(
    lows: Sequence[str], stems: Sequence[str], content: Sequence[bool]
) -> list[tuple[set[str], set[str], slice]]:
    """Each "from ... to ..." phrase: the content stems between a "from" and the "to" after
    it (within `_REACH` words), those of the phrase right after that "to", and where the
    whole phrase stands."""
    out: list[tuple[set[str], set[str], slice]] = []
    for f, low in enumerate(lows):
        if low != "from":
            continue
        end = min(len(lows), f + _REACH + 1)
        t = next((k for k in range(f + 2, end) if lows[k] == "to"), None)
        if t is None:
            continue
        start = {stems[k] for k in range(f + 1, t) if content[k]}
        goal: set[str] = set()
        k = t + 1
        while k < len(lows) and len(goal) < _REACH and (content[k] or lows[k] in _ARTICLES):
            if content[k]:
                goal.add(stems[k])
            k += 1
        # a word at both ends (a unit: "from 50 ms to 200 ms") tells no direction: the
        # ends are read by what sets them apart
        start, goal = start - goal, goal - start
        if start and goal:
            out.append((start, goal, slice(f, k)))
    return out


def reversed_direction(
    words: ClaimWords,
    content: Sequence[bool],
    sentences: Sequence[Sentence],
    shared: Sequence[set[str] | frozenset[str]],
) -> list[tuple[str, str]]:
    """(claim's "from ... to ...", source's) when the sentences sharing words with the
    claim go from where the claim arrives to where it leaves, and none goes the claim's
    way."""
    out: list[tuple[str, str]] = []
    for start, goal, here in _ends(words.lows, words.stems, content):
        reversed_in: str | None = None
        for s, hit in zip(sentences, shared, strict=True):
            if not hit or "from" not in s.lows or "to" not in s.lows:
                continue
            for s_start, s_goal, there in _ends(s.lows, s.word_stems, s.content):
                if start & s_start and goal & s_goal:
                    break  # the claim's own direction
                if start & s_goal and goal & s_start and reversed_in is None:
                    reversed_in = " ".join(s.raws[there])
            else:
                continue
            reversed_in = None
            break
        if reversed_in is not None:
            out.append((" ".join(words.raws[here]), reversed_in))
    return out


def many_for_only_one(
    words: ClaimWords,
    content: Sequence[bool],
    sentences: Sequence[Sentence],
    shared: Sequence[set[str] | frozenset[str]],
) -> list[tuple[str, str]]:
    """(claim's "X and Y", source's "only X"): `only_one_of_many` the other way round. The
    source closes a slot with "only" ("Only Alice can approve production deploys") and
    the claim puts X there with another ("Alice and Bob can approve ..."), Y a content
    word that source sentence does not have, the sentence sharing another content word
    with the claim. "Not only X" closes nothing. A claim without content words ("and so
    on") shares nothing with any sentence (`shared` is empty then): nothing to read."""
    if not shared:
        return []
    lows, stems, raws = words.lows, words.stems, words.raws
    claim_at = {st: k for k, st in reversed(list(enumerate(stems)))}
    out: list[tuple[str, str]] = []
    for s, hit in zip(sentences, shared, strict=True):
        if not hit or "only" not in s.lows:
            continue
        for i, low in enumerate(s.lows):
            if low != "only" or (i and s.lows[i - 1] == "not"):
                continue
            end = min(len(s.lows), i + 3)
            x = next((k for k in range(i + 1, end) if s.content[k]), None)
            if x is None or s.word_stems[x] not in claim_at or len(hit) < 2:
                continue
            j = claim_at[s.word_stems[x]]
            if content[j] and (j == 0 or lows[j - 1] != "only"):
                both = _joined(lows, stems, content, raws, j, None, s.stems)
                if both is not None:
                    out.append((both, f"only {s.raws[x]}"))
                    return out
    return out


def only_one_of_many(
    words: ClaimWords,
    content: Sequence[bool],
    sentences: Sequence[Sentence],
    shared: Sequence[set[str] | frozenset[str]],
) -> list[tuple[str, str]]:
    """(claim's "only X", source's "X and Y") when the claim says only X does what a
    source sentence, sharing another content word with the claim, says X and Y do
    ("X and Y", "Y and X", "both X and Y"; Y a content word the claim does not have)."""
    lows, stems = words.lows, words.stems
    claim_stems = set(stems)
    out: list[tuple[str, str]] = []
    for i, low in enumerate(lows):
        if low != "only":
            continue
        x = next((k for k in range(i + 1, min(len(lows), i + 3)) if content[k]), None)
        if x is None:
            continue
        stem = stems[x]
        # a capitalised word after X is part of its name ("the billing API")
        tail = words.lows[x + 1] if x + 1 < len(lows) and words.raws[x + 1][:1].isupper() else None
        for s, hit in zip(sentences, shared, strict=True):
            if stem not in hit or len(hit - {stem}) < 1 or "and" not in s.lows:
                continue
            other = _coordinated(s, s.word_stems.index(stem), tail, claim_stems)
            if other is not None:
                named = " ".join(words.raws[x : x + 2 if tail is not None else x + 1])
                out.append((f"only {named}", other))
                break
    return out


def _coordinated(s: Sentence, j: int, tail: str | None, claim_stems: set[str]) -> str | None:
    """ "X and Y" / "Y and X" at position j of the sentence (X's name may go on with
    `tail`; articles are skipped), Y a content word the claim does not have: the words,
    else None. "And" must touch X's phrase: "the gateway uses mTLS and TLS" joins objects,
    not the gateway and another subject."""
    return _joined(s.lows, s.word_stems, s.content, s.raws, j, tail, claim_stems)


def _joined(
    lows: Sequence[str],
    stems: Sequence[str],
    content: Sequence[bool],
    raws: Sequence[str],
    j: int,
    tail: str | None,
    known: set[str] | frozenset[str],
) -> str | None:
    """`_coordinated` over plain columns (a claim's or a sentence's): "X and Y" / "Y and
    X" at position j, Y a content word whose stem is not in `known`."""
    for step in (1, -1):
        k = j + step
        if step == 1 and tail is not None and k < len(lows) and lows[k] == tail:
            k += 1
        while step == -1 and 0 <= k < len(lows) and lows[k] in _ARTICLES:
            k -= 1
        if not (0 <= k < len(lows)) or lows[k] != "and":
            continue
        m = k + step
        while 0 <= m < len(lows) and lows[m] in _ARTICLES:
            m += step
        if 0 <= m < len(lows) and content[m] and stems[m] not in known:
            a, b = sorted((j, m))
            return " ".join(raws[a : b + 1])
    return None
