"""A universal whose exception is dropped or written another way (session 17, the
write-path red team).

* **Dropped**: "All endpoints require authentication" where the source says "All
  endpoints except /health require authentication". The claim holds every content word
  of the source sentence but the exception's, so word overlap read it as supported; it
  states of the excepted member what the source denies of it. `dropped_exceptions`: a
  claim with a universal ("all", "every", "everyone", "everybody", "everything",
  "each") and no exception of its own, where a source sentence holding every content
  stem of the claim writes the same universal with an exception right after it (at most
  `_REACH` words on, in its clause): (the claim's universal, the source's exception).
* **Written another way**: "Everyone on the team but the interns has production access"
  against "... except the interns ...". The polarity rule reads "except" and "excluding"
  as a negation of the one word after them (`text.EXCEPTIONS`); "but" after a universal,
  "other than", "apart from", "aside from", "save" say the same and are no negation
  word, so the faithful claim read as a negation flip. `exception_agrees`: the word an
  exception of one clause bears on is written after an exception of another form in the
  other clause; the two agree (as "not disabled" and "enabled" do).

An exception is read only after a universal, so "but" as a coordinator ("Ana codes but
Ben tests") is none; "but" excepts only right after the universal, its one noun or its
prepositional phrase ("All tests passed but the build failed" opens a clause). The word
lists are closed classes of English.

Precision (session 17, precision audit): an exception bears on its own universal's
clause only, so the claim's content stems must all stand in that clause (from the last
clause opener before the universal to a clause opener before another universal): "All
endpoints require TLS" restates the first clause of "All endpoints require TLS, and all
endpoints except /health require a token", not the excepted one. And "except / apart
from / other than" followed by "that" or "this" and then a determiner, pronoun or
negative pronoun ("apart from that nothing changed", "except that the linter warned")
refers back to what was said or opens a clause: no member of the universal is excepted.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from groundwire.guards.grounding.lexical.evidence import Sentence
from groundwire.guards.grounding.lexical.text import AUXILIARIES, EXCEPTIONS, word_set

__all__ = ["UNIVERSALS", "dropped_exceptions", "exception_agrees"]

UNIVERSALS = word_set("all every everyone everybody everything each")
_REACH = 6  # words from the universal to its exception ("all of our public endpoints except")
_DETERMINERS = word_set("the a an our my your their his her its this that these those")
_CLAUSE_ENDS = word_set("and or but because while although when if which who that")
_PREPOSITIONS = word_set("on in at of from across within under")
# the words an exception may open with (`_exception_at`)
_OPENERS = EXCEPTIONS | word_set("but save other apart aside")
# "that" / "this" as what an exception bears on refers back or opens a clause when one
# of these follows ("apart from that nothing changed", "except that the linter warned")
_DEMONSTRATIVES = word_set("that this")
_CLAUSE_AFTER = _DETERMINERS | word_set(
    """i we you he she it they there nothing everything something anything nobody
    everyone someone anyone no all"""
)


def _exception_at(lows: Sequence[str], k: int) -> bool:
    """Whether an exception opens at `k`: "except", "excluding", "save", "but" (the
    caller has a universal before it), "other than", "apart from", "aside from"."""
    low = lows[k]
    if low in EXCEPTIONS or low in ("but", "save"):
        return True
    nxt = lows[k + 1] if k + 1 < len(lows) else ""
    return (low == "other" and nxt == "than") or (low in ("apart", "aside") and nxt == "from")


def _but_excepts(lows: Sequence[str], u: int, k: int) -> bool:
    """Whether "but" at `k` excepts from the universal at `u` rather than opening a clause
    ("All tests passed but the build failed"): right after the universal or its one
    noun ("everyone but", "every day but Sunday", "all tests but one"), or after a
    prepositional phrase of the universal ("everyone on the team but the interns")."""
    between = lows[u + 1 : k]
    if not between:
        return True
    if len(between) == 1:
        word = between[0]
        return word not in AUXILIARIES and not word.endswith("ed")
    return between[0] in _PREPOSITIONS and len(between) <= 3


def _refers_back(lows: Sequence[str], k: int) -> bool:
    """Whether the exception at `k` bears on "that" / "this" as a pronoun of what was said
    or a conjunction ("apart from that nothing changed", "except that the linter
    warned"), not on a member ("except that one")."""
    j = k + (2 if lows[k] in ("other", "apart", "aside") else 1)
    if j >= len(lows) or lows[j] not in _DEMONSTRATIVES:
        return False
    return j + 1 >= len(lows) or lows[j + 1] in _CLAUSE_AFTER


def _exceptions(lows: Sequence[str]) -> list[int]:
    """The positions of the exceptions after a universal (within `_REACH` words)."""
    return [k for _, k in _excepting(lows)]


def _clause_stems(
    lows: Sequence[str], stems: Sequence[str], content: Sequence[bool], u: int
) -> set[str]:
    """The content stems of the clause of the universal at `u`: from the last clause
    opener before it (`_CLAUSE_ENDS`) to a clause opener that another universal follows
    ("..., and all tags except v0.1 are protected")."""
    n = len(lows)
    start = next((i + 1 for i in range(u - 1, -1, -1) if lows[i] in _CLAUSE_ENDS), 0)
    end = next(
        (i for i in range(u + 1, n - 1) if lows[i] in _CLAUSE_ENDS and lows[i + 1] in UNIVERSALS),
        n,
    )
    return {stems[i] for i in range(start, end) if content[i]}


def _excepting(lows: Sequence[str]) -> list[tuple[int, int]]:
    """(universal, exception) positions of each exception after a universal."""
    out: list[tuple[int, int]] = []
    for u, low in enumerate(lows):
        if low not in UNIVERSALS:
            continue
        for k in range(u + 1, min(u + 1 + _REACH, len(lows))):
            if _exception_at(lows, k) and (lows[k] != "but" or _but_excepts(lows, u, k)):
                if not _refers_back(lows, k):
                    out.append((u, k))
                break
            if lows[k] in _CLAUSE_ENDS:
                break
    return out


def _excepted(lows: Sequence[str], k: int) -> int | None:
    """The position of the first word the exception at `k` bears on (past its second
    word, "than" / "from", and a determiner)."""
    j = k + (2 if lows[k] in ("other", "apart", "aside") else 1)
    while j < len(lows) and lows[j] in _DETERMINERS:
        j += 1
    return j if j < len(lows) else None


def dropped_exceptions(
    claim_lows: Sequence[str],
    claim_stems: Sequence[str],
    content: Sequence[bool],
    sentences: Sequence[Sentence],
) -> list[tuple[str, str]]:
    """(claim's universal, "except ..." of the source) for an exception the claim drops
    (module docstring)."""
    universals = UNIVERSALS.intersection(claim_lows)
    if not universals:
        return []
    mine = frozenset(itertools.compress(claim_stems, content))
    # set operations first: a source sentence with the claim's universal, every content
    # stem of the claim and a word that may open an exception
    candidates = [
        s
        for s in sentences
        if not universals.isdisjoint(s.lows) and mine <= s.stems and not _OPENERS.isdisjoint(s.lows)
    ]
    if not candidates or _exceptions(claim_lows):
        return []
    if not _OPENERS.isdisjoint(claim_lows) and any(
        _exception_at(claim_lows, k) and claim_lows[k] != "but" for k in range(len(claim_lows))
    ):
        return []  # an exception of its own, whatever it follows
    for s in candidates:
        for at, k in _excepting(s.lows):
            j = _excepted(s.lows, k)
            if j is None or not mine <= _clause_stems(s.lows, s.word_stems, s.content, at):
                continue
            u = next(w for w in claim_lows if w in universals)
            return [(u, " ".join(s.raws[k : j + 1]))]
    return []


def exception_agrees(
    negated_lows: Sequence[str],
    neg_at: int,
    scope: Sequence[int],
    other_lows: Sequence[str],
    other: Sequence[int],
) -> bool:
    """Whether a clause negated by an exception (`neg_at`: "except"; `scope` holds what
    it bears on, "interns") and the other clause (`other`: its positions) excepts the same
    word in another form ("but the interns"), so the two agree (module docstring)."""
    if negated_lows[neg_at] not in EXCEPTIONS:
        return False
    words = {negated_lows[k] for k in scope}
    positions = set(other)
    for k in _exceptions(other_lows):
        if k in positions:
            j = _excepted(other_lows, k)
            if j is not None and other_lows[j] in words:
                return True
    return False
