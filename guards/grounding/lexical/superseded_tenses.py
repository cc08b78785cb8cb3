"""A value the source tells as past and then replaces in the present with the same verb:
"Ana worked at Globex and now works at Acme" (session 18, the open write-path holes).

The superseded-value rules read a change that names itself: "used to" and "no longer"
(`assertion.py`, `ended_states.py`), "moved to" / "from X to Y" (`polarity._changed_since`,
`polarity._left_behind`). English tells the same change by tense alone: the verb in the
past with one value, then the same verb (the same lemma) in the present with another,
for the same subject. "Ana works at Globex" against that source restates the past value
as the present one: every word of it is in the source, so word overlap supports it, and
what the source says is that it is no longer so. A contradiction (`not_supported`), as
"Ana still works at Stripe" against "Ana used to work at Stripe" is.

The reading (`superseded_tenses`):

* the source has a verb in a past form at `p` (a regular "-ed" form, an irregular form of
  WordNet's verb.exc, `opening_names.verb_lemmas`, or "was"/"were"/"had") and, later in
  the same sentence or in the next sentence of the same turn, the same lemma in a present
  form at `q` (not past, not after "to" or a modal: "and wants to work at Acme" is a
  plan, not the present);
* between the past value and the present verb stand only function words (a pronoun),
  words of the present time ("now") or the same subject again, and among them a
  conjunction ("and", "but", ...) or the sentence break: another subject ("and Ben now
  works at Acme") is another fact, not a change;
* the claim holds that lemma in a present form with a value of the past verb that the
  present one lacks ("Globex"), and none of the present verb's values ("Acme"): a claim
  that names both, or that is itself in the past ("Ana worked at Globex"), is not read;
* the claim's subject words are all in the source before the past verb;
* "be" / "have" before a participle are auxiliaries ("was directed by", "is accompanied
  by"): the verb is the participle's, not "be";
* "too", "also", "still" around the present value add it to the past one ("I loved the
  first book and I love the sequel too"): no replacement.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from typing import cast

from groundwire.guards.grounding.lexical.evidence import Evidence, Sentence, evidence_for
from groundwire.guards.grounding.lexical.irregular_past import IRREGULAR_PAST
from groundwire.guards.grounding.lexical.opening_names import (
    irregular_forms_by_lemma,
    irregular_verb_form,
    verb_lemmas,
)
from groundwire.guards.grounding.lexical.text import claim_words, stem, word_set
from groundwire.topics.records import SourceTurn

__all__ = ["superseded_tenses"]

# "was at Globex" / "is at Acme": the forms of "be" and "have" by tense
_BE_HAVE_PAST = {"was": "be", "were": "be", "had": "have"}
_BE_HAVE_PRESENT = {"is": "be", "are": "be", "am": "be", "has": "have", "have": "have"}
# words before a verb that make it no present fact ("to work", "will work")
_NOT_PRESENT = word_set("to will would could might may should can must shall 'll")
# words that mark a claim as told of the past (it is true of the past value)
_CLAIM_PAST = word_set("was were had did used previously formerly once before earlier")
# words that join the past clause to the present one ("... and now works at Acme")
_CONNECTORS = word_set("and but while whereas yet so though although")
# content words allowed between the two verbs: words of the present time
_NOW = word_set("now today currently nowadays presently still these days")
# words that add the present value to the past one rather than replace it ("I loved the
# first book and I love the sequel too")
_ADDITIVE = word_set("too also well still again either")
# words that end the present verb's value ("works at Acme and likes it")
_VALUE_END = word_set("and but while whereas though although because since so")


def _lemma(low: str, stemmed: str) -> tuple[str, bool] | None:
    """(lemma key, is past) of a word that may be a verb: the key is the stem the present
    form has ("worked" / "works" -> "work"; "led" -> "lead"; "was" -> "be")."""
    if low in _BE_HAVE_PAST:
        return _BE_HAVE_PAST[low], True
    if low in _BE_HAVE_PRESENT:
        return _BE_HAVE_PRESENT[low], False
    if irregular_verb_form(low):
        lemmas = verb_lemmas(low)
        return (stem(lemmas[0]), True) if lemmas else None
    if low.endswith("ed") and stemmed != low:
        return stemmed, True
    return stemmed, False


@functools.cache
def _irregular_lemmas() -> frozenset[str]:
    """The lemmas that have an irregular form (a set: `&` iterates the smaller side)."""
    return frozenset(irregular_forms_by_lemma())


@functools.lru_cache(maxsize=4_096)
def _past_forms(low: str, key: str) -> frozenset[str]:
    """The past forms a present verb form `low` (lemma key `key`) may have in the source:
    "works" -> "worked"; "lives" -> "lived"; "runs" -> "ran"; "is" -> "was", "were"."""
    if key == "be":
        return frozenset(("was", "were"))
    if key == "have":
        return frozenset(("had",))
    bases = {low}
    if low.endswith("ies"):
        bases.add(low[:-3] + "y")
    if low.endswith("es"):
        bases.add(low[:-2])
    if low.endswith("s"):
        bases.add(low[:-1])
    out: set[str] = set()
    for base in bases:
        out.update((base + "ed", base + "d", base + base[-1:] + "ed"))
        if base.endswith("y"):
            out.add(base[:-1] + "ied")
        out.update(irregular_forms_by_lemma().get(base, ()))
    return frozenset(out)


# where `_past_bases` keeps its answer in `Evidence.derived`
_BASES_KEY = "superseded_tenses.past_bases"


def _past_bases(ev: Evidence) -> frozenset[str]:
    """Every `st` the source writes as "st" + "ed", "st" + "d" or "st" + its last letter +
    "ed" ("work", "live", "stop" from "worked", "lived", "stopped"): read once per
    evidence from its words ending in "d" and kept in `Evidence.derived`, since every
    claim against the turns asked it again, one new string per stem and form."""
    memo = ev.derived
    if memo is None:
        memo = ev.derived = {}
    got = memo.get(_BASES_KEY)
    if got is None:
        out: set[str] = set()
        for w in ev.lows:
            if w[-1:] == "d":
                out.add(w[:-1])
                if w[-2:-1] == "e":
                    out.add(w[:-2])
                    if len(w) > 3 and w[-3] == w[-4]:
                        out.add(w[:-3])
        got = memo[_BASES_KEY] = frozenset(out)
    return cast("frozenset[str]", got)


def _auxiliary(lows: Sequence[str], k: int) -> bool:
    """Whether "be" / "have" at `k` is an auxiliary: a participle follows ("was directed
    by", "is accompanied", "has gone", "is working"), so the verb is that participle's."""
    if lows[k] not in _BE_HAVE_PAST and lows[k] not in _BE_HAVE_PRESENT:
        return False
    nxt = lows[k + 1] if k + 1 < len(lows) else ""
    return nxt.endswith(("ed", "ing", "en")) or irregular_verb_form(nxt)


def _present_at(lows: Sequence[str], k: int) -> bool:
    """Whether the word at `k` is not in a past form and not after "to" or a modal."""
    low = lows[k]
    if low.endswith("ed") or low in IRREGULAR_PAST or low in _BE_HAVE_PAST:
        return False
    if irregular_verb_form(low):
        return False  # "read", "put": the past form is the present one
    return not (k and lows[k - 1] in _NOT_PRESENT)


def superseded_tenses(claim_text: str, turns: Sequence[SourceTurn]) -> list[tuple[str, str]]:
    """(claim phrase, source phrase) where the claim tells as present a value the source
    gives the same verb only in the past, before giving it another in the present
    (module docstring)."""
    words = claim_words(claim_text)
    lows, stems, content = words.lows, words.stems, words.content
    if not _CLAIM_PAST.isdisjoint(lows):
        return []
    ev = evidence_for(turns)
    sentences = ev.sentences
    ev_lows = ev.lows
    # the cheap tests first, set operations over the claim's words: the verbs the source
    # writes in a past form ("work" -> "worked", "live" -> "lived", "stop" -> "stopped";
    # an irregular lemma looked up below; "is" / "has" where it writes "was" / "had")
    held = set(itertools.compress(stems, content)) & ev.stems
    keys = held & _past_bases(ev) if held else set()
    keys.update(held & _irregular_lemmas())
    if not _BE_HAVE_PAST.keys().isdisjoint(ev_lows):
        keys.update(_BE_HAVE_PRESENT.keys() & set(lows))
    if not keys:
        return []
    for i in itertools.compress(range(len(lows)), map(keys.__contains__, stems)):
        low = lows[i]
        key = _BE_HAVE_PRESENT.get(low) or stems[i]
        if not i:
            continue
        forms = _past_forms(low, key)
        if forms.isdisjoint(ev_lows) or not _present_at(lows, i) or _auxiliary(lows, i):
            continue
        value = {stems[k] for k in range(i + 1, len(lows)) if content[k]}
        if not value:
            continue
        subject = {stems[k] for k in range(i) if content[k]}
        for n, s in enumerate(sentences):
            if value.isdisjoint(s.stems):
                continue  # the past value is told in this sentence, or it is not read
            if key not in s.stems and forms.isdisjoint(s.lows):
                continue  # no past form of the verb in this sentence
            nxt = sentences[n + 1] if n + 1 < len(sentences) else None
            found = _change(s, nxt, key, forms, value, subject)
            if found is not None:
                return [(" ".join(words.raws[i:]), found)]
    return []


def _change(
    s: Sentence,
    nxt: Sentence | None,
    key: str,
    forms: frozenset[str],
    value: set[str],
    subject: set[str],
) -> str | None:
    """The present phrase that replaces the claim's value, if `s` (and the next sentence
    of its turn, `nxt`) tell the past value and then the present one with lemma `key`."""
    lows, stems, content = s.lows, s.word_stems, s.content
    for p in range(len(lows)):
        low = lows[p]
        if low not in forms:
            continue  # the cheap test: not a past form of the claim's verb
        read = _lemma(low, stems[p])
        if read is None or read != (key, True) or _auxiliary(lows, p):
            continue
        if not subject <= {stems[k] for k in range(p) if content[k]}:
            continue
        # the present verb later in this sentence, or in the next one of the same turn
        joined: list[tuple[Sentence, int]] = [(s, k) for k in range(p + 1, len(lows))]
        if nxt is not None and nxt.turn.id == s.turn.id:
            joined += [(nxt, k) for k in range(len(nxt.lows))]
        for at, (t, q) in enumerate(joined):
            if _lemma(t.lows[q], t.word_stems[q]) != (key, False) or not _present_at(t.lows, q):
                continue
            if _auxiliary(t.lows, q):
                continue
            before = joined[:at]
            # back from the present verb over what may stand between two clauses of one
            # subject: function words, words of the present time, the subject again
            cut = len(before)
            while cut and not _other_content(before[cut - 1], subject):
                cut -= 1
            gap = before[cut:]
            by_sentence = t is not s and cut > 0 and before[cut - 1][0] is s
            if not (by_sentence or any(_word(x) in _CONNECTORS for x in gap)):
                break  # no clause break, or another subject ("and Ben now works at Acme")
            after = [t.lows[k] for k in range(q + 1, len(t.lows))]
            if not _ADDITIVE.isdisjoint(after) or not _ADDITIVE.isdisjoint(map(_word, gap)):
                break  # "and I love the sequel too": added, not replaced
            past = {u.word_stems[k] for u, k in before[:cut] if u.content[k]}
            present: set[str] = set()
            for k in range(q + 1, len(t.lows)):
                if t.lows[k] in _VALUE_END:
                    break
                if t.content[k]:
                    present.add(t.word_stems[k])
            if not present or not value.isdisjoint(present - past):
                break
            if (value & past) - present:
                return " ".join(t.raws[q:])
            break
    return None


def _word(at: tuple[Sentence, int]) -> str:
    """The lower-case word at (sentence, position)."""
    return at[0].lows[at[1]]


def _other_content(at: tuple[Sentence, int], subject: set[str]) -> bool:
    """Whether the word at (sentence, position) is a content word that is neither a word
    of the present time nor one of the claim's subject."""
    u, k = at
    return u.content[k] and u.lows[k] not in _NOW and u.word_stems[k] not in subject
