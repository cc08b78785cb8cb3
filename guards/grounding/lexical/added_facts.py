"""A specific of an added sentence is an added fact, not a sharpened one.

The lexical verifier calls a claim PARTIAL when the claim without its unsupported numbers
and names (its core) scores PARTIAL on its own: "We ship the MVP by April 30 with 95%
coverage" against "I should be done with the MVP by end of April" sharpens a stated plan
(docs/spec.md §Grounding). The core is scored over the whole claim, so a response that
repeats a source sentence and adds one of its own ("He lives in North Carolina. His
books have been translated into 42 languages." against "His books have been translated
into 42 languages and published worldwide.") was rescued too: the unsupported name sits
in a sentence nothing of which the source states, so it sharpens nothing; it is a fact
the source never gave.

`added_specific` tells them apart per sentence of a claim of two sentences or more: a
missing number or name sharpens its sentence when the source has at least half of that
sentence's other content words; otherwise the sentence is added and its specific with it
(the rescue does not apply). A claim of one sentence is left to its core's score, as
before: the sharpened plan of the spec is one sentence.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Set

from groundwire.guards.grounding.lexical.text import claim_words

__all__ = ["SHARPENS", "added_specific"]

# Share of a sentence's other content words the source must have for a specific in it to
# sharpen it rather than add it.
SHARPENS = 0.5
# A claim sentence ends at ".", "!" or "?" followed by whitespace or the end.
_END = re.compile(r"[.!?]+(?=\s|$)")


def added_specific(
    claim_text: str, specifics: Collection[str], source_stems: Set[str]
) -> str | None:
    """The first missing number or name (`specifics`, as written) that stands in a claim
    sentence of which the source has less than `SHARPENS` of the other content words;
    None when every specific sharpens a sentence the source states."""
    wanted = {w.lower() for w in specifics}
    start = 0
    bounds = [m.end() for m in _END.finditer(claim_text)]
    if not bounds or bounds[-1] < len(claim_text.rstrip()):
        bounds.append(len(claim_text))
    if len(bounds) < 2:
        return None  # one sentence: its core's own score decides, as before
    for end in bounds:
        words = claim_words(claim_text[start:end])
        start = end
        hits = [i for i, low in enumerate(words.lows) if low in wanted]
        if not hits:
            continue
        others = {
            st
            for i, (st, c) in enumerate(zip(words.stems, words.content, strict=True))
            if c and words.lows[i] not in wanted
        }
        if not others:
            continue  # nothing but the specific: no sentence to sharpen or to add
        if sum(st in source_stems for st in others) < SHARPENS * len(others):
            return words.raws[hits[0]]
    return None
