"""Words spelled out letter by letter, read back as words of a given vocabulary.

"A S S I S T A N T:", "a.s.s.i.s.t.a.n.t:" or "c-i-t-a-t-i-o-n-s" read as the word to a
person, but no pattern written for the word sees it. `join_letter_runs` joins each run of
two or more single letters (one separator between them, the same each time: a space,
".", "-", "_", "/", "|" or "*", optionally followed by a space) into the word it spells,
and only when that word, lower-cased, is in the caller's vocabulary. Anything else ("A B
C", initials "J. R. R.", "v 1 2 3") stays as written, so a caller may scan the result
beside the original without new false alarms from ordinary text.

The hedge detector has its own, richer reading of spelled words (`guards/hedge/spelling.py`:
segmentation into several words, digits for letters); this one serves guards whose
vocabulary is a handful of tokens (the provenance signatures) and must stay cheap:
`has_letter_run` is one regex search that most texts fail at once.
"""

from __future__ import annotations

import re
from collections.abc import Container

__all__ = ["has_letter_run", "join_letter_runs"]

# The cheap test: a single letter (a letter with no letter before it) right before ":",
# "]", "|" or ">", or one separator before it: the end of a spelled speaker label ("A S S
# I S T A N T:"), citation list ("c i t a t i o n s: [") or template token ("[ I N S T
# ]"). One pattern per mark, each starting with its literal and run only when the mark
# is in the text: ~1.1 us on an 860-character passage, against ~2.1 for one pattern that
# starts with a class of the four and ~6.5 for three single letters anywhere.
_MARKS = ":]|>"
_HINTS = tuple(
    (
        mark,
        re.compile(
            re.escape(mark) + rf"(?:(?<=[^A-Za-z][A-Za-z]{re.escape(mark)})"
            rf"|(?<=[^A-Za-z][A-Za-z][ .\-_/|*]{re.escape(mark)}))"
        ),
    )
    for mark in _MARKS
)
# (a separator after the last letter goes with the run: "A.I.:" reads "AI:")
_RUN = re.compile(
    r"(?<![A-Za-z])[A-Za-z]([ .\-_/|*]) ?(?:[A-Za-z]\1 ?){0,40}[A-Za-z](?:\1(?![A-Za-z]))?"
    r"(?![A-Za-z])"
)
_NOT_LETTER = re.compile(r"[^A-Za-z]+")


def has_letter_run(text: str) -> bool:
    """Whether `text` may hold a spelled signature word (the cheap test before
    `join_letter_runs`): a single letter ends right before ":", "]", "|" or ">". A run
    elsewhere ("written by C h a t G P T") is not looked for."""
    return any(mark in text and hint.search(text) for mark, hint in _HINTS)


def join_letter_runs(text: str, vocabulary: Container[str]) -> str:
    """`text` with every run of single letters that spells a word of `vocabulary` (compared
    lower-cased) written as that word; `text` itself when there is none."""
    out: list[str] = []
    at = 0
    for m in _RUN.finditer(text):
        word = _NOT_LETTER.sub("", m.group(0))
        if word.lower() in vocabulary:
            out += (text[at : m.start()], word)
            at = m.end()
    if not out:
        return text
    out.append(text[at:])
    return "".join(out)
