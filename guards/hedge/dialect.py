"""Hedge words spelled as they sound: "mebbe", "probly", "probablee", "likley", "spose".

Eye dialect and chat spelling keep a word's consonants and respell its vowels: a vowel
changed for another that sounds alike ("mebbe", "probablee", "possibley"), an unstressed
vowel left out ("probly", "spose"), a consonant doubled or single ("mebbe", "posibly"),
two letters swapped around a vowel ("likley"). None of these is one fixed string, and
the one-edit misspellings of `spelling.py` (which keep the word's last two letters) miss
most of them, so a hedge written this way was auto-approved ("We mebbe use Redis").

The rule, from the hedge targets (`spelling.TYPO_TARGETS` and the attitude verbs) and
spelling alone, never a list of respellings: a claim word reads as a target when

* its consonants are the target's consonants, in order, each written once or twice
  (vowels, "y" among them, left out: the consonant skeleton), and it starts with the
  target's first letter;
* it is at most two edits from the target (insert, delete or change a letter), so only
  a respelling of a few letters is read, and it has no more vowel groups (syllables as
  written) than the target: a respelling keeps or drops syllables, never adds one
  ("geese" is not "guess");
* it has four letters or more and is no English word: not in WordNet's lemmas and
  irregular forms (`guards/grounding/data/lexicon.txt`), nor a regular inflection of one
  ("guys", "rockin'"), nor a word of the hedge patterns themselves; "possible",
  "potential", "goes", "thank" stay what they are;
* it reads as exactly one target.

Cost: `candidates` is one bytes translation and split over the claim's words (the words
the detector has anyway) and a set test, ~1 us on a 30-word claim; the full test runs
only on the few words whose consonant skeleton is a target's, once per word (cached).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Sequence

from groundwire.guards.hedge.abbrev import english
from groundwire.guards.hedge.lexicon import TO_SPACE_BYTES

__all__ = ["candidates", "reading"]

_VOWELS = "aeiouy"
_VOWEL_BYTES = _VOWELS.encode()
_MIN_LETTERS = 4
_MAX_EDITS = 2
# Regular inflections: (suffix, what the stem ends in instead) — "guys" is "guy", "tried"
# is "try", "hoping" is "hope", "rockin" (g dropped) is "rock".
_INFLECTIONS = (
    ("ies", "y"),
    ("ied", "y"),
    ("es", ""),
    ("s", ""),
    ("ed", ""),
    ("ed", "e"),
    ("d", ""),
    ("ing", ""),
    ("ing", "e"),
    ("in", ""),
    ("in", "e"),
    ("er", ""),
    ("er", "e"),
    ("est", ""),
    ("ly", ""),
)


def _consonants(word: str) -> str:
    return word.translate(str.maketrans("", "", _VOWELS))


def _skeleton(word: str) -> str:
    """The consonants of `word` in order, a doubled one written once."""
    return "".join(c for c, _ in itertools.groupby(_consonants(word)))


def _doublings(skeleton: str) -> list[str]:
    """Every way of writing `skeleton` with each consonant once or twice."""
    counts = itertools.product((1, 2), repeat=len(skeleton))
    return ["".join(c * n for c, n in zip(skeleton, each, strict=True)) for each in counts]


@functools.lru_cache(maxsize=4)
def _index(targets: tuple[str, ...]) -> dict[bytes, tuple[str, ...]]:
    """Consonants as written (each once or twice) -> the targets with that skeleton."""
    out: dict[bytes, tuple[str, ...]] = {}
    for target in targets:
        for form in _doublings(_skeleton(target)):
            key = form.encode()
            if target not in out.get(key, ()):
                out[key] = (*out.get(key, ()), target)
    return out


def candidates(words: Iterable[bytes], targets: tuple[str, ...], lower: str = "") -> bool:
    """Whether any of `words` (a claim's `byte_words`, lower case) has the consonants of a
    target: the cheap test before `reading`. `lower`, the lower-cased text the words come
    from, when it is ASCII: one translation of it makes the words and drops their vowels
    at once (`lexicon.byte_words` with the vowels deleted), instead of joining the words."""
    keys = _index(targets).keys()
    if lower and lower.isascii():
        return not keys.isdisjoint(lower.encode().translate(TO_SPACE_BYTES, _VOWEL_BYTES).split())
    return not keys.isdisjoint(b" ".join(words).translate(None, _VOWEL_BYTES).split())


def _edits(a: str, b: str) -> int:
    """Levenshtein distance (insert, delete, change one letter)."""
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def _vowel_groups(word: str) -> int:
    return sum(1 for vowel, _ in itertools.groupby(word, lambda c: c in _VOWELS) if vowel)


def _is_english(word: str) -> bool:
    """A WordNet lemma or irregular form, or a regular inflection of one."""
    vocabulary = english()
    if word in vocabulary:
        return True
    for suffix, ending in _INFLECTIONS:
        if word.endswith(suffix) and len(word) - len(suffix) >= 2:
            stem = word[: -len(suffix)] + ending
            if stem in vocabulary or (stem[-1:] == stem[-2:-1] and stem[:-1] in vocabulary):
                return True
    return False


@functools.lru_cache(maxsize=4096)
def reading(word: str, targets: tuple[str, ...], lexicon: frozenset[str]) -> str | None:
    """The target `word` (lower case) is a respelling of, or None (see the module
    docstring). `lexicon`: the words of the hedge patterns, which are never respellings."""
    if len(word) < _MIN_LETTERS or not word.isalpha() or word in lexicon:
        return None
    found = _index(targets).get(_consonants(word).encode(), ())
    readings: Sequence[str] = [
        t
        for t in found
        if t[0] == word[0]
        and t != word
        and _edits(word, t) <= _MAX_EDITS
        and _vowel_groups(word) <= _vowel_groups(t)
    ]
    if len(readings) != 1 or _is_english(word):
        return None
    return readings[0]
