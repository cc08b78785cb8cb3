"""A word the claim writes in two parts reads as the source's closed word.

English writes many compounds and surnames open or closed ("Di Caprio" / "DiCaprio",
"web site" / "website", "Mc Donald" / "McDonald"), and people typing in a chat often
split a name they know from the other spelling. Word overlap read "di" and "caprio" as
two words no source has, and a name the source does not give, so "it has di caprio in
it as well" against a cast list that says "Leonardo DiCaprio" scored 0 % found.

The rule: two adjacent words of the claim whose letters joined are one word of the
source, where the source does not write the two words apart anywhere, are written as the
source writes the joined word before the words are compared. Only content words join:
the source word must not be a stop word and neither part may be one, so "in to" /
"into", "every one" / "everyone" or "some times" / "sometimes" (a function word, which
changes the sense when closed) are left as written. A word split into parts that are
each words of the source ("face" and "book" in a text with "face" and "Facebook") is
left too: the parts then may mean themselves. Nothing else is rewritten, so a split
word the source never closes stays two unsupported words.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from groundwire.guards.grounding.lexical.text import STOPWORDS
from groundwire.topics.records import SourceTurn

__all__ = ["close_split_words"]

# Letters only: a number or a symbol never joins ("3 D" / "3D" is a unit question).
_ALPHA = re.compile(r"[^\W\d_]+")
# Texts whose closed words are kept (`_source_words`); the claims of a conversation cite
# the same turns. A few hundred texts of at most `max_evidence_chars` each.
SOURCE_WORDS_CACHE = 512
# A closed word shorter than this is too likely a chance join ("a" + "n" = "an").
MIN_JOINED = 5


def close_split_words(claim_text: str, turns: Sequence[SourceTurn]) -> str:
    """`claim_text` with each open pair of words the source writes closed (see the module
    docstring) replaced by the source's written form; `claim_text` itself when none."""
    matches = list(_ALPHA.finditer(claim_text))
    if len(matches) < 2:
        return claim_text
    closed: dict[str, str] = {}
    apart: set[str] = set()
    for t in turns:
        c, a = _source_words(t.text)
        for low, written in c:
            closed.setdefault(low, written)
        apart.update(a)
    out: list[str] = []
    at = 0
    k = 0
    while k < len(matches) - 1:
        m, n = matches[k], matches[k + 1]
        first, second = m.group().lower(), n.group().lower()
        gap = claim_text[m.end() : n.start()]
        joined = first + second
        if (
            gap == " "
            and joined in closed
            and first not in STOPWORDS
            and second not in STOPWORDS
            and not (first in apart and second in apart)
        ):
            out.append(claim_text[at : m.start()])
            out.append(closed[joined])
            at = n.end()
            k += 2
            continue
        k += 1
    if at == 0:
        return claim_text
    out.append(claim_text[at:])
    return "".join(out)


@functools.lru_cache(maxsize=SOURCE_WORDS_CACHE)
def _source_words(text: str) -> tuple[tuple[tuple[str, str], ...], frozenset[str]]:
    """The source's content words of `MIN_JOINED` letters or more (lower-cased, with
    their written form), and all its words lower-cased; immutable, since the cache shares
    them between claims."""
    words = _ALPHA.findall(text)
    closed = tuple(
        (w.lower(), w) for w in words if len(w) >= MIN_JOINED and w.lower() not in STOPWORDS
    )
    return closed, frozenset(w.lower() for w in words)
