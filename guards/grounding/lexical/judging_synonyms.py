"""Which WordNet synonyms of an evaluative word say the same judgement.

`opinion.py` lets a claim's evaluation stand when the source has the word or one of its
WordNet synonyms (`data/evaluative.tsv`: the other one-word lemmas of *every* adjective
synset of the word). Most evaluative adjectives also have senses that judge nothing, and
their synsets bring plain descriptive words: "great" is also "big" and "old" (size, age:
"a great old car"), "good" is also "right", "full" and "sound", "strong" is also "hard".
A source that says "the old Great Sphinx" or "the right to vote" does not judge anything,
yet "it was a great movie" or "he's really good" passed as the source's own judgement in
other words.

The rule: a synonym counts as the source saying the judgement only when it is itself an
evaluative word of the same sign, an adjective or a noun of the lexicon
(`data/evaluative.tsv`, `data/evaluative_nouns.tsv`: VADER's clearly rated words, so the
test is the lexicon's, not a list made here). "excellent" / "splendid" and "disaster" /
"catastrophe" still say one judgement; "great" / "old", "good" / "right" no longer do. A
source judging in other words that WordNet does not list as a synonym is still read by
`opinion._judged_near` (an evaluative word of the same sign about the same thing).
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["judging_synonyms"]

Table = Mapping[str, tuple[float, frozenset[str]]]


def judging_synonyms(words: Table, nouns: Table) -> dict[str, tuple[float, frozenset[str]]]:
    """`words` with each word's synonyms cut to those that are evaluative words (of
    `words` or `nouns`) of the word's own sign (see the module's docstring)."""

    def judges(synonym: str, positive: bool) -> bool:
        entry = words.get(synonym) or nouns.get(synonym)
        return entry is not None and (entry[0] > 0) == positive

    return {
        word: (valence, frozenset(s for s in synonyms if judges(s, valence > 0)))
        for word, (valence, synonyms) in words.items()
    }
