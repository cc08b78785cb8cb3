"""A denial told by a quantity phrase on one side and by a negation on the other: "Almost
no tickets were reopened" where the source says "Hardly any tickets were reopened", "No
customer was affected" where it says "Not a single customer was affected" (session 18,
older rules' false blocks).

The polarity rule counts negation words: "no" inside "almost no" is one, "hardly any" is
none, so the two clauses read as a negation flip, though both say "few". And a clause
that opens with "no" is read as an answer to the other speaker ("No, ..."), so "No
customer was affected" read as unnegated against the source's "Not a single customer".
`quantifier_phrases.py` already reads these phrases as points of one quantity scale
(closed-class English): "no" before a noun (not an answer's "No,") is *none*; "hardly /
barely / scarcely any" and "almost / virtually no" are *few*.

`quantity_agrees` (asked by `polarity.check_polarity` for an aligned pair of clauses
whose negations differ): they agree when

* the unnegated clause opens with "no" read as *none* (a determiner, not an answer): it
  denies as the other side's negation does; or
* both clauses hold a quantity phrase of the same class ("almost no" / "hardly any").

And `cessation.py` reads a claim's "hardly" as a state ended where a source sentence
states it plainly; "barely" and "scarcely" are left out there ("barely passed" passed),
but before "any" or "ever" they deny as "hardly" does ("Barely any endpoint is
documented"): `scarce_quantity` tells `cessation.ceased` that such a source sentence
denies it itself.

"No customer was affected" against "Not every customer was affected" (the negation
denies a quantity: some were), "Almost no tickets" against "Most tickets were reopened"
(another class) and "Some tickets were not reopened" (no phrase) stay what the polarity
rule finds.
"""

from __future__ import annotations

from collections.abc import Sequence

from groundwire.guards.grounding.lexical.quantifier_phrases import NONE, PHRASE_WORDS, _phrase
from groundwire.guards.grounding.lexical.quantifiers import QUANTITY

__all__ = ["PHRASE_WORDS", "commas_after", "quantity_agrees", "scarce_quantity"]


def commas_after(text: str, spans: Sequence[tuple[int, int]]) -> list[bool]:
    """Whether a comma or a hyphen stands right after each word."""
    out = []
    for k, (_, end) in enumerate(spans):
        nxt = spans[k + 1][0] if k + 1 < len(spans) else len(text)
        gap = text[end:nxt]
        out.append("," in gap or "-" in gap)
    return out


def _phrases(
    lows: Sequence[str], pos: Sequence[int], commas: Sequence[bool]
) -> list[tuple[int, int]]:
    """(class, position) of the quantity phrases (`quantifier_phrases._phrase`) that
    start inside the clause `pos`."""
    out: list[tuple[int, int]] = []
    for k in pos:
        if lows[k] in PHRASE_WORDS:
            got = _phrase(lows, k, commas[k])
            if got is not None:
                out.append((got[0], k))
    return out


def _denies_a_quantity(lows: Sequence[str], pos: Sequence[int], neg_at: int) -> bool:
    """Whether the negation at `neg_at` bears on a quantity word of the clause `pos`
    ("not every", "not all", "not many": within the two words after it)."""
    return any(neg_at < k <= neg_at + 2 and lows[k] in QUANTITY for k in pos)


def quantity_agrees(
    neg: tuple[Sequence[str], Sequence[int], Sequence[bool]],
    plain: tuple[Sequence[str], Sequence[int], Sequence[bool]],
    neg_at: int,
) -> bool:
    """Whether the negated clause (`neg`: the side's lower-case words, the clause's
    positions, a comma after each word; its negation at `neg_at`) and the unnegated one
    (`plain`) deny alike by a quantity phrase (module docstring)."""
    p_lows, p_pos, p_commas = plain
    theirs = _phrases(p_lows, p_pos, p_commas)
    if not theirs:
        return False
    n_lows, n_pos, n_commas = neg
    if p_pos and any(cls == NONE and k == p_pos[0] for cls, k in theirs):
        # "No customer was affected": opens with a determiner, not an answer; it denies
        # as a plain negation does, not as "not every" / "not all" (some, not none)
        return not _denies_a_quantity(n_lows, n_pos, neg_at)
    mine = _phrases(n_lows, n_pos, n_commas)
    return any(c == o for c, _ in mine for o, _ in theirs)


def scarce_quantity(lows: Sequence[str]) -> bool:
    """Whether "barely" or "scarcely" stands before "any" or "ever" ("barely any
    endpoint", "scarcely ever"): a broad negative, as "hardly any" is."""
    return any(
        low in ("barely", "scarcely") and k + 1 < len(lows) and lows[k + 1] in ("any", "ever")
        for k, low in enumerate(lows)
    )
