"""An elliptical denial: "Ben claims the v1 API is deprecated, but it isn't." The clause
after "but" keeps only a subject pronoun and a negated auxiliary; the rest of it is the
clause before, elided, so it calls that clause false. Read as the mood `denied`
(`assertion.py`), a claim aligned only with the denied clause is `not_supported`.

The shape, read from closed classes of English words only: "but" or "yet", a pronoun
that refers back to a thing or a statement ("it", "that", "this", "they"; "it's" with
"not"), an auxiliary with "not" or "n't" ("isn't", "is not", "didn't", "won't"), and
then nothing more of that clause: the sentence ends or a conjunction opens the next
clause. A content word after the auxiliary ("..., but it isn't removed", "but it doesn't
on Windows") is a clause of its own, not an ellipsis. A personal subject ("..., but I
didn't", "but Ben didn't") is left out: it may be another doer than the clause before's.
"""

from __future__ import annotations

from collections.abc import Sequence

from groundwire.guards.grounding.lexical.text import AUXILIARIES, CONJUNCTIONS, word_set

__all__ = ["OPENERS", "elliptical_denial_at"]

# what opens the contrasting clause
OPENERS = word_set("but yet")
# a pronoun that takes up a thing or a statement said before
_ANAPHORS = word_set("it that this they")
# "it's not", "that's not": the pronoun and "be" written as one word
_ANAPHORS_BE = word_set("it's that's")
_NOT = word_set("not n't")


def elliptical_denial_at(lows: Sequence[str], k: int) -> bool:
    """Whether the word at `k` ("but", "yet") opens an elliptical denial of what came
    before it in the sentence (see the module docstring)."""
    if lows[k] not in OPENERS or k == 0:
        return False
    n = len(lows)
    j = k + 1
    if j < n and lows[j] in _ANAPHORS_BE:
        j += 1
        if j >= n or lows[j] not in _NOT:
            return False
    elif j < n and lows[j] in _ANAPHORS:
        j += 1
        if j >= n or lows[j] not in AUXILIARIES:
            return False
        if not (lows[j].endswith("n't") or (j + 1 < n and lows[j + 1] in _NOT)):
            return False
        if not lows[j].endswith("n't"):
            j += 1
    else:
        return False
    return j + 1 >= n or lows[j + 1] in CONJUNCTIONS
