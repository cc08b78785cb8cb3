"""A summary of a transcript that renames a participant: "Ned asks Tom if he has a crib
and Tom says he's working on it with the help of Janice" against a chat in which Tom
says "working on it", "I asked Jenny", "she can help".

A transcript ("Name: text" lines, two speakers or more: `evidence.Evidence.speakers`)
records who took part and whom they named. A claim that retells it and names someone
the transcript never mentions, among words that one speaker's lines hold, has put a new
name where that speaker, or a name in that speaker's lines, stood: a changed name, which
contradicts the source (docs/spec.md §Grounding), not an added detail. The general name
rule (`names.swapped_names`) needs the two names linked to the same words within one
sentence by a linking verb ("Dana became CTO"); a summary re-words a chat's lines and
spreads a fact over several of them ("Try Marco Mengoni" ... "he's a big star with easy
lyrics"), so here the unit is the speaker's lines, read as one.

`renamed_participants` reads it as one when:

* the claim word is a name: a capital, then lower case, inside a claim sentence (a
  sentence-initial capital is any word's), not a month or weekday (a date the chat gives
  as "TGIF" or "tomorrow" is a sharpened detail, PARTIAL, as the spec says), and no word
  of the name (its run of capitalised words) is in the source in any case, possessive or
  not, or is the memory's owner (`known_names`);
* its context, up to `WINDOW` content words either side (not the claim's other names
  or the speakers', and up to a sentence mark or a conjunction: a comma does not end it,
  "Matteo Bocelli, a popular artist with easy lyrics" describes the name), has at least
  `MIN_HELD` words that one speaker's lines hold;
* a name in that speaker's lines ("Anette: Try Marco Mengoni") is one the claim never
  uses, in any spelling (`spelling.same_name_in`), or else that speaker is, and no
  speaker stands in the name's context (then the name stands where the speaker did:
  "John says he's working on it" for Tom's "working on it"; in "Omar will ask Nadia
  for help" Omar is the actor, and Nadia takes no speaker's place). That is the
  competitor the new name replaced. A name the source has written another way
  ("Annette") is the source's name, not a new one.

A name the transcript never uses with no such speaker is no rename; since session 14
it is not a sharpened detail either (`invented_names.py`: `not_supported`, reported as
a name the conversation never mentions). Only transcripts: a document, an article or a
user's own turns have no speakers to rename.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from groundwire.guards.grounding.lexical.evidence import Sentence
from groundwire.guards.grounding.lexical.spelling import same_name_in
from groundwire.guards.grounding.lexical.text import (
    CALENDAR,
    CONJUNCTIONS,
    ClaimWords,
    capitals,
)

__all__ = ["MIN_HELD", "WINDOW", "renamed_participants"]

# Content words either side of the name that make up its context, and how many of them
# a speaker's lines must hold. Set once by reading the rule's firings on the fit half of
# the dev file (docs/grounding.md, Session 11), not per example.
WINDOW = 4
MIN_HELD = 2
_OPENERS = frozenset(".!?:\"'(")
# what ends a name's context: a sentence mark (a comma does not: "Marco, a big star")
_BREAK = re.compile(r"[.;!?]")


def _base(low: str) -> str:
    return low[:-2] if low.endswith("'s") else low


def _name_shaped(raw: str) -> bool:
    """A capital, then lower case: "Janice", "Bocelli", "Maggie's"; not "EP", "2024"."""
    letters = raw[:-2] if raw.endswith(("'s", "'S")) else raw
    return (
        len(letters) > 1
        and letters.isalpha()
        and letters[0].isupper()
        and letters[1:].islower()
        and letters.lower() not in CALENDAR
    )


def _opens(text: str, start: int) -> bool:
    j = start - 1
    while j >= 0 and text[j].isspace():
        j -= 1
    return j < 0 or text[j] in _OPENERS


def _speaker_names(sentences: Sequence[Sentence]) -> dict[str, list[str]]:
    """Speaker (lower case) -> the names (lower case, no possessive) inside that speaker's
    lines: name-shaped words after the line's first word ("Anette: Try Marco Mengoni")."""
    names: dict[str, list[str]] = {}
    who = ""
    for s in sentences:
        raws = s.raws
        if len(raws) > 1 and s.text.startswith(":", s.start + len(raws[0])):
            who = s.lows[0]
            first = 2  # after the label and the line's first word
        else:
            first = 1
        if not who:
            continue
        got = names.setdefault(who, [])
        for j in capitals(raws):
            if j >= first and _name_shaped(raws[j]) and _base(s.lows[j]) not in got:
                got.append(_base(s.lows[j]))
    return names


def _respelled_names(
    raws: Sequence[str], named: Sequence[int], sentences: Sequence[Sentence]
) -> set[str]:
    """The source's spelling (lower case, no possessive) of each of the claim's names
    at `named` (names the source does not write the same way) that it writes another."""
    out: set[str] = set()
    for k in named:
        spelled = same_name_in(raws[k], sentences)
        if spelled is not None:
            out.add(_base(spelled.lower()))
    return out


def renamed_participants(
    words: ClaimWords,
    text: str,
    content: Sequence[bool],
    sentences: Sequence[Sentence],
    src_lows: set[str] | frozenset[str],
    src_stems: set[str] | frozenset[str],
    speakers: dict[str, set[str]],
    known_names: set[str] | frozenset[str],
) -> list[tuple[str, str]]:
    """(claim name, the speaker or name it replaced) for each name the claim puts among
    one speaker's words where the transcript has someone else (module docstring)."""
    if len(speakers) < 2:
        return []
    raws, lows, stems, spans = words.raws, words.lows, words.stems, words.spans
    n = len(raws)

    def unheard(i: int) -> bool:
        low = _base(lows[i])
        return (
            low not in src_lows
            and low + "'s" not in src_lows
            and stems[i] not in src_stems
            and low not in known_names
        )

    # the cheap tests first: set lookups, then the shape; most claims stop here
    candidates = [
        i
        for i in capitals(raws)
        if i and unheard(i) and _name_shaped(raws[i]) and not _opens(text, spans[i][0])
    ]
    if not candidates:
        return []
    named = {k for k in capitals(raws) if k and not _opens(text, spans[k][0])}
    claim_bases = {_base(low) for low in lows}
    in_lines: dict[str, list[str]] | None = None
    respelled: set[str] | None = None
    out: list[tuple[str, str]] = []
    done: set[int] = set()
    for i in candidates:
        if i in done:
            continue
        lo = hi = i  # the whole name: the capitalised words written beside it
        while lo > 0 and lo - 1 in named and not text[spans[lo - 1][1] : spans[lo][0]].strip():
            lo -= 1
        while hi + 1 < n and hi + 1 in named and not text[spans[hi][1] : spans[hi + 1][0]].strip():
            hi += 1
        done.update(range(lo, hi + 1))
        if not all(unheard(k) for k in range(lo, hi + 1) if _name_shaped(raws[k])):
            continue  # "Marco Polo" where the source says "Marco": part of a known name
        context: set[str] = set()
        beside: set[str] = set()  # the speakers the claim names in the same stretch
        for step, side in ((-1, range(lo - 1, -1, -1)), (1, range(hi + 1, n))):
            taken = 0
            for k in side:
                a, b = (k, k + 1) if step < 0 else (k - 1, k)  # the gap between two words
                if (
                    taken == WINDOW
                    or _BREAK.search(text, spans[a][1], spans[b][0])
                    or lows[k] in CONJUNCTIONS
                ):
                    break
                if _base(lows[k]) in speakers:
                    beside.add(_base(lows[k]))
                elif content[k] and k not in named:
                    context.add(stems[k])
                    taken += 1
        if len(context) < MIN_HELD or same_name_in(raws[i], sentences) is not None:
            continue  # no context; or the source's name written another way ("Annette")
        if in_lines is None:
            in_lines = _speaker_names(sentences)
        if respelled is None:  # the source's names the claim writes another way ("Annette")
            respelled = _respelled_names(raws, [k for k in named if unheard(k)], sentences)
            claim_bases |= respelled
        for who, said in speakers.items():
            if len(context & said) < MIN_HELD:
                continue
            # a name in that speaker's lines first ("Try Marco Mengoni"), else the speaker
            other = [name for name in in_lines.get(who, ()) if name not in claim_bases]
            if other:
                out.append((raws[i], other[0].capitalize()))
                break
            if not beside and who not in claim_bases:
                out.append((raws[i], who.capitalize()))
                break
    return out
