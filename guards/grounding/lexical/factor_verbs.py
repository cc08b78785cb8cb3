"""A multiplication changed: "The cache halved our latency" where the source says it
"doubled" it (session 16).

English names a multiplication with a closed class of words built on its numerals: the
verbs "halve", "double", "triple" / "treble", "quadruple", "quintuple" (and "sextuple",
...), the adverbs in "-fold" on a number word ("tenfold", "threefold"), and "in half".
Each states a factor: 0.5, 2, 3, 4, 5, ... WordNet links none of them as antonyms
("halve" is a way to divide, "double" a way to multiply), and no digit is written, so
neither the antonym tables nor the number rules see "halved" against "doubled": word
overlap read the claim as a partial grounding with one word missing.

A factor word of the claim contradicts the source when a source sentence sharing
content words with the claim states a factor and none of the source's sentences sharing
words states the claim's (the same factor written another way, "doubled" / "twofold",
is the same). "double" and "triple" are also adjectives and nouns ("a double shot",
"double-check"), so their bare form is read only as a verb after "to", a modal or "do"
("will double"); their -ed, -s and -ing forms are read as written.
"""

from __future__ import annotations

from collections.abc import Sequence, Set

from groundwire.guards.grounding.lexical.evidence import Sentence
from groundwire.guards.grounding.lexical.factor_phrases import by_half
from groundwire.guards.grounding.lexical.text import number_value, word_set

__all__ = ["MARKS", "changed_factors", "factor_at"]

_STEMS: dict[str, str] = {
    "halv": "0.5",
    "doubl": "2",
    "tripl": "3",
    "trebl": "3",
    "quadrupl": "4",
    "quintupl": "5",
    "sextupl": "6",
    "septupl": "7",
    "octupl": "8",
}
# the verb's forms: bare ("halve", "double"), -s, -d, -ing
_FORMS: dict[str, tuple[str, str]] = {}
for _stem, _factor in _STEMS.items():
    for _ending in ("e", "es", "ed", "ing"):
        _FORMS[_stem + _ending] = (_factor, _ending)
# before a bare "double" / "triple", what makes it a verb
_VERB_BEFORE = word_set(
    "to will would could might may can shall should must did do does didn't don't doesn't won't"
)
# the words that may state a factor (the caller's cheap test): the verb forms, "half"
# (of "in half") and any word in "-fold" (checked whole by `_factors`)
MARKS: frozenset[str] = frozenset(_FORMS) | {"half"}


def _fold(low: str) -> str | None:
    """The factor of a number word with "-fold" ("tenfold", "3-fold" read as "3fold"),
    else None ("manifold", "scaffold")."""
    if not low.endswith("fold") or len(low) < 7:
        return None
    value = number_value(low[:-4].rstrip("-"))
    return value if value is not None and value not in ("0", "1") else None


def factor_at(lows: Sequence[str], k: int) -> str | None:
    """The factor the word at `k` states (module docstring; "by half" after a verb of
    change: `factor_phrases.by_half`), else None."""
    low = lows[k]
    form = _FORMS.get(low)
    if form is not None:
        factor, ending = form
        if ending == "e" and factor != "0.5" and (k == 0 or lows[k - 1] not in _VERB_BEFORE):
            return None  # "a double shot", "triple the size" is read with "to" only
        return factor
    if low == "half" and k:
        return "0.5" if lows[k - 1] == "in" else by_half(lows, k)
    if low.endswith("fold"):
        return _fold(low)
    return None


def _factors(lows: Sequence[str]) -> list[tuple[str, str]]:
    """(factor, as written) of each factor word of a sentence."""
    out: list[tuple[str, str]] = []
    for k, low in enumerate(lows):
        factor = factor_at(lows, k)
        if factor is not None:
            shown = (
                low if low != "half" else f"{lows[k - 2] + ' ' if k >= 2 else ''}{lows[k - 1]} half"
            )
            if shown.endswith(" in half"):
                shown = "in half"  # as session 16 reported it
            out.append((factor, shown))
    return out


def changed_factors(
    claim_lows: Sequence[str], sentences: Sequence[Sentence], shared: Sequence[Set[str]]
) -> list[tuple[str, str]]:
    """(claim's factor word, source's) for each factor the claim states that no source
    sentence sharing its words states, where one of them states another (module
    docstring)."""
    mine = _factors(claim_lows)
    if not mine:
        return []
    theirs: list[tuple[str, str]] = []
    for s, hit in zip(sentences, shared, strict=True):
        if hit:
            theirs += _factors(s.lows)
    if not theirs:
        return []
    stated = {factor for factor, _ in theirs}
    return [(shown, theirs[0][1]) for factor, shown in mine if factor not in stated]
