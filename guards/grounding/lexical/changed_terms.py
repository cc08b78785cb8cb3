"""Session 18's write-path rules, asked together by the verifier's `findings`: a claim
that keeps the source's words and turns one closed-class term round (module of each):

* an obligation (`obligations.py`: "must not" / "need not", "must" / "should");
* a bound or range told as an exact value (`dropped_bounds.py`: "10 replicas" / "up to
  10 replicas");
* a condition turned round (`inverted_conditions.py`: "if" / "unless");
* a time bound turned round (`time_bounds.py`: "until May" / "since May");
* percent told for percentage points (`percentage_points.py`);
* a quantity told by a phrase ("no", "both", "hardly any", "only some";
  `quantifier_phrases.py`);
* a frequency changed by its period ("every other day" / "every day";
  `frequency_periods.py`);
* a rank changed before a superlative ("second largest" / "largest";
  `ordinal_superlatives.py`);
* an exclusivity added ("Only Ana has access" / "Ana has access"; `added_only.py`);
* an equality told as a difference ("as fast as" / "faster than"; `equatives.py`);
* an order told with the other preposition ("before" / "following", "after" / "prior
  to"; `temporal_order.py`).

Each is read against the source sentences *aligned* with the claim: those holding at
least two, and `polarity.ALIGN` of, the claim's content stems outside the words the
rules read. A cheap set test of the claim's words against each rule's closed class comes
first: most claims hold none, and then nothing else is computed.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress
from typing import NamedTuple

from groundwire.guards.grounding.lexical.added_only import added_only, reads_only
from groundwire.guards.grounding.lexical.dropped_bounds import GATE_WORDS, dropped_bounds
from groundwire.guards.grounding.lexical.equatives import comparisons, equative_swaps
from groundwire.guards.grounding.lexical.evidence import Sentence, evidence_for
from groundwire.guards.grounding.lexical.frequency_periods import (
    FREQUENCY_WORDS,
    changed_frequencies,
    frequencies,
)
from groundwire.guards.grounding.lexical.inverted_conditions import (
    CONDITION_WORDS,
    conditions,
    inverted_conditions,
)
from groundwire.guards.grounding.lexical.obligations import (
    NAMES,
    OBLIGATION_WORDS,
    conflicts_with,
    obligation_classes,
)
from groundwire.guards.grounding.lexical.opposite_bounds import BOUND_WORDS
from groundwire.guards.grounding.lexical.ordinal_superlatives import (
    ORDINALS,
    changed_ranks,
    ranked_superlatives,
)
from groundwire.guards.grounding.lexical.percentage_points import (
    PERCENT_WORDS,
    swapped_percentages,
)
from groundwire.guards.grounding.lexical.polarity import ALIGN
from groundwire.guards.grounding.lexical.quantifier_phrases import (
    PHRASE_WORDS,
    changed_quantity_phrases,
    quantities,
)
from groundwire.guards.grounding.lexical.quantifiers import QUANTITY
from groundwire.guards.grounding.lexical.temporal_order import ORDER_WORDS, orders, turned_orders
from groundwire.guards.grounding.lexical.text import (
    NUMBER_WORDS,
    ClaimWords,
    claim_words,
    clause_ids,
    fold_disguises,
    number_value,
)
from groundwire.guards.grounding.lexical.time_bounds import TIME_BOUND_WORDS, turned_time_bounds
from groundwire.topics.records import SourceTurn

__all__ = ["changed_terms"]

_ALL = (
    OBLIGATION_WORDS
    | GATE_WORDS
    | CONDITION_WORDS
    | TIME_BOUND_WORDS
    | PERCENT_WORDS
    | PHRASE_WORDS
    | frozenset(QUANTITY)
    | FREQUENCY_WORDS
    | frozenset(ORDINALS)
    | {"best", "worst", "most", "least"}
    | ORDER_WORDS
    | {"than"}
)
# a value's number word ("4" -> "four"), for the sentences that spell the claim's number
_SPELLED = {v: w for w, v in NUMBER_WORDS.items()}
_BOUND_GATE = BOUND_WORDS | {"between"} | {"many", "much", "few", "little"}
_SUPERLATIVE = frozenset({"best", "worst", "most", "least"})
_QUANTITY_WORDS = PHRASE_WORDS | frozenset(QUANTITY)
_CLAUSE_WORDS = OBLIGATION_WORDS | _QUANTITY_WORDS | FREQUENCY_WORDS | {"only"}
# the words a rule reads in a claim without a number: a bound's word ("to", "over"), a
# percent's word and an ordinal are read only beside a number or a superlative, so a
# claim holding only those (most: "to") is nothing any rule reads
_READ_ALONE = (
    OBLIGATION_WORDS
    | FREQUENCY_WORDS
    | {"only"}
    | CONDITION_WORDS
    | TIME_BOUND_WORDS
    | ORDER_WORDS
    | _SUPERLATIVE
    | {"than"}
    | _QUANTITY_WORDS
)
# "have" / "has" / "had" are an obligation only before "to" ("has to renew");
# `obligation_classes` reads no class from them otherwise
_HAVE = frozenset(("have", "has", "had"))


def _aligned(stems: frozenset[str], sentences: Sequence[Sentence]) -> list[Sentence]:
    if len(stems) < 2:
        return []
    need = max(2.0, ALIGN * len(stems))
    return [s for s in sentences if len(stems.intersection(s.stems)) >= need]


def changed_terms(claim_text: str, turns: Sequence[SourceTurn]) -> list[tuple[str, str]]:
    """(claim words, source words) for each closed-class term of the claim that an
    aligned source sentence turns round (module docstring). Each rule first reads the
    claim alone (a set test, then its own short loop); the source is aligned only for a
    claim that holds something a rule reads."""
    text = fold_disguises(claim_text)
    words = claim_words(text)
    lows = words.lows
    hit = _ALL.intersection(lows)
    has_number = words.numbers.count(None) < len(words.numbers)
    two_as = lows.count("as") >= 2  # "as fast as"
    if _READ_ALONE.isdisjoint(hit) and not has_number and not two_as and "est" not in text:
        return []  # the cheap test first: nothing any rule reads
    obliging = OBLIGATION_WORDS.intersection(hit)
    ob = obligation_classes(lows) if obliging and ("to" in hit or obliging - _HAVE) else []
    fq = frequencies(lows) if not FREQUENCY_WORDS.isdisjoint(hit) else []
    only = "only" in hit and bool(reads_only(lows))
    cond = not CONDITION_WORDS.isdisjoint(hit)
    times = not TIME_BOUND_WORDS.isdisjoint(hit)
    order = not ORDER_WORDS.isdisjoint(hit) and bool(orders(lows))
    superlative = "est" in text or not _SUPERLATIVE.isdisjoint(hit)  # read below
    equative = ("than" in hit or two_as) and bool(comparisons(lows))
    quant_words = not _QUANTITY_WORDS.isdisjoint(hit)
    claim_reads = has_number or ob or fq or only or cond or times or order or superlative
    if not (claim_reads or equative or quant_words):
        return []
    ev = evidence_for(turns)
    # a number the source writes too: a bound, a range or a percentage may hold it there
    shared_number = has_number and not ev.numbers.isdisjoint(words.numbers)
    # a rank needs an ordinal on one side ("second largest" / "largest")
    if superlative:
        superlative = (
            not ORDINALS.keys().isdisjoint(hit) or not ORDINALS.keys().isdisjoint(ev.lows)
        ) and bool(ranked_superlatives(lows))
    # a single-word quantity is `quantifiers.py`'s unless a phrase stands on one side
    quant = quant_words and (
        not PHRASE_WORDS.isdisjoint(hit) or not PHRASE_WORDS.isdisjoint(ev.lows)
    )
    if (
        not (shared_number or ob or fq or only or quant or cond or times or order or superlative)
        and not equative
    ):
        return []
    # the claim's content stems outside the rules' words and its numbers
    kept = set(compress(words.stems, words.content))
    for w in hit:
        kept.discard(words.stems[lows.index(w)])
    if has_number:
        kept.difference_update(compress(words.stems, words.numbers))
    aligned = _aligned(frozenset(kept), ev.sentences)
    if not aligned:
        return []
    out: list[tuple[str, str]] = []
    # the rules that compare a class of words read clause by clause ("there are some
    # women" is no quantity of "there is no rule" in another sentence of the claim)
    pairs = _clause_pairs(text, words, aligned) if (ob or fq or only or quant) else []
    for (a, b), theirs in pairs if ob else ():
        out += _obligations(lows[a:b], words.raws[a:b], theirs)
    # a number's bound or range may be the source's alone ("5 days" / "3-5 days")
    if shared_number:
        percent = not PERCENT_WORDS.isdisjoint(hit)
        # only the sentences that write one of the claim's numbers as the claim or as
        # its value ("5", "three" / "3") are read for it
        values = set(filter(None, words.numbers))
        tokens = set(compress(lows, words.numbers)) | values
        tokens.update(_SPELLED[v] for v in values if v in _SPELLED)
        with_number = [s for s in aligned if not tokens.isdisjoint(s.lows)]
        if with_number and (percent or any(_may_bound(s) for s in with_number)):
            src = [_numbers_of(s) for s in with_number]
            out += dropped_bounds(lows, words.numbers, words.raws, text, src)
            if percent:
                out += swapped_percentages(
                    lows, words.numbers, words.raws, [(a, b, c) for a, b, c, _ in src]
                )
    if cond:
        mine = conditions(lows, words.stems, words.content, clause_ids(text, words.spans, lows))
        if mine:
            conds = [
                conditions(s.lows, s.word_stems, s.content, s.clause_of())
                for s in aligned
                if not CONDITION_WORDS.isdisjoint(s.lows)
            ]
            out += inverted_conditions(mine, conds)
    if times:
        out += turned_time_bounds(lows, words.raws, [(s.lows, s.raws) for s in aligned])
    if quant and not out:
        commas = _commas(text, words.spans)
        for (a, b), theirs in pairs:
            told = quantities(lows[a:b], commas[a:b])
            if not told[0]:
                continue  # no quantity in the claim's clause: nothing changed (the source's unread)
            out += changed_quantity_phrases(
                told,
                words.raws[a:b],
                [
                    (quantities(t.lows, _commas(t.text, t.spans)), t.raws)
                    for t in theirs
                    if not _QUANTITY_WORDS.isdisjoint(t.lows)
                ],
            )
    for (a, b), theirs in pairs if fq else ():
        out += changed_frequencies(lows[a:b], words.raws[a:b], [(t.lows, t.raws) for t in theirs])
    # a rank: an ordinal on either side of a superlative of the claim
    if superlative:
        out += changed_ranks(lows, words.raws, [(s.lows, s.raws) for s in aligned])
    if equative:
        out += equative_swaps(
            lows,
            words.raws,
            [(s.lows, s.raws) for s in aligned if "than" in s.lows or "as" in s.lows],
        )
    if order:
        out += turned_orders(lows, words.raws, [(s.lows, s.raws) for s in aligned])
    if only and not out:
        for (a, b), theirs in pairs:
            # the source's "only" may stand before a clause cut ('fish only "drink" ...')
            out += added_only(
                lows[a:b], words.raws[a:b], [(t.sentence_lows, t.sentence) for t in theirs]
            )
    return out


class _Part(NamedTuple):
    """One source clause aligned with a claim clause, as the word-class rules read it."""

    lows: tuple[str, ...]
    raws: tuple[str, ...]
    spans: tuple[tuple[int, int], ...]
    text: str  # the turn's text (spans index it)
    sentence: str  # the clause's sentence
    sentence_lows: tuple[str, ...]  # its words


def _clause_pairs(
    text: str, words: ClaimWords, aligned: Sequence[Sentence]
) -> list[tuple[tuple[int, int], list[_Part]]]:
    """((start, end) of each claim clause, the clauses of the aligned source sentences
    that align with it: at least two, and `polarity.ALIGN` of, its content stems outside
    the rules' words)."""
    ids = clause_ids(text, words.spans, words.lows)
    out: list[tuple[tuple[int, int], list[_Part]]] = []
    start = 0
    for end in range(1, len(ids) + 1):
        if end < len(ids) and ids[end] == ids[start]:
            continue
        stems = frozenset(
            words.stems[k]
            for k in range(start, end)
            if words.content[k] and words.lows[k] not in _ALL and words.numbers[k] is None
        )
        if len(stems) >= 2:
            need = max(2.0, ALIGN * len(stems))
            parts: list[_Part] = []
            for s in aligned:
                for _, pos, c_stems in s.clauses():
                    if pos and len(stems.intersection(c_stems)) >= need:
                        a, b = pos[0], pos[-1] + 1
                        parts.append(
                            _Part(
                                s.lows[a:b],
                                s.raws[a:b],
                                s.word_spans()[a:b],
                                s.text,
                                s.text[s.start : s.end],
                                s.lows,
                            )
                        )
            if parts:
                out.append(((start, end), parts))
        start = end
    return out


def _commas(text: str, spans: Sequence[tuple[int, int]]) -> list[bool]:
    """Whether a comma or a hyphen follows each word: an answer's "No," and the first
    part of a compound ("a no-kill shelter") are no quantity."""
    return [
        text[end : end + 1] == "-" or text[end : end + 2].lstrip().startswith(",")
        for _, end in spans
    ]


def _may_bound(s: Sentence) -> bool:
    """Whether a source sentence may hold a number in a bound or a range (a cheap test
    before its numbers are read): a bound's word, "between", a dash, or "to" with a
    number beside it."""
    if not _BOUND_GATE.isdisjoint(s.lows):
        return True
    part = s.text[s.start : s.end]
    if "-" in part or "\u2013" in part:
        return True
    lows = s.lows
    if "to" not in lows:
        return False
    return any(
        low == "to"
        and 0 < k < len(lows) - 1
        and number_value(lows[k - 1]) is not None
        and number_value(lows[k + 1]) is not None
        for k, low in enumerate(lows)
    )


def _numbers_of(
    s: Sentence,
) -> tuple[tuple[str, ...], tuple[str | None, ...], tuple[str, ...], str]:
    """A source sentence's words, their numbers and its text. The numbers are read word
    by word (`number_value`, cached), not by `claim_words`, whose few cached texts are
    the claim's, which later rules read again."""
    return s.lows, tuple(map(number_value, s.lows)), s.raws, s.text[s.start : s.end]


def _obligations(
    lows: Sequence[str], raws: Sequence[str], aligned: Sequence[_Part]
) -> list[tuple[str, str]]:
    mine = obligation_classes(lows)
    if not mine:
        return []
    out: list[tuple[str, str]] = []
    for cls, k in mine:
        theirs: list[tuple[int, str]] = []
        for s in aligned:
            if OBLIGATION_WORDS.isdisjoint(s.lows):
                continue
            theirs += [(c, s.raws[j]) for c, j in obligation_classes(s.lows)]
        if not theirs or any(c == cls for c, _ in theirs):
            continue
        if all(conflicts_with(cls, c) for c, _ in theirs):
            out.append((f"{raws[k]} ({NAMES[cls]})", f"{theirs[0][1]} ({NAMES[theirs[0][0]]})"))
    return out
