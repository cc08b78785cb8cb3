"""Where a name stands in its clause, for the swapped-name rule (`names.swapped_names`):
set off by an apposition, or the patient of a passive whose agent is named.

* **An apposition after a sentence's first word** ("Grace, the CTO, approved the
  budget"): a noun phrase opened by a determiner or possessive and closed by a comma,
  then a verb, makes the first word a subject standing alone before its apposition: a
  name (a common noun takes its determiner itself: "The budget, the CTO's, ..."). Until
  session 12 the comma hid the verb, so a name that is also a common word ("Grace",
  "Hope", "Bill") opening a claim this way was no name, and "Grace, the CTO, approved
  the budget" against "Dana, the CTO, approved the budget on Friday" was `partial`. An
  adverb opening a sentence ("Yesterday, the CTO approved ...", "However, the CTO,
  who ...") has no closing comma before a verb, so it stays no name.
* **The patient of a passive with its agent named** ("Revenue was reported by the
  CFO"): the subject is what was acted on, and the agent is after "by". It holds no
  agent's slot, so a source name that acts in the same words ("Dana, the CFO, reported
  costs": the subject of the active verb) is no rival for it; a source name in the
  patient's place ("The CTO hired Dana", "Dana was hired by the CTO") still is.

The word lists are closed classes of English (determiners and possessives, the forms of
"be"), not taken from any data set.
"""

from __future__ import annotations

from collections.abc import Sequence

from groundwire.guards.grounding.lexical.text import word_set

__all__ = ["after_apposition", "passive_with_agent"]

# what opens an appositive noun phrase ("the CTO", "our new head of design")
_OPEN_NP = word_set("the a an our my your his her their its")
# the longest apposition read: "the head of platform engineering"
_MAX_APPOSITION = 6
# the auxiliary of a passive
_BE = word_set("is was were are be been being am")
# what may stand between the auxiliary and its participle ("was *later* reported")
_ADVERBS = word_set("also later first then already just only recently formally officially")
# irregular past participles often heard in a passive ("led", "run", "held", "made")
_IRREGULAR = word_set(
    """led run held made paid sent built bought brought caught taught thought told sold
    found kept left lost met read said seen set shut spent struck won written done given
    taken known shown grown drawn chosen spoken driven begun"""
)


def _gap(text: str, spans: Sequence[tuple[int, int]], a: int, b: int) -> str:
    return text[spans[a][1] : spans[b][0]]


def after_apposition(
    at: int, raws: Sequence[str], spans: Sequence[tuple[int, int]], text: str
) -> int | None:
    """The position of the word after an apposition set off by commas right after the
    word at `at` ("Grace*, the CTO,* approved": the position of "approved"), None when
    none follows it (see the module docstring)."""
    k = at + 1
    if k >= len(raws) or _gap(text, spans, at, k).strip() != ",":
        return None
    if raws[k].lower() not in _OPEN_NP:
        return None
    for m in range(k + 1, min(len(raws), k + 1 + _MAX_APPOSITION)):
        between = _gap(text, spans, m - 1, m).strip()
        if between == ",":
            return m
        if between:
            return None  # another mark: no plain noun phrase
    return None


def _participle(low: str) -> bool:
    return low.isalpha() and (low.endswith(("ed", "en", "wn")) or low in _IRREGULAR)


def passive_with_agent(
    at: int, raws: Sequence[str], spans: Sequence[tuple[int, int]], text: str
) -> bool:
    """Whether the word at `at` is the subject of a passive whose agent its clause names
    with "by" ("Revenue was reported by the CFO", "Grace, the CTO, was hired by Dana"):
    a form of "be", at most one adverb, a participle, and "by" within three words, with
    no mark of punctuation between."""
    k = after_apposition(at, raws, spans, text) or at + 1
    lows = [r.lower() for r in raws]
    if k >= len(lows) or lows[k] not in _BE:
        return False
    if k + 1 < len(lows) and lows[k + 1] in _BE:  # "has been", "was being"
        k += 1
    k += 1
    if k < len(lows) and lows[k] in _ADVERBS:
        k += 1
    if k >= len(lows) or not _participle(lows[k]):
        return False
    for m in range(k + 1, min(len(lows), k + 4)):
        if _gap(text, spans, m - 1, m).strip():
            return False
        if lows[m] == "by":
            return True
    return False
