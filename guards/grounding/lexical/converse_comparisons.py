"""A comparison told from its other side: "Memcached uses more memory than Redis" where
the source says "Redis uses less memory than Memcached" (session 17, the write-path red
team).

Turning the two compared things round and the comparative into its opposite states the
same fact ("A is faster than B" is "B is slower than A"), but each change alone is a
contradiction the verifier reads: the things swapped (`roles.py`), the comparative
against its antonym (`polarity.py`). Together they blocked a faithful memory.

`converse_words`: for a claim with "than" and a source sentence with "than", where the
claim's first content word before "than" is the source's first content word after it,
the claim's first content word after "than" is the source's first before it, and a word
before "than" in the claim is an antonym (WordNet) of a word before "than" in the
source ("more" / "less", "faster" / "slower"): the lower-case claim words those rules
read as swapped (the two things and the comparative). `features.analyze` drops the
conflicts whose claim word is one of them. "Memcached uses more memory than Redis"
against "Redis uses more memory than Memcached" turns the things and keeps the
comparative: still a swap.
"""

from __future__ import annotations

from collections.abc import Sequence

from groundwire.guards.grounding.lexical.antonyms import antonymous
from groundwire.guards.grounding.lexical.evidence import Sentence

__all__ = ["converse_words"]


def _sides(
    lows: Sequence[str], stems: Sequence[str], content: Sequence[bool]
) -> tuple[int, int, int] | None:
    """(the first content word before "than", "than", the first content word after it)."""
    if "than" not in lows:
        return None
    t = lows.index("than")
    before = next((k for k in range(t) if content[k]), None)
    after = next((k for k in range(t + 1, len(lows)) if content[k]), None)
    if before is None or after is None:
        return None
    return before, t, after


def converse_words(
    lows: Sequence[str],
    stems: Sequence[str],
    content: Sequence[bool],
    sentences: Sequence[Sentence],
) -> frozenset[str]:
    """The claim words of a comparison the source tells from its other side (module
    docstring); empty when there is none."""
    mine = _sides(lows, stems, content)
    if mine is None:
        return frozenset()
    cb, ct, ca = mine
    for s in sentences:
        if "than" not in s.lows:
            continue
        theirs = _sides(s.lows, s.word_stems, s.content)
        if theirs is None:
            continue
        sb, st, sa = theirs
        if stems[cb] != s.word_stems[sa] or stems[ca] != s.word_stems[sb] or stems[cb] == stems[ca]:
            continue
        for i in range(cb + 1, ct):
            if any(antonymous(lows[i], s.lows[j]) for j in range(sb + 1, st)):
                return frozenset((lows[cb], lows[ca], lows[i]))
    return frozenset()
