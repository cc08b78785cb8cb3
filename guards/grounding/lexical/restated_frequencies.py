"""A frequency told in other words: "Certificates are rotated every year" where the source
says "Certificates are rotated annually" (session 18, older rules' false blocks).

`frequency_periods.py` reads a frequency as the time between two occurrences ("every
year", "annually", "once a week", "biweekly", "every other week") and reports a claim
whose period no aligned source frequency has. The other way round it said nothing:
word overlap read "every year" against "annually" as two words the source lacks, "once
a week" against "weekly" as a number ("once") the source never wrote, and the score
blocked a faithful restatement. The words of a frequency are a closed class of English
(the calendar's units and the adverbs built on them, `frequency_periods`), so no word
list is added here.

`restated_frequency_words`: the claim positions of each frequency whose period (within
`frequency_periods`' 5 %) a source sentence states, when that sentence also holds a
content stem of the claim outside the frequency (the same statement, not any periodic
thing of the source). They count as found, and a number among them ("once", "two" of
"every two weeks") is no number the source lacks: the period is the source's. A
different period ("every month" against "annually") finds nothing here and stays the
changed frequency `frequency_periods` reports.
"""

from __future__ import annotations

from collections.abc import Sequence

from groundwire.guards.grounding.lexical.evidence import Sentence
from groundwire.guards.grounding.lexical.frequency_periods import FREQUENCY_WORDS, frequencies

__all__ = ["FREQUENCY_CUES", "restated_frequency_words"]

# a claim can state a frequency only with one of these (the cheap gate before any loop)
FREQUENCY_CUES = FREQUENCY_WORDS


def _same(a: float, b: float) -> bool:
    """Two periods in days that are one (`frequency_periods`' tolerance, 5 %)."""
    return abs(a - b) <= 0.05 * max(a, b)


def restated_frequency_words(
    claim_lows: Sequence[str],
    claim_stems: Sequence[str],
    content: Sequence[bool],
    sentences: Sequence[Sentence],
) -> set[int]:
    """The claim positions of the words of each frequency whose period a source sentence
    sharing a claim content stem outside the frequency states ("every" and "year" of
    "rotated every year" against "rotated annually"); see the module docstring."""
    mine = frequencies(claim_lows)
    if not mine:
        return set()
    out: set[int] = set()
    for periods, a, b in mine:
        rest = {
            st
            for i, (st, c) in enumerate(zip(claim_stems, content, strict=True))
            if c and not a <= i < b
        }
        if not rest:
            continue
        for s in sentences:
            if rest.isdisjoint(s.stems) or FREQUENCY_WORDS.isdisjoint(s.lows):
                continue
            theirs = [p for p, _, _ in frequencies(s.lows)]
            if any(_same(x, y) for x in periods for p in theirs for y in p):
                out.update(range(a, b))
                break
    return out
