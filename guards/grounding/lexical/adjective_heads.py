"""The general adjective for the source's specific one: "The user's apartment is small"
from "My apartment is tiny".

WordNet arranges adjectives in clusters: a head synset ("small") with the satellites
similar to it ("tiny", "minuscule", "puny"), each a narrower way of being the head. A
satellite entails its head (what is tiny is small), not the other way round (small is
not always tiny). The overlap score read the claim's head adjective as a word the source
never writes, so a claim that says less than its source fell under the coverage line.

The rule (`head_of_source_satellite`): a claim word that no source word matches counts
as found when WordNet makes it the head of a cluster one of whose satellites is a
source content word in the place the claim word stands (the same stem right before or
right after both: "is small" / "is tiny"). The cluster is read from the antonym
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

from groundwire.guards.grounding.lexical.antonyms import codes
from groundwire.guards.grounding.lexical.evidence import Sentence

__all__ = ["head_of_source_satellite"]


def head_of_source_satellite(
    lows: Sequence[str], stems: Sequence[str], i: int, sentences: Sequence[Sentence]
) -> bool:
    """Whether the claim's word at `i` (`lows`, `stems`) heads a WordNet cluster whose
    satellite a source sentence writes in the same place (module doc)."""
    heads = {c + 1 for c in codes(lows[i]) if not c & 1}
    if not heads:
        return False
    before = stems[i - 1] if i else ""
    after = stems[i + 1] if i + 1 < len(stems) else ""
    for s in sentences:
        if heads.isdisjoint(s.antonym_union()):
            continue  # the gate: no satellite of the claim word's clusters here
        n = len(s.word_stems)
        for j, own in s.antonym_codes():
            if heads.isdisjoint(own):
                continue
            if (j and s.word_stems[j - 1] == before) or (
                (s.word_stems[j + 1] if j + 1 < n else "") == after
            ):
                return True
    return False
