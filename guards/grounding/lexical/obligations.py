"""An obligation the claim changed: "Engineers must not deploy on Fridays" where the
source says "Engineers need not deploy on Fridays" (session 18, the write-path red team).

Both sides are negated, so the polarity rules (which compare whether each side is
negated) read them as agreeing, and every content word is the source's. Yet one forbids
what the other leaves optional. `quantifiers.py` reads bare "must" against bare
"may"/"can"; the negated forms, "should" and the periphrastic modals ("have to", "need
to", "be required/allowed to") were read by nothing.

English expresses deontic force with a closed class of auxiliaries and set phrases (a
grammar fact, not a list fitted to examples), each of which falls into one of five
classes:

* required: must, have/has/had to, need(s) to, be required to, mandatory, compulsory,
  obligatory, be obliged/obligated to;
* advised: should, ought to;
* permitted: may, can, be allowed/permitted to;
* not required: need not, needn't, do not have/need to, not required, optional, not
  mandatory;
* forbidden: must not, mustn't, cannot, can't, may not, not allowed/permitted, forbidden,
  prohibited, banned.

A modal bounded by "only" ("can only", "must only") is not read: it sets a limit, as a
bounded quantifier does in `quantifiers.py`. A claim class contradicts a source class
when the claim says more or the opposite (`_CONFLICTS`): a requirement where the source
only advises, permits, or leaves it optional; advice where it is permitted or optional;
anything against a prohibition and a prohibition against anything else; permission or
optionality against a requirement. A weaker class that the source entails ("should"
for "must", "may" for "optional") is no change. Read in a source clause aligned with
the claim's clause (at least two, and `polarity.ALIGN` of, the claim clause's content
stems outside the modal phrase) that holds an obligation phrase, none of them of the
claim's class, and each conflicting with it.
"""

from __future__ import annotations

from collections.abc import Sequence

from groundwire.guards.grounding.lexical.text import word_set

__all__ = [
    "ADVISED",
    "FORBIDDEN",
    "NOT_REQUIRED",
    "OBLIGATION_WORDS",
    "PERMITTED",
    "REQUIRED",
    "conflicts_with",
    "obligation_classes",
]

REQUIRED, ADVISED, PERMITTED, NOT_REQUIRED, FORBIDDEN = range(5)
NAMES = ("required", "advised", "permitted", "not required", "forbidden")

# the cheap gate: a word every phrase of the five classes holds
OBLIGATION_WORDS = word_set(
    """must mustn't have has had need needs needn't required should shouldn't ought may
    can cannot can't allowed permitted mandatory compulsory obligatory obliged obligated
    optional forbidden prohibited banned"""
)
_ADJ_REQUIRED = word_set("mandatory compulsory obligatory")
_ADJ_FORBIDDEN = word_set("forbidden prohibited banned")
_PERMIT = word_set("allowed permitted")
_OBLIGED = word_set("required obliged obligated")
_NEG = word_set("not never")
# a modal bounded by "only" restricts rather than permits or requires ("can only be
# shorn every three years"): its class is not the bare modal's, and it is not read
_RESTRICTED = word_set("only just")
# words that cannot follow a modal used as one ("in May", "a can of", "can be" is fine)
_NOT_A_VERB = word_set("of was is were are and or the a an to")

_CONFLICTS: dict[int, frozenset[int]] = {
    REQUIRED: frozenset({ADVISED, PERMITTED, NOT_REQUIRED, FORBIDDEN}),
    ADVISED: frozenset({PERMITTED, NOT_REQUIRED, FORBIDDEN}),
    PERMITTED: frozenset({REQUIRED, FORBIDDEN}),
    NOT_REQUIRED: frozenset({REQUIRED, ADVISED, FORBIDDEN}),
    FORBIDDEN: frozenset({REQUIRED, ADVISED, PERMITTED, NOT_REQUIRED}),
}


def conflicts_with(claim_cls: int, source_cls: int) -> bool:
    """Whether a claim's obligation class contradicts the source's (module docstring)."""
    return source_cls in _CONFLICTS[claim_cls]


def _negated(lows: Sequence[str], k: int) -> bool:
    """A negation in the two words before position k ("is not allowed", "don't have")."""
    return any(j >= 0 and (lows[j] in _NEG or lows[j].endswith("n't")) for j in (k - 1, k - 2))


def _verb_after(lows: Sequence[str], k: int) -> bool:
    nxt = lows[k + 1] if k + 1 < len(lows) else ""
    return nxt.isalpha() and nxt not in _NOT_A_VERB


def obligation_classes(lows: Sequence[str]) -> list[tuple[int, int]]:
    """(class, position) of each obligation phrase in `lows` (module docstring)."""
    out: list[tuple[int, int]] = []
    n = len(lows)
    for k in [i for i, w in enumerate(lows) if w in OBLIGATION_WORDS]:
        low = lows[k]
        nxt = lows[k + 1] if k + 1 < n else ""
        cls: int | None = None
        if low in ("must", "may", "can", "should"):
            if nxt in _RESTRICTED:
                continue  # "can only be shorn every three years": a limit, not a class
            if nxt in _NEG:
                cls = {"must": FORBIDDEN, "may": FORBIDDEN, "can": FORBIDDEN}.get(low)
            elif _verb_after(lows, k) and not _negated(lows, k):
                cls = {"must": REQUIRED, "should": ADVISED}.get(low, PERMITTED)
        elif low in ("mustn't", "cannot", "can't"):
            cls = FORBIDDEN
        elif low in ("needn't",):
            cls = NOT_REQUIRED
        elif low in ("have", "has", "had", "need", "needs") and nxt == "to":
            after = lows[k + 2] if k + 2 < n else ""
            if not after.isalpha() or after in _NOT_A_VERB:
                continue
            if after == "do" and k + 3 < n and lows[k + 3] == "with":
                continue  # "has to do with": a relation, no obligation
            cls = NOT_REQUIRED if _negated(lows, k) else REQUIRED
        elif low == "need" and nxt == "not":
            cls = NOT_REQUIRED
        elif low == "ought" and nxt == "to":
            cls = None if _negated(lows, k) else ADVISED
        elif low in _OBLIGED or low in _ADJ_REQUIRED:
            cls = NOT_REQUIRED if _negated(lows, k) else REQUIRED
        elif low in _PERMIT:
            cls = FORBIDDEN if _negated(lows, k) else PERMITTED
        elif low in _ADJ_FORBIDDEN:
            cls = None if _negated(lows, k) else FORBIDDEN
        elif low == "optional":
            cls = None if _negated(lows, k) else NOT_REQUIRED
        if cls is not None:
            out.append((cls, k))
    return out
