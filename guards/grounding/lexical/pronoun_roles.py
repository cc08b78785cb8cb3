"""Who does it to whom, told by a pronoun's case: "We owe Acme $5,000" where the source
says "Acme owes us $5,000" (session 17, the write-path red team).

The role rules read two names or content words in swapped order (`roles.py`); a personal
pronoun is a function word there, so turning the speaker from the one who acts into the
one acted on ("we owe" / "owes us") kept every content word in place and the claim was
supported.

English marks the role on the pronoun itself: "we", "I", "they", "he", "she" act;
"us", "me", "them", "him", "her" are acted on. `pronoun_roles` reads each clause of the
shape "<subject pronoun> <verb> [determiner] <word>" (the person acts on the word) or
"<word> <verb> <object pronoun>" (the word acts on the person), the word being a content
word or a pronoun of the other case ("We hired him" / "He hired us"), with the verb compared
by stem ("owe" / "owes"). A claim's reading that the source tells only the other way
round, over the same person, verb and word, is a contradiction: (the claim's pronoun,
the source's). "her" is also a possessive ("Ana paid her rent") and is read only at
the end of the clause or before a word that is no noun of its own: not read after a
verb before another content word. A relation that holds both ways ("we met Ana" / "Ana
met us"; `text.SYMMETRIC_RELATIONS`, as the role rules read it) is not read.
"""

from __future__ import annotations

from collections.abc import Sequence, Set

from groundwire.guards.grounding.lexical.evidence import Sentence
from groundwire.guards.grounding.lexical.text import SYMMETRIC_RELATIONS

__all__ = ["PRONOUNS", "pronoun_roles"]

_PERSON_OF_SUBJECT = {"we": "1p", "i": "1s", "they": "3p", "he": "3m", "she": "3f"}
_PERSON_OF_OBJECT = {"us": "1p", "me": "1s", "them": "3p", "him": "3m", "her": "3f"}
# a pronoun -> the same person in the other case ("we" -> "us", "us" -> "we")
_OBJECT_OF = {
    subj: obj
    for subj, p in _PERSON_OF_SUBJECT.items()
    for obj, q in _PERSON_OF_OBJECT.items()
    if p == q
}
_SUBJECT_OF = {obj: subj for subj, obj in _OBJECT_OF.items()}
_OTHER_CASE = {**_OBJECT_OF, **_SUBJECT_OF}
PRONOUNS: frozenset[str] = frozenset(_PERSON_OF_SUBJECT) | frozenset(_PERSON_OF_OBJECT)
_DETERMINERS = frozenset(("the", "a", "an", "our", "my", "their", "his", "its", "this", "that"))

# (person, verb stem, the other side: a word's stem or "@" and a person, "acts"/"acted on")
Reading = tuple[str, str, str, str]


def _readings(
    lows: Sequence[str], stems: Sequence[str], content: Sequence[bool]
) -> dict[Reading, str]:
    """Each reading of a text (module docstring) -> its pronoun as written."""
    out: dict[Reading, str] = {}
    n = len(lows)
    for k in [i for i, w in enumerate(lows) if w in PRONOUNS]:
        low = lows[k]
        person = _PERSON_OF_SUBJECT.get(low)
        if person is not None and k + 2 < n and content[k + 1]:
            j = k + 2
            if lows[j] in _DETERMINERS and j + 1 < n:
                j += 1
            other = _other(lows, stems, content, j, _PERSON_OF_OBJECT)
            if other is not None:
                out.setdefault((person, stems[k + 1], other, "acts"), low)
            continue
        person = _PERSON_OF_OBJECT.get(low)
        if person is not None and k >= 2 and content[k - 1]:
            if low == "her" and k + 1 < n and content[k + 1]:
                continue  # "paid her rent": a possessive
            other = _other(lows, stems, content, k - 2, _PERSON_OF_SUBJECT)
            if other is not None:
                out.setdefault((person, stems[k - 1], other, "acted on"), low)
    return out


def _other(
    lows: Sequence[str],
    stems: Sequence[str],
    content: Sequence[bool],
    j: int,
    pronouns: dict[str, str],
) -> str | None:
    """The other side of a reading at `j`: a content word's stem, or "@" and the person
    of a pronoun of the other case ("we hired *him*", "*they* sent us"), else None."""
    if content[j]:
        return stems[j]
    person = pronouns.get(lows[j])
    return None if person is None else "@" + person


def pronoun_roles(
    lows: Sequence[str],
    stems: Sequence[str],
    content: Sequence[bool],
    sentences: Sequence[Sentence],
    src_lows: Set[str],
) -> list[tuple[str, str]]:
    """(the claim's pronoun, the source's) for each role the source gives the claim's
    person only the other way round (module docstring)."""
    # the cheap test first: the source must write a pronoun of the claim's other case
    cases = {_OTHER_CASE[w] for w in PRONOUNS.intersection(lows)}
    if cases.isdisjoint(src_lows):
        return []
    if not SYMMETRIC_RELATIONS.isdisjoint(lows):
        return []  # "we met Ana" is "Ana met us" (`text.SYMMETRIC_RELATIONS`, as `roles.py`)
    mine = _readings(lows, stems, content)
    if not mine:
        return []
    verbs = {verb for _, verb, _, _ in mine}
    theirs: dict[Reading, str] = {}
    for s in sentences:
        # only a sentence with one of the claim's verbs and a pronoun is read
        if verbs.isdisjoint(s.stems) or PRONOUNS.isdisjoint(s.lows):
            continue
        theirs.update(_readings(s.lows, s.word_stems, s.content))
    out: list[tuple[str, str]] = []
    for (person, verb, other, role), shown in mine.items():
        turned = (person, verb, other, "acted on" if role == "acts" else "acts")
        if turned in theirs and (person, verb, other, role) not in theirs:
            out.append((shown, theirs[turned]))
    return out
