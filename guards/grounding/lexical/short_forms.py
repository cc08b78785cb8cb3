"""A claim that shortens the source's common words: "The user's BP is under control" from
"My blood pressure is under control", "The team uses CI" from "We use continuous
integration", "The team is moving to k8s" from "We're moving to Kubernetes".

Agents write memories tersely, and a term of art is as often written by its initials or
as a numeronym as in full. `spelling.may_name` reads a claim's acronym as the initials of
the source's *capitalised* words only ("NYC" / "New York City"): the initials of common
words ("blood pressure", "body mass index") were a name the source never gives, and a
numeronym ("k8s", "i18n", "a11y": first letter, the count of the letters between, last
letter) an unsupported word. Either took a faithful claim under the coverage line.

* **Initials of common words** (`initials_in_source`): a claim word of two to four
  capitals is the source's phrase of as many consecutive lower-case content words whose
  initials it spells, in order;
* **a numeronym** (`numeronym_in_source`): a claim word of a letter, digits and a letter
  is a source content word with those first and last letters and that many letters
  between.

Both only where the short form stands where the phrase stands: the words right before
and right after it share their stems with the words before and after the phrase (a
sentence's edge counts as a word: "uses CI." / "use continuous integration."; the
claim's owner "user's" stands for the source's "my"). So "moving to k8s" against
"moving away from Kubernetes" is read as before. Initials are weak evidence: a phrase of
other words with the same initials in the same place ("My back pain is under control"
for "The user's BP is under control") is read as the short form; a known limit. What
the claim says of the phrase is read by every other rule as before: "The user's BP is
high" against "My blood pressure is low" and "The user's BMI is 24" against "My body
mass index is 28" stay refused.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from groundwire.guards.grounding.lexical.evidence import Sentence

__all__ = ["initials_in_source", "numeronym_in_source"]

_POSSESSIVES = frozenset(("my", "our", "your", "his", "her", "their"))
_NUMERONYM = re.compile(r"([a-z])([0-9]{1,2})([a-z])")


def _same_slot(before: str, owner: bool, after: str, s: Sentence, start: int, end: int) -> bool:
    """Whether the source words around `s`'s words `start` .. `end` - 1 are the claim's
    words around its short form (`before`, `after` as stems; "" at an edge; `owner`: the
    word before is a possessive "'s"): the same
    stem on both sides, or before it the claim's owner ("user's", "team's") where the
    source has a possessive ("my", "our")."""
    theirs_before = s.word_stems[start - 1] if start else ""
    theirs_after = s.word_stems[end] if end < len(s.word_stems) else ""
    if after != theirs_after:
        return False
    return before == theirs_before or (owner and theirs_before in _POSSESSIVES)


def _around(lows: Sequence[str], stems: Sequence[str], i: int) -> tuple[str, bool, str]:
    """The stems before and after the claim's word `i` ("" at an edge) and whether the
    word before is a possessive ("user's")."""
    return (
        stems[i - 1] if i else "",
        bool(i) and lows[i - 1].endswith("'s"),
        stems[i + 1] if i + 1 < len(stems) else "",
    )


def initials_in_source(
    raws: Sequence[str],
    lows: Sequence[str],
    stems: Sequence[str],
    i: int,
    sentences: Sequence[Sentence],
) -> bool:
    """Whether the claim's acronym at `i` (`raws`, `stems`) spells consecutive lower-case
    content words of a source sentence in the place the acronym stands (module doc);
    `lows` and `stems` are the claim's words, lower case and stemmed."""
    raw = raws[i].removesuffix("'s")
    if not (2 <= len(raw) <= 4 and raw.isalpha() and raw.isupper()):
        return False
    letters = raw.lower()
    n = len(letters)
    before, owner, after = _around(lows, stems, i)
    for s in sentences:
        r, content = s.raws, s.content
        for k in range(len(r) - n + 1):
            if r[k][:1] != letters[0]:
                continue  # the gate: a lower-case word starting with the first letter
            span = range(k, k + n)
            if all(
                r[j][:1] == letters[j - k] and r[j].islower() and content[j] for j in span
            ) and _same_slot(before, owner, after, s, k, k + n):
                return True
    return False


def numeronym_in_source(
    lows: Sequence[str], stems: Sequence[str], i: int, sentences: Sequence[Sentence]
) -> bool:
    """Whether the claim's word at `i` is a numeronym ("k8s") of a source content word in
    the place the numeronym stands (module doc)."""
    m = _NUMERONYM.fullmatch(lows[i])
    if m is None:
        return False
    first, count, last = m.group(1), int(m.group(2)), m.group(3)
    if count < 2:
        return False
    before, owner, after = _around(lows, stems, i)
    for s in sentences:
        for k, low in enumerate(s.lows):
            if (
                len(low) == count + 2
                and low[0] == first
                and low[-1] == last
                and s.content[k]
                and _same_slot(before, owner, after, s, k, k + 1)
            ):
                return True
    return False
