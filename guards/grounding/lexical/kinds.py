"""Sister kinds: two nouns WordNet puts under one genus as different kinds of it.

WordNet's definitions often place a word by naming a sister: "green: the color between
blue and yellow", "yellow: ... resembling the color of ripe lemons", so a definition read
alone (`labels.gloss_stems`) joins "green" and "yellow" as if one named the other, and a
claim that says "a green jacket" where the source says "a yellow jacket" looks like a
paraphrase. The hypernym links say what the two are: kinds of one genus ("chromatic
color"; "beverage" for "tea" / "coffee"; "vessel" for "boat" / "ship"), each its own.

`data/kinds.tsv` (scripts/build_kinds.py, from WordNet 3.1, nothing written by hand) holds,
for each common noun, the synsets of its first two SemCor-tagged senses and their direct
hypernyms. Two words are *sisters* when a hypernym of one is a hypernym of the other, they
share no synset (synonyms: "kid" / "child") and neither's synset is the other's hypernym
(a kind and its genus: "car" / "vehicle" as WordNet writes them). Two words are *kin*
(`kin`) when, in some of their tagged senses, a genus with content of its own stands a
few steps above both ("history" and "chemistry" are both disciplines): the object of a
verb is read against the source's only then (`slot_swaps`). Only nouns are read:
adjectives of one cluster are near-synonyms ("huge" / "enormous"), verbs are not read
in a slot.
"""

from __future__ import annotations

import functools
from importlib import resources

__all__ = ["kin", "sisters"]

_Entry = tuple[frozenset[int], frozenset[int], frozenset[int], frozenset[int]]


def _ids(field: str) -> frozenset[int]:
    return frozenset(int(x.split(":", 1)[0]) for x in field.split(",") if x)


@functools.cache
def _rows() -> dict[str, str]:
    """lemma -> its row of the data file, unparsed: the verifier reads a few words' kinds
    per claim, so the rows are parsed on demand (`_parsed`), not all at start-up."""
    text = resources.files("groundwire.guards.grounding").joinpath("data/kinds.tsv")
    out: dict[str, str] = {}
    for line in text.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            lemma, _, rest = line.partition("\t")
            out[lemma] = rest
    return out


@functools.lru_cache(maxsize=4_096)
def _parsed(lemma: str) -> _Entry | None:
    """(the synsets of its first two tagged senses, their direct hypernyms, the genera
    above all its tagged senses, all its tagged synsets), or None for no such noun."""
    row = _rows().get(lemma)
    if row is None:
        return None
    own, genus, above, every = row.split("\t")
    return (_ids(own), _ids(genus), _ids(above), _ids(every))


def _entry(low: str) -> _Entry | None:
    """The kinds of a word, or of its singular ("jackets": "jacket", "boxes": "box")."""
    found = _parsed(low)
    if found is None and low.endswith("s") and len(low) > 3:
        found = _parsed(low[:-1]) or (_parsed(low[:-2]) if low.endswith("es") else None)
    return found


def sisters(a_low: str, b_low: str) -> bool:
    """Whether two lower-case nouns are different kinds of one genus (module docstring)."""
    a, b = _entry(a_low), _entry(b_low)
    return a is not None and b is not None and _kinds_of_one(a[0], a[1], b[0], b[1])


def kin(a_low: str, b_low: str) -> bool:
    """Whether two lower-case nouns are kinds of one genus in some of their senses: a
    hypernym with content of its own ("discipline", "beverage", "musical instrument";
    `data/kinds.tsv`: up to three steps above, five or more below a root) is above both,
    and no sense of one is a sense of the other or a genus above it ("chemistry" /
    "science")."""
    a, b = _entry(a_low), _entry(b_low)
    return a is not None and b is not None and _kinds_of_one(a[3], a[2], b[3], b[2])


def _kinds_of_one(
    a_own: frozenset[int], a_up: frozenset[int], b_own: frozenset[int], b_up: frozenset[int]
) -> bool:
    """Whether two words (their senses `own`, the genera above them `up`) share a genus
    while neither is the other nor a genus of the other: the test `sisters` makes on the
    first senses and direct hypernyms, `kin` on all senses and the genera further up."""
    if a_up.isdisjoint(b_up):
        return False
    return a_own.isdisjoint(b_own) and a_own.isdisjoint(b_up) and b_own.isdisjoint(a_up)
