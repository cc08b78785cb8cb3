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

A value may be a phrase: "prefers email for updates" / "prefers phone calls for updates"
is the same choice, its values "email" and "phone calls" (`changed_span`): the two
sentences differ in one run of words only, at most `MAX_VALUE_WORDS` a side, so "prefers
tea in the morning" / "prefers coffee in the evening" (two runs) is not one choice read
this way.

Without either sign the values are not known to compete, and the judge leaves them
distinct: a user's bare preferences are mostly of different kinds (one value per kind),
and one contradicting pair flags every member of its cluster for review. A deployment
that wants every pair of bare preferences read runs the LLM judge.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence

from groundwire.guards.grounding.lexical.labels import _table, gloss_stems
from groundwire.guards.grounding.lexical.text import STOPWORDS

__all__ = ["changed_span", "shared_domain", "shared_kind"]

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


# words a side of one changed run may have ("phone calls", "text messages")
MAX_VALUE_WORDS = 3


def changed_span(
    words_a: Sequence[str], words_b: Sequence[str], ignored: frozenset[str]
) -> tuple[str, str] | None:
    """The one run of words two sentences differ in, as (a's, b's) phrases, when they
    share all the rest in order and each run has one to `MAX_VALUE_WORDS` words; else
    None. The `ignored` words (that it changed: "now") are left out first. Linear in the
    words."""
    a = [w for w in words_a if w not in ignored]
    b = [w for w in words_b if w not in ignored]
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    x, y = a[head : len(a) - tail], b[head : len(b) - tail]
    if not (1 <= len(x) <= MAX_VALUE_WORDS and 1 <= len(y) <= MAX_VALUE_WORDS):
        return None
    if not set(x).isdisjoint(y):
        return None  # "green tea" / "black tea" is read by its words, as before
    return " ".join(x), " ".join(y)
