"""A quantifier the claim changed: "some of the tests pass" where the source says "all".

Quantifiers and adverbs of frequency are function words: word overlap, the antonym
lexicon (WordNet has no antonym pair "all" / "some") and the negation rules all read past
them, so "Some of the integration tests pass" scores as a restatement of "All of the
integration tests pass", and "Alice sometimes reviews" of "Alice always reviews". Yet each
point of the scale says another thing: "some" says "not all" (the scalar implicature
every reader draws), "always" says more than "sometimes".

Three closed scales of English function words, each cut into classes of words that say
the same (`QUANTITY`: all / every / each; most; many; some / several / a few; few; none /
nobody. `FREQUENCY`: always; usually / often; sometimes / occasionally; rarely / seldom;
never. `MODALITY`: must; may / might / can / could, read only before a verb). A claim
word of a scale is *changed* when the source clause aligned with the claim's clause
(`polarity.ALIGN` of the claim clause's content stems, at least two) holds a word of the
same scale in another class that the claim's contradicts (`conflicting`: a stronger
claim always; a weaker one only from the universal end, "some" for "all", "may" for
"must", or into or out of the negative classes), and none of the claim word's class. A
word bounded by another ("almost all", "not all", "at most", "the most", "some 5") or in
a set phrase ("all right", "at all", "after all") is not read, on either side: its class
is not the bare word's. Such a change is a contradiction (`not_supported`), like a
changed number.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from groundwire.guards.grounding.lexical.evidence import Sentence, evidence_for
from groundwire.guards.grounding.lexical.polarity import ALIGN
from groundwire.guards.grounding.lexical.text import (
    claim_words,
    clause_ids,
    fold_disguises,
    number_value,
    word_set,
)
from groundwire.topics.records import SourceTurn

__all__ = [
    "FREQUENCY",
    "MODALITY",
    "QUANTITY",
    "changed_quantifiers",
    "conflicting",
    "quantifier_class",
]


# The most (claim clause, scale, class) triples one claim has read (bounded work).
MAX_READ = 16
_NO_STEMS: frozenset[str] = frozenset()


def _scale(*classes: str) -> dict[str, int]:
    return {w: n for n, text in enumerate(classes) for w in text.split()}


QUANTITY = _scale(
    "all every each everyone everybody everything",
    "most",
    "many numerous",
    "some several someone somebody something",
    "few",
    "none nobody nothing",
)
FREQUENCY = _scale(
    "always constantly invariably",
    "usually often frequently generally normally typically",
    "sometimes occasionally",
    "rarely seldom",
    "never",
)
# what must be against what may or can be: "contractors must sign" / "may sign"
MODALITY = _scale("must", "may might can could")
_SCALES = (QUANTITY, FREQUENCY, MODALITY)
_WORDS = frozenset(QUANTITY) | frozenset(FREQUENCY) | frozenset(MODALITY)
# a modal is read only before a verb: not "in May", "a can of", "May was busy", and not
# under a negation after it ("may not", "must never": the polarity rules read those)
_NOT_A_VERB_AFTER = word_set("""of was is were are not n't never and or the a an to""")
# a word before a quantifier that bounds or negates it: another class, not read
_BOUNDING = word_set(
    """almost nearly virtually practically not n't at the very quite only just all
    about roughly approximately over under"""
)
# set phrases: "at all", "after all", "all right", "all in all", "all but"
_SET_BEFORE = word_set("at after in for once")
_SET_AFTER = word_set("right but along other")  # "each other": no quantity


# classes at and after these are negative ("few", "none"; "rarely", "never"): a claim
# and a source that differ there say opposite things, whichever is weaker
_NEGATIVE = (4, 3, len(MODALITY))


def conflicting(scale: int, claim_cls: int, source_cls: int) -> bool:
    """Whether a claim's class contradicts the source's on one scale (classes ordered
    strongest first). A stronger claim always does ("all" / "some": the source never
    said it). A weaker one does from the universal end ("some" / "all": read as "not
    all", it denies the source) or into or out of the negative classes; between the
    positive classes below the universal, a weaker word is what the source entails
    ("some creatures" / "many creatures"), not a change."""
    if claim_cls == source_cls:
        return False
    neg = _NEGATIVE[scale]
    if claim_cls < source_cls:
        return True
    return source_cls == 0 or claim_cls >= neg or source_cls >= neg


def quantifier_class(lows: Sequence[str], k: int) -> tuple[int, int] | None:
    """(scale, class) of word k when it is a bare quantifier or frequency adverb, else
    None (module docstring: bounded words and set phrases are not read)."""
    low = lows[k]
    if low not in _WORDS:
        return None
    before = lows[k - 1] if k else ""
    after = lows[k + 1] if k + 1 < len(lows) else ""
    if low == "few" and before == "a":
        low = "several"  # "a few" is some, bare "few" is hardly any
        before = lows[k - 2] if k > 1 else ""
    if before in _BOUNDING or before.endswith("n't"):
        return None
    if low in ("all", "most", "each") and (before in _SET_BEFORE or after in _SET_AFTER):
        return None
    if number_value(after) is not None:
        return None  # "some 5 people", "all 3 replicas": the number says it
    if low in MODALITY and (not after.isalpha() or after in _NOT_A_VERB_AFTER):
        return None
    for n, scale in enumerate(_SCALES):
        if low in scale:
            return n, scale[low]
    return None


def changed_quantifiers(claim_text: str, turns: Sequence[SourceTurn]) -> list[tuple[str, str]]:
    """(claim word, source word) for each quantifier or frequency adverb of the claim
    whose aligned source clause holds another of its scale (module docstring)."""
    words = claim_words(fold_disguises(claim_text))
    lows = words.lows
    if _WORDS.isdisjoint(lows):
        return []
    # Only a word of `_WORDS` has a class (`quantifier_class` returns None at once for any
    # other): its positions found by one C-level pass (session 18), one call each, not a
    # call per claim word.
    at = itertools.compress(range(len(lows)), map(_WORDS.__contains__, lows))
    found = [(k, q) for k in at if (q := quantifier_class(lows, k)) is not None]
    if not found:
        return []
    clause = clause_ids(fold_disguises(claim_text), words.spans, lows)
    # each clause's content stems (the quantifiers left out), added to one set per clause
    # rather than a new frozenset per word (session 18)
    stems_of: dict[int, set[str]] = {}
    for c, st, content, low in zip(clause, words.stems, words.content, lows, strict=True):
        if content and low not in _WORDS:
            stems_of.setdefault(c, set()).add(st)
    sentences = [s for s in evidence_for(turns).sentences if not _WORDS.isdisjoint(s.lows)]
    out: list[tuple[str, str]] = []
    read: set[tuple[int, int, int]] = set()
    for k, (scale, cls) in found:
        # each (clause, scale, class) once, and at most MAX_READ of them: a claim at the
        # size limit made of quantifiers otherwise reads every source clause per word
        if (clause[k], scale, cls) in read or len(read) >= MAX_READ:
            continue
        read.add((clause[k], scale, cls))
        c_stems = stems_of.get(clause[k], _NO_STEMS)
        need = max(2.0, ALIGN * len(c_stems))
        if len(c_stems) < 2:
            continue
        other = _other_class(c_stems, need, scale, cls, sentences)
        if other is not None:
            out.append((words.raws[k], other))
    return out


def _other_class(
    c_stems: set[str] | frozenset[str],
    need: float,
    scale: int,
    cls: int,
    sentences: Sequence[Sentence],
) -> str | None:
    """The source's word of `scale` in another class than `cls`, from the first clause
    aligned with the claim clause that holds one; None when an aligned clause holds the
    claim's class, a bounded word of the scale, or no aligned clause holds one."""
    answer: str | None = None
    for s in sentences:
        for _, pos, stems in s.clauses():
            if len(c_stems.intersection(stems)) < need:
                continue
            for j in pos:
                if s.lows[j] not in _SCALES[scale]:
                    continue
                q = quantifier_class(s.lows, j)
                if q is None or q[1] == cls:
                    return None  # the claim's class, or a word whose class is unknown
                if q[0] != scale or not conflicting(scale, cls, q[1]):
                    return None  # a weaker word the source's entails
                if answer is None:
                    answer = s.raws[j]
    return answer
