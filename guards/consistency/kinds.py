"""Whether two values of one preference compete (docs/spec.md §Store-time consistency).

"The user prefers tea" and "The user prefers coffee" are one choice made two ways: a
person drinks one thing by preference. "The user prefers tea" and "The user prefers
email" are two preferences of two kinds, and hold together. Nothing in the two sentences
says which is which, so the rule judge reads it from what it can see:

* a domain the two memories share beyond their subject and the choice word: "prefers
  email for updates" / "prefers Slack for updates" ("updates"), "window seats" / "aisle
  seats" ("seats"), "favourite colour is blue" / "... green" ("colour");
* or the values' WordNet definitions (`data/glosses.tsv`: the words of the definitions
  of the first senses, their synonyms and direct hypernyms) sharing two words that few
  definitions use: "tea" and "coffee" are both a potable beverage, "red" and "blue" both
  a colour pigment, "bus" and "car" both a vehicle. One shared word is too weak a sign
  ("tennis" and "phone" share "back"), and common words ("person", "act") say nothing.

Without either sign the values are not known to compete, and the judge leaves them
distinct: a user's bare preferences are mostly of different kinds (one value per kind),
and one contradicting pair flags every member of its cluster for review. A deployment
that wants every pair of bare preferences read runs the LLM judge.
"""

from __future__ import annotations

import functools
from collections import Counter

from groundwire.guards.grounding.lexical.labels import _table, gloss_stems
from groundwire.guards.grounding.lexical.text import STOPWORDS

__all__ = ["shared_domain", "shared_kind"]

# a definition word used by more definitions than this says little about a kind ("act",
# "person", "used"); 150 of the table's ~15,000 lemmas is 1 %
MAX_DEFINITIONS = 150
MIN_SHARED = 2


@functools.cache
def _definitions_using() -> Counter[str]:
    """How many lemmas' definitions use each stem (loaded once, on first use)."""
    return Counter(s for lemma in _table() for s in gloss_stems(lemma))


def shared_kind(a: str, b: str) -> list[str]:
    """The rare definition stems two values share (sorted), when at least `MIN_SHARED`;
    else []. Values of more than one word are compared by their last word ("green
    tea": "tea")."""
    wa, wb = a.split()[-1:], b.split()[-1:]
    if not wa or not wb:
        return []
    used = _definitions_using()
    shared = {s for s in gloss_stems(wa[0]) & gloss_stems(wb[0]) if used[s] <= MAX_DEFINITIONS}
    return sorted(shared) if len(shared) >= MIN_SHARED else []


def shared_domain(
    words_a: set[str], words_b: set[str], subject: set[str], ignored: frozenset[str]
) -> list[str]:
    """The content words two memories share beyond their subject's words (with or
    without "'s": "user's" for "user") and the `ignored` ones (the choice words, words
    that say it changed): the domain of the choice ("updates", "seats"), sorted."""
    shared = (words_a & words_b) - STOPWORDS - ignored
    return sorted(w for w in shared if w not in subject and w.removesuffix("'s") not in subject)
