""" "is missing X" written as the source's "lacks X" (session 17, faithful restatements).

"The app is missing tests" says what "The app lacks tests" says: "be missing" with an
object is the verb "miss" in the sense of "lack". Word overlap found no "missing" in
the source, and the evaluation rule (`opinion.py`) read it as a negative judgement the
source does not make (VADER rates "missing" negative), so the faithful memory was
blocked.

The rule, like `split_words.py` and `fused_non.py`, rewrites the claim only towards a
form the source writes: where some source turn writes the verb "lack" ("lack",
"lacks", "lacked", "lacking") and none writes "missing", a claim's "is / are / was /
were missing" followed by a word (its object: "is missing tests", not "the key is
missing.") is written with the matching form of "lack" ("lacks", "lack", "lacked").
Only where the claim's object (its first word after "missing", past an article) is
among the three words after some "lack" of the source: what the claim says is missing
is what the source says is lacked. So "The app is missing tests" against "The app lacks
docs but has tests" is read as before (an unsupported "missing"), and so is "The app is
missing tests" against "The app has tests" (no "lack" in the source).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from groundwire.topics.records import SourceTurn

__all__ = ["restate_missing"]

# "is missing tests": a form of "be", "missing", then a word (not a full stop or a comma)
_MISSING = re.compile(r"\b(is|are|was|were)\s+missing(?=\s+[A-Za-z0-9])", re.IGNORECASE)
# "lack" and up to three words after it in its clause (spaces only between: a comma or a
# full stop ends what it bears on)
_LACK = re.compile(r"\black(?:s|ed|ing)?\b((?:[ \t]+[\w-]+){1,3})", re.IGNORECASE)
_OPENERS = frozenset(("but", "while", "yet", "though", "although", "whereas"))
_WORDS = re.compile(r"\w+")
_ARTICLES = frozenset(("a", "an", "the", "any", "some"))
_MISSING_WORD = re.compile(r"\bmissing\b", re.IGNORECASE)
_FORM = {"is": "lacks", "are": "lack", "was": "lacked", "were": "lacked"}


def restate_missing(claim_text: str, turns: Sequence[SourceTurn]) -> str:
    """`claim_text` with "is missing X" written "lacks X" where the source says "lack"
    and never "missing" (module docstring); `claim_text` itself otherwise."""
    if "issing" not in claim_text:
        return claim_text
    found = _MISSING.search(claim_text)
    if found is None or any(_MISSING_WORD.search(t.text) for t in turns):
        return claim_text
    lacked: set[str] = set()
    for t in turns:
        for m in _LACK.finditer(t.text):
            for w in _WORDS.findall(m.group(1).lower()):
                if w in _OPENERS:
                    break  # "lacks docs but has tests": another clause
                lacked.add(w)
    if not lacked:
        return claim_text

    def _lacks(m: re.Match[str]) -> str:
        after = [w.lower() for w in _WORDS.findall(claim_text[m.end() : m.end() + 40])]
        obj = next((w for w in after if w not in _ARTICLES), "")
        return _FORM[m.group(1).lower()] if obj in lacked else m.group(0)

    return _MISSING.sub(_lacks, claim_text)
