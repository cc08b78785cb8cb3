"""An adjective and its negating prefix on opposite sides of a WordNet pair, where both
are satellites (session 16): "unreadable" / "readable", "unusable" / "usable".

`antonyms.antonymous` does not pair two satellites: WordNet files "readable" under
"legible" and "unreadable" under "illegible", and two satellites of opposite heads are
often no opposites of each other (a word "similar to" hot and one "similar to" cold
differ in more than direction). So "The config file is unreadable" against "The config
file is readable" was a partial grounding with one word missing. When one satellite is
the other with a negating prefix ("un", "in", "im", "il", "ir", "dis", "non") and
WordNet puts the two on opposite sides of one pair, the morphology and WordNet agree:
they are opposites. The prefix alone is not enough ("invaluable" is no opposite of
"valuable", "inflammable" says what "flammable" says; WordNet puts neither pair on
opposite sides).

"non" written apart ("non-blocking" is read as "non" and "blocking") is no word of its
own: `non_flips` reads a word the claim writes after "non" where the source writes it
without, or back ("The job is non-blocking" / "The job is blocking").
"""

from __future__ import annotations

from collections.abc import Sequence, Set

from groundwire.guards.grounding.lexical.antonyms import codes
from groundwire.guards.grounding.lexical.evidence import Sentence
from groundwire.guards.grounding.lexical.text import NEGATIONS

__all__ = ["NEGATING", "non_flips", "prefixed_satellites"]

NEGATING = ("un", "in", "im", "il", "ir", "dis", "non")


def _opposite_sides(a: str, b: str) -> bool:
    """Some code of `a` and some code of `b` are the two sides of one pair (satellites
    counted)."""
    mine = codes(a)
    if not mine:
        return False
    theirs = codes(b)
    return any(x >> 2 == y >> 2 and (x & 2) != (y & 2) for x in mine for y in theirs)


def prefixed_satellites(a: str, b: str) -> bool:
    """Whether one lower-case word is a negating prefix + the other and WordNet puts
    them on opposite sides of one antonym pair (module docstring)."""
    for long, short in ((a, b), (b, a)):
        if (
            len(long) > len(short)
            and long.endswith(short)
            and long[: len(long) - len(short)] in NEGATING
            and _opposite_sides(long, short)
        ):
            return True
    return False


def _non_pairs(lows: Sequence[str]) -> tuple[set[tuple[str, str]], set[tuple[str, str]]]:
    """(word before, word) for the words written after "non" and for those written
    without it, in one sentence: the tokenizer splits "non-blocking" into "non" and
    "blocking", and "is non-blocking" is keyed ("is", "blocking") as "is blocking" is."""
    negated: set[tuple[str, str]] = set()
    bare: set[tuple[str, str]] = set()
    for k in range(1, len(lows)):
        low = lows[k]
        if low == "non":
            continue
        if lows[k - 1] == "non":
            if k > 1:
                negated.add((lows[k - 2], low))
        else:
            bare.add((lows[k - 1], low))
    return negated, bare


def _denied(lows: Sequence[str]) -> set[tuple[str, str]]:
    """(word before, word) for the words written without "non" under a negation in the
    two words before them ("is not a member"): the same statement as "is a non-member"
    (session 17, precision audit; "is not public" / "is non-public" differ in the word
    before and were never compared)."""
    return {
        (lows[k - 1], lows[k])
        for k in range(1, len(lows))
        if lows[k - 1] != "non" and not NEGATIONS.isdisjoint(lows[max(0, k - 3) : k - 1])
    }


def non_flips(
    claim_lows: Sequence[str], sentences: Sequence[Sentence], shared: Sequence[Set[str]]
) -> list[tuple[str, str]]:
    """(claim's words, source's words) for a word the claim writes with "non-" where a
    source sentence sharing words with the claim writes it without and none writes it
    with, after the same word ("is non-blocking" / "is blocking"), or the other way
    round. "non" is a prefix, not a clause's negation (`text.NEGATIONS` would read
    "non-magical people" as denying the whole sentence), so it is read here, word by
    word, and only in the same frame: "a sci-fi movie" does not deny "non-sci-fi fans"."""
    mine, plain = _non_pairs(claim_lows)
    plain -= _denied(claim_lows)  # "is not a member": "is a non-member" in other words
    theirs: set[tuple[str, str]] = set()
    bare: set[tuple[str, str]] = set()
    for s, hit in zip(sentences, shared, strict=True):
        if hit:
            negated, written = _non_pairs(s.lows)
            theirs |= negated
            bare |= written - _denied(s.lows)
    out = [(f"non-{w}", w) for b, w in sorted(mine & bare) if (b, w) not in theirs]
    out += [(w, f"non-{w}") for b, w in sorted(plain & theirs) if (b, w) not in bare]
    return out
