"""Antonyms from WordNet 3.1, for the contradiction check of the lexical verifier.

The table (`data/antonyms.tsv`, licence in `data/WORDNET-LICENSE.txt`) is built by
scripts/build_antonyms.py from the WordNet data files; nothing in it is written by hand.
It lists, per word, where the word stands in WordNet's antonym pairs: a code
4 * pair + 2 * side + satellite (the pair is two synsets WordNet makes antonyms, widened
from the word senses its pointer links; satellite = 1 for an adjective "similar to" the
synset on that side). Two words are antonyms when they stand on opposite sides of one
pair and are not both satellites. A second block maps irregular inflections to their
lemmas (WordNet's exception lists). A third gives the verbs that inherit a side as a
troponym of a verb on a pair (grow and swell are ways to increase, shrink a way to
decrease, so grow stands against shrink); they count for antonymy only, not as lemmas
(`lemmas`, which the alignment reads, is unchanged by them). At import the file becomes
three dicts of text (a few milliseconds, once); a word's codes are parsed when it is first
looked up.
`antonymous(a, b)` reduces both words to WordNet lemmas (the exception lists, then
WordNet's own detachment rules: likes -> like, approved -> approve, decreasing ->
decrease) and asks whether any side of one is opposite to a side of the other.
"""

from __future__ import annotations

import functools
from collections.abc import Container
from importlib import resources

__all__ = [
    "antonym_lemmas",
    "antonymous",
    "codes",
    "codes_of",
    "lemmas",
    "opposites",
    "table_size",
]

# WordNet's detachment rules (morph.c), all parts of speech together: a candidate lemma
# counts only when the table knows it, so a wrong part of speech costs nothing.
_DETACH: tuple[tuple[str, str], ...] = (
    ("s", ""),
    ("ses", "s"),
    ("xes", "x"),
    ("zes", "z"),
    ("ches", "ch"),
    ("shes", "sh"),
    ("men", "man"),
    ("ies", "y"),
    ("es", "e"),
    ("es", ""),
    ("ed", "e"),
    ("ed", ""),
    ("ing", "e"),
    ("ing", ""),
    ("er", ""),
    ("est", ""),
    ("er", "e"),
    ("est", "e"),
)


def _load() -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """word -> its codes, inflected form -> its lemmas, verb -> the codes it inherits as a
    troponym; all still as text (split on first use), so the import costs one pass of
    `str.split`."""
    path = resources.files("groundwire.guards.grounding").joinpath("data/antonyms.tsv")
    _header, words, inflections, troponyms = path.read_text("utf-8").split("\n\n")

    def table(block: str) -> dict[str, str]:
        return dict(line.split("\t", 1) for line in block.splitlines())

    return table(words), table(inflections), table(troponyms)


_SIDES, _EXCEPTIONS, _TROPONYMS = _load()


def table_size() -> tuple[int, int]:
    """(words, inflection exceptions) in the loaded table."""
    return len(_SIDES), len(_EXCEPTIONS)


@functools.lru_cache(maxsize=65_536)
def _troponym_codes(word: str) -> tuple[int, ...]:
    """The codes `word` (lower-case) inherits as a troponym of a verb of an antonym pair
    (grow, a way to increase, against decrease), through its WordNet lemmas."""
    return tuple(
        int(c) for lemma in _lemmas_in(word, _TROPONYMS) for c in _TROPONYMS[lemma].split()
    )


def _lemmas_in(word: str, table: Container[str]) -> tuple[str, ...]:
    """The word itself, its irregular lemmas and its detached forms that `table` knows."""
    found = [word] if word in table else []
    for base in _EXCEPTIONS.get(word, "").split():
        if base in table and base not in found:
            found.append(base)
    for suffix, repl in _DETACH:
        if word.endswith(suffix) and len(word) > len(suffix) + 1:
            base = word[: -len(suffix)] + repl
            if base in table and base not in found:
                found.append(base)
    return tuple(found)


@functools.lru_cache(maxsize=65_536)
def lemmas(word: str) -> tuple[str, ...]:
    """The word's WordNet lemmas that have antonyms (lower-case input); () when none."""
    return _lemmas_in(word, _SIDES)


@functools.lru_cache(maxsize=65_536)
def _lemma_codes(lemma: str) -> tuple[int, ...]:
    return tuple(map(int, _SIDES[lemma].split()))


# Most words have no antonyms: they all share this one empty set (a cached result is
# kept alive, and every frozenset is scanned by each full garbage collection).
_NONE: frozenset[int] = frozenset()


@functools.lru_cache(maxsize=65_536)
def codes(word: str) -> frozenset[int]:
    """The codes of every lemma of `word` (lower-case): 4 * pair + 2 * side + satellite."""
    found = lemmas(word)
    inherited = _troponym_codes(word)
    if not found and not inherited:
        return _NONE
    return frozenset(c for lemma in found for c in _lemma_codes(lemma)).union(inherited) or _NONE


# word -> `codes(word)` for `codes_of`: a plain dict read in one C-level pass (no LRU
# bookkeeping per word), emptied when it reaches its bound.
_CODES: dict[str, frozenset[int]] = {}
_CODES_MAX = 65_536


def codes_of(words: list[str]) -> list[frozenset[int]]:
    """`codes` of each of `words` (lower-case), in order; cached."""
    try:
        return list(map(_CODES.__getitem__, words))
    except KeyError:  # some word not seen yet
        found = list(map(codes, words))
        if len(_CODES) + len(found) > _CODES_MAX:
            _CODES.clear()
        _CODES.update(zip(words, found, strict=True))
        return found


@functools.lru_cache(maxsize=65_536)
def opposites(word: str) -> frozenset[int]:
    """The codes opposite to `word`: `word` is an antonym of every word whose `codes` meet
    them (the other side of the same pair; a satellite only against the head synset)."""
    found = codes(word)
    if not found:
        return _NONE
    out: set[int] = set()
    for code in found:
        other = (code & ~3) | (~code & 2)  # same pair, other side, head synset
        out.add(other)
        if not code & 1:
            out.add(other | 1)  # a head synset is also opposite the other side's satellites
    return frozenset(out)


def antonymous(a: str, b: str) -> bool:
    """True when WordNet makes some lemma of `a` an antonym of some lemma of `b`
    (lower-case words)."""
    return not opposites(a).isdisjoint(codes(b))


_BY_CODE: dict[int, tuple[str, ...]] = {}


def _words_by_code() -> dict[int, tuple[str, ...]]:
    """code -> the table's words that have it: the table read backwards, built on first
    use (one pass over its ~21,000 words, a few tens of milliseconds) by the callers that
    need to name an antonym rather than test a pair (near-duplicates, guards/dedup)."""
    if not _BY_CODE:
        found: dict[int, list[str]] = {}
        for word, text in _SIDES.items():
            for code in text.split():
                found.setdefault(int(code), []).append(word)
        _BY_CODE.update((c, tuple(ws)) for c, ws in found.items())
    return _BY_CODE


@functools.lru_cache(maxsize=65_536)
def antonym_lemmas(lemma: str) -> tuple[str, ...]:
    """The lemmas in the head synset on the other side of each antonym pair `lemma` (a
    word of the table) stands on: enable -> disable, like -> dislike, unlike, ...
    Satellites of the other side are left out (good -> bad, evil, ... but not the
    hundred adjectives "similar to" bad), so the list stays short enough to send along
    with a claim. () for a word that is not in the table."""
    if lemma not in _SIDES:
        return ()
    by_code = _words_by_code()
    out: dict[str, None] = {}
    for code in _lemma_codes(lemma):
        other = (code & ~3) | (~code & 2)  # same pair, other side, head synset
        out.update(dict.fromkeys(w for w in by_code.get(other, ()) if w != lemma))
    return tuple(out)
