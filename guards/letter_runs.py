"""Words spelled out letter by letter, read back as words of a given vocabulary.

"A S S I S T A N T:", "a.s.s.i.s.t.a.n.t:" or "c-i-t-a-t-i-o-n-s" read as the word to a
person, but no pattern written for the word sees it. `join_letter_runs` joins each run of
two or more single letters (one separator between them, the same each time: a space or
any one punctuation mark or symbol but ":", "]", ">", optionally followed by a space)
into the word it spells,
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

__all__ = ["has_letter_run", "join_letter_runs", "read_leet_labels"]

# The cheap test: a single letter (a letter with no letter before it) right before ":",
# "]", "|" or ">", or one separator before it: the end of a spelled speaker label ("A S S
# I S T A N T:"), citation list ("c i t a t i o n s: [") or template token ("[ I N S T
# ]"). One pattern per mark, each starting with its literal and run only when the mark
# is in the text: ~1.1 us on an 860-character passage, against ~2.1 for one pattern that
# starts with a class of the four and ~6.5 for three single letters anywhere.
_MARKS = ":]|>"
# A separator between spelled letters: a space or any one punctuation mark or symbol but
# the marks above ("A+S+S+I+S+T+A+N+T:", "A•s•s•i…", "A, s, s, …": session 13; joined only
# into a word of the caller's vocabulary, so "a+b" or "x, y, z" stay as written).
_SEPARATOR = r"(?:[^\w\s:\]>]| )"
_HINTS = tuple(
    (
        mark,
        re.compile(
            re.escape(mark) + rf"(?:(?<=[^A-Za-z][A-Za-z]{re.escape(mark)})"
            rf"|(?<=[^A-Za-z][A-Za-z]{_SEPARATOR}{re.escape(mark)}))"
        ),
    )
    for mark in _MARKS
)
# (a separator after the last letter goes with the run: "A.I.:" reads "AI:")
_RUN = re.compile(
    r"(?<![A-Za-z])[A-Za-z]([^\w\s:\]>]| ) ?(?:[A-Za-z]\1 ?){0,40}[A-Za-z](?:\1(?![A-Za-z]))?"
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


# A line's speaker label with digits or symbols for letters ("Ass1stant:", "4ssistant:",
# "Ch@tGPT:", "A$$istant:"): a word of three or more letters, digits and @ $ ! | with at
# least one of the latter ("A1:", a cell or a paper size, never reads "AI:"), right after
# the line's markup and right before its colon.
_LEET_LABEL = re.compile(
    r"[\s#*>_]*(?=[a-z]*[0-9@$!|])([a-z0-9@$!|]{3,24})[*_]*\s*:", re.IGNORECASE
)
# What each stands for; "1" and "|" are tried as "i" and as "l".
_LEET_READINGS = (
    str.maketrans("013457@$!|", "oieastasii"),
    str.maketrans("013457@$!|", "olestasiil"),
)


def read_leet_labels(text: str, vocabulary: Container[str]) -> str:
    """`text` with each line's speaker label that spells a word of `vocabulary` once its
    digits and symbols are read as letters written as that word ("Ass1stant:" ->
    "assistant:"); `text` itself when there is none. Only line starts are tried (the
    start and after each newline), one anchored match each."""
    out: list[str] = []
    at = 0
    pos = 0
    while pos != -1:
        m = _LEET_LABEL.match(text, pos)
        if m:
            word = m.group(1)
            for table in _LEET_READINGS:
                reading = word.translate(table).lower()
                if reading in vocabulary:
                    out += (text[at : m.start(1)], reading)
                    at = m.end(1)
                    break
        pos = text.find("\n", pos)
        if pos != -1:
            pos += 1
    if not out:
        return text
    out.append(text[at:])
    return "".join(out)
