"""Who did it: the claim names one person as the doer of an act the source gives to
another ("The migration was approved by Ana" where the source says "Ana rejected the
migration; Ben approved it").

Word overlap finds every word of such a claim in the source, and the swapped-name rules
need a name the source never uses (`names.swapped_names`) or two names in the opposite
order around the same words (`roles.swapped_roles`); a passive puts its doer after the
verb, the active before it, so neither rule reads it. Here the doer is read by syntax:

* a **passive with its agent**: a form of "be", at most one adverb of `name_roles`, a
  past participle (`name_roles._participle`: "-ed", "-en", "-wn" or an irregular one),
  then "by" and a name ("was approved by Ana"); the act is the participle's stem and what
  it was done to is the content words of the clause before "be";
* an **active past** right after a name: a name-shaped word (`names._name_shaped`, not
  possessive: "Ana's team approved" is the team's act; no common abstract noun,
  "Security reviewed it") followed at once by a regular past in "-ed" ("Ben approved
  it") or an irregular verb form of WordNet's verb.exc ("Ben wrote it",
  `opening_names.verb_lemmas`); what it was done to is the content words after the verb
  in its clause.

An act's verb is its stem, or for an irregular form the stem of its lemma, so "wrote"
and "written" are one verb.

Names joined by "and", "or" or a comma ("Ana and Ben approved it", "approved by Ana and
Ben") are all doers. A claim's act contradicts the source when some source sentence
holds the same verb stem with a named doer and at least one content word of what the
claim's act was done to, and no source sentence with that verb names any of the claim's
doers as its doer: (claim's doer, source's doer). A source that names no doer of that
verb ("it was approved", "the CTO approved it": "CTO" is no name-shaped word), or a negated act
("Ben did not approve it": the verb does not follow the name at once), tells nothing.

The word lists are closed classes of English (conjunctions, the forms of "be"); the
shapes are read from the text, not from any data set.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from groundwire.guards.grounding.lexical.doer_gaps import verb_after_doer
from groundwire.guards.grounding.lexical.evidence import evidence_for
from groundwire.guards.grounding.lexical.name_roles import _ADVERBS, _BE, _participle
from groundwire.guards.grounding.lexical.names import _ABSTRACT, _TITLES, _name_shaped, common_word
from groundwire.guards.grounding.lexical.opening_names import irregular_forms, verb_lemmas
from groundwire.guards.grounding.lexical.text import capitals, claim_words, stem, word_set
from groundwire.topics.records import SourceTurn

__all__ = ["Act", "acts", "swapped_actors"]

_JOIN = word_set("and or")
# a mark that ends the clause a word stands in
_CLAUSE_MARKS = frozenset(",;:.!?()")


@dataclass(frozen=True, slots=True)
class Act:
    """A doer (the lower-case names, "'s"-free) of a verb (its stem) on a patient (the
    content stems of what it was done to; for a source act, its sentence's)."""

    doers: tuple[str, ...]
    raw_doer: str
    verb: str
    patient: frozenset[str]


def _gap(text: str, spans: Sequence[tuple[int, int]], a: int, b: int) -> str:
    return text[spans[a][1] : spans[b][0]]


def _name(raw: str) -> bool:
    """A name-shaped word, not possessive, and not a common abstract noun ("Security
    reviewed the contract": the department, no person; `names._ABSTRACT`)."""
    low = raw.lower()
    return (
        _name_shaped(raw)
        and not low.endswith("'s")
        and not (low.endswith(_ABSTRACT) and common_word(low))
    )


def _part(raw: str) -> bool:
    """A word of a name: name-shaped, or a title before one ("Dr. Fink")."""
    return _name(raw) or raw.lower() in _TITLES


def _run(raws: Sequence[str], spans: Sequence[tuple[int, int]], text: str, at: int) -> range:
    """The positions of the name around `at`: its name-shaped words and titles written
    side by side ("Dr. Priya Nair"; a title's full stop between)."""
    lo = hi = at
    while lo > 0 and _part(raws[lo - 1]) and _gap(text, spans, lo - 1, lo).strip() in ("", "."):
        if _gap(text, spans, lo - 1, lo).strip() and raws[lo - 1].lower() not in _TITLES:
            break
        lo -= 1
    while hi + 1 < len(raws) and _part(raws[hi + 1]):
        gap = _gap(text, spans, hi, hi + 1).strip()
        if gap and not (gap == "." and raws[hi].lower() in _TITLES):
            break
        hi += 1
    return range(lo, hi + 1)


def _joined(
    raws: Sequence[str], lows: Sequence[str], spans: Sequence[tuple[int, int]], text: str,
    at: int, step: int,
) -> list[int]:  # fmt: skip
    """The words of the name at `at` and of the names joined to it going `step` (+1
    after, -1 before) by "and", "or" or a comma ("Ana, Ben and Dr. Carl Moss")."""
    run = _run(raws, spans, text, at)
    out = [m for m in run if _name(raws[m])]
    k = run[-1] if step == 1 else run[0]
    while True:
        nxt = k + step
        if not 0 <= nxt < len(raws):
            return out
        gap = _gap(text, spans, *sorted((k, nxt))).strip()
        if not gap and lows[nxt] in _JOIN:
            nxt += step
            if not 0 <= nxt < len(raws) or _gap(text, spans, *sorted((nxt - step, nxt))).strip():
                return out
        elif gap != ",":
            return out
        if not _part(raws[nxt]):
            return out
        run = _run(raws, spans, text, nxt)
        out += [m for m in run if _name(raws[m])]
        k = run[-1] if step == 1 else run[0]


def _clause(text: str, spans: Sequence[tuple[int, int]], at: int, step: int, n: int) -> range:
    """The positions from `at` (excluded) going `step` to the end of its clause."""
    k = at
    while 0 <= k + step < n:
        lo, hi = sorted((k, k + step))
        if any(c in _CLAUSE_MARKS for c in _gap(text, spans, lo, hi)):
            break
        k += step
    return range(at + step, k + step, step) if k != at else range(0)


def acts(
    raws: Sequence[str],
    lows: Sequence[str],
    stems: Sequence[str],
    content: Sequence[bool],
    spans: Sequence[tuple[int, int]],
    text: str,
) -> list[Act]:
    """The acts with a named doer in one text's words (see the module docstring)."""
    n = len(raws)
    out: list[Act] = []
    for k in range(1, n - 1) if "by" in lows else ():
        if lows[k] != "by" or not _participle(lows[k - 1]) or not _part(raws[k + 1]):
            continue
        if _gap(text, spans, k - 1, k).strip() or _gap(text, spans, k, k + 1).strip():
            continue
        aux = k - 2
        if aux >= 0 and lows[aux] in _ADVERBS:
            aux -= 1
        if aux < 0 or lows[aux] not in _BE:
            continue
        who = _joined(raws, lows, spans, text, k + 1, 1)
        patient = frozenset(stems[m] for m in _clause(text, spans, aux, -1, n) if content[m])
        act = _act(raws, who, _verb(lows[k - 1], stems[k - 1]), patient)
        if act is not None:
            out.append(act)
    for i in capitals(raws):  # a doer is written with a capital: only those are read
        # past "has" / an adverb between the doer and its verb (`doer_gaps.py`)
        v = verb_after_doer(lows, spans, text, i)
        if v >= n:
            continue
        low = lows[v]
        # the verb first (a suffix and a lookup), the name's shape only then
        if not ((low.endswith("ed") and len(low) > 4) or verb_lemmas(low)):
            continue
        if not (raws[v].islower() and low.isalpha() and _name(raws[i])):
            continue
        if _gap(text, spans, v - 1, v).strip():
            continue
        if v + 1 < n and lows[v + 1] == "by":
            continue  # "Ana, promoted by Ben, ...": a participle, not Ana's act
        who = _joined(raws, lows, spans, text, i, -1)
        patient = frozenset(stems[m] for m in _clause(text, spans, v, 1, n) if content[m])
        act = _act(raws, who, _verb(low, stems[v]), patient)
        if act is not None:
            out.append(act)
    return out


def _verb(low: str, stemmed: str) -> str:
    """The key of a verb: its stem, or for an irregular form the stem of its first lemma
    ("wrote" and "written" are both "write": `opening_names.verb_lemmas`)."""
    lemmas = verb_lemmas(low)
    return stem(lemmas[0]) if lemmas else stemmed


@functools.cache
def _by_lemma() -> dict[str, frozenset[str]]:
    """Verb key (the stem of a lemma) -> its irregular forms ("write": "wrote",
    "written"), so a source sentence is skipped by set operations, not word by word."""
    out: dict[str, set[str]] = {}
    for form, lemmas in irregular_forms().items():
        if lemmas:
            out.setdefault(stem(lemmas[0]), set()).add(form)
    return {k: frozenset(v) for k, v in out.items()}


def _irregular_forms(verb: str) -> frozenset[str]:
    return _by_lemma().get(verb, frozenset())


def _act(raws: Sequence[str], who: Sequence[int], verb: str, patient: frozenset[str]) -> Act | None:
    if not who:
        return None  # a title with no name after it
    doers = tuple(raws[m].lower() for m in who)
    return Act(doers=doers, raw_doer=raws[who[0]], verb=verb, patient=patient)


def swapped_actors(claim: str, turns: Sequence[SourceTurn]) -> list[tuple[str, str]]:
    """(claim's doer, source's doer) for each act of the claim whose verb the source gives
    only to other named doers over the same patient (see the module docstring)."""
    if " by " not in claim and "ed" not in claim:
        return []
    w = claim_words(claim)
    mine = [a for a in acts(w.raws, w.lows, w.stems, w.content, w.spans, claim) if a.patient]
    if not mine:
        return []
    verbs = {a.verb for a in mine}
    forms = set().union(*map(_irregular_forms, verbs))  # "wrote", "written" for "write"
    theirs: list[tuple[Act, frozenset[str]]] = []
    for s in evidence_for(turns).sentences:
        if verbs.isdisjoint(s.word_stems) and forms.isdisjoint(s.lows):
            continue  # none of the claim's verbs, regular or irregular
        spans = s.word_spans()
        for act in acts(s.raws, s.lows, s.word_stems, s.content, spans, s.text):
            if act.verb in verbs:
                theirs.append((act, s.stems))
    out: list[tuple[str, str]] = []
    for a in mine:
        same = [(b, ctx) for b, ctx in theirs if b.verb == a.verb]
        if any(set(a.doers) & set(b.doers) for b, _ in same):
            continue  # the source names the claim's doer of this act somewhere
        other = next((b for b, ctx in same if a.patient & ctx), None)
        if other is not None:
            out.append((a.raw_doer, other.raw_doer))
    return out
