"""A common noun the source writes as its synonym: "attorney" / "lawyer", "movie" / "film".

Word overlap reads a claim word the source never writes as a word the claim adds, so a
faithful restatement that names a thing by another of its names ("The role of an
attorney varies ..." from "The role of the lawyer varies ...") looked half invented and
was blocked. WordNet groups the names of one thing in a synset; a word and a source word
whose *dominant* senses are one synset are two names of the same thing as the words are
commonly meant.

The rule (`synonym_in_source`): a lower-case claim word that no source word matches by
stem counts as found when it is mainly a noun and the synset of its first sense tagged
in SemCor (the sense it most often has) is the synset of the first tagged sense of a
content word of the source that is mainly a noun too. The table is `data/synonyms.tsv`
(scripts/build_synonyms.py, from WordNet 3.1; nothing written by hand): each common noun
whose noun senses are tagged more often than its verb, adjective and adverb senses
together ("meet", "play", "help" are mainly verbs and are not in it), with its first
sense, and the irregular plurals; a regular plural is read by its singular (WordNet's
noun rules). Only the first senses: two words that share a synset in a rarer sense
("picture" as a film, "bank" as a slope) are different words, and a kind and its genus
("car" / "vehicle") or two kinds of one genus ("tea" / "coffee", `kinds.sisters`) share
no synset. WordNet's looser links, the words of a
definition (`data/glosses.tsv`), were measured as found in session 11 and dropped:
an edited summary's new word is as often such a neighbour as a paraphrase's. A word with
a capital is left alone (a name is read by the name rules), and so are verbs and
adjectives (their synsets are senses of a predicate, which the slot and antonym rules
read against the source's). Only the score's coverage reads it (`features.analyze`): a synonym is no
evidence span and sharpens nothing.
"""

from __future__ import annotations

import functools
from importlib import resources
from typing import cast

from groundwire.guards.grounding.lexical.evidence import Evidence

__all__ = ["first_sense", "synonym_in_source"]

# WordNet's detachment rules for nouns (morph.c): "lawyers", "boxes", "ladies", "women"
_NOUN_DETACH: tuple[tuple[str, str], ...] = (
    ("s", ""),
    ("ses", "s"),
    ("xes", "x"),
    ("zes", "z"),
    ("ches", "ch"),
    ("shes", "sh"),
    ("men", "man"),
    ("ies", "y"),
)
# where `_source_senses` keeps its answer in `Evidence.derived`
_KEY = "synonyms.first_senses"


@functools.cache
def _first_senses() -> dict[str, int]:
    """noun -> the synset of its first tagged sense (`data/synonyms.tsv`)."""
    path = resources.files("groundwire.guards.grounding").joinpath("data/synonyms.tsv")
    out: dict[str, int] = {}
    for line in path.read_text("utf-8").splitlines():
        if line and not line.startswith("#"):
            word, _, offset = line.partition("\t")
            out[word] = int(offset)
    return out


@functools.lru_cache(maxsize=16_384)
def _sense(low: str) -> int | None:
    """The synset of the first tagged sense of a lower-case noun, or of its singular by
    WordNet's noun detachment rules (`_NOUN_DETACH`; the table has the irregular plurals)."""
    table = _first_senses()
    found = table.get(low)
    if found is not None:
        return found
    for suffix, repl in _NOUN_DETACH:
        if low.endswith(suffix) and len(low) > len(suffix) + 1:
            found = table.get(low[: -len(suffix)] + repl)
            if found is not None:
                return found
    return None


def first_sense(low: str) -> int | None:
    """The synset of the first tagged sense of the lower-case noun `low` ("movie" and
    "film" share one), or None for a word the table does not hold as a noun."""
    return _sense(low)


def _source_senses(ev: Evidence) -> frozenset[int]:
    """The first-sense synsets of the source's content words, read once per evidence
    and kept with it (the claims of an answer share their context)."""
    memo = ev.derived
    if memo is None:
        memo = ev.derived = {}
    got = memo.get(_KEY)
    if got is None:
        words = {low for s in ev.sentences for low, c in zip(s.lows, s.content, strict=True) if c}
        got = memo[_KEY] = frozenset(x for x in map(_sense, words) if x is not None)
    return cast("frozenset[int]", got)


def synonym_in_source(raw: str, low: str, ev: Evidence) -> bool:
    """Whether the claim word (`raw` as written, `low` lower case), which no source word
    matches by stem, is a noun whose first sense is the first sense of a source word."""
    if not raw[:1].islower():
        return False
    sense = _sense(low)
    return sense is not None and sense in _source_senses(ev)
