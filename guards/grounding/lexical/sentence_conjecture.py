"""The speaker's own conjecture opening any sentence of the claim, not only its first.

`speculation.own_conjecture` reads "I think X" only where it opens the claim (session 12):
a hedge inside a sentence ("..., i guess he is the one who persuaded him") bears on its
own clause, and FaithDial labels such responses faithful. But a claim of two sentences
whose second opens with the speaker's conjecture ("88 % is a good score. I think I too
would rate this movie average.") states that belief as much as one opening with it: a
sentence boundary starts a new statement, and the hedge frames all of it. The memory
would keep the speaker's belief as the source's fact.

So the same test (the hedge guard's `personal_speculation` category, first person, not
voiced by the source) is applied at the start of each sentence of the claim. A hedge
after a comma or a conjunction stays inside its sentence and is still not read; the
source voicing the same hedge still lets it through (`own_conjecture`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from groundwire.guards.grounding.lexical.speculation import own_conjecture
from groundwire.topics.records import SourceTurn

__all__ = ["sentence_conjecture"]

# A sentence end: one or more of . ! ? (a closing quote or bracket may follow), then
# white space. "2.7 inches" or "Ph.D." has no space after the point and splits nothing.
_END = re.compile(r"[.!?]+[\"')\]\u201d\u2019]*\s+")
# The claim's sentences read at most (`own_conjecture` scans the hedges of the text from
# the sentence on); a memory claim has a few, a pasted document many.
MAX_SENTENCES = 16


def sentence_conjecture(claim_text: str, turns: Sequence[SourceTurn]) -> list[str]:
    """The first-person words of speculation opening the claim or one of its sentences
    (see the module docstring); empty when there are none."""
    found = own_conjecture(claim_text, turns)
    if found:
        return found
    for k, m in enumerate(_END.finditer(claim_text)):
        if k >= MAX_SENTENCES:
            break
        rest = claim_text[m.end() :]
        if rest.strip():
            found = own_conjecture(rest, turns)
            if found:
                return found
    return []
