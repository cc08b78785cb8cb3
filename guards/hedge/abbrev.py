"""Hedge adverbs written abbreviated: "(prob.)", "poss.", "approx. 10 ms", "presum.".

An abbreviation says the word it stands for, so "We use Redis (prob.)" hedges like "We
use Redis (probably)". The abbreviations are derived from the lexicon, not listed: for
each "-ly" adverb of seven letters or more among the technical hedges and approximations
of `lexicon.PATTERNS` ("probably", "possibly", "approximately", "presumably", ...), every
cut of four letters or more that

* ends in a consonant right before a vowel of the word (where a writer cuts a word:
  "prob|ably", "poss|ibly", "approx|imately"; not "suppose|dly"),
* leaves at least three letters out (so it is an abbreviation, not the word), and
* belongs to exactly one of those adverbs and is no English word of its own (WordNet's
  common words, `guards/grounding/data/lexicon.txt`: "norm.", "seem.", "report.",
  "potent." stay what they are), and
* stands for the adverb more often than not: of the uses WordNet's sense-tagged corpus
  counts (`data/tagcounts.tsv`) of the words it is such a cut of, more than half are of
  the adverb's family (`_mostly`). "conc." is mostly "concern", "concentration",
  "concept"; "supp." mostly "support"; "pres." "present"; "appr." "approach": these are
  ambiguous and left alone, while "prob." ("probably", "probability", "probable"),
  "poss." and "approx." stay hedges.

Where it is read as the adverb: written in lower case with its full stop ("prob.",
"(poss.)"), not followed by "of" or ":" ("prob. of failure" is a probability); a
capitalised one ("Prob.", a column header or a name's title) is left alone. Without its
full stop only an approximation's cut before a number is one ("approx 10 ms", as
"approximately 10 ms"); "prob 3" may be problem 3.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from importlib import resources

from groundwire.guards.hedge.lexicon import PATTERNS
from groundwire.topics.vocab import HedgeCategory

__all__ = ["abbreviations", "english", "expand", "needs_expanding"]

_MIN_CUT = 4
_MIN_LEFT = 3
_VOWELS = frozenset("aeiouy")


@functools.lru_cache(maxsize=1)
def _english() -> frozenset[str]:
    path = resources.files("groundwire.guards.grounding").joinpath("data/lexicon.txt")
    lines = path.read_text(encoding="utf-8").splitlines()
    return frozenset(w for w in lines if w and not w.startswith("#"))


# WordNet's common words, for `dialect.py` too (one copy in memory).
english = _english


def _adverbs() -> dict[str, HedgeCategory]:
    out: dict[str, HedgeCategory] = {}
    for pattern in PATTERNS:
        if pattern.category not in (HedgeCategory.TECHNICAL_HEDGE, HedgeCategory.APPROXIMATION):
            continue
        for word in pattern.words:
            text = word.decode() if isinstance(word, bytes) else word
            if text.endswith("ly") and len(text) >= 7 and text.isalpha():
                out.setdefault(text, pattern.category)
    return out


@functools.lru_cache(maxsize=1)
def abbreviations() -> dict[str, tuple[str, bool]]:
    """Abbreviation -> (the adverb, whether it is an approximation)."""
    adverbs = _adverbs()
    english = _english()
    owners: dict[str, set[str]] = {}
    for word in adverbs:
        for cut in range(_MIN_CUT, len(word) - _MIN_LEFT + 1):
            prefix = word[:cut]
            if prefix[-1] not in _VOWELS and word[cut] in _VOWELS:
                owners.setdefault(prefix, set()).add(word)
    counts = _tag_counts()
    out: dict[str, tuple[str, bool]] = {}
    for prefix, words in owners.items():
        starts = [w for w in adverbs if w.startswith(prefix)]
        if len(words) == 1 and len(starts) == 1 and prefix not in english:
            if not _mostly(prefix, starts[0], counts):
                continue  # "conc.", "supp.": mostly other words ("concern", "support")
            out[prefix] = (starts[0], adverbs[starts[0]] is HedgeCategory.APPROXIMATION)
    return out


_Counts = dict[str, list[tuple[str, int]]]


def _tag_counts() -> _Counts:
    """The first `_MIN_CUT` letters of a lemma -> (lemma, how often WordNet's
    sense-tagged corpus uses it) (`data/tagcounts.tsv`, scripts/build_tagcounts.py): a
    cut has `_MIN_CUT` letters or more, so it reads only the lemmas of its own group.
    Read once, when `abbreviations` is built."""
    path = resources.files("groundwire.guards.grounding").joinpath("data/tagcounts.tsv")
    out: _Counts = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            word, n = line.split("\t")
            out.setdefault(word[:_MIN_CUT], []).append((word, int(n)))
    return out


def _mostly(prefix: str, adverb: str, counts: _Counts) -> bool:
    """Whether `prefix` stands for `adverb` more often than not: of the tagged uses of the
    words it is a cut of (as `abbreviations` cuts: a vowel of the word right after it,
    three letters or more left out), more than half are of the adverb's own family (the
    words sharing the adverb less its last three letters: "probab" for "probably",
    "suppose" for "supposedly"). "prob." cuts "probably", "probability", "probable" far
    more often than "probation" or "probity" ("problem" is no such cut: a consonant
    follows); "supp." cuts "support" more often than "suppose", "conc." "concern",
    "concentration" and "concept" more often than "conceivable". A prefix none of whose
    words is tagged is kept: no evidence of another reading."""
    family = adverb[:-3]
    own = other = 0
    for word, n in counts.get(prefix[:_MIN_CUT], ()):
        if not word.startswith(prefix):
            continue
        if word.startswith(family):
            own += n
        elif len(word) - len(prefix) >= _MIN_LEFT and word[len(prefix)] in _VOWELS:
            other += n
    return own > other or own + other == 0


@functools.lru_cache(maxsize=1)
def _pattern() -> re.Pattern[str]:
    cuts = "|".join(sorted(abbreviations(), key=len, reverse=True))
    return re.compile(rf"(?<![\w.'-])({cuts})(\.|(?=\s+[~$€£]?\d))(?!\w)(?!\s*(?:of\b|:))")


@functools.lru_cache(maxsize=1)
def _abbreviation_bytes() -> frozenset[bytes]:
    return frozenset(a.encode() for a in abbreviations())


def needs_expanding(words: Iterable[bytes]) -> bool:
    """Whether the claim's words (`lexicon.byte_words`) hold an abbreviation: one set
    test, since the detector asks it of every claim with a full stop."""
    return not _abbreviation_bytes().isdisjoint(words)


def _one(m: re.Match[str]) -> str:
    word, approximation = abbreviations()[m.group(1)]
    if not m.group(2) and not approximation:
        return m.group(0)  # "prob 3": no full stop and no approximation
    return word


def expand(text: str) -> str:
    """`text` with each abbreviated hedge adverb written out (lower case only)."""
    return _pattern().sub(_one, text)
