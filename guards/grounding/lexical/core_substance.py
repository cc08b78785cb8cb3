"""A core of one word sharpens nothing: the core rescue needs a core the source states.

The lexical verifier calls a claim PARTIAL when it scores under the partial threshold
but its core (the claim without its unsupported numbers and names) scores above it: the
source states the core and the claim adds a detail (docs/spec.md §Grounding, the
sharpened plan: "deliver the MVP on April 30" from "done with the MVP by end of April").
The core's score weighs the share of its words the source has, so a core of one or two
content words scores high on a single match: "They celebrate on dec 25th and 26th"
against an encyclopaedia paragraph that says Christmas "is celebrated" has the core
"They celebrate on dec", half of it found, and was rescued. What such a claim asserts
is its specifics; the one word the source shares with it is no statement they sharpen.

`core_has_substance` asks for at least `MIN_CORE_WORDS` distinct content words of the
core in the source (by stem) before the rescue applies. Bounded: one tokenisation of the
core (itself at most the claim) and one set look-up per word.
"""

from __future__ import annotations

from collections.abc import Set

from groundwire.guards.grounding.lexical.text import claim_words

__all__ = ["MIN_CORE_WORDS", "core_has_substance"]

# Distinct content stems of the core that the source must have: one shared word is a
# topic, not a statement ("celebrate"); two relate something ("migrated" ... "ledger").
MIN_CORE_WORDS = 2


def core_has_substance(core: str, source_stems: Set[str]) -> bool:
    """Whether the source has at least `MIN_CORE_WORDS` distinct content words (stems)
    of `core`, so that the core states something the claim's specifics can sharpen."""
    words = claim_words(core)
    found: set[str] = set()
    for st, content in zip(words.stems, words.content, strict=True):
        if content and st in source_stems:
            found.add(st)
            if len(found) >= MIN_CORE_WORDS:
                return True
    return False
