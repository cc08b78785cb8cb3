"""Whether a word the lexicon lists as a pronoun is that pronoun as written.

The verifier reads words in lower case, so "US" (the country) was the pronoun "us" and
"WHO" was "who": "He moved to the US" read as a first-person statement, and a user's
turn about "the US economy" as the user speaking of themself. The general rule: a word
written with capitals after its first letter, which the lexicon lists only in lower case
(its pronouns are "us", "we", "my", ...; only "I" and its contractions are capitals), is
another word, an abbreviation or a name. A capital first letter keeps the word ("Us
too.", "We left."), and so do capitals where the text has no lower-case letter at all
(shouting: "WE LEFT EARLY" says nothing by its case).

Cost: one pass over the words of the sentence read, and only where its lower-case words
already hold a listed pronoun (the sets are tested first).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence, Set

from groundwire.guards.grounding.lexical.text import FIRST_PERSON

__all__ = ["as_written", "first_person_in", "first_person_match", "has_lower"]

_LOWER = re.compile(r"[a-z]")


def has_lower(raws: Sequence[str]) -> bool:
    """Whether any of the words has a lower-case letter: where none has, the text is
    written all in capitals and its case tells no word from another."""
    return any(_LOWER.search(raw) is not None for raw in raws)


def as_written(raw: str, cased: bool) -> bool:
    """Whether `raw` is the lower-case word of the lexicon it folds to: not where it has a
    capital after its first letter ("US", "WE", "uS") in text that is `cased` (has
    lower-case letters elsewhere). "I", "I'm", "Us" and "We" are as written, and so is
    "I'M": the lexicon writes "I" and its contractions with a capital."""
    tail = raw[1:]
    return not cased or tail == tail.lower() or (tail[:1] == "'" and raw[:1] in "Ii")


def first_person_in(
    raws: Sequence[str],
    lows: Sequence[str],
    words: Set[str] = FIRST_PERSON,
    positions: Iterable[int] | None = None,
) -> bool:
    """Whether a sentence's words (`raws`, and `lows` folded from them, in step), or
    those of it at `positions` (a clause), hold a pronoun of `words` as written
    (`as_written`): "tell us about it" and "Us too." do, "He moved to the US" does not.
    Whether the text is cased is read from the whole sentence. The raws are read only
    where a listed word is among the lows."""
    if positions is None:
        if words.isdisjoint(lows):
            return False
        positions = range(len(lows))
    hits = [k for k in positions if lows[k] in words]
    if not hits:
        return False
    cased = has_lower(raws)
    return any(as_written(raws[k], cased) for k in hits)


def first_person_match(pattern: re.Pattern[str], text: str) -> bool:
    """Whether `pattern` (pronouns, case ignored) finds a pronoun as written in `text`:
    a match with capitals after its first letter ("US") counts only where `text` has no
    lower-case letter. That test is made at most once, so the scan stays one pass."""
    for m in pattern.finditer(text):
        tail = m.group()[1:]
        if tail == tail.lower():
            return True
        if _LOWER.search(text) is None:
            return True  # all in capitals: the case tells nothing
        # cased text: every later match with capitals is no pronoun either
        return any(_written_low(n.group()) for n in pattern.finditer(text, m.end()))
    return False


def _written_low(found: str) -> bool:
    tail = found[1:]
    return tail == tail.lower()
