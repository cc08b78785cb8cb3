"""A source's possibility, obligation or wish told as a fact (session 16): "We use Redis"
where the source says "We might use Redis", "The service uses TLS 1.3" / "should use",
"Ana leads the infra team" / "Ana wants to lead", and "Ana will lead the project" /
"Ana might lead".

`assertion._told_as_present` reads a modal's state told in the present by the verb's -s
("Ravi leads the team" / "may lead"); a plural or first-person subject gives the present
no ending, so the claim's verb is written as the modal left it and the two were not told
apart, and only might / may / could were read. Word order tells them apart instead: the
source has subject, operator, verb ("we might use", "Ana wants to lead"); the claim has
the same subject word right before the same verb in the present ("we use", "Ana
leads"), nothing between them. That is the source's clause with its operator struck out. The
operators are closed classes of English:

* modals of possibility ("might", "may", "could") and the modals of obligation and of
  the unreal ("should", "would");
* a verb of intention before "to" ("want", "plan", "intend", "hope", "wish", in any
  form: "Ana wants to lead").

"will" before another verb is as often a generic present ("The Sun will set due west")
and is not read. A claim with a cue of its own ("we could use", "we plan to use") is
the caller's to judge; "to use" (an infinitive) and "us use" (a causative's bare verb) do
not follow the source's subject and are not read.

A possibility raised to a certainty ("Ana will lead the project" / "Ana might lead the
project") is not read: the claim has a modal of its own, and the consistency guard holds
a hedged memory and a stated one distinct, not contradictory (the same analysis decides
both).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from groundwire.guards.grounding.lexical.text import STOPWORDS, word_set

__all__ = ["modal_frames", "struck_modal"]

_POSSIBILITY = frozenset(("might", "may", "could"))
_MODALS = _POSSIBILITY | {"should", "would"}
_INTENTION = word_set(
    """want wants wanted plan plans planned intend intends intended hope hopes hoped wish
    wishes wished"""
)
# after a modal, what makes no plain verb of it: a perfect, a negation, "be" (read by
# `assertion._told_as_present`)
_NOT_A_VERB = frozenset(("not", "have", "be", "never", "n't"))

_SUBJECTS = frozenset(("i", "we", "you", "he", "she", "they", "it"))

Frame = tuple[str, str, bool]  # (subject word, bare verb, under a modal of possibility)


def _subject(word: str) -> bool:
    """A word that can be the subject right before the operator: a subject pronoun, or a
    content word that is no adverb ("so you just want to use": "just" is none)."""
    return word in _SUBJECTS or (
        word.isalpha() and word not in STOPWORDS and not word.endswith("ly")
    )


def _present(word: str, verb: str) -> bool:
    """Whether `word` is the bare verb or its present with -s ("use", "uses"; "lead",
    "leads"): the present the claim states. A past ("migrated") is
    `assertion._told_as_done`'s, which reads a plan confirmed elsewhere in the source; an
    "-ing" form is no finite verb ("just using them")."""
    return word == verb or word == verb + "s" or word == verb + "es"


def modal_frames(lows: Sequence[str], positions: Sequence[int]) -> frozenset[Frame]:
    """(subject word, bare verb, possibility) for each operator of a source clause between
    a word and its verb ("we might use" -> ("we", "use", True), "Ana wants to lead" ->
    ("ana", "lead", False)); the subject a pronoun or a content word (`_subject`); an
    adverb in -ly after a modal is skipped ("we might eventually use"). A negated modal
    ("might not use") gives nothing: the claim that drops it is a negation flip, read
    elsewhere."""
    inside = set(positions)
    out: set[Frame] = set()
    for k in positions:
        low = lows[k]
        if k - 1 not in inside:
            continue
        if low in _MODALS:
            nxt = k + 1
            if nxt in inside and lows[nxt].endswith("ly"):
                nxt += 1
        elif low in _INTENTION and k + 1 in inside and lows[k + 1] == "to":
            nxt = k + 2
        else:
            continue
        if nxt not in inside or lows[nxt] in _NOT_A_VERB or not lows[nxt].isalpha():
            continue
        subject = lows[k - 1]
        if _subject(subject):
            out.add((subject, lows[nxt], low in _POSSIBILITY))
    return frozenset(out)


def struck_modal(lows: Sequence[str], positions: Sequence[int], frames: frozenset[Frame]) -> bool:
    """Whether a claim clause has one of the source's (subject, verb) frames with nothing
    between the two words: the source's operator struck out."""
    if not frames:
        return False
    inside = list(positions)
    return any(
        lows[a] == subject and _present(lows[b], verb)
        for a, b in itertools.pairwise(inside)
        for subject, verb, _ in frames
    )
