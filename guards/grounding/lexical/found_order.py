"""Who does what to whom, read over the words of the claim that the source has.

`roles.swapped_arguments` reads the order of two content words against a source sentence
holding *every* content word of the claim: with the same words on both sides, only the
order can differ ("the auth service calls the billing service" against "the billing
service calls the auth service"). A dialogue response or a summary mostly adds words of
its own: a reaction, a link, a hedge ("That is kind of interesting. Also interesting is
that the White House is larger than the guest house." against "the U.S. President's Guest
House is larger than the White House"). No source sentence then holds every word of the
claim, and the reversed comparison was never read.

Here the same rule reads, sentence by sentence of the claim, the content words that the
source has (at least three; the rule needs a word between the two it swaps), against a
source sentence holding every one of them: the added words take no part in the order, and
the words that do are all in that one sentence, so their order is the source's or it is
not. Words of different claim sentences are never ordered against each other ("I love
pizza too. I was in Naples, where it was invented." puts no order on "pizza" and
"Naples"). The rule's own conditions
(the words between the two stand between them in the source too, the same voice, no
relation that reads both ways, "be" on both sides or neither) are unchanged. It runs only
for a claim no source sentence holds whole (otherwise the whole-claim reading applies).
"""

from __future__ import annotations

import re
from collections.abc import Sequence, Set

from groundwire.guards.grounding.lexical.evidence import Sentence
from groundwire.guards.grounding.lexical.roles import MAX_STEPS, swapped_arguments
from groundwire.guards.grounding.lexical.text import ClaimWords

__all__ = ["FOUND_SHARE", "swapped_arguments_of_found"]

# Share of a claim sentence's distinct content stems the source must have for their
# order to be read (the rest are the sentence's own: a reaction, a hedge, a link).
FOUND_SHARE = 0.6
# A claim sentence ends at ".", "!" or "?" followed by whitespace or the end.
_END = re.compile(r"[.!?]+(?=\s|$)")
_NONE: frozenset[str] = frozenset()
# The most (claim sentence, source sentence) pairs one claim reads: a claim of thousands of
# short sentences, each with the same three found words and one of its own, against a
# source of thousands of sentences holding them, read every source sentence once per
# claim sentence (over ten seconds at the size limits). Past it the sentences left are
# not read; no claim of the dev file comes near it.
MAX_SENTENCE_PAIRS = 100_000


def swapped_arguments_of_found(
    words: ClaimWords,
    text: str,
    content: Sequence[bool],
    sentences: Sequence[Sentence],
    shared: Sequence[Set[str]],
    source_stems: Set[str],
) -> list[tuple[str, str]]:
    """(claim word, source word) pairs that `roles.swapped_arguments` finds over the
    content words of one claim sentence that `source_stems` has (module docstring);
    `content`: which claim words are content words; `shared[k]`: the claim's content
    stems that source sentence k has."""
    if max(map(len, shared), default=0) < 3:
        # a sentence's found words (three or more) are read only against a source sentence
        # holding them all: no source sentence holds three claim stems, none is read
        return []
    stems = words.stems
    out: list[tuple[str, str]] = []
    pairs = MAX_SENTENCE_PAIRS
    steps = [MAX_STEPS]  # `roles.swapped_arguments`'s budget, shared by the sentences
    for part in _sentences(words, text):
        mine = {stems[i] for i in part if content[i]}
        own = mine & source_stems
        if len(own) < 3 or len(own) < FOUND_SHARE * len(mine):
            continue  # mostly words of its own: the found ones may be any phrase's
        pairs -= len(shared)
        if pairs < 0 or steps[0] <= 0:
            break  # bounded work per claim (`MAX_SENTENCE_PAIRS`, `roles.MAX_STEPS`)
        holding = [own if own <= hit else _NONE for hit in shared]
        if not any(holding):
            continue  # no source sentence has every found word of this sentence
        # every content word of the sentence takes part in the order, found or not: a
        # word of the claim's own between the two ("fewer" for the source's "more") is a
        # relation the source does not state, and no swap is read across it
        whole = [False] * len(stems)
        whole[part.start : part.stop] = content[part.start : part.stop]
        for pair in swapped_arguments(words, whole, sentences, holding, own, steps):
            if pair not in out:
                out.append(pair)
    return out


def _sentences(words: ClaimWords, text: str) -> list[range]:
    """The claim's sentences as ranges of word positions (cut at ".", "!" or "?" before
    whitespace or the end; empty ones dropped)."""
    out: list[range] = []
    first = k = 0
    spans = words.spans
    for m in _END.finditer(text):
        while k < len(spans) and spans[k][0] < m.end():
            k += 1
        if k > first:
            out.append(range(first, k))
            first = k
    if first < len(spans):
        out.append(range(first, len(spans)))
    return out
