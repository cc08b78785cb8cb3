"""The speaker's own things: "my dog", "Mine is dense and white", where nobody in the
source speaks of themselves.

`assertion.speaks_of_itself` refuses "I love cats" against a source written in the third
person (an article, a plot summary, a knowledge snippet): such a source cannot attest the
speaker's own tastes or doings. The same holds for what the speaker has: "my" before a
noun or "mine" as a pronoun ("Oh my! Mine is dense and white.", said of a pet's fur after
a breed description) states something of the speaker's own that no third-person text
can say, whatever words the claim shares with it. In agent memory it keeps the model's
persona as if it were the user's or the source's fact.

So a claim whose possessive "my" or "mine" names the speaker's own thing is refused when
nobody in the source speaks of themselves (`speaking.someone_speaks`, the gate of the
speaker's-own rule: a user's "my daughter's name is Priya" opens it, and the memory
pipeline's claims restating the user are read as before). Not read: the interjection
("oh my", "my god / gosh / goodness"), a capitalised "My" inside a sentence (a title:
"My Fair Lady"), and a possessive inside quotation marks (someone's words).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from groundwire.guards.grounding.lexical.evidence import evidence_for
from groundwire.guards.grounding.lexical.speaking import someone_speaks
from groundwire.guards.grounding.lexical.text import claim_words, word_set
from groundwire.topics.records import SourceTurn

__all__ = ["speaker_possessions"]

_OWN = word_set("my mine")
# "oh my", "my god": an exclamation, nobody's possession
_EXCLAIMING = word_set("oh god gosh goodness lord word")
_QUOTES = frozenset('"“”')
_WORD = re.compile(r"\b(?:my|mine)\b", re.IGNORECASE)


def speaker_possessions(claim_text: str, turns: Sequence[SourceTurn]) -> list[str]:
    """The claim's first possessive of its speaker ("my", "mine"; see the module
    docstring) where nobody in the source speaks of themselves; empty otherwise."""
    if _WORD.search(claim_text) is None:
        return []  # the cheap test first: most claims have neither word
    words = claim_words(claim_text)
    lows, raws, spans = words.lows, words.raws, words.spans
    found = ""
    for k, low in enumerate(lows):
        if low not in _OWN:
            continue
        before = lows[k - 1] if k else ""
        after = lows[k + 1] if k + 1 < len(lows) else ""
        if before in _EXCLAIMING or (low == "my" and after in _EXCLAIMING):
            continue  # "Oh my!", "my god"
        if low == "my" and not after:
            continue  # "my" ending the claim possesses nothing
        gap = claim_text[spans[k - 1][1] : spans[k][0]] if k else ""
        opens = k == 0 or any(c in ".!?" for c in gap)
        if raws[k][:1].isupper() and not opens:
            continue  # "My Fair Lady": part of a title
        if sum(c in _QUOTES for c in claim_text[: spans[k][0]]) % 2 == 1:
            continue  # inside a quotation: someone's words
        found = raws[k]
        break
    if not found:
        return []
    ev = evidence_for(turns)
    return [] if someone_speaks(turns, ev.lows) else [found]
