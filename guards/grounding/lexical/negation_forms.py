"""Negations written so that the negation check cannot see what they deny.

The negation flip (`polarity.py`) needs the negation to bear on a word the claim shares
with the source: one of the few content words right after it. Two ways of denying a
whole statement put nothing after the negation, or only a dummy noun:

* **a pseudo-cleft**: "Alice is not the one who approves deploys" says "Alice does not
  approve deploys"; "the one who" cuts the clause, and the negation bears on "one".
  Read as "Alice not approves deploys" (also "isn't", "was not", "are not the ones
  that", "the person who", "the people who"). The plain cleft ("It was not Alice who
  approved") was already read: the negation bears on the name.
* **a trailing negation** (the sarcastic "NOT"): "Alice approves the deploys - NOT.",
  "... not!", ", NOT" denies the sentence before it with nothing after the "not". Read
  as "Not Alice approves the deploys." Only a lone "not" that closes its sentence after a
  dash, an ellipsis or a comma: "or not" and "whether or not" ask, they deny nothing.

Both rewrites keep every content word of the claim, so what is compared is unchanged
apart from where the negation stands; a claim without either form comes back as it was.
"""

from __future__ import annotations

import re

__all__ = ["plain_negation"]

_CLEFT = re.compile(
    r"\b(?:is|was|are|were)(?:\s+not|n't)\s+(?:the\s+)?(?:one|ones|person|people)\s+(?:who|that)\s+",
    re.IGNORECASE,
)
_TRAILING = re.compile(
    r"(?P<body>[^.!?\u2026]*?[^\s.!?\u2026,-])\s*(?:-{1,3}|[\u2013\u2014]|\.{2,}|\u2026|,)\s*"
    r"(?<!\bor\s)not(?P<end>\s*[!.]*)(?=\s|$)",
    re.IGNORECASE,
)
# What every match of `_TRAILING` holds: a "not" right after its mark (dash, ellipsis or
# comma; spaces between) and then only "!", "." and spaces up to a space or the end. The
# lazy body of `_TRAILING` is tried from every position of a sentence up to its end
# (quadratic: ~0.3 ms for a claim of 190 characters), so it runs only where this does.
_TRAILING_MARK = re.compile(
    r"(?:-|[\u2013\u2014]|\.\.|\u2026|,)\s*not\s*[!.]*(?=\s|$)", re.IGNORECASE
)


def _trailing(m: re.Match[str]) -> str:
    body = m.group("body")
    lead = len(body) - len(body.lstrip())
    if re.search(r"\bor\s*$", body, re.IGNORECASE):
        return m.group(0)
    return f"{body[:lead]}Not {body[lead:]}{m.group('end') or '.'}"


def plain_negation(text: str) -> str:
    """`text` with a pseudo-cleft or a trailing "not" written as a plain negation."""
    lower = text.lower()
    if "not" not in lower and "n't" not in lower:
        return text
    if " one" in lower or " people" in lower or " person" in lower:
        text = _CLEFT.sub("not ", text)
    if re.search(r"not\W*$|not\s*[!.]", text, re.IGNORECASE) and _TRAILING_MARK.search(text):
        text = _TRAILING.sub(_trailing, text)
    return text
