"""A given name where the source names the person by the family name only.

English prose about people (a plot summary, a biography, a news story) names a person
in full once and then by the family name alone ("Zuckerberg extends the network ...");
people talking about them use the given name ("he is in on it with Mark"). A source
passage cut from the middle of such a text may never write the given name at all. The
swap rules read a claim's name the source lacks in the slot of a name the source uses
as a contradiction, so "Sean Parker ... is in on it with Mark to make Facebook" against
"... Zuckerberg invites him ..." was `not_supported` as if it named another person.

A given name and a family name cannot contradict each other: they may be two names of
one person. So a swapped pair (claim name, source name) is no contradiction when

* the claim's name is a given name (`data/given_names.txt`: Faker's given names of 26
  locales, scripts/build_given_names.py; nothing written by hand) standing alone in the
  claim: no capitalised word right after it, none right before it but its sentence's
  first word ("Yes Mark did")
  ("Mark Smith" is a full name, and another person's), and
* the source's name is no given name, no common word (`names.common_word`), no turn
  writes a given name right before it ("Judy Hopps ... Hopps" gives her given name, and
  "Mark" in her slot stays a contradiction), and a turn of running prose uses it alone
  at least once: a person called by the family name ("Zuckerberg invites him"; not
  "Los" of "Los Angeles"). Running prose is three sentences or more and no transcript's
  "Name:" lines: the convention is written prose's, and a chat turn or a short note
  names people as it likes ("Priya will lead the team" gives no family name).

Both names are written as names: a capital, then lower-case letters only ("US" and
"Philosopher's" are no given name and family name).

The claim's name stays a name the source does not give: a specific that caps the
verdict at PARTIAL (docs/spec.md §Grounding), never SUPPORTED, and the rewrite drops
it. Only the contradiction is lifted.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from importlib import resources

from groundwire.guards.grounding.lexical.names import common_word
from groundwire.topics.records import SourceTurn

__all__ = ["given_for_family", "other_persons"]

_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")
# what ends a sentence: a word after it opens a new one, its capital is no name's
_END = re.compile(r"[.!?:;]\s*$")
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)")
# a transcript's line: a speaker's name and a colon opening it
_SPEAKER_LINE = re.compile(r"(?m)^\s*[A-Z][\w.' -]{0,40}:\s")
# a text names people by the family name alone once it runs for a few sentences: the
# first mention gave the full name; a short note or a chat turn names them as it likes
_PROSE_SENTENCES = 3


@functools.cache
def _given() -> frozenset[str]:
    """The given names, lower case (`data/given_names.txt`)."""
    path = resources.files("groundwire.guards.grounding").joinpath("data/given_names.txt")
    lines = path.read_text("utf-8").splitlines()
    return frozenset(x for x in lines if x and not x.startswith("#"))


def _capitalised(raw: str) -> bool:
    return raw[:1].isupper()


def _name_form(raw: str) -> bool:
    """A capital then lower-case letters only ("Mark"; not "US", "Philosopher's")."""
    return len(raw) > 1 and raw.isalpha() and raw[0].isupper() and raw[1:].islower()


def _alone(text: str, name: str) -> bool:
    """Whether `name` occurs in `text` with no capitalised word right before it inside its
    sentence nor right after it (a given name standing for a person on its own)."""
    words = list(_WORD.finditer(text))
    seen = False
    for k, m in enumerate(words):
        if m.group() != name:
            continue
        seen = True
        if k + 1 < len(words) and _capitalised(words[k + 1].group()):
            return False
        if k > 0 and _capitalised(words[k - 1].group()):
            between = text[words[k - 1].end() : m.start()]
            opens = k - 1 == 0 or _END.search(text[: words[k - 1].start()]) is not None
            if not opens and _END.search(between) is None:
                return False
    return seen


@functools.lru_cache(maxsize=256)
def _prose(text: str) -> bool:
    """Running prose: at least `_PROSE_SENTENCES` sentences, and no transcript line
    ("Dana: ...")."""
    if _SPEAKER_LINE.search(text) is not None:
        return False
    return len(_SENTENCE_END.findall(text)) >= _PROSE_SENTENCES


@functools.lru_cache(maxsize=1024)
def _uses(text: str, name: str) -> tuple[bool, bool]:
    """Whether `text` uses `name` alone at least once (no capitalised word right after
    it, none right before it but a sentence's first word: "Zuckerberg invites him", not
    "Los Angeles"), and whether it writes a given name right before it ("Judy Hopps")."""
    given = _given()
    words = list(_WORD.finditer(text))
    alone = after_given = False
    for k, m in enumerate(words):
        if m.group() != name:
            continue
        before = words[k - 1] if k > 0 else None
        if before is not None and _END.search(text[before.end() : m.start()]) is not None:
            before = None  # the name opens a sentence
        if before is not None and _capitalised(before.group()):
            if before.group().lower() in given:
                after_given = True
                continue
            opens = k - 1 == 0 or _END.search(text[: before.start()]) is not None
            if not opens:
                continue
        if k + 1 < len(words) and _capitalised(words[k + 1].group()):
            continue
        alone = True
    return alone, after_given


def _family_only(turns: Sequence[SourceTurn], name: str) -> bool:
    """Whether a turn of running prose uses `name` alone and no turn gives it a given name."""
    alone = False
    for t in turns:
        used_alone, after_given = _uses(t.text, name)
        if after_given:
            return False
        alone = alone or (used_alone and _prose(t.text))
    return alone


def given_for_family(
    claim_text: str, pairs: Sequence[tuple[str, str]], turns: Sequence[SourceTurn]
) -> list[tuple[str, str]]:
    """The swapped pairs (claim name, source name) in which the claim gives a person's
    given name standing alone where the source gives only a family name: no
    contradiction (module docstring). Empty when there is none."""
    given = _given()
    out: list[tuple[str, str]] = []
    for claim_name, source_name in pairs:
        if not (_name_form(claim_name) and _name_form(source_name)):
            continue
        if claim_name.lower() not in given or source_name.lower() in given:
            continue
        if common_word(source_name.lower()) or not _alone(claim_text, claim_name):
            continue
        if _family_only(turns, source_name):
            out.append((claim_name, source_name))
    return out


def other_persons(
    claim_text: str,
    pairs: Sequence[tuple[str, str]],
    turns: Sequence[SourceTurn],
    missing: list[str],
) -> list[tuple[str, str]]:
    """`pairs` without those `given_for_family` lifts: the swaps that do name another
    person. Each lifted claim name is added to `missing` (the claim's names the source
    does not give, `Analysis.missing_entities`) where it is not there yet: a given name
    that is also a common word opening a sentence ("Grace led the team") is not read as a
    name by the capital, and would otherwise pass as no specific at all."""
    if not pairs:
        return []
    lifted = given_for_family(claim_text, pairs, turns)
    for name, _ in lifted:
        if name not in missing:
            missing.append(name)
    return [p for p in pairs if p not in lifted]
