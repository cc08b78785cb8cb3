"""A condition turned round: "We deploy if the tests fail" where the source says "We
deploy unless the tests fail" (session 18, the write-path red team).

"unless X" is "if not X": a claim that keeps every word of the condition and swaps
"unless" for "if" (or "when", "whenever") states the act under the opposite condition.
No word of the claim is missing and neither side is negated, so the polarity rules read
nothing. The subordinators are a closed class of English (a grammar fact): positive
"if", "when", "whenever"; negative "unless". A condition's polarity is its
subordinator's, turned by a negation inside the condition ("if the tests do not fail" is
"unless the tests fail", and agrees with it), and so by a negation in the main clause
beside it ("If the tests fail, we don't deploy" agrees with "We deploy unless the tests
fail": the pair turned round twice).

Read: a claim condition (the words after the subordinator, to the end of its clause)
whose content stems are exactly those of a condition in an aligned source sentence
(`changed_terms.aligned`), with the other polarity, where no aligned source condition
with those stems has the claim's polarity, is a contradiction. Conditions whose words
differ ("if the tests pass" / "unless the tests fail": an antonym inside) are not read;
"even if" (a concession, not a condition) and "only if" are not read.
"""

from __future__ import annotations

from collections.abc import Sequence

from groundwire.guards.grounding.lexical.text import word_set

__all__ = ["CONDITION_WORDS", "conditions", "inverted_conditions"]

_POSITIVE = word_set("if when whenever")
CONDITION_WORDS = _POSITIVE | {"unless"}
_NEG = word_set("not never no")
_SKIP_BEFORE = word_set("even only")


def conditions(
    lows: Sequence[str],
    stems: Sequence[str],
    content: Sequence[bool],
    clause: Sequence[int],
) -> list[tuple[str, frozenset[str], bool]]:
    """(subordinator, condition's content stems, polarity) of each condition: the words
    after the subordinator in the clause of the word that follows it."""
    out: list[tuple[str, frozenset[str], bool]] = []
    n = len(lows)
    for k, low in enumerate(lows):
        if low not in CONDITION_WORDS or k + 1 >= n:
            continue
        if k and lows[k - 1] in _SKIP_BEFORE:
            continue
        c = clause[k + 1]
        j = k + 1
        got: set[str] = set()
        negated = False
        while j < n and clause[j] == c and lows[j] not in CONDITION_WORDS:
            if lows[j] in _NEG or lows[j].endswith("n't"):
                negated = True
            elif content[j]:
                got.add(stems[j])
            j += 1
        if not got:
            continue
        positive = (low != "unless") != negated
        # a negated main clause turns the pair round again: "If the tests fail, we don't
        # deploy" says what "We deploy unless the tests fail" says (audit of session 18)
        if _main_negated(lows, clause, k, j):
            positive = not positive
        out.append((low, frozenset(got), positive))
    return out


def _main_negated(lows: Sequence[str], clause: Sequence[int], k: int, j: int) -> bool:
    """Whether the main clause around the condition `lows[k:j]` (the clause of the word
    before the subordinator, or of the word after the condition) holds a negation."""
    flank = {clause[k - 1]} if k else set()
    if j < len(lows):
        flank.add(clause[j])
    return any(
        (w in _NEG or w.endswith("n't")) and clause[m] in flank and not k <= m < j
        for m, w in enumerate(lows)
    )


def inverted_conditions(
    claim: list[tuple[str, frozenset[str], bool]],
    sources: Sequence[list[tuple[str, frozenset[str], bool]]],
) -> list[tuple[str, str]]:
    """(claim's subordinator, source's) for each claim condition turned round."""
    out: list[tuple[str, str]] = []
    for word, stems, positive in claim:
        other: str | None = None
        agrees = False
        for conds in sources:
            for s_word, s_stems, s_positive in conds:
                if s_stems != stems:
                    continue
                if s_positive == positive:
                    agrees = True
                else:
                    other = other or s_word
        if other is not None and not agrees:
            out.append((word, other))
    return out
