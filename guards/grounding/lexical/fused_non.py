"""A "non-" word the claim writes as the source does: "nontrivial" for "non-trivial",
"not trivial" for "nontrivial" and back (session 17, faithful restatements).

English writes the prefix "non" closed ("nonblocking"), hyphenated ("non-blocking") or
as a plain negation ("not blocking"). The tokenizer splits the hyphenated form into
"non" and "blocking", and the rules that read it (`non_negations.non_agrees`,
`prefixed_antonyms.non_flips`) compare that form with "not blocking". The closed form
is one token, so word overlap did not find "trivial" of "The task is not trivial" in
"The task is nontrivial", nor "nontrivial" in "non-trivial", and a faithful memory was
blocked as an unsupported word.

The rule, like `split_words.py`, rewrites the claim only towards a form the source
itself writes, before the words are compared:

* a claim's "non" word (closed or hyphenated) the source writes in the other spelling
  and never in the claim's is written as the source writes it;
* a claim's "non" word the source writes only as "not X" / "n't X" (no "non" form of X
  anywhere in the source) is written "not X";
* a claim's "not X" / "n't X" where the source writes X only closed ("nonX": X is no
  word of the source on its own, nor hyphenated) is written as the source's closed word.

Nothing is rewritten towards a word the source lacks, so "The task is trivial" against
"The task is nontrivial" and "The task is nontrivial" against "The task is trivial"
are compared as before (and caught as opposites, `prefixed_antonyms.py`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from groundwire.topics.records import SourceTurn

__all__ = ["restate_non_words"]

# "non" + a word of four letters or more, closed or hyphenated: "nontrivial", "non-trivial".
_NON = re.compile(r"\b([Nn][Oo][Nn])(-?)([A-Za-z]{4,})\b")
# a plain negation right before a word: "not trivial", "isn't trivial"
_NOT = re.compile(r"(\b[Nn][Oo][Tt]\s+|n't\s+)([A-Za-z]{4,})\b")
_WORD = re.compile(r"[A-Za-z]+")
# texts whose readings are kept: the claims of a conversation cite the same turns
SOURCE_CACHE = 512


@dataclass(frozen=True, slots=True)
class _Read:
    """How one source text writes its "non" words, keyed by the word after "non"."""

    closed: dict[str, str]  # "trivial" -> "nontrivial" (as written)
    hyphenated: frozenset[str]  # words written "non-X"
    negated: frozenset[str]  # words written "not X" / "n't X"
    words: frozenset[str]  # every letter run, lower-cased


@functools.lru_cache(maxsize=SOURCE_CACHE)
def _read(text: str) -> _Read:
    """The source's "non" words and plain negations (`_Read`). Shared by the cache:
    read only."""
    closed: dict[str, str] = {}
    hyphenated: set[str] = set()
    for m in _NON.finditer(text):
        if m.group(2):
            hyphenated.add(m.group(3).lower())
        else:
            closed.setdefault(m.group(3).lower(), m.group(0))
    negated = {m.group(2).lower() for m in _NOT.finditer(text)}
    words = frozenset(w.lower() for w in _WORD.findall(text))
    return _Read(closed, frozenset(hyphenated), frozenset(negated), words)


def restate_non_words(claim_text: str, turns: Sequence[SourceTurn]) -> str:
    """`claim_text` with its "non" words and "not X" written as the source writes them
    (module docstring); `claim_text` itself when nothing applies."""
    low = claim_text.lower()
    if "non" not in low and "not" not in low and "n't" not in low:
        return claim_text
    reads = [_read(t.text) for t in turns]
    closed: dict[str, str] = {}
    for r in reads:
        for k, v in r.closed.items():
            closed.setdefault(k, v)
    hyphenated = frozenset().union(*(r.hyphenated for r in reads))
    negated = frozenset().union(*(r.negated for r in reads))
    words = frozenset().union(*(r.words for r in reads))
    edits: list[tuple[int, int, str]] = []
    for m in _NON.finditer(claim_text):
        word = m.group(3)
        key = word.lower()
        if m.group(2):  # "non-X"
            if key in hyphenated:
                continue
            if key in closed:
                edits.append((m.start(), m.end(), _cased(closed[key], m.group(1))))
            elif key in negated:
                edits.append((m.start(), m.end(), _cased("not", m.group(1)) + " " + word))
        else:  # "nonX"
            if key in closed:
                continue
            if key in hyphenated:
                edits.append((m.start(), m.end(), f"{m.group(1)}-{word}"))
            elif key in negated:
                edits.append((m.start(), m.end(), _cased("not", m.group(1)) + " " + word))
    for m in _NOT.finditer(claim_text):
        key = m.group(2).lower()
        if key in closed and key not in words and key not in hyphenated:
            lead = m.group(1)
            fused = closed[key]
            if lead.startswith("n't"):
                edits.append((m.start(), m.end(), " " + fused.lower()))
            else:
                edits.append((m.start(), m.end(), _cased(fused.lower(), lead)))
    if not edits:
        return claim_text
    out: list[str] = []
    at = 0
    for start, end, text in sorted(edits):
        if start < at:
            continue  # overlapping readings: keep the first
        out.append(claim_text[at:start])
        out.append(text)
        at = end
    out.append(claim_text[at:])
    return "".join(out)


def _cased(word: str, like: str) -> str:
    """`word` capitalised when `like` opens with a capital ("Not trivial" -> "Nontrivial")."""
    return word[:1].upper() + word[1:] if like[:1].isupper() else word
