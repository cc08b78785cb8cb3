"""An exception's value told as the rule: "The trial lasts 30 days" against "The trial
lasts 14 days, or 30 days for students" (session 18, the open write-path holes).

A source gives a value and, right after it, an alternative value that holds only under
a qualifier ("..., or 30 days for students", "..., but 2 days with Prime", "... (3
dollars on Mondays)"). The claim that states the alternative without its qualifier
tells the exception as the rule: every word and the number are the source's, so the
number rules (`features`, `changed_values.py`) find nothing changed and overlap
supports it, but what it says of the trial in general is false. A contradiction
(`not_supported`), as a dropped exception is for a universal (`exceptions_dropped.py`).

The reading (`alternative_values`): in a source sentence, a number A with its unit, then
within six words "or" / "but" (or nothing: a parenthesis) and a number B with the same
unit word (not a range: "10 or 12 people" qualifies both numbers), then within
three words a preposition of condition ("for", "if", "when", "with", "during", "under",
"on") and a content word (the qualifier). The claim states B, not A, shares a content
word with the source sentence before A (the frame: "trial", "lasts"), and holds no
content word of the qualifier (nor the preposition's phrase in another form: "Students
get a 30-day trial" keeps it). The rule (A) told without the exception is not read.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from groundwire.guards.grounding.lexical.evidence import Sentence, evidence_for
from groundwire.guards.grounding.lexical.text import claim_words, number_value, word_set
from groundwire.topics.records import SourceTurn

__all__ = ["alternative_values"]

_JOINS = word_set("or but")
_CONDITIONS = word_set("for if when with during under on")
# words that end the qualifier ("for students and teachers" keeps both)
_QUALIFIER_END = word_set("but while whereas which so")


def alternative_values(claim_text: str, turns: Sequence[SourceTurn]) -> list[tuple[str, str]]:
    """(claim value, source phrase) where the claim states as the rule a value the source
    gives only under a qualifier (module docstring)."""
    words = claim_words(claim_text)
    nums: set[str | None] = set(words.numbers)
    nums.discard(None)
    if not nums:  # the cheap test first: a claim with a number
        return []
    ev = evidence_for(turns)
    if _CONDITIONS.isdisjoint(ev.lows) or nums.isdisjoint(ev.numbers):
        return []  # no preposition of condition, or the claim's number is not the source's
    held = {st for st, c in zip(words.stems, words.content, strict=True) if c}
    for s in ev.sentences:
        if nums.isdisjoint(s.stems) or _CONDITIONS.isdisjoint(s.lows):
            continue
        for a, b, qualifier in _alternatives(s):
            rule_value, other = number_value(s.lows[a]), number_value(s.lows[b])
            if other not in nums or rule_value in nums:
                continue
            frame = {s.word_stems[k] for k in range(a) if s.content[k]}
            if frame.isdisjoint(held) or not qualifier.isdisjoint(held):
                continue
            end = min(len(s.raws), b + 6)
            return [(s.raws[b], " ".join(s.raws[a:end]))]
    return []


def _alternatives(s: Sentence) -> list[tuple[int, int, set[str]]]:
    """(position of the rule's number, of the alternative's, the qualifier's stems)."""
    lows = s.lows
    values = [k for k, low in enumerate(lows) if number_value(low) is not None]
    out: list[tuple[int, int, set[str]]] = []
    for a, b in itertools.pairwise(values):
        if b - a > 6 or number_value(lows[a]) == number_value(lows[b]):
            continue
        # each number with its own unit, the same word ("14 days, or 30 days"; not the
        # range "10 or 12 people"), joined by "or" / "but" or by nothing (a parenthesis)
        if b + 1 >= len(lows) or lows[a + 1] != lows[b + 1] or number_value(lows[a + 1]):
            continue
        between = lows[a + 2 : b]
        if between and _JOINS.isdisjoint(between):
            continue
        cond = next(
            (k for k in range(b + 1, min(len(lows), b + 4)) if lows[k] in _CONDITIONS), None
        )
        if cond is None:
            continue
        qualifier: set[str] = set()
        for k in range(cond + 1, min(len(lows), cond + 5)):
            if lows[k] in _QUALIFIER_END or lows[k] in _JOINS:
                break
            if s.content[k]:
                qualifier.add(s.word_stems[k])
        if qualifier:
            out.append((a, b, qualifier))
    return out
