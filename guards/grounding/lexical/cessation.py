"""A claim that says a state has ended, where the source states it as holding: "Alice
has stopped approving the deploys", "Alice used to approve the deploys", "Alice
approves the deploys no more", "Alice hardly ever approves the deploys" against "Alice
approves the deploys for the payments team".

None of these writes a negation the polarity check knows ("not", "never", "no longer"),
and every content word of the source is there, so each was `supported`: a negation
slipped in by a verb of cessation, the past habitual, a closing "no more" or a negative
adverb. Each is read from a closed class of English:

* a verb of **cessation** before a gerund ("stopped / quit / ceased / gave up
  approving": the activity does not go on);
* the **past habitual** "used to" after a subject ("Alice used to approve"; `assertion.py`
  reads the same words in the source as a habit given up);
* **"no more"** closing the clause;
* a **negative adverb** ("hardly", "seldom", "rarely": broad negatives, which take
  "ever" and "any" as "not" does; not "barely" or "scarcely", which with a verb of
  achievement mean "only just": "barely passed the exam" passed).

The claim contradicts the source when one source sentence holds every other content
word of the claim (the cue's own words left out) and states it plainly: no negation and
no cue of these kinds of its own ("Alice no longer approves ..." in the source agrees).
"""

from __future__ import annotations

from collections.abc import Sequence

from groundwire.guards.grounding.lexical.evidence import Sentence
from groundwire.guards.grounding.lexical.quantity_negations import scarce_quantity
from groundwire.guards.grounding.lexical.text import (
    COORDINATORS,
    NEGATIONS,
    ClaimWords,
    word_set,
)

__all__ = ["ceased"]

_CESSATION = word_set("stop stops stopped quit quits ceased cease ceases")
_GAVE_UP = word_set("give gives gave given giving")
# not "barely", "scarcely": with a verb of achievement they mean "only just", which
# entails it ("barely passed the exam" passed)
_NEGATIVE_ADVERBS = word_set("hardly seldom rarely")
_SUBJECTS = word_set("i we you he she they it")


def _cues(raws: Sequence[str], lows: Sequence[str]) -> list[int]:
    """The positions of the words of each cue in `lows` (module docstring)."""
    out: list[int] = []
    n = len(lows)
    for k, low in enumerate(lows):
        nxt = lows[k + 1] if k + 1 < n else ""
        if low in _CESSATION and nxt.endswith("ing"):
            out.append(k)
        elif low in _GAVE_UP and nxt == "up" and k + 2 < n and lows[k + 2].endswith("ing"):
            out += [k, k + 1]
        elif low == "used" and nxt == "to" and k:
            before = raws[k - 1]
            named = before[:1].isupper() and before[1:].islower()
            opens = k == 1 or lows[k - 2] in COORDINATORS  # no relative clause before it
            if lows[k - 1] in _SUBJECTS or (named and opens):
                out += [k, k + 1]
        elif low == "no" and nxt == "more" and (k + 2 == n or not lows[k + 2].isalpha()):
            out += [k, k + 1]
        elif low in _NEGATIVE_ADVERBS:
            out.append(k)
    return out


def ceased(words: ClaimWords, sentences: Sequence[Sentence]) -> list[tuple[str, str]]:
    """(the claim's cue words, the source sentence) where the claim says a state has
    ended that a source sentence states plainly (module docstring)."""
    lows = words.lows
    if (
        _CESSATION.isdisjoint(lows)
        and _NEGATIVE_ADVERBS.isdisjoint(lows)
        and "used" not in lows
        and "more" not in lows
        and "up" not in lows
    ):
        return []  # the cheap test: most claims have none of the cue words
    cues = _cues(words.raws, lows)
    if not cues:
        return []
    rest = {
        words.stems[k]
        for k in range(len(lows))
        if words.content[k] and k not in cues and lows[k] != "ever"
    }
    if len(rest) < 2:
        return []
    for s in sentences:
        if not rest <= set(s.word_stems):
            continue
        if not NEGATIONS.isdisjoint(s.lows) or _cues(s.raws, s.lows):
            continue  # the source says so too, or denies it itself
        if scarce_quantity(s.lows):
            continue  # "barely any", "scarcely ever" (`quantity_negations.py`, session 18)
        said = " ".join(words.raws[k] for k in cues)
        return [(said, s.text[s.start : s.end])]
    return []
