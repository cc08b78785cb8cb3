"""The general adjective for the source's specific one: "The user's apartment is small"
from "My apartment is tiny".

WordNet arranges adjectives in clusters: a head synset ("small") with the satellites
similar to it ("tiny", "minuscule", "puny"), each a narrower way of being the head. A
satellite entails its head (what is tiny is small), not the other way round (small is
not always tiny). The overlap score read the claim's head adjective as a word the source
never writes, so a claim that says less than its source fell under the coverage line.

The rule (`head_of_source_satellite`): a claim word that no source word matches counts
as found when WordNet makes it the head of a cluster one of whose satellites is a
source content word in the place the claim word stands: both predicate adjectives,
right after a copula ("is", "was", "I'm", "seems", ...; not "being", which makes a
passive of a participle), and followed by the same word or both ending their clause
("is small." / "is tiny."; "is small for two" / "is tiny for two"). An attributive
adjective ("the best", "different types", "a specific device") is not read: its noun
decides what it means, and a word ending in "-ed" or "-ing" is a participle more often
than a head; an inflected form ("tinier") or a word before "than" ("is higher than",
"higher" being a lemma of its own) compares two things, so both words must be WordNet
lemmas as written and the claim's not followed by "than". The cluster is read from the antonym
lexicon (`antonyms.codes`: 4 * pair + 2 * side + satellite; a head has the code with
satellite 0, its satellites the same code plus 1), so only adjectives with a direct
antonym head a cluster. The other direction, a satellite in the claim for the source's
head ("tiny" from "small"), sharpens the source and is read as before, and so are two
satellites of one head ("huge" from "sizable"). Only the coverage reads it: the antonym
and slot rules read the word as before ("The apartment is large" / "tiny" stays an
antonym).
"""

from __future__ import annotations

from collections.abc import Sequence

from groundwire.guards.grounding.lexical.antonyms import codes_of, lemmas
from groundwire.guards.grounding.lexical.evidence import Sentence

__all__ = ["COPULAS", "head_of_source_satellite"]

# the verbs a predicate adjective follows, as the tokenizer writes them
COPULAS = frozenset(
    [
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "am",
        "'s",
        "'re",
        "seem",
        "seems",
        "seemed",
        "look",
        "looks",
        "looked",
        "feel",
        "feels",
        "felt",
        "remain",
        "remains",
        "remained",
        "stay",
        "stays",
        "stayed",
        "become",
        "becomes",
        "became",
        "i'm",
        "it's",
        "that's",
        "he's",
        "she's",
        "we're",
        "they're",
        "you're",
    ]
)
# what ends a clause after the adjective (a sentence's end is "")
_ENDS = frozenset(("", "and", "but", "or", "so", "because"))


def head_of_source_satellite(
    lows: Sequence[str], stems: Sequence[str], i: int, sentences: Sequence[Sentence]
) -> bool:
    """Whether the claim's word at `i` (`lows`, `stems`) heads a WordNet cluster whose
    satellite a source sentence writes in the same place (module doc)."""
    low = lows[i]
    if not i or lows[i - 1] not in COPULAS or low.endswith(("ed", "ing")):
        return False  # the gate: a predicate adjective, no participle
    # the cached codes first (`codes_of`): most words head no cluster
    heads = {c + 1 for c in codes_of([low])[0] if not c & 1}
    if not heads:
        return False
    if low not in lemmas(low) or lows[i + 1 : i + 2] == ("than",):
        return False  # an inflected form or "... than": a comparison, no cluster
    after = stems[i + 1] if i + 1 < len(stems) else ""
    for s in sentences:
        if COPULAS.isdisjoint(s.lows) or heads.isdisjoint(s.antonym_union()):
            continue  # the gates: no copula, no satellite of the claim word's clusters
        n = len(s.word_stems)
        for j, own in s.antonym_codes():
            if not j or s.lows[j - 1] not in COPULAS or heads.isdisjoint(own):
                continue
            if s.lows[j] not in lemmas(s.lows[j]):
                continue  # "tinier" compares
            theirs = s.word_stems[j + 1] if j + 1 < n else ""
            if theirs == after or (theirs in _ENDS and after in _ENDS):
                return True
    return False
