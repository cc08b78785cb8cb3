"""A predicate the source only ever denies, asserted by the claim: a contradiction.

"Rick said he was happy living with Sam" against a chat in which Sam reports that Rick
"wasn't very happy here"; "the apps he installed are working fine" against "I installed
the apps ... but they don't work". Every content word of such a claim is the source's,
so overlap scores it high, and the negation rules (`polarity.py`) compare the claim
clause with a source clause that holds most of its words: a summary re-words the rest
of the sentence ("saying that", "living with him"), so no source clause aligns and the
flipped polarity goes unread.

The reading here needs no alignment because it is narrower. A *predicate* of the claim is
a content word right after a copula ("is", "was", "are", "he's", ...), or after a copula
and one function word ("was very happy", "is a teacher"), in a clause that is neither a
question nor a condition, with no negation before the copula, and not followed by a
particle ("is turned off" says what "is not turned on" says). It is *denied* by the
source when the source uses its stem at least once and every use stands within
`WINDOW` words after a negation of the same clause ("wasn't very happy", "don't work",
"never happy"), that negation not being "not only" and no comparison ("more", "less")
standing between ("couldn't be more happy" says "very happy"). One plain use anywhere
("he is happy now"), a use in a question ("is it bad?"), or a comparative ("couldn't be
happier", a different stem) and the predicate is not denied. A found predicate is reported as a
conflict: "contradicts the source: 'happy' where the source says 'wasn't very happy'".

Bounded: the claim is read once; the source's sentences are read once, and only those
that hold one of the claim's predicate stems (a set look-up each), word by word.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from groundwire.guards.grounding.lexical.evidence import Sentence, evidence_for
from groundwire.guards.grounding.lexical.text import (
    NEGATIONS_BUT_NO,
    claim_words,
    clause_ids,
    fold_disguises,
    word_set,
)
from groundwire.topics.records import SourceTurn

__all__ = ["MAX_DENIED", "WINDOW", "denied_predicates"]

# How far (in words, same clause) a negation reaches: "wasn't very happy", "don't work".
WINDOW = 3
# At most this many predicates are reported (one is enough to contradict).
MAX_DENIED = 3
COPULAS = word_set("is are was were am be i'm you're we're they're he's she's it's that's")
# A clause that asks or supposes asserts nothing: "Is he happy?", "if it is late".
_SUPPOSING = word_set("if whether unless")
# "not only fast but cheap" affirms "fast".
_NOT_DENYING = word_set("only just merely")
# A comparison denied is not the word denied: "couldn't be more happy" says "very happy",
# "nothing is more important" says "important".
_COMPARING = word_set("more less most least")
_END = re.compile(r"[.!?]")
# A particle makes a verb another phrase: "turned off" is "not turned on", no denial.
_PARTICLES = word_set("on off up down in out away back over")


def _predicates(text: str) -> dict[str, str]:
    """Stem -> the word as written, for each predicate the claim asserts (see module).

    The words that may be one (a lower-case content word right after a copula, or after a
    copula and a function word other than a negation) are found first, from the words
    alone; the clauses, negations and questions of the claim are read only when there is
    one (most claims with a copula have none: "is 5", "was Bob", "is not")."""
    words = claim_words(text)
    lows, content, raws, numbers = words.lows, words.content, words.raws, words.numbers
    if not COPULAS.intersection(lows):
        return {}
    candidates: list[tuple[int, int]] = []  # (word, its copula)
    for i in range(1, len(lows)):
        if not content[i] or not raws[i][:1].islower() or numbers[i] is not None:
            continue
        if lows[i - 1] in COPULAS:
            candidates.append((i, i - 1))
        elif (
            i >= 2
            and lows[i - 2] in COPULAS
            and not content[i - 1]
            and lows[i - 1] not in NEGATIONS_BUT_NO
        ):
            candidates.append((i, i - 2))
    if not candidates:
        return {}
    clause = clause_ids(fold_disguises(text), words.spans, lows)
    blocked = _blocked(lows, clause)
    asked = _asked(text, words.spans)
    found: dict[str, str] = {}
    for i, cop in candidates:
        if clause[cop] != clause[i] or clause[i - 1] != clause[i]:
            continue  # the copula, or the function word after it, in another clause
        if i + 1 < len(lows) and lows[i + 1] in _PARTICLES and clause[i + 1] == clause[i]:
            continue  # "is turned off": the phrase, not the word, is what the source denies
        if cop > 0 and clause[cop - 1] == clause[i] and blocked(cop - 1):
            continue  # "never was happy", "if it is late"
        if asked(i):
            continue  # a question
        found.setdefault(words.stems[i], raws[i])
    return found


def _blocked(lows: Sequence[str], clause: Sequence[int]) -> Callable[[int], bool]:
    """Whether a negation or a supposing word ("if") stands at or before word k in its
    clause, as a function of k. The claim is read forward once, only as far as it is
    asked (the candidates come in order), so a claim of one long clause is read in linear
    time; a word before the reading's end is read back to its clause's start."""
    scan, on = 0, False  # the next word to read; the answer for the word before it

    def at(k: int) -> bool:
        nonlocal scan, on
        if k < scan - 1:  # behind the reading (not from `_predicates`)
            j = k
            while j >= 0 and clause[j] == clause[k]:
                if lows[j] in NEGATIONS_BUT_NO or lows[j] in _SUPPOSING:
                    return True
                j -= 1
            return False
        while scan <= k:
            if scan and clause[scan] != clause[scan - 1]:
                on = False
            on = on or lows[scan] in NEGATIONS_BUT_NO or lows[scan] in _SUPPOSING
            scan += 1
        return on

    return at


def _asked(text: str, spans: Sequence[tuple[int, int]]) -> Callable[[int], bool]:
    """Whether the first sentence mark after word i is a question mark, as a function of
    i. The mark found for one word answers every later word that ends before it, so words
    asked in order are read in one pass over the text (no search per word)."""
    start, mark_at, mark = 0, -1, ""  # searched from; the first mark there (none: past the end)

    def at(i: int) -> bool:
        nonlocal start, mark_at, mark
        end = spans[i][1]
        if not start <= end <= mark_at:
            m = _END.search(text, end)
            start, mark_at, mark = (
                (end, len(text) + 1, "") if m is None else (end, m.start(), m.group())
            )
        return mark == "?"

    return at


def _denial(s: Sentence, k: int, clause: tuple[int, ...]) -> int | None:
    """The position of the negation that denies word `k` of `s`, or None."""
    for j in range(k - 1, max(-1, k - 1 - WINDOW), -1):
        if clause[j] != clause[k] or s.lows[j] in _COMPARING:
            return None
        if s.lows[j] in NEGATIONS_BUT_NO:
            return None if s.lows[j + 1] in _NOT_DENYING else j
    return None


def _in_question(s: Sentence) -> bool:
    return s.text[s.start : s.end].rstrip().endswith("?")


def denied_predicates(claim_text: str, turns: Sequence[SourceTurn]) -> list[tuple[str, str]]:
    """(claim word, the source's denial as written) for each predicate of the claim that
    the source uses only under a negation; empty when none."""
    # a source with no negation word but "no" (`Sentence.negated`, read when its evidence
    # was) denies nothing: every use there is plain (`_denial` finds only those words), so
    # the claim's predicates are not read at all (session 17: most sources)
    if not evidence_for(turns).negated:
        return []
    wanted = _predicates(claim_text)
    if not wanted:
        return []
    denied: dict[str, str] = {}
    affirmed: set[str] = set()
    for s in evidence_for(turns).sentences:
        if s.stems.isdisjoint(wanted):
            continue
        clause = s.clause_of()
        question = _in_question(s)
        for k, st in enumerate(s.word_stems):
            if st not in wanted or st in affirmed:
                continue
            j = None if question else _denial(s, k, clause)
            if j is None:
                affirmed.add(st)
                denied.pop(st, None)
            elif st not in denied:
                spans = s.word_spans()
                denied[st] = s.text[spans[j][0] : spans[k][1]]
        if len(affirmed) == len(wanted):
            return []
    return [(wanted[st], said) for st, said in denied.items() if st not in affirmed][:MAX_DENIED]
