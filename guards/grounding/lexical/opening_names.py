"""Syntax that makes a capitalised common word opening a sentence a name, for the
swapped-name rule (`names.swapped_names`, session 16b).

A given name that is also a WordNet lemma ("Ana", "Ben", "John", "Grace") opening a
sentence is read as a name only when the syntax says so (`names._subject`: a bare
singular subject with a verb agreeing right after it). Two shapes were missed, so "Ana's
laptop was stolen" against "Ben's laptop was stolen" and "John Smith wrote the bundle"
against "Ana wrote the bundle" read as a name missing (`partial`, approved), not swapped:

* **an irregular past right after it** ("Ana wrote", "Ben stole"): only a regular past
  shows by its "-ed"; the irregular ones are WordNet's verb exception list
  (`data/verb_forms.txt`, built by scripts/build_verb_forms.py; no form in "-ing" or
  "-s");
* **a possessive with no determiner** ("Ana's laptop"): a common singular noun takes a
  determiner before its possessive ("the company's laptop"), a name does not. Not a word
  of time that stands without one ("Today's standup", `_DEICTIC`), nor an abstract noun
  (`names._ABSTRACT` endings: "Security's review"), and a lower-case word must follow
  (the thing possessed).

Both sides of a swap are read so: the claim's name and the source's rival. Two common
words are still no swap unless both are read as names by this syntax (a title's
capitals, "Paper" / "Book", stay what they were).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from importlib import resources

from groundwire.guards.grounding.lexical.text import word_set

__all__ = [
    "irregular_forms",
    "irregular_forms_by_lemma",
    "irregular_verb_form",
    "possessive_opener",
    "verb_lemmas",
]

# words of time that take a possessive without a determiner ("Today's standup")
_DEICTIC = word_set("today tomorrow yesterday tonight")


@functools.cache
def _forms() -> dict[str, tuple[str, ...]]:
    """The irregular verb forms of WordNet's verb.exc and their lemmas
    (`data/verb_forms.txt`: form, a tab, the lemmas)."""
    path = resources.files("groundwire.guards.grounding").joinpath("data/verb_forms.txt")
    out: dict[str, tuple[str, ...]] = {}
    for line in path.read_text("utf-8").splitlines():
        if line and not line.startswith("#"):
            form, _, lemmas = line.partition("\t")
            out[form] = tuple(lemmas.split())
    return out


def irregular_forms() -> dict[str, tuple[str, ...]]:
    """Every irregular verb form with its lemmas (read-only; shared, do not change)."""
    return _forms()


@functools.cache
def irregular_forms_by_lemma() -> dict[str, frozenset[str]]:
    """Lemma -> its irregular forms (verb.exc read backwards: "run" -> "ran", "run";
    read-only; shared, do not change): for rules that write a lemma in its past forms."""
    out: dict[str, set[str]] = {}
    for form, lemmas in _forms().items():
        for lemma in lemmas:
            out.setdefault(lemma, set()).add(form)
    return {lemma: frozenset(forms) for lemma, forms in out.items()}


def irregular_verb_form(low: str) -> bool:
    """Whether `low` is an irregular form of an English verb ("wrote", "stole", "led")."""
    return low in _forms()


def verb_lemmas(low: str) -> tuple[str, ...]:
    """The lemmas of the irregular verb form `low` ("wrote" and "written": "write"),
    none for a regular or unknown word."""
    return _forms().get(low, ())


def possessive_opener(
    at: int,
    raws: Sequence[str],
    spans: Sequence[tuple[int, int]],
    text: str,
    abstract: tuple[str, ...],
) -> bool:
    """Whether the word at `at`, opening a sentence, is a possessive with no determiner
    followed at once by a lower-case word ("Ana's laptop"; see the module docstring).
    `abstract`: the endings of abstract nouns (`names._ABSTRACT`)."""
    raw = raws[at]
    if not raw.endswith(("'s", "\u2019s")) or at + 1 >= len(raws):
        return False
    base = raw[:-2].lower()
    if base in _DEICTIC or base.endswith(abstract):
        return False
    nxt = raws[at + 1]
    return nxt.isalpha() and nxt.islower() and not text[spans[at][1] : spans[at + 1][0]].strip()
