"""A verb the source writes as a phrasal verb of the same sense: "The meeting was
cancelled" where the source says "The meeting was called off" (session 18, older rules'
false blocks).

Word overlap reads each word alone, so "cancelled" against "called off" was a word the
source lacks and a faithful restatement was blocked. `synonyms.py` reads nouns only, one
word each. WordNet lists phrasal verbs as lemmas of their own ("call_off") in the synset
of their sense, beside one-word verbs ("cancel"). The table `data/phrasal_verbs.tsv`
(scripts/build_phrasal_verbs.py, from WordNet 3.1; nothing written by hand) holds, for
each phrasal verb whose first SemCor-tagged sense is also the first tagged sense of
one-word verbs that are mainly verbs, those verbs: "call off" / "cancel", "put off" /
"postpone", "look into" / "investigate". First senses only, as `synonyms.py` reads
them: "put off" in its rarer sense "repel" is not read.

`phrasal_synonym_in_source`: a claim word counts as found when

* its verb lemma is a one-word verb of a phrasal verb the source writes (the verb, by
  any form, then its particle at once or after one word: "called the meeting off"), or
* it is the verb of a phrasal verb the claim writes (its particle follows at once) and
  the source writes one of that phrasal verb's one-word verbs, by any form.

Only the score's coverage reads it (`features.analyze`): no evidence span, nothing
sharpened; "postponed" against "called off" stays a word the source lacks.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from importlib import resources

from groundwire.guards.grounding.lexical.evidence import Evidence
from groundwire.guards.grounding.lexical.opening_names import irregular_forms_by_lemma, verb_lemmas

__all__ = ["PARTICLES", "candidates", "candidates_in", "phrasal_synonym_in_source"]

# WordNet's detachment rules for verbs (morph.c): "cancels", "cancelled" via verb.exc,
# "postponed", "investigating"
_VERB_DETACH: tuple[tuple[str, str], ...] = (
    ("s", ""),
    ("ies", "y"),
    ("es", "e"),
    ("es", ""),
    ("ed", "e"),
    ("ed", ""),
    ("ing", "e"),
    ("ing", ""),
)


@functools.cache
def _table() -> tuple[dict[tuple[str, str], frozenset[str]], dict[str, frozenset[tuple[str, str]]]]:
    """(verb, particle) -> its one-word verbs; one-word verb -> its phrasal verbs."""
    path = resources.files("groundwire.guards.grounding").joinpath("data/phrasal_verbs.tsv")
    phrasal: dict[tuple[str, str], frozenset[str]] = {}
    single: dict[str, set[tuple[str, str]]] = {}
    for line in path.read_text("utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        head, _, words = line.partition("\t")
        verb, _, particle = head.partition(" ")
        phrasal[(verb, particle)] = frozenset(words.split())
        for w in words.split():
            single.setdefault(w, set()).add((verb, particle))
    return phrasal, {w: frozenset(v) for w, v in single.items()}


@functools.cache
def _particles() -> frozenset[str]:
    return frozenset(p for _, p in _table()[0])


PARTICLES = _particles()


def _forms(lemma: str) -> set[str]:
    """Every form `verb_bases` detaches to `lemma`: the lemma, its -s, -es, -ies, -d,
    -ed, -ing forms by WordNet's rules, and its irregular forms (verb.exc)."""
    out = {lemma, lemma + "s", lemma + "es", lemma + "ed", lemma + "ing"}
    if lemma.endswith("e"):
        out |= {lemma + "d", lemma[:-1] + "ing"}
    if lemma.endswith("y"):
        out.add(lemma[:-1] + "ies")
    out.update(irregular_forms_by_lemma().get(lemma, ()))
    return out


@functools.cache
def _index() -> tuple[
    dict[str, frozenset[tuple[str, str]]], dict[tuple[str, str], frozenset[str]], frozenset[str]
]:
    """The table by written form, so a claim word costs a dict lookup: a form of a
    one-word verb -> the phrasal verbs it names; (a form of a phrasal verb's verb, its
    particle) -> the one-word verbs; and the forms of the phrasal verbs' verbs (the
    gate of `may_read`)."""
    phrasal, single = _table()
    wanted: dict[str, set[tuple[str, str]]] = {}
    for lemma, pairs in single.items():
        for form in _forms(lemma):
            wanted.setdefault(form, set()).update(pairs)
    mine: dict[tuple[str, str], set[str]] = {}
    for (verb, particle), words in phrasal.items():
        for form in _forms(verb):
            mine.setdefault((form, particle), set()).update(words)
    return (
        {k: frozenset(v) for k, v in wanted.items()},
        {k: frozenset(v) for k, v in mine.items()},
        frozenset(form for form, _ in mine),
    )


def candidates(claim_lows: Sequence[str]) -> frozenset[str]:
    """The cheap test before any word loop (set operations only): the claim words that
    are a form of a one-word verb of the table, or of a phrasal verb's verb when the
    claim writes a particle; empty for most claims."""
    wanted, _mine, firsts = _index()
    lows = frozenset(claim_lows)
    found = lows & wanted.keys()
    if not PARTICLES.isdisjoint(lows):
        found |= lows & firsts
    return found


@functools.cache
def _particles_by_form() -> tuple[dict[str, frozenset[str]], frozenset[str]]:
    """A form of a one-word verb -> the particles of the phrasal verbs it names; and
    those forms as a set (so the claim's words meet it set to set)."""
    wanted = _index()[0]
    return {form: frozenset(p for _, p in pairs) for form, pairs in wanted.items()}, frozenset(
        wanted
    )


def candidates_in(claim_lows: Sequence[str], source_lows: set[str]) -> frozenset[str]:
    """`candidates` cut to the words `phrasal_synonym_in_source` may find against this
    source (session 18, CPU). The gate of `candidates` is weak: common verbs ("get",
    "go", "make") open phrasal verbs. A one-word verb's form is found only through a
    phrasal verb whose particle the source writes, and a phrasal verb's verb only when
    the claim writes a particle after it; so a form whose particles the source lacks
    is dropped unless the claim holds a particle and the form is a phrasal verb's verb.
    Set operations only; the same answers (tests/unit/guards/grounding/
    test_session18_gates2.py)."""
    by_form, forms = _particles_by_form()
    lows = frozenset(claim_lows)
    claim_particle = not PARTICLES.isdisjoint(lows)
    if not claim_particle and PARTICLES.isdisjoint(source_lows):
        return frozenset()
    found = [w for w in lows & forms if not by_form[w].isdisjoint(source_lows)]
    if claim_particle:
        return frozenset(found).union(lows & _index()[2])
    return frozenset(found)


@functools.lru_cache(maxsize=16_384)
def verb_bases(low: str) -> frozenset[str]:
    """The word, its irregular lemmas (verb.exc) and its detached forms (WordNet's verb
    rules): the lemmas it may be a form of."""
    out = {low, *verb_lemmas(low)}
    for suffix, repl in _VERB_DETACH:
        if low.endswith(suffix) and len(low) > len(suffix) + 1:
            out.add(low[: -len(suffix)] + repl)
    return frozenset(out)


def _phrasals_in(lows: Sequence[str]) -> set[tuple[str, str]]:
    """The phrasal verbs of the table that `lows` writes: a form of the verb, then its
    particle at once or after one word."""
    phrasal = _table()[0]
    out: set[tuple[str, str]] = set()
    for k, low in enumerate(lows):
        if low not in PARTICLES or k == 0:
            continue
        for j in (k - 1, k - 2):
            if j < 0:
                break
            out.update((b, low) for b in verb_bases(lows[j]) if (b, low) in phrasal)
    return out


@functools.lru_cache(maxsize=4_096)
def _forms_of(words: frozenset[str]) -> frozenset[str]:
    """Every written form of the one-word verbs `words`."""
    return frozenset().union(*map(_forms, words))


def phrasal_synonym_in_source(i: int, claim_lows: Sequence[str], ev: Evidence) -> bool:
    """Whether claim word `i` is a one-word verb of a phrasal verb the source writes, or
    the verb of a claim phrasal verb whose one-word verb the source writes (module
    docstring)."""
    wanted_by_form, mine_by_form, _ = _index()
    low = claim_lows[i]
    wanted = wanted_by_form.get(low)
    nxt = claim_lows[i + 1] if i + 1 < len(claim_lows) else ""
    mine = mine_by_form.get((low, nxt))
    if wanted is None and mine is None:
        return False
    lows = ev.lows
    if wanted is not None:
        for verb, particle in wanted:
            # set tests first: the particle and a form of its verb in the source at all
            if particle not in lows or _forms_of(frozenset((verb,))).isdisjoint(lows):
                continue
            pair = (verb, particle)
            if any(pair in _phrasals_in(s.lows) for s in ev.sentences if particle in s.lows):
                return True
    return mine is not None and not _forms_of(mine).isdisjoint(lows)
