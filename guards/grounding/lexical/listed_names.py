"""A name swapped inside a list: "We visited Madrid, Rome and Paris" against "We visited
Paris, Rome and Berlin".

`names.swapped_names` finds a claim name the source never uses by its links to the shared
words around it, and a source name in the same place. A list breaks both: its items are
joined by commas and "and" (no link crosses a conjunction: "Dana and the CTO met" joins
two people), a claim that reorders the list puts the swapped name beside other
neighbours, and a source name the claim uses elsewhere ("..., and Whitehaven Beach was
the best") is no competitor. So a swap found alone was missed inside an enumeration.

The list is a slot of its own. An **enumeration** is two to `MAX_ITEMS` items, each a run
of one to `MAX_ITEM_WORDS` capitalised words written next to each other, joined by commas
and a last "and" / "or" ("A, B and C", "A and B", "A, B, or C"). A claim enumeration whose
items are those of one source enumeration but one, where the source has as many items and
the claim's odd item holds a word the source never uses (in any case), names a different
member: a contradiction, reported as (the claim item's own words, the source item's own
words): ("Madrid", "Berlin"), ("Whitehouse", "Whitehaven") for "Whitehouse Beach" /
"Whitehaven Beach". A list in another order ("Berlin, Rome and Paris") has no odd item;
a list with an item added ("Paris, Rome, Berlin and Madrid") is longer than the source's
and stays what it was (an added specific); an item the source writes differently
("Wallstreet", `respelled`) is no swap.

Cost: one pass over the words of the claim; the source sentences are read only when a
claim enumeration has an item with a word the source never uses, each once, and each
source list of a claim list's size is indexed by its items less one (at most `MAX_ITEMS`
keys a list), so a claim list is matched by lookups, not by pairing it with every source
list.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from groundwire.guards.grounding.lexical.evidence import Sentence

__all__ = ["MAX_ITEMS", "MAX_ITEM_WORDS", "enumerations", "swapped_in_lists"]

MAX_ITEMS = 20
MAX_ITEM_WORDS = 4
# what may stand between two items: a comma, "and" / "or" (after a comma or not)
_JOIN = re.compile(r"\s*,\s*|\s*,?\s*\b(?:and|or)\b\s*", re.IGNORECASE)
_LAST = re.compile(r".*\b(?:and|or)\b", re.IGNORECASE | re.DOTALL)

Item = tuple[str, ...]  # the lower-case words of one item


def enumerations(
    raws: Sequence[str], spans: Sequence[tuple[int, int]], text: str
) -> list[list[tuple[int, int]]]:
    """The enumerations of one text (see the module docstring), each as its items'
    (first, last + 1) word positions. One pass over the words."""
    items: list[tuple[int, int]] = []  # runs of capitalised words written side by side
    k, n = 0, len(raws)
    while k < n:
        if not raws[k][:1].isupper():
            k += 1
            continue
        end = k + 1
        while (
            end < n
            and raws[end][:1].isupper()
            and not text[spans[end - 1][1] : spans[end][0]].strip()
        ):
            end += 1
        if end - k <= MAX_ITEM_WORDS:
            items.append((k, end))
        else:
            items.append((-1, -1))  # too long for an item: breaks any list
        k = end
    out: list[list[tuple[int, int]]] = []
    run: list[tuple[int, int]] = []

    ends: list[int] = []  # lengths of `run` whose last join is "and" / "or"

    def close() -> None:
        # "A, B and C, and D was the best": the list may end at any "and"; the longest
        # reading first, then each shorter one
        for size in reversed(ends):
            if 2 <= size <= MAX_ITEMS:
                out.append(run[:size])

    for item in items:
        if item[0] < 0:
            close()
            run, ends = [], []
            continue
        if run:
            gap = text[spans[run[-1][1] - 1][1] : spans[item[0]][0]]
            if _JOIN.fullmatch(gap):
                run.append(item)
                if _LAST.match(gap):
                    ends.append(len(run))
                continue
            close()
        run, ends = [item], []
    close()
    return out


def _item(lows: Sequence[str], at: tuple[int, int]) -> Item:
    return tuple(lows[at[0] : at[1]])


def swapped_in_lists(
    raws: Sequence[str],
    lows: Sequence[str],
    spans: Sequence[tuple[int, int]],
    text: str,
    sentences: Sequence[Sentence],
    src_lows: set[str],
    known_names: set[str],
    respelled: Callable[[str], bool],
) -> list[tuple[str, str]]:
    """(claim words, source words) of each claim list item put where a source list of
    the same members has another (see the module docstring)."""
    # (the claim list's items, its odd one, where that one is)
    wanted: list[tuple[list[Item], int, tuple[int, int]]] = []
    for found in enumerations(raws, spans, text):
        its = [_item(lows, at) for at in found]
        if len(set(its)) < len(its):
            continue
        odd = [
            j
            for j, at in enumerate(found)
            if any(
                lows[k] not in src_lows
                and lows[k] not in known_names
                and lows[k].removesuffix("'s") not in src_lows
                and not respelled(raws[k])
                for k in range(*at)
            )
        ]
        if len(odd) == 1:
            wanted.append((its, odd[0], found[odd[0]]))
    if not wanted:
        return []
    # each source list by its items less one: the claim list less its odd item finds
    # the source lists it could be, by a lookup
    index: dict[tuple[int, frozenset[Item]], Item] = {}
    sizes = {len(its) for its, _, _ in wanted}  # only source lists of a claim list's size
    for s in sentences:
        offsets = s.word_spans()
        for found in enumerations(s.raws, offsets, s.text):
            if len(found) not in sizes:
                continue
            its = [_item(s.lows, at) for at in found]
            members = frozenset(its)
            if len(members) < len(its):
                continue
            for j, it in enumerate(its):
                index.setdefault((len(its), members - {it}), _item(s.raws, found[j]))
    out: list[tuple[str, str]] = []
    for its, j, at in wanted:
        theirs = index.get((len(its), frozenset(its[:j] + its[j + 1 :])))
        if theirs is None:
            continue
        theirs_low = {w.lower() for w in theirs}
        # the words the claim item has of its own: "Whitehouse" of "Whitehouse Beach"
        own = [raws[k] for k in range(*at) if lows[k] not in theirs_low and lows[k] not in src_lows]
        other = [w for w in theirs if w.lower() not in its[j]]
        if own and other:
            out.append((" ".join(own), " ".join(other)))
    return out
