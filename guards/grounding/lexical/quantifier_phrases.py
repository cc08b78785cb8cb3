"""A quantity told by a phrase the single-word scale does not read: "No service uses mTLS"
where the source says "Every service uses mTLS", "Both regions failed over" where it says
"One of the two regions failed over", "most" where it says "hardly any" (session 18, the
write-path red team).

`quantifiers.py` reads single quantifier words and leaves a bounded word ("only some",
"almost no") and a determiner outside its scale ("no", "both", "neither") unread, on
either side. These phrases are closed-class English (a grammar fact) and each says a
point of the same quantity scale (`quantifiers.QUANTITY`'s classes):

* none: "no" before a noun (not "no longer", "no more", an answer's "No,", a
  compound's "no-kill"), "neither";
* few: "hardly / barely / scarcely any", "almost / virtually no", "only a few";
* some: "only some", "one of the", "either of the" (not "every one of the", nor
  before a superlative or an ordinal: "one of the greatest" ranks);
* all: "both" before a noun or "of" (not "both X and Y", a coordination).

Read: where the claim or an aligned source sentence (`changed_terms.aligned`) holds such a
phrase, a claim quantity (phrase or single word) whose class no aligned source quantity
shares, and which `quantifiers.conflicting` finds contradicting every one of them, is a
contradiction (the claim's words, the source's). Two single words are left to
`quantifiers.py`, as before.
"""

from __future__ import annotations

from collections.abc import Sequence

from groundwire.guards.grounding.lexical.quantifiers import QUANTITY, conflicting, quantifier_class
from groundwire.guards.grounding.lexical.text import word_set

__all__ = ["PHRASE_WORDS", "changed_quantity_phrases", "quantities"]

ALL, SOME, FEW, NONE = QUANTITY["all"], QUANTITY["some"], QUANTITY["few"], QUANTITY["none"]
PHRASE_WORDS = word_set("no neither hardly barely scarcely almost virtually only one either both")
_NOT_NOUN_AFTER_NO = word_set(
    """longer more less matter doubt sooner later than one way and or but the a an to of
    in on at for"""
)
# after "one of the", a superlative or an ordinal ranks (the -est words are read by form)
_RANKING = word_set("best worst most least first last top second third")
_SCARCE = word_set("hardly barely scarcely")
_NEARLY = word_set("almost virtually")


def _universal_before(lows: Sequence[str], k: int) -> bool:
    """ "every one of the", "each one of the": the universal, read by `quantifiers.py`."""
    return k > 0 and lows[k - 1] in ("every", "each", "any", "no", "not")


def _phrase(lows: Sequence[str], k: int, comma_after: bool) -> tuple[int, int] | None:
    """(class, words) of a quantity phrase starting at k, else None."""
    low = lows[k]
    n = len(lows)
    nxt = lows[k + 1] if k + 1 < n else ""
    after = lows[k + 2] if k + 2 < n else ""
    if low == "no":
        if comma_after or not nxt.isalpha() or nxt in _NOT_NOUN_AFTER_NO:
            return None
        if k and lows[k - 1] in _NEARLY:
            return None  # read from "almost"
        return NONE, 1
    if low == "neither" and (nxt == "of" or nxt.isalpha()) and "nor" not in lows[k : k + 5]:
        return NONE, 1
    if low in _SCARCE and nxt == "any":
        return FEW, 2
    if low in _NEARLY and nxt in ("no", "none", "nobody", "nothing"):
        return FEW, 2
    if low == "only" and nxt == "a" and after == "few":
        return FEW, 3
    if low == "only" and nxt == "some":
        return SOME, 2
    if (
        low in ("one", "either")
        and nxt == "of"
        and after == "the"
        and not _universal_before(lows, k)
    ):
        third = lows[k + 3] if k + 3 < n else ""
        if third.endswith("est") or third in _RANKING:
            return None  # "one of the greatest quarterbacks": a rank, not a quantity
        return SOME, 3
    if low == "both" and "and" not in lows[k + 1 : k + 4] and (nxt == "of" or nxt.isalpha()):
        return ALL, 1
    return None


def quantities(lows: Sequence[str], commas: Sequence[bool]) -> tuple[list[tuple[int, int]], bool]:
    """(class, position) of each quantity of `lows` (phrases, then single words of the
    quantity scale outside them), and whether any phrase was read. `commas[k]`: a comma
    or a hyphen right after word k."""
    out: list[tuple[int, int]] = []
    taken: set[int] = set()
    phrase = False
    for k, low in enumerate(lows):
        if low in PHRASE_WORDS and k not in taken:
            got = _phrase(lows, k, commas[k])
            if got is not None:
                out.append((got[0], k))
                taken.update(range(k, k + got[1]))
                phrase = True
    for k, low in enumerate(lows):
        if k in taken or low not in QUANTITY:
            continue
        q = quantifier_class(lows, k)
        if q is not None and q[0] == 0:
            out.append((q[1], k))
    return out, phrase


def changed_quantity_phrases(
    claim: tuple[list[tuple[int, int]], bool],
    raws: Sequence[str],
    sources: Sequence[tuple[tuple[list[tuple[int, int]], bool], Sequence[str]]],
) -> list[tuple[str, str]]:
    """(claim word, source word) for each claim quantity changed (module docstring)."""
    mine, mine_phrase = claim
    if not mine:
        return []
    theirs = [(c, s_raws[j]) for (items, _), s_raws in sources for c, j in items]
    if not theirs or not (mine_phrase or any(p for (_, p), _ in sources)):
        return []
    out: list[tuple[str, str]] = []
    for cls, k in mine:
        if any(c == cls for c, _ in theirs):
            continue
        if all(conflicting(0, cls, c) for c, _ in theirs):
            out.append((raws[k], theirs[0][1]))
    return out
