"""A belief the source never attributes: "The northern Baptists believed that ...".

A claim that says what someone thinks or believes ("people think the sun moves",
"the board believes the deal will close", "it is widely believed that ...") does not
state the fact in its complement clause; it states that somebody holds it. The words of
the complement may all be the source's, so overlap reads such a claim as grounded, but
what it asserts (a belief, and whose) is the claim's own unless the source reports
one. In agent memory this is an invented attribution: "The CFO believes the launch
will slip" from a ticket that only says the launch date.

The rule reads verbs of believing (`_BELIEVING`: think, believe, reckon in their finite
forms, and "thought" / "believed" after a copula: the passive attribution "is thought
to be") whose subject is a third party, not the speaker or the listener ("I think X" is
the speaker's own conjecture, `speculation.py`; "you'd think" is a figure of speech).
Left alone: a belief of one whom the source lets speak (a transcript's speaker, "the
user": what they said is what they hold), a question, a negation or modal before the
verb in its clause ("people don't think", "one might think"), a condition ("if they
believe"), deliberation ("they thought about it"), the set phrase "believe it or
not", and any source that itself reports a belief or a saying (`_SOURCE_REPORTS`:
"believed", "according to", "critics said", "is regarded as"), where the attribution
may be the source's in other words. The verifier (`verifier.py`) makes such a claim
NOT_SUPPORTED and names the verb. The hedge guard reads unnamed others' beliefs ("many
people think") as a technical hedge for review; this rule says, for the read path and
the evaluation too, that the source does not attest the attribution, named or not.
"""

from __future__ import annotations

from collections.abc import Sequence

from groundwire.guards.grounding.lexical.evidence import evidence_for
from groundwire.guards.grounding.lexical.text import (
    NEGATIONS,
    claim_words,
    clause_ids,
    word_set,
)
from groundwire.topics.records import SourceTurn

__all__ = ["attributed_beliefs"]

# finite forms of the verbs of believing; not "feel" (also a sensation), not "suppose",
# "assume" or "consider" ("is supposed to", "assumed office", "considered moving")
_BELIEVING = word_set("think thinks thought believe believes believed reckon reckons reckoned")
# the forms that make the passive attribution after a copula ("is widely thought to")
_PASSIVE = word_set("thought believed")
_COPULAS = word_set("is are was were be been being it's")
# the speaker and the listener: their beliefs are other rules' (or figures of speech)
_PERSONS = word_set("i we you i'd we'd you'd i've we've you've i'll we'll you'll")
# words that stand between a subject and its verb without being either
_BETWEEN = word_set(
    """also still often generally widely commonly usually once originally really actually
    even long always mostly largely firmly truly sometimes"""
)
# a verb after these has no subject of its own here (an auxiliary, a modal, "to")
_NOT_SUBJECTS = word_set(
    """do does did would could should might may must can will shall to and or but that
    which who whom what how why when where if unless whether 'd 'll a an the this these
    those my your his her its our their"""
)
_MODALS = word_set("would could should might may must can will shall")
_CONDITIONS = word_set("if unless whether")
# "think about / of / through" is deliberation, not belief (as in the hedge guard's
# attributed-belief pattern, `guards/hedge/lexicon.py`)
_DELIBERATION = word_set("about of through twice ahead back over")
# a source that reports a belief, a saying or any other state of mind may make the
# attribution in other words ("Woody fears Buzz will replace him" for "Woody thinks
# ..."): the verbs of cognition and saying, a closed class, in their common forms
_SOURCE_REPORTS = _BELIEVING | word_set(
    """belief beliefs believe believing thinking opinion opinions view views say says
    said saying claim claims claimed argue argues argued according consider considers
    considered regard regards regarded hold holds held suggest suggests suggested think
    know knows knew known realize realizes realized realise realises realised suspect
    suspects suspected fear fears feared convinced assume assumes assumed suppose
    supposes supposed feel feels felt imagine imagines imagined doubt doubts doubted
    expect expects expected hope hopes hoped understand understands understood
    wonder wonders wondered"""
)
# the most attributions named per claim
MAX_FOUND = 3
# the most verbs of believing read per claim: each reads back through its clause and on
# to its sentence's end, so a claim at the size limits made of "people think" repeated
# would cost claim length x verbs; the first ones decide, as in `graded_predicates.py`
MAX_READ = 64


def attributed_beliefs(claim: str, turns: Sequence[SourceTurn]) -> list[str]:
    """The claim's verbs of believing with a third-party subject (see the module's
    docstring), as written, when no source turn reports a belief or saying; else []."""
    words = claim_words(claim)
    lows = words.lows
    if _BELIEVING.isdisjoint(lows):
        return []  # the common case, by one set test (session 17: no loop over the words)
    hits = [k for k, low in enumerate(lows) if low in _BELIEVING][:MAX_READ]
    if not hits:
        return []  # the common case: one set test per word
    ev = evidence_for(turns)  # read once per evidence and cached
    if not _SOURCE_REPORTS.isdisjoint(ev.lows):
        return []
    clause = clause_ids(claim, words.spans, lows)
    # a speaker of the source holds what they said: "Tom thinks the party is on Friday"
    # from "Tom: the party is on Friday", "the user believes ..." from the user's turn
    speakers = {*ev.speakers, "user", "users"}
    out: list[str] = []
    for k in hits:
        if _asked(claim, words.spans[k][1]) or not _third_party(lows, k, speakers):
            continue
        if k + 1 < len(lows) and lows[k + 1] in _DELIBERATION:
            continue  # "engineers thought about the launch"
        if tuple(lows[k + 1 : k + 4]) == ("it", "or", "not"):
            continue  # "believe it or not": a set phrase of surprise, nobody's belief
        i = k - 1
        while i >= 0 and clause[i] == clause[k]:
            low = lows[i]
            if low in NEGATIONS or low in _MODALS or low in _CONDITIONS:
                break
            i -= 1
        if i >= 0 and clause[i] == clause[k]:
            continue  # "people don't think", "one might think", "if they believe"
        out.append(words.raws[k])
        if len(out) >= MAX_FOUND:
            break
    return out


def _third_party(lows: Sequence[str], k: int, speakers: set[str]) -> bool:
    """Whether the verb of believing at `k` has a subject other than the speaker, the
    listener or a speaker of the source right before it (adverbs skipped), or is a
    passive after a copula."""
    j = k - 1
    while j >= 0 and lows[j] in _BETWEEN:
        j -= 1
    if j < 0:
        return False  # no subject: "Thought it was ..." is the speaker's
    before = lows[j]
    if before in _COPULAS or before.endswith("'s"):
        return lows[k] in _PASSIVE  # "it is widely believed that", "he's thought to"
    if before in _PERSONS or before in _NOT_SUBJECTS or before in NEGATIONS:
        return False
    if before in speakers or before.removesuffix("'s") in speakers:
        return False
    return before[:1].isalpha()


def _asked(text: str, end: int) -> bool:
    """Whether the sentence holding offset `end` ends with a question mark."""
    for c in text[end:]:
        if c in ".!":
            return False
        if c == "?":
            return True
    return False
