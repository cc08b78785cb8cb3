"""A year the source gives one event, given by the claim to another ("founded around
1870" where the source says "was a small community in 1870").

A year is a specific, and the swapped-specific rules read it as a value: the claim's
year is right when the source holds it. But a year dates an event, and a claim that
keeps the year and changes the event it dates states a fact the source never gives:
"the film industry there emerged in 1910" against "It was consolidated with the city of
Los Angeles in 1910, and soon thereafter a prominent film industry emerged" (the source
dates the consolidation; the industry came later), or "it was founded around 1870"
against "Hollywood was a small community in 1870". Word overlap finds every word of the
claim somewhere in the source and approves it; what it does not read is which words the
year stands with.

So a year the claim writes as a date (after a preposition of time, "in 1910", "around
1870", "since 1979", or a month, "June 7, 2010") and the source writes as a date too is
read in its clause: the claim's clause must share a content word (by stem; an irregular
verb form also by its lemma, "began" / "begin"; a common noun also by its first WordNet
sense, "movie" / "film") with at least one clause of the source that dates an event with
the same year. The source's clause is read widely, with the clauses beside it in its
sentence that no conjunction opens ("In 1954, Presley began ...", "... began there in
1954, recording at Sun Records"): those describe the same event. A clause the source
opens with a conjunction ("..., and soon thereafter a film industry emerged") is another
event and is not read with the year. A claim clause that holds only the date ("Yes, in
1910.") is read with its neighbours the same way; one that still holds no content word
says nothing of the event and is not read.

When no clause of the source that dates the year shares a word with the claim's clause,
the claim dates an event the source does not date with that year: not supported. Not
read, because the source names no event to compare: a year the source lacks (the
specifics report it), a year the source writes only as a classifier ("a 2011 film",
"their 2000 album", "year : 2011": the thing is of that year, and "it came out in 2011"
restates it), and a year inside parentheses ("Elvis Presley (January 8, 1935 - August
16, 1977) was ...": a lifespan or an aside). A year the claim writes without a
preposition or month ("a 2011 film") is no date this rule reads.

Measured before building (session 17, fit half of every dataset of the dev file): the
first version fired on 6 claims, all labelled not supported, 3 of them not already
blocked (begin-cmu 1, faithdial-wow 2); over the whole file it also blocked 4 labelled
supported (a lifespan in parentheses, two classifier years, "movie" / "film"), which the
three exclusions above remove. docs/grounding.md, *Session 17: FaithDial wow*.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple, cast

from groundwire.guards.grounding.lexical.evidence import evidence_for
from groundwire.guards.grounding.lexical.opening_names import verb_lemmas
from groundwire.guards.grounding.lexical.synonyms import first_sense
from groundwire.guards.grounding.lexical.text import (
    CONJUNCTIONS,
    MONTH_NAMES,
    Token,
    clause_ids,
    stem,
    tokenize,
    word_set,
)
from groundwire.topics.records import SourceTurn

__all__ = ["redated_years"]

# a year of the common era as a word of its own (not "1870s", "1,870", "18700")
_YEAR = re.compile(r"^(?:1[0-9]{3}|20[0-9]{2})$")
# the words before a year that make it a date: prepositions of time, a month
_DATING = word_set("in since by until till from around circa before after during of back")
_MONTHS = frozenset(m.lower() for m in MONTH_NAMES)
# the cheap test: a number of four digits that may be a year somewhere in the claim (a
# pattern that opens with a digit class: the engine skips to the digits)
_CHEAP = re.compile(r"(?:1[0-9]{3}|20[0-9]{2})(?![0-9])")
_DAY = re.compile(r"^\d{1,2}(?:st|nd|rd|th)?$")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
# at most this many clauses of the claim and of the source are read per year: a bound
# on hostile input (docs/grounding.md, *Bounded work per claim*)
MAX_CLAUSES = 2_000
# at most this many (claim year, source clause) pairs compared per call
MAX_COMPARISONS = 100_000
# where `_source_events` keeps its answer in `Evidence.derived`
_KEY = "dated_events.events"


class _Year(NamedTuple):
    """A year written as a date in a text: its clause (an index into the clauses)."""

    year: str
    clause: int


def _read(text: str) -> tuple[list[list[Token]], list[_Year]]:
    """The clauses of `text` (`text.clause_ids`), sentence by sentence (an empty clause
    between two sentences keeps a neighbour from crossing a sentence end), and the years
    written as dates in it, outside parentheses."""
    clauses: list[list[Token]] = []
    years: list[_Year] = []
    for sentence in _SENTENCE_END.split(text):
        toks = tokenize(sentence)
        if not toks:
            continue
        ids = clause_ids(sentence, [(t.start, t.end) for t in toks], [t.low for t in toks])
        first = len(clauses)
        clauses.extend([] for _ in range(ids[-1] + 1))
        for i, (tok, k) in enumerate(zip(toks, ids, strict=True)):
            clauses[first + k].append(tok)
            if (
                _YEAR.match(tok.low)
                and _dated_at([t.low for t in toks[max(0, i - 3) : i]])
                and sentence.count("(", 0, tok.start) <= sentence.count(")", 0, tok.start)
            ):
                years.append(_Year(tok.low, first + k))
        clauses.append([])  # the sentence's end
    return clauses[:MAX_CLAUSES], [y for y in years if y.clause < MAX_CLAUSES]


def _stems(clause: Sequence[Token]) -> set[str | int]:
    """The clause's content words, by stem; an irregular verb form also by its lemma's,
    a common noun also by its first sense (`synonyms.first_sense`: "movie" / "film")."""
    out: set[str | int] = set()
    for tok in clause:
        if not tok.content or _YEAR.match(tok.low) or tok.low in _MONTHS:
            continue
        out.add(tok.stem)
        out.update(stem(lemma) for lemma in verb_lemmas(tok.low))
        if tok.text[:1].islower():
            sense = first_sense(tok.low)
            if sense is not None:
                out.add(sense)
    return out


def _opens_with_conjunction(clause: Sequence[Token]) -> bool:
    return bool(clause) and clause[0].low in CONJUNCTIONS


def _event_words(clauses: list[list[Token]], k: int, widen: bool) -> set[str | int]:
    """The words of clause `k` that describe the event its year dates: its own, and
    (always when `widen`, else only when it has none) those of the clauses beside it
    that no conjunction opens."""
    words = _stems(clauses[k])
    if widen or not words:
        if k + 1 < len(clauses) and not _opens_with_conjunction(clauses[k + 1]):
            words |= _stems(clauses[k + 1])
        if k > 0 and not _opens_with_conjunction(clauses[k]):
            words |= _stems(clauses[k - 1])
    return words


def _dated_at(before: Sequence[str]) -> bool:
    """Whether a year after the words `before` (lower case, at most three) is written
    as a date: after a preposition of time, or a month and perhaps a day ("June 7,
    2010", "June 7th 2010")."""
    if not before:
        return False
    if before[-1] in _DATING or before[-1] in _MONTHS:
        return True
    day = before[-1].rstrip(",")
    return len(before) >= 2 and before[-2] in _MONTHS and _DAY.match(day) is not None


def _source_events(turns: Sequence[SourceTurn], year: str) -> list[frozenset[str | int]]:
    """The words of every event the source dates with `year` (`_event_words`, widened),
    read only in the sentences that hold it, once per evidence and year and kept with
    the evidence (the claims of an answer share their context)."""
    ev = evidence_for(turns)
    memo = ev.derived
    if memo is None:
        memo = ev.derived = {}
    by_year = cast("dict[str, list[frozenset[str | int]]]", memo.setdefault(_KEY, {}))
    got = by_year.get(year)
    if got is None:
        got = by_year[year] = []
        for turn in turns:
            if year not in turn.text:
                continue
            for sentence in _SENTENCE_END.split(turn.text):
                if year not in sentence:
                    continue
                clauses, years = _read(sentence)
                got.extend(
                    frozenset(_event_words(clauses, y.clause, widen=True))
                    for y in years
                    if y.year == year
                )
    return got


def redated_years(claim_text: str, turns: Sequence[SourceTurn]) -> list[str]:
    """The years the claim gives to an event no clause of the source holding that year
    describes; empty when there are none."""
    numbers = set(_CHEAP.findall(claim_text))
    if not numbers:
        return []  # the cheap test first: most claims write no year
    if not any(n in turn.text for n in numbers for turn in turns):
        return []  # nor does the source hold one of them: the specifics' to read
    claim, dated = _read(claim_text)
    out: list[str] = []
    budget = MAX_COMPARISONS
    for year, k in dated:
        held = _source_events(turns, year)
        if not held:
            continue  # the source never dates an event with it: the specifics' to read
        words = _event_words(claim, k, widen=False)
        if not words:
            continue  # the clause says nothing of the event
        budget -= len(held)
        if budget < 0:
            break  # past the bound, the rest count as the source's events
        if all(words.isdisjoint(source_words) for source_words in held):
            out.append(year)
    return out
