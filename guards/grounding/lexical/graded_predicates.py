"""A graded predicate: "the universe is so diverse", "he's really good", "it was very hard".

An adjective that a degree word grades ("so", "very", "really", "pretty", ...) and that
ends its clause after a copula or a linking verb is the speaker's assessment of the
subject: how much of a quality it has, by the speaker's measure. A source can state the
quality ("a diverse universe"), but a claim that grades a quality the source never names
adds a judgement of its own, whatever words of the source surround it. `opinion.py` reads
the same kind of judgement through a lexicon of evaluative words (VADER's), so it misses
the gradable words VADER does not rate ("diverse", "expensive", "basic", "hard",
"fascinating") and leaves out, on purpose, what it reads as a reply or a person's feeling
("That's so cool", "he's really good"). The degree word is the signal here: English grades
only what it judges, and a plain fact is not "very" anything. On the fit half of the dev
file (docs/grounding.md, Session 14) every claim of this shape, in BEGIN, FaithDial and
SummEdits alike, is labelled not supported.

The shape, read per clause (`text.clause_ids`), all from closed classes of English:

* a copula or a linking verb ("is", "was", "'s", "seems", "looks", "sounds", ...; a
  contraction "it's", "that's", "they're"), then at most one "just", then one or two
  degree words (`DEGREE_WORDS`), then one word: a lower-case content word that is no
  number;
* that word ends its clause: a sentence mark, a comma or semicolon, the end of the text,
  or a coordinator ("so diverse and vast") follows. "storms so strong that they can be
  heard" (a result clause) and "too hot to touch" (a degree complement) do not end there
  and state a fact about a measure, not a judgement;
* the sentence is no question ("Is it very hard?"), no negation or modal stands before the
  copula in its clause ("it isn't very good", "it can be pretty cold": a possibility), it
  is not inside quotation marks, and no verb of saying or thinking opens the sentence
  before it ("they say it is very safe": someone else's judgement, reported);
* the source does not use the word (by stem), nor one of its WordNet synonyms that
  judges alike (`opinion.evaluative_words`, for a word of that lexicon).

The verifier treats a graded predicate as `opinion.judges_only` does an evaluation: the
clause asserts a judgement nobody in the source made, so the claim is NOT_SUPPORTED.
"""

from __future__ import annotations

from collections.abc import Sequence

from groundwire.guards.grounding.lexical.evidence import evidence_for
from groundwire.guards.grounding.lexical.opinion import evaluative_words
from groundwire.guards.grounding.lexical.text import (
    NEGATIONS,
    claim_words,
    clause_ids,
    stem,
    word_set,
)
from groundwire.topics.records import SourceTurn

__all__ = ["DEGREE_WORDS", "graded_predicates"]

# English degree modifiers of an adjective (a closed class): "so diverse", "very hard",
# "pretty basic", "downright unbelievable".
DEGREE_WORDS = word_set(
    """so very really pretty quite too extremely incredibly absolutely totally truly
    downright rather awfully terribly remarkably especially particularly super"""
)
_COPULAS = word_set("is are was were be been being am 's 're 'm s re m")
_LINKING = word_set(
    """seem seems seemed look looks looked sound sounds sounded feel feels felt
    become becomes became remain remains remained get gets got"""
)
# A contraction of a pronoun and a copula: "it's", "that's", "they're", "i'm".
_CONTRACTED = ("'s", "'re", "'m", "\u2019s", "\u2019re", "\u2019m")
_JUST = word_set("just simply still")
_MODALS = word_set("can could may might would should must will shall")
_COORDINATORS = word_set("and or but yet nor")
# verbs that report a view: "they say it is very safe" is their judgement, not the
# speaker's (the same class as `opinion._REPORTING`, in the forms that open a clause)
_REPORTING = word_set(
    """say says said think thinks thought believe believes believed claim claims claimed
    argue argues argued report reports reported according consider considers considered
    find finds found call calls called describe describes described"""
)
_CLAUSE_END = frozenset(".!?,;:")
_QUOTES = frozenset('"\u201c\u201d')
# The most graded predicates reported per claim; the first ones decide.
MAX_FOUND = 3
# The most candidate shapes read against the source per claim: each reads its clause and
# sentence, so a claim at the size limits made of the shape repeated ("it is so big, " x
# 1,000) would cost claim length x shapes; the first ones decide, as in `opinion.py`.
MAX_SHAPES = 64


def _is_link(low: str) -> bool:
    return low in _COPULAS or low in _LINKING or low.endswith(_CONTRACTED)


def graded_predicates(claim: str, turns: Sequence[SourceTurn]) -> list[str]:
    """The graded predicates the claim adds (see the module's docstring), as written."""
    words = claim_words(claim)
    lows, n = words.lows, len(words.lows)
    if DEGREE_WORDS.isdisjoint(lows):
        return []  # every shape needs a degree word (session 17: one set test, no loop)
    hits: list[int] = []
    for k in range(2, n):
        if not words.content[k] or words.numbers[k] is not None:
            continue
        if not words.raws[k][:1].islower() or lows[k - 1] not in DEGREE_WORDS:
            continue
        j = k - 1
        while j > 0 and lows[j - 1] in DEGREE_WORDS and k - j < 2:
            j -= 1  # "so very hard": two degree words at most
        if j > 0 and lows[j - 1] in _JUST:
            j -= 1
        if j == 0 or not _is_link(lows[j - 1]):
            continue
        if not _ends_clause(claim, words.spans, lows, k):
            continue
        hits.append(k)
        if len(hits) >= MAX_SHAPES:
            break
    if not hits:
        return []
    stems = evidence_for(turns).stems
    table = evaluative_words()
    clause = clause_ids(claim, words.spans, lows)
    out: list[str] = []
    for k in hits:
        if words.stems[k] in stems:
            continue  # the source names the quality
        entry = table.get(lows[k])
        if entry is not None and any(stem(s) in stems for s in entry[1]):
            continue  # ... or says it with a synonym that judges alike
        start = words.spans[k][0]
        if sum(c in _QUOTES for c in claim[:start]) % 2 == 1:
            continue  # a quoted judgement is someone's words
        i = k - 1
        while i >= 0 and clause[i] == clause[k]:
            if lows[i] in NEGATIONS or lows[i] in _MODALS:
                break
            i -= 1
        if i >= 0 and clause[i] == clause[k]:
            continue  # "it isn't very good", "it can be pretty cold"
        if _asked(claim, words.spans[k][1]):
            continue
        if any(lows[i] in _REPORTING for i in _sentence_before(claim, words.spans, k)):
            continue  # "they say it is very safe"
        out.append(words.raws[k])
        if len(out) >= MAX_FOUND:
            break
    return out


def _ends_clause(text: str, spans: Sequence[tuple[int, int]], lows: Sequence[str], k: int) -> bool:
    """Whether word `k` ends its clause: a mark, the text's end or a coordinator follows."""
    gap_end = spans[k + 1][0] if k + 1 < len(spans) else len(text)
    gap = text[spans[k][1] : gap_end]
    if any(c in _CLAUSE_END for c in gap) or k + 1 == len(spans):
        return True
    return lows[k + 1] in _COORDINATORS


def _asked(text: str, end: int) -> bool:
    """Whether the sentence holding offset `end` ends with a question mark."""
    for c in text[end:]:
        if c in ".!":
            return False
        if c == "?":
            return True
    return False


def _sentence_before(text: str, spans: Sequence[tuple[int, int]], k: int) -> range:
    """The positions of the words before `k` in its sentence."""
    j = k
    while j > 0 and not any(c in ".!?" for c in text[spans[j - 1][1] : spans[j][0]]):
        j -= 1
    return range(j, k)
