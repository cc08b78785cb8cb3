"""A state the source says never ended, denied by the claim: "We don't use Jenkins"
against "We never stopped using Jenkins" (session 18, the open write-path holes).

The polarity rule (`polarity.py`) compares whether each side is negated: here both are
("don't", "never"), so it saw agreement. But the source's negation denies a verb of
cessation ("stopped", "quit", "ceased"; `ended_states.CEASING`), and a denied ending
asserts the state: "never stopped using Jenkins" says they use it still. `ended_states.
ceased_at` already declines to read such a source as an ending; nothing read it as the
affirmative it is. A claim that denies that state ("don't use", "never use", "no longer
use", "are not using") is then the opposite of the source: a contradiction
(`not_supported`).

The reading (`continued_states`): a source negation within two words before a verb of
cessation followed by a gerund ("never stopped using", "didn't stop using", "hasn't
quit using"), and a claim negation within three words before a form of the gerund's
verb ("don't use", "do not use", "no longer use", "not using"), with the claim's subject
words before the source's negation and every object word of the claim in the clause of
the source's gerund ("never stopped using Jenkins for builds" says nothing of releases).
Closed classes: `NEGATIONS`, `CEASING`.
"""

from __future__ import annotations

from collections.abc import Sequence

from groundwire.guards.grounding.lexical.ended_states import CEASING, gerund_after
from groundwire.guards.grounding.lexical.evidence import evidence_for
from groundwire.guards.grounding.lexical.text import NEGATIONS, claim_words, word_set
from groundwire.topics.records import SourceTurn

__all__ = ["continued_states"]

# words of time that end a denial and name no object ("not using Jenkins anymore")
_TIME = word_set("anymore longer now today currently")


def continued_states(claim_text: str, turns: Sequence[SourceTurn]) -> list[tuple[str, str]]:
    """(claim phrase, source phrase) where the claim denies a state the source says was
    never given up (module docstring)."""
    words = claim_words(claim_text)
    lows, stems, content = words.lows, words.stems, words.content
    if NEGATIONS.isdisjoint(lows):  # the cheap tests first: a negated claim ...
        return []
    ev = evidence_for(turns)
    if CEASING.isdisjoint(ev.lows) or not ev.any_negation:  # ... and a denied ending
        return []
    for s in ev.sentences:
        if CEASING.isdisjoint(s.lows):
            continue
        s_lows = s.lows
        for k, low in enumerate(s_lows):
            if low not in CEASING or not gerund_after(s_lows, k):
                continue
            neg = next((j for j in range(max(0, k - 2), k) if s_lows[j] in NEGATIONS), None)
            if neg is None:
                continue
            verb = s.word_stems[k + 1]
            s_subject = {s.word_stems[j] for j in range(neg) if s.content[j]}
            clause_of = s.clause_of()
            s_object = {
                s.word_stems[j]
                for j in range(k + 2, len(s_lows))
                if s.content[j] and clause_of[j] == clause_of[k + 1]
            }
            for v, st in enumerate(stems):
                if st != verb or NEGATIONS.isdisjoint(lows[max(0, v - 3) : v]):
                    continue
                first_neg = next(j for j in range(max(0, v - 3), v) if lows[j] in NEGATIONS)
                if not CEASING.isdisjoint(lows[first_neg:v]):
                    continue  # the claim's own "never stopped using": the same
                subject = {stems[j] for j in range(first_neg) if content[j]}
                obj = {
                    stems[j] for j in range(v + 1, len(lows)) if content[j] and lows[j] not in _TIME
                }
                if not subject <= s_subject:
                    continue
                if not obj <= s_object:
                    continue  # "don't use it for releases": not the state that went on
                return [(" ".join(words.raws[first_neg:]), " ".join(s.raws[neg:]))]
    return []
