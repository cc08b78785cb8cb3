"""A name or date put in the mouth of a speaker who said another one.

In a `Name: text` transcript each line belongs to its speaker. A summary that makes a
speaker the subject of a clause ("Cassie suggests contacting HR", "Luke informs him it
is January") and gives that clause a value the transcript does hold, but only in the
lines of *other* speakers, while the subject's own lines hold a different value of the
same kind that the clause leaves out ("Cassie: contact IT", "Luke: It's February"), has
moved the value from one speaker to another: the dialogue's own words, given other
roles. Word overlap finds every word and the speaker check (`features._speaker_mismatch`,
which weighs all of a clause's content words) is outvoted by the words the clause shares
with the subject's lines. Read here, per value, it is a contradiction: "contradicts the
source: 'HR' where the source says 'IT'".

Values are of four kinds, read by their shape only (no word list beyond the calendar's
names of `text.py`): a month name written with a capital; a weekday name; an acronym (two
to five capitals: "HR", "IT"); a name (one capital, then lower-case letters, not at the
start of a line or a sentence). Never a speaker's name or a first-person form ("I'll").
A value is only read as moved from one of its own kind: an acronym from an acronym, not
from a person's name. A clause is cut at the marks and conjunctions the speaker check cuts at,
and also before "and"/"but"/"then" followed by a speaker's name ("Caroline asks for
Italian music and Anette suggests Marco Mengoni": Anette's clause). The subject is the
first speaker the clause names, with the speakers joined to it ("Emily and James"),
whose lines are read together.

Not read as moved: a value the subject also says; a subject whose lines hold no other
value of that kind, or only values the clause names too (nothing to have moved it from);
a clause naming no speaker; a source of fewer than two speakers.

Bounded: each turn's lines are read once per conversation (cached); a claim is read
once, word by word; at most `MAX_FOUND` values are reported.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterator, Sequence

from groundwire.guards.grounding.lexical.evidence import speaker_lines
from groundwire.guards.grounding.lexical.text import (
    FIRST_PERSON,
    MONTH_NAMES,
    WEEKDAY_NAMES,
    fold_disguises,
)
from groundwire.topics.records import SourceTurn

__all__ = ["MAX_FOUND", "moved_values"]

# At most this many moved values are reported (one is enough to contradict).
MAX_FOUND = 3
_MONTHS = frozenset(MONTH_NAMES)
_WEEKDAYS = frozenset(WEEKDAY_NAMES)
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")
# the cuts of `features._CLAUSE_SPLIT`: sentence marks, ", and/but/while/so", "while"
_CLAUSE = re.compile(r"[.;!?]|,\s*(?:and|but|while|so)\b|\bwhile\b")
_JOINS = frozenset(("and", "but", "then"))
# characters after which a word opens a sentence or a line (its capital says nothing)
_OPENERS = frozenset('.!?:"(\n')

Value = tuple[str, str]  # (kind, lower-case word)


def _values(text: str) -> Iterator[tuple[Value, str]]:
    """((kind, low), raw) for each value-shaped word of `text`, in order."""
    for m in _WORD.finditer(text):
        raw = m.group(0)
        low = raw.lower()
        if low in FIRST_PERSON:
            continue
        j = m.start() - 1  # the character before the word, past its spaces (each word
        while j >= 0 and text[j].isspace():  # looks back over its own spaces only)
            j -= 1
        opens = j < 0 or text[j] in _OPENERS
        if low in _WEEKDAYS:
            yield ("weekday", low), raw
        elif low in _MONTHS:
            if raw[:1].isupper() and not opens:  # "May I" opens a question
                yield ("month", low), raw
        elif 2 <= len(raw) <= 5 and raw.isupper():
            yield ("acronym", low), raw
        elif len(raw) > 1 and raw[0].isupper() and raw[1:].islower() and not opens:
            yield ("name", low), raw


@functools.lru_cache(maxsize=256)
def _said(turns: tuple[SourceTurn, ...]) -> tuple[dict[str, dict[Value, str]], frozenset[Value]]:
    """(speaker -> {value: its raw form} of that speaker's lines, every value of any
    line), speakers' own names left out; ({}, empty) for fewer than two speakers.
    Cached: the claims of one conversation are read against the same turns."""
    said: dict[str, dict[Value, str]] = {}
    for turn in turns:
        text = turn.text
        for speaker, start, end in speaker_lines(text):
            own = said.setdefault(speaker, {})
            for value, raw in _values(text[start:end]):
                own.setdefault(value, raw)
    if len(said) < 2:
        return {}, frozenset()
    for own in said.values():
        for value in [v for v in own if v[1] in said]:
            del own[value]
    return said, frozenset().union(*(own.keys() for own in said.values()))


def _clauses(text: str, speakers: dict[str, dict[Value, str]]) -> Iterator[str]:
    """The claim's clauses, also cut before "and"/"but"/"then" and a speaker's name."""
    for part in _CLAUSE.split(text):
        start = 0
        words = list(_WORD.finditer(part))
        said_more = False  # a word past the names since the last cut: "Emily and James"
        # is one subject, "Ann asks for milk and Bob ..." two clauses
        for a, b in itertools.pairwise(words):
            low, name = a.group(0).lower(), b.group(0)
            if low in _JOINS and said_more and name.lower() in speakers and name[:1].isupper():
                yield part[start : a.start()]
                start, said_more = a.start(), False
                continue
            said_more = said_more or (low not in speakers and low not in _JOINS)
        yield part[start:]


def _subjects(words: Sequence[str], said: dict[str, dict[Value, str]]) -> list[str]:
    """The clause's subject: its first speaker name, with the speakers joined to it
    ("Emily and James", "Ann, Bob and Cy" — commas are not words here); [] for none."""
    at = next((i for i, w in enumerate(words) if w.lower() in said and w[:1].isupper()), None)
    if at is None:
        return []
    subjects = [words[at].lower()]
    k = at + 1
    while k < len(words):
        if words[k].lower() == "and":
            k += 1
        if k < len(words) and words[k].lower() in said and words[k][:1].isupper():
            subjects.append(words[k].lower())
            k += 1
        else:
            break
    return subjects


def moved_values(claim_text: str, turns: Sequence[SourceTurn]) -> list[tuple[str, str]]:
    """(the claim's value, the subject's own value of that kind) for each value a clause
    gives its speaker-subject that only other speakers say, where the subject says
    another of its kind the clause leaves out; [] when none or not a transcript."""
    said, every = _said(tuple(turns))
    if not said:
        return []
    found: list[tuple[str, str]] = []
    for clause in _clauses(fold_disguises(claim_text), said):
        subjects = _subjects(_WORD.findall(clause), said)
        if not subjects:
            continue
        own = {v: r for who in subjects for v, r in said[who].items()}
        values = [(v, raw) for v, raw in _values(clause) if v[1] not in said]
        named = {v for v, _ in values}
        # per kind, the subject's first value the clause leaves out: read once per clause
        other_of: dict[str, str] = {}
        for v, r in own.items():
            if v not in named:
                other_of.setdefault(v[0], r)
        for value, raw in values:
            if value in own or value not in every:
                continue
            other = other_of.get(value[0])
            if other is not None and (raw, other) not in found:
                found.append((raw, other))
                if len(found) >= MAX_FOUND:
                    return found
    return found
