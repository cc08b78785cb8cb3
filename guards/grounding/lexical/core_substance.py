"""A core of one word sharpens nothing: the core rescue needs a core the source states.

The lexical verifier calls a claim PARTIAL when it scores under the partial threshold
but its core (the claim without its unsupported numbers and names) scores above it: the
source states the core and the claim adds a detail (docs/spec.md §Grounding, the
sharpened plan: "deliver the MVP on April 30" from "done with the MVP by end of April").
The core's score weighs the share of its words the source has, so a core of one or two
content words scores high on a single match: "People celebrate it on the 12th and 13th"
against a paragraph that says a festival "is celebrated by farmers" has the core
"People celebrate it on the and", half of its content words found, and was rescued.
What such a claim asserts is its specifics; the one word the source shares with it is
no statement they sharpen.

`core_has_substance` asks the core for a statement before the rescue applies: at least
`MIN_CORE_WORDS` distinct content words of the core in the source (by stem), or every
content word of it ("Was born in the 1960s" against "I was born in 1962": the core
"born" is all the source's, and the decade sharpens it). One shared word beside one the
source lacks ("celebrate" and "people") states nothing the specifics could sharpen.
Bounded: one tokenisation of the core (itself at most the claim) and one set look-up per word.
"""

from __future__ import annotations

from collections.abc import Set

from groundwire.guards.grounding.lexical.text import claim_words

__all__ = ["MIN_CORE_WORDS", "core_has_substance"]

# Distinct content stems of the core that the source must have: one shared word is a
# topic, not a statement ("celebrate"); two relate something ("migrated" ... "ledger").
# A core all of whose content words the source has is stated, however short.
MIN_CORE_WORDS = 2


def core_has_substance(core: str, source_stems: Set[str]) -> bool:
    """Whether the source has at least `MIN_CORE_WORDS` distinct content words (stems)
    of `core`, or all of them, so that the core states something the claim's specifics
    can sharpen."""
    words = claim_words(core)
    found: set[str] = set()
    missing = False
    for st, content in zip(words.stems, words.content, strict=True):
        if not content:
            continue
        if st not in source_stems:
            missing = True
        elif st not in found:
            found.add(st)
            if len(found) >= MIN_CORE_WORDS:
                return True
    return bool(found) and not missing
