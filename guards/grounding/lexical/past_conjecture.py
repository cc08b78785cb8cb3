"""The speaker's past belief: "I thought (that) X", "I figured X", opening a sentence.

`speculation.own_conjecture` and `sentence_conjecture.py` refuse a claim framed as the
speaker's present belief ("I think X", "I guess X"): it states what the speaker holds,
not what the source attests. The hedge guard names those verbs in the present only, so
the same frame in the past passed on the source's words: "i thought that the new
england patriots were the lannisters of the nfl" against "the author of A Game of
Thrones called the Patriots the Lannisters of the NFL". A past belief says even less
than a present one: English uses it for a belief since given up ("I thought this was
recent, but it came out in 2009").

So a sentence of the claim that opens (after at most two words of reply: "Wow", "Yes,")
with the speaker and a past verb of believing (`_BELIEVED`: thought, figured, "had
thought") refuses the claim, unless what follows makes it no belief about a fact ("I
thought about it", "I thought of ...", "I thought so", "I figured out") or a source turn
voices the same words (a user's "I thought ..." restated).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from groundwire.guards.grounding.lexical.text import claim_words, word_set
from groundwire.topics.records import SourceTurn

__all__ = ["past_conjecture"]

# not "assumed" or "supposed" ("I assumed the role", "I was supposed to"), which are
# more often something else
_BELIEVED = word_set("thought figured")
_BETWEEN = word_set("had always just really originally first honestly actually also")
# after the verb: deliberation, assent or solving, not a belief about a fact
_NOT_BELIEF = word_set("about of so over through out up")
_I = word_set("i")
# at most this many words of reply before the speaker ("Wow I thought", "Yes, i figured")
_REPLY_WORDS = 2
_END = re.compile(r"[.!?]+[\"')\]\u201d\u2019]*(?=\s|$)")
_CHEAP = re.compile(r"\b(?:thought|figured)\b", re.IGNORECASE)


def _believed_at(lows: Sequence[str]) -> int | None:
    """The position of the past verb of believing after the sentence's speaker, or None."""
    for k in range(min(_REPLY_WORDS + 1, len(lows))):
        if lows[k] not in _I:
            continue
        j = k + 1
        while j < len(lows) and lows[j] in _BETWEEN:
            j += 1
        if j < len(lows) and lows[j] in _BELIEVED:
            nxt = lows[j + 1] if j + 1 < len(lows) else ""
            return None if nxt in _NOT_BELIEF or not nxt else j
        return None
    return None


def past_conjecture(claim_text: str, turns: Sequence[SourceTurn]) -> list[str]:
    """The words of the speaker's past belief opening a sentence of the claim ("i
    thought"), when no source turn voices them; empty otherwise."""
    if _CHEAP.search(claim_text) is None:
        return []  # the cheap test first: most claims have none of the verbs
    words = claim_words(claim_text)
    ends = [m.end() for m in _END.finditer(claim_text)]
    if not ends or ends[-1] < len(claim_text.rstrip()):
        ends.append(len(claim_text))
    k = 0
    for end in ends:
        first = k
        while k < len(words.spans) and words.spans[k][1] <= end:
            k += 1
        j = _believed_at(words.lows[first:k])
        if j is None:
            continue
        said = f"i {words.lows[first + j]}"
        source = " ".join(t.text.lower() for t in turns)
        return [] if said in source else [said]
    return []
