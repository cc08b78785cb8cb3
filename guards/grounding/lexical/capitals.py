"""A claim typed in capitals is read with the source's case.

The lexical verifier reads a capital as a name's mark: a capitalised word the source
lacks is a name it does not give (a specific that keeps the claim from SUPPORTED), and a
capitalised word in the slot of a source name is a swapped name (NOT_SUPPORTED). In a
text typed in capitals the case says nothing, and every word looks like a name: "FUNNY
SMART AND THOUGHT PROVOKING" read "SMART" as a name swapped for the source's "Judy", and
"hI ... WE ARE TALKING ABOUT ZOOTOPIA" reported "TALKING" as a name the source does not
give (FaithDial-cmu, fit half: one participant typed every response in capitals).

So a claim whose letters are nearly all capitals (`_SHOUTED`: at most one in five of
its ASCII letters lower case, and at least two words of two letters or more in capitals)
is restated before the words are compared, one word in capitals at a time:

* as the source writes it, when a source turn has the word in any case ("ZOOTOPIA" →
  "Zootopia", "NFL" → "NFL", "RABBIT" → "rabbit");
* else in lower case when it is a common English word (`names.common_word`: "TALKING",
  "COMEDIES");
* else with a capital and lower case after it: a name the source does not give stays a
  name ("GINNEFER" → "Ginnefer"), so an invented or swapped name is still read as one.

"I" and words already in mixed or lower case are left as written. A claim in ordinary
case is never touched.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from groundwire.guards.grounding.lexical.names import common_word
from groundwire.topics.records import SourceTurn

__all__ = ["restate_capitals"]

_WORD = re.compile(r"[A-Za-z]+")
# at most this share of a shouted claim's letters in lower case ("hI ... WE ARE ...")
_SHOUTED = 0.2
# the bytes that are not an ASCII capital / lower-case letter (deleted to count them)
_NOT_UPPER = bytes(b for b in range(256) if not 65 <= b <= 90)
_NOT_LOWER = bytes(b for b in range(256) if not 97 <= b <= 122)
# at least this many words of two letters or more in capitals
_MIN_WORDS = 2


@functools.lru_cache(maxsize=256)
def _source_case(text: str) -> dict[str, str]:
    """Each word of a source text, lower case -> as the text first writes it."""
    out: dict[str, str] = {}
    for m in _WORD.finditer(text):
        out.setdefault(m.group().lower(), m.group())
    return out


def _shouted(text: str) -> bool:
    """Typed in capitals (`_SHOUTED`, `_MIN_WORDS`). Every claim is asked, so the letters
    are counted on the UTF-8 bytes by `bytes.translate`, a loop in C (about 4,000
    instructions a claim; a regular expression for two capitals in a row took 17,000, a
    count in Python more)."""
    raw = text.encode("utf-8", "replace")
    upper = len(raw.translate(None, _NOT_UPPER))
    if upper < 2 * _MIN_WORDS:
        return False
    lower = len(raw.translate(None, _NOT_LOWER))
    if lower > _SHOUTED * (upper + lower):
        return False
    return sum(1 for m in _WORD.finditer(text) if len(m.group()) > 1 and m.group().isupper()) >= (
        _MIN_WORDS
    )


def restate_capitals(text: str, turns: Sequence[SourceTurn]) -> str:
    """The claim with each word in capitals written as the source writes it, in lower
    case (a common word) or as a name (module docstring); unchanged unless the claim is
    typed in capitals."""
    if not _shouted(text):
        return text
    cases = [_source_case(t.text) for t in turns]

    def recased(m: re.Match[str]) -> str:
        word = m.group()
        if len(word) < 2 or not word.isupper():
            return word
        low = word.lower()
        for case in cases:
            found = case.get(low)
            if found is not None:
                return found
        return low if common_word(low) else word[0] + word[1:].lower()

    return _WORD.sub(recased, text)
