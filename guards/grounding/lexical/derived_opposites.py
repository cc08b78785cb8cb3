"""Opposite verbs WordNet gives only through a phrasal verb, and un-/dis- verbs it lacks
(session 15): "added" / "removed", "mounted" / "dismounted", "installed" / "uninstalled".

`antonyms.py` reads WordNet's antonym pairs between single words. Two ways an opposite
slips past it, and the claim that changes the verb to its opposite read as a partial
grounding ("We removed the retry limit" against "We added a retry limit"):

* **through a phrasal verb.** WordNet writes one side of some pairs with phrasal verbs
  only: "add" against {take away, take out}, "mount" (get on) against {hop out, get off}.
  The phrasal verb is a lemma of other synsets, of the same domain, with single words:
  "take away" of {remove, withdraw, ...}, "get off" of {dismount, unhorse, ...}.
  `data/bridged_opposites.tsv` (built by scripts/build_bridged_opposites.py from the
  WordNet data files; nothing in it written by hand) pairs those words with the other
  side.
* **a negating prefix WordNet does not list.** "un-" or "dis-" on a verb of the lexicon
  ("install", "mount", "follow") makes its reversal; WordNet lists the common ones
  ("lock" / "unlock", antonyms.tsv) but not technical coinages ("uninstall", "unmount",
  "unpublish"; session 16: "non", "nonblocking"). A word that is "un"/"dis"/"non" + a
  source word in the same form, whose stem is a
  common word (`names.common_word`) and which is itself no WordNet word, is read as its
  opposite. A prefixed word WordNet has ("discover", "display", "dismiss") is left to
  the tables, since most such words are no reversal of their stem.

`derived_opposite(a, b)` says whether two lower-case words are opposites in either way;
`polarity._antonym_in` asks it beside `antonyms.opposites`, so it is read where an
antonym is: in a claim clause aligned with a source clause.
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Callable, Sequence, Set
from importlib import resources
from typing import TYPE_CHECKING, cast

from groundwire.guards.grounding.lexical.antonyms import _DETACH, _EXCEPTIONS, _lemmas_in
from groundwire.guards.grounding.lexical.names import _lexicon, common_word
from groundwire.guards.grounding.lexical.prefixed_antonyms import NEGATING, prefixed_satellites

if TYPE_CHECKING:
    from groundwire.guards.grounding.lexical.evidence import Evidence

__all__ = ["derived_opposite", "may_have_derived", "table_size"]

_PREFIXES = ("un", "dis", "non")  # "non" since session 16: "nonblocking" / "blocking"
# the prefixes the cheap test looks for: those and the negating prefixes of
# `prefixed_antonyms` (session 16)
_CHEAP = tuple(dict.fromkeys(_PREFIXES + NEGATING))
_SPACED_PREFIXES = tuple(" " + p for p in _CHEAP)  # a prefix opening a word
_MIN_STEM = 4  # "undo" / "do", "unit" / "it": a stem of four letters or more


def _load() -> dict[str, frozenset[str]]:
    path = resources.files("groundwire.guards.grounding").joinpath("data/bridged_opposites.tsv")
    _header, body = path.read_text("utf-8").split("\n\n", 1)
    out: dict[str, set[str]] = {}
    for line in body.splitlines():
        a, b = line.split("\t")
        out.setdefault(a, set()).add(b)
        out.setdefault(b, set()).add(a)
    return {w: frozenset(ws) for w, ws in out.items()}


_PAIRS = _load()


def table_size() -> int:
    """Words in the bridged table."""
    return len(_PAIRS)


@functools.lru_cache(maxsize=16_384)
def _lemmas(word: str) -> tuple[str, ...]:
    """The word, its irregular lemmas and its detached forms that the bridged table has."""
    return _lemmas_in(word, _PAIRS)


def _prefixed(a: str, b: str) -> bool:
    """`a` is "un"/"dis" + `b` (same form), `b` a common word, `a` none of WordNet's."""
    for prefix in _PREFIXES:
        if (
            a.startswith(prefix)
            and a[len(prefix) :] == b
            and len(b) >= _MIN_STEM
            and common_word(b)
            and a not in _lexicon()
            and not common_word(a)
        ):
            return True
    return False


def derived_opposite(a: str, b: str) -> bool:
    """Whether the lower-case words `a` and `b` are opposites by the bridged table or by a
    negating prefix (module docstring)."""
    if a == b:
        return False
    # `_prefixed` holds only for a word that starts with a prefix: most pairs are decided
    # by one C-level `startswith` per word, without the two calls (session 15, round 2)
    if (a.startswith(_PREFIXES) and _prefixed(a, b)) or (
        b.startswith(_PREFIXES) and _prefixed(b, a)
    ):
        return True
    # session 16: two WordNet satellites, one the other with a negating prefix, on
    # opposite sides of one pair ("unreadable" / "readable", `prefixed_antonyms.py`)
    if (a.startswith(NEGATING) or b.startswith(NEGATING)) and prefixed_satellites(a, b):
        return True
    first = _lemmas(a)
    if not first:
        return False
    second = _lemmas(b)
    return any(not _PAIRS[x].isdisjoint(second) for x in first)


def _lemma_words() -> frozenset[str]:
    """Every word `_lemmas` finds something for, spelled out from the table: its words,
    the inflected forms whose listed lemma is one, and each detached form that leads back
    to one (a stem of two letters or more, as `_lemmas` asks). A few thousand words."""
    out = set(_PAIRS)
    out.update(w for w, bases in _EXCEPTIONS.items() if any(b in _PAIRS for b in bases.split()))
    for base in _PAIRS:
        for suffix, repl in _DETACH:
            if base.endswith(repl):
                stem = base[: len(base) - len(repl)]
                if len(stem) > 1:
                    out.add(stem + suffix)
    return frozenset(out)


# the words with some lemma in the table: `may_have_derived` tests a claim's words against
# it in one set operation instead of a cached call per word (session 15, round 2)
_LEMMA_WORDS = _lemma_words()


_STARTS_PREFIXED = operator.methodcaller("startswith", _CHEAP)


def _prefixed_in_source(words: Sequence[str], source_lows: Set[str]) -> bool:
    """Whether some source word is a prefix of `_CHEAP` + one of `words`, read from the
    smaller side (session 17): every prefixed form of the claim's words looked up in the
    source (one string built per word and prefix: ~22 us for a 20-word claim), or the
    source's words that start with a prefix (one C-level filter) stripped of it and
    looked up among the claim's words, when the source has fewer words than that."""
    if len(source_lows) >= len(_CHEAP) * len(words):
        return any(not source_lows.isdisjoint([prefix + low for low in words]) for prefix in _CHEAP)
    stripped: set[str] = set()
    for low in filter(_STARTS_PREFIXED, source_lows):
        stripped.update(low[len(prefix) :] for prefix in _CHEAP if low.startswith(prefix))
    return not stripped.isdisjoint(words)


def _stripped(source_lows: Set[str]) -> frozenset[str]:
    """The source's words that start with a prefix of `_CHEAP`, each without it (every
    prefix it starts with): a claim word among them is what a source word is a prefix +."""
    out: set[str] = set()
    for low in filter(_STARTS_PREFIXED, source_lows):
        out.update(low[len(prefix) :] for prefix in _CHEAP if low.startswith(prefix))
    return frozenset(out)


# where `source_stripped` keeps its answer in `Evidence.derived`
_STRIPPED_KEY = "derived_opposites.source_stripped"


def source_stripped(ev: Evidence) -> frozenset[str]:
    """`_stripped` of the evidence's words, read once per evidence and kept with it in
    `Evidence.derived` (session 17, round 2): the claims of a conversation read the same
    turns, and the filter over every source word was most of `may_have_derived`'s cost."""
    memo = ev.derived
    if memo is None:
        memo = ev.derived = {}
    got = memo.get(_STRIPPED_KEY)
    if got is None:
        got = memo[_STRIPPED_KEY] = _stripped(ev.lows)
    return cast("frozenset[str]", got)


def may_pair(words: Sequence[str]) -> Callable[[str], bool]:
    """A test of one word `b`, false only when `derived_opposite(a, b)` is false for every
    `a` of `words` (session 17: the pairing loop reads a source word against the claim's
    words only when it holds): `b` is in the bridged table (`_LEMMA_WORDS`, what
    `_lemmas` finds something for; without a lemma of its own no table pair holds), or
    `b` may be a prefix + some `a` (it starts with one of `_CHEAP`), or some `a` is a
    prefix + `b` (`b` is among the words' forms without a prefix)."""
    stripped = {a[len(p) :] for a in words for p in _CHEAP if a.startswith(p)}

    def test(b: str) -> bool:
        return b in _LEMMA_WORDS or b.startswith(_CHEAP) or b in stripped

    return test


def may_have_derived(
    lows: Sequence[str],
    content: Sequence[bool],
    source_lows: Set[str],
    stripped: Set[str] | None = None,
) -> bool:
    """The cheap test before pairing words: some content word of the claim is in the
    bridged table, or is "un"/"dis" + a source word, or a source word is "un"/"dis" + it.
    Set operations over the claim's content words (the answer is whether any test holds
    for any word, so they are asked all at once), so nearly every claim pays a few
    microseconds. `stripped`, when given, is `_stripped(source_lows)` already read
    (`source_stripped`)."""
    if len(lows) != len(content):
        raise ValueError("lows and content differ in length")
    words = list(itertools.compress(lows, content))
    if not _LEMMA_WORDS.isdisjoint(words):
        return True
    if stripped is not None:
        if not stripped.isdisjoint(words):
            return True  # a source word is a prefix + a claim word
    elif _prefixed_in_source(words, source_lows):
        return True  # a source word is a prefix + a claim word
    # a word is read below only when it starts with a prefix: one substring search over
    # the words joined by spaces (a word holds none) finds whether any does, so the
    # per-word loop runs for the few claims with such a word (session 15, round 3)
    if not any(map((" " + " ".join(words)).__contains__, _SPACED_PREFIXES)):
        return False
    for low in words:
        if low.startswith(_CHEAP):
            for prefix in _CHEAP:
                if low.startswith(prefix) and low[len(prefix) :] in source_lows:
                    return True  # a claim word is the prefix + a source word
    return False
