"""Who does what to whom in a transcript, when the speaker says "I" and "him".

"Branwell will bring Maria from the railway station" against "Maria: I will bring him
from the railway station": every word is the source's, and the role rules
(`roles.py`, `names.py`) compare the names on either side of the verb with the names
the source puts there; the source puts a pronoun on each side ("I", "him"), so the
exchange went unread, while "Maria: I will bring Branwell ..." was already caught.

In a `Name: text` transcript a line's "I" is its speaker. `swapped_doers` reads, for
each line, a first-person subject ("I", "I'll", "we", ...) followed, after at most
`REACH` auxiliaries ("will", "can", "am going to"), by a lower-case content word (the
verb) and then an object pronoun ("him", "her", "them"): the speaker does that to
someone else. A claim clause whose subject is a capitalised name X, followed after
auxiliaries by the same verb (by stem) and then, within `REACH_OBJECT` words of the
same clause, by that speaker's name S, says X does it to S. It is a contradiction when
the source never has X do it: no line of X's own with "I ... <verb>", and no "X ...
<verb>" anywhere. Reported as the swapped name: "contradicts the source: 'Branwell'
where the source says 'Maria'".

Bounded: each line is read once, word by word (and the reading kept for the next claim
of the same turns); each claim word looks at most `REACH` words ahead for its verb and
`REACH_OBJECT` words past it.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import NamedTuple

from groundwire.guards.grounding.lexical.evidence import speaker_lines
from groundwire.guards.grounding.lexical.text import (
    WORD,
    claim_words,
    clause_ids,
    fold_disguises,
    parts_of,
    word_set,
)
from groundwire.topics.records import SourceTurn

__all__ = ["MAX_FOUND", "REACH", "REACH_OBJECT", "swapped_doers"]

# Auxiliaries read between a subject and its verb ("I will", "I am going to").
REACH = 3
# Words after the verb within which the claim must name the speaker as its object.
REACH_OBJECT = 4
# At most this many swaps are reported (one is enough to contradict).
MAX_FOUND = 3
_FIRST = word_set("i i'll i'm i'd we we'll we're we'd")
_AUX = word_set("will 'll can could would should shall must am is are was were going to also")
_OBJECT = word_set("him her them")


class _Line(NamedTuple):
    speaker: str  # lower case
    raws: tuple[str, ...]
    lows: tuple[str, ...]
    stems: tuple[str, ...]
    content: tuple[bool, ...]


def _lines(turns: Sequence[SourceTurn]) -> list[_Line]:
    """Each `Name: text` line of the turns, read as words."""
    out: list[_Line] = []
    for turn in turns:
        text = turn.text
        for speaker, start, end in speaker_lines(text):
            raws = tuple(WORD.findall(text, start, end))
            if raws:
                lows, stems, content, _ = zip(*parts_of(raws), strict=True)
                out.append(_Line(speaker, raws, lows, stems, content))
    return out


def _verb_after(
    raws: Sequence[str], lows: Sequence[str], content: Sequence[bool], i: int
) -> int | None:
    """The position of the verb after a subject at `i`: the first lower-case content
    word past at most `REACH` auxiliaries, or None."""
    for j in range(i + 1, min(i + 2 + REACH, len(lows))):
        if lows[j] not in _AUX:
            return j if content[j] and raws[j][:1].islower() else None
    return None


def _acts(lines: Sequence[_Line]) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """(verb stem -> speakers who say "I <verb> him/her/them", verb stem -> everyone the
    source has do it: a speaker's "I <verb>", a capitalised name's "<Name> <verb>")."""
    to_others: dict[str, set[str]] = {}
    doers: dict[str, set[str]] = {}
    for line in lines:
        raws, lows = line.raws, line.lows
        for i, low in enumerate(lows):
            first = low in _FIRST
            if not first and not (line.content[i] and raws[i][:1].isupper()):
                continue
            j = _verb_after(raws, lows, line.content, i)
            if j is None:
                continue
            doers.setdefault(line.stems[j], set()).add(line.speaker if first else low)
            if first and j + 1 < len(lows) and lows[j + 1] in _OBJECT:
                to_others.setdefault(line.stems[j], set()).add(line.speaker)
    return to_others, doers


@functools.lru_cache(maxsize=256)
def _transcript_acts(
    turns: tuple[SourceTurn, ...],
) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """`_acts` of the turns' lines (empty unless two speakers or more), cached: the claims
    of one conversation are checked against the same turns. Read only, never mutated."""
    lines = _lines(turns)
    if len({line.speaker for line in lines}) < 2:
        return {}, {}
    return _acts(lines)


def swapped_doers(claim_text: str, turns: Sequence[SourceTurn]) -> list[tuple[str, str]]:
    """(the claim's doer, the speaker the source has do it) for each claim clause in
    which a name does to a speaker what that speaker says "I" do to "him" / "her" /
    "them", and the source never has that name do it; empty when none."""
    to_others, doers = _transcript_acts(tuple(turns))
    if not to_others:
        return []
    words = claim_words(claim_text)
    raws, lows = words.raws, words.lows
    clause = clause_ids(fold_disguises(claim_text), words.spans, lows)
    found: list[tuple[str, str]] = []
    for i, raw in enumerate(raws):
        if not raw[:1].isupper() or lows[i] in _FIRST or not words.content[i]:
            continue
        j = _verb_after(raws, lows, words.content, i)
        if j is None or clause[j] != clause[i]:
            continue
        speakers = to_others.get(words.stems[j], set())
        if not speakers or lows[i] in doers.get(words.stems[j], set()):
            continue
        for k in range(j + 1, min(j + 1 + REACH_OBJECT, len(lows))):
            if clause[k] != clause[i]:
                break
            if lows[k] in speakers and lows[k] != lows[i]:
                found.append((raw, raws[k]))
                break
        if len(found) >= MAX_FOUND:
            break
    return found
