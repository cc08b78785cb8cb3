"""The offline default grounding verifier: lexical evidence only, no model, no network.

A claim is grounded when its content is found in the admissible source turns. Coverage
of content words alone (the reference baseline) misses the hallucinations seed 002 cares
about, so the verifier combines several cheap signals:

* content-word coverage, over all evidence and over the best single sentence (a long
  source covers many words by chance; support usually sits in one sentence),
* coverage of content-word bigrams and the longest copied run (phrasing kept intact),
* numbers and quantities in the claim that the source never states,
* named entities (capitalised words) the source never mentions,
* negation present on one side and not the other in the best-matching sentence,
* first/second-person statements and questions that the (third-person) source cannot
  ground, and a claim about a named speaker whose own lines do not carry it.

A logistic model turns these into P(supported). Its weights were fitted by
`groundwire eval --fit` on one half of the labelled development data (split by a hash of
claim_id) and are reported on the other half; see docs/grounding.md. The structural cues
(unsupported number/entity, negation flip) also cap the verdict at PARTIAL: a claim that
adds a specific the source lacks is at best partially grounded.
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding.base import (
    bounded_turns,
    finish_report,
    locate_span,
    no_evidence_report,
    penalty_for,
    unknown_report,
)
from groundwire.guards.protocols import GroundingRequest
from groundwire.topics.records import Claim, EvidenceSpan, GroundingReport, SourceTurn
from groundwire.topics.vocab import GroundingVerdict


def _words(text: str) -> list[str]:
    return text.split()


# Function words carry no claim content; kept short and generic on purpose.
STOPWORDS = frozenset(
    _words(
        """a an the and or but if then than so of to in on at by for with from into onto over
    under about as is are was were be been being am do does did doing have has had having
    it its it's this that these those there here which who whom whose what when where why
    how all any both each few more most other some such only own same too very can could
    will would shall should may might must just also even still yet again ever already
    not no nor never none n't don't doesn't didn't isn't aren't wasn't weren't won't
    can't couldn't shouldn't wouldn't i me my mine myself we us our ours ourselves you
    your yours yourself he him his himself she her hers herself they them their theirs
    themselves i'm i've i'd i'll you're you've we're they're he's she's that's there's
    what's let's yes yeah oh well really like lot lots thing things something anything
    get got go going gone went make made one ones up down out off just quite pretty
    much many way know think said say says tell"""
    )
)
NEGATIONS = frozenset(
    _words(
        """not no never none nobody nothing neither nor without cannot n't don't doesn't
    didn't isn't aren't wasn't weren't won't can't couldn't shouldn't wouldn't hasn't
    haven't hadn't"""
    )
)
FIRST_PERSON = frozenset(_words("i me my mine myself we us our ours ourselves i'm i've i'd i'll"))
SECOND_PERSON = frozenset(_words("you your yours yourself you're you've you'd you'll"))
NUMBER_WORDS = {
    w: str(i)
    for i, w in enumerate(
        _words(
            """zero one two three four five six seven eight nine ten eleven twelve thirteen
            fourteen fifteen sixteen seventeen eighteen nineteen twenty"""
        )
    )
}
NUMBER_WORDS.update(
    {"thirty": "30", "forty": "40", "fifty": "50", "hundred": "100", "thousand": "1000"}
)
NUMBER_WORDS.update({"million": "1000000", "billion": "1000000000", "half": "0.5"})

_WORD = re.compile(r"[A-Za-z0-9]+(?:[.,][0-9]+)*(?:'[A-Za-z]+)?|%")
# Sentence ends: `(?<=[.!?])\s+|\n+|\s\.\s`, written to start with `\s` (same matches)
# so the regex engine skips ahead to whitespace instead of trying every position.
_SENTENCE_END = re.compile(r"\s(?:(?<=[.!?]\s)\s*|(?<=\n)\n*|\.\s)")
# `\b(?:I|me|my|mine|myself|we|us|our|ours)\b` (ignoring case), written to start with a
# character class so the regex engine skips ahead instead of trying every position.
_FIRST_PERSON_RE = re.compile(
    r"[imwuo](?<=\b[imwuo])(?:(?<=i)|(?<=m)(?:e|y|ine|yself)|(?<=w)e|(?<=u)s|(?<=o)(?:ur|urs))\b",
    re.IGNORECASE,
)
# 'Name: ' at a line or sentence start: `(?:^|(?<=[.!?\n]\s)|(?<=\s\.\s))([A-Z][\w'-]{1,30}):\s`
# with the look-behinds moved after the capital (same matches, found by a fast scan).
_SPEAKER_LINE = re.compile(
    r"([A-Z](?:(?<=^[A-Z])|(?<=[.!?\n]\s[A-Z])|(?<=\s\.\s[A-Z]))[\w'-]{1,30}):\s"
)
_NUMBER = re.compile(r"[0-9]+(?:\.[0-9]+)?")
_CLAUSE_SPLIT = re.compile(r"[.;!?]|,\s*(?:and|but|while|so)\b|\bwhile\b")
# A leading "no"/"not really" answers the other speaker; it negates no stated fact.
_NEGATIONS_BUT_NO = NEGATIONS - {"no"}


def stem(word: str) -> str:
    """Crude, fast suffix stripping + truncation: 'works'~'work', 'confident'~'confidence'."""
    w = word.lower()
    if w.endswith("'s"):
        w = w[:-2]
    for suffix in ("ing", "ed", "es", "s", "ly"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3 and not w.endswith("ss"):
            w = w[: -len(suffix)]
            break
    return w[:6]


@functools.lru_cache(maxsize=65_536)
def number_value(word: str) -> str | None:
    """The number a word states ('five' -> '5', '1,200' -> '1200'), else None; cached."""
    lowered = word.lower()
    if lowered in NUMBER_WORDS:
        return NUMBER_WORDS[lowered]
    if lowered[:1].isdigit():
        digits = lowered.replace(",", "")
        m = _NUMBER.match(digits)
        if m:
            value = m.group(0)
            return value[:-2] if value.endswith(".0") else value
    return None


class Token(NamedTuple):
    """One word (a tuple: built in C, about twice as fast as a dataclass instance)."""

    text: str  # as written
    low: str
    stem: str
    start: int
    end: int
    content: bool


def _compute_parts(raw: str) -> tuple[str, str, bool, str | None]:
    low = raw.lower().replace("’", "'")
    content = low not in STOPWORDS and low != "%" and (len(low) > 1 or low.isdigit())
    return low, stem(low), content, number_value(low)


# raw word -> (lowercase, stem, is-content, number value): a plain dict (read in bulk with
# `map(dict.get, ...)`, no call per word), emptied when it reaches its bound.
_PARTS: dict[str, tuple[str, str, bool, str | None]] = {}
_PARTS_MAX = 65_536


def _word_parts(raw: str) -> tuple[str, str, bool]:
    """(lowercase, stem, is-content) of one word; cached because words repeat a lot."""
    return _all_parts(raw)[:3]


def _all_parts(raw: str) -> tuple[str, str, bool, str | None]:
    parts = _PARTS.get(raw)
    if parts is None:
        parts = _compute_parts(raw)
        if len(_PARTS) >= _PARTS_MAX:
            _PARTS.clear()
        _PARTS[raw] = parts
    return parts


def _parts_of(raws: list[str]) -> list[tuple[str, str, bool, str | None]]:
    """`_all_parts` of many words: one C-level dict pass, Python only for unseen words."""
    parts = list(map(_PARTS.get, raws))
    if None in parts:
        parts = [p if p is not None else _all_parts(r) for p, r in zip(parts, raws, strict=True)]
    return parts


_new_tuple = tuple.__new__
_GROUP = re.Match.group
_SPAN = re.Match.span


def tokenize(text: str, base: int = 0) -> list[Token]:
    matches = list(_WORD.finditer(text))
    raws = list(map(_GROUP, matches))
    return [
        _new_tuple(Token, (raw, low, stemmed, base + start, base + end, content))
        for raw, (low, stemmed, content, _), (start, end) in zip(
            raws, _parts_of(raws), map(_SPAN, matches), strict=True
        )
    ]


@dataclass(slots=True)
class Sentence:
    turn: SourceTurn
    start: int
    end: int
    raws: list[str]  # the words as written, in order
    lows: tuple[str, ...]  # the same, lowercase
    word_stems: tuple[str, ...]  # their stems
    content: tuple[bool, ...]  # whether each is a content word
    stems: frozenset[str] = field(default_factory=frozenset)
    # has a negation other than a leading-answer "no" (see `analyse`)
    negated: bool = False
    _tokens: list[Token] | None = None
    _spans: list[tuple[int, int]] | None = None

    @property
    def tokens(self) -> list[Token]:
        """The sentence's tokens (offsets in the turn), built on first use: most
        sentences are only ever read as word sets, a few (the best) for their spans."""
        if self._tokens is None:
            self._tokens = tokenize(self.turn.text[self.start : self.end], self.start)
        return self._tokens

    def word_spans(self) -> list[tuple[int, int]]:
        """(start, end) in the turn of each word, computed on first use (span sentences)."""
        if self._spans is None:
            words = _WORD.finditer(self.turn.text, self.start, self.end)
            self._spans = list(map(_SPAN, words))
        return self._spans


def split_sentences(turn: SourceTurn) -> list[Sentence]:
    """Sentences of one turn; cached, since several claims often cite the same turns."""
    return _turn_evidence(turn).sentences


@dataclass(slots=True)
class _Evidence:
    """Everything `analyse` needs from the source side, computed once per turn.

    Never mutated after construction (shared through the cache)."""

    sentences: list[Sentence]
    stems: set[str]
    lows: set[str]
    numbers: set[str]
    bigrams: set[tuple[str, str]]
    seq_len: int  # content stems + one separator per sentence
    positions: dict[str, list[int]]  # content stem -> indices in that sequence
    negated: bool
    first: bool
    speakers: dict[str, set[str]]


@functools.lru_cache(maxsize=1_024)
def _turn_evidence(turn: SourceTurn) -> _Evidence:
    """One pass over a turn: sentences, word sets, the stem sequence, speakers; cached,
    since several claims (and the core re-score of a claim) often cite the same turns.

    Only the words (strings) are extracted here; `Token`s with offsets are built lazily
    for the few sentences that supply evidence spans (`Sentence.tokens`)."""
    text = turn.text
    findall = _WORD.findall
    # Words never span a sentence boundary (those sit on whitespace), and the word pattern
    # has no anchors or look-arounds, so each piece is read in place: findall(text, a, b).
    bounds: list[tuple[int, int]] = []
    pos = 0
    for m in _SENTENCE_END.finditer(text):
        start, end = m.span()
        if start > pos:
            bounds.append((pos, start))
        pos = end
    if pos < len(text):
        bounds.append((pos, len(text)))
    sentences: list[Sentence] = []
    lows: set[str] = set()
    numbers: set[str | None] = set()
    bigrams: set[tuple[str, str]] = set()
    src_seq: list[str] = []  # content stems, "\0" after each sentence
    for start, end in bounds:
        raws = findall(text, start, end)
        if not raws:
            continue
        s_lows, s_stems, s_content, s_nums = zip(*_parts_of(raws), strict=True)
        seq = list(itertools.compress(s_stems, s_content))
        lows.update(s_lows)
        numbers.update(s_nums)
        sentences.append(
            Sentence(
                turn,
                start,
                end,
                raws,
                s_lows,
                s_stems,
                s_content,
                frozenset(seq),
                not _NEGATIONS_BUT_NO.isdisjoint(s_lows),
            )
        )
        bigrams.update(itertools.pairwise(seq))
        src_seq += seq
        src_seq.append("\0")
    numbers.discard(None)
    stems = set(src_seq)
    stems.discard("\0")
    positions: defaultdict[str, list[int]] = defaultdict(list)
    for i, st in enumerate(src_seq):
        positions[st].append(i)
    return _Evidence(
        sentences=sentences,
        stems=stems,
        lows=lows,
        numbers=numbers,  # type: ignore[arg-type]  # None discarded above
        bigrams=bigrams,
        seq_len=len(src_seq),
        positions=positions,
        negated=any(s.negated for s in sentences),
        first=not FIRST_PERSON.isdisjoint(lows),
        speakers=_turn_speakers(text),
    )


def _evidence(turns: Sequence[SourceTurn]) -> _Evidence:
    """The evidence of several turns: their per-turn evidence, concatenated in order."""
    if len(turns) == 1:
        return _turn_evidence(turns[0])
    parts = [_turn_evidence(t) for t in turns]
    positions: dict[str, list[int]] = {}
    speakers: dict[str, set[str]] = {}
    offset = 0
    for p in parts:
        for st, idx in p.positions.items():
            positions.setdefault(st, []).extend(j + offset for j in idx)
        offset += p.seq_len
        for who, said in p.speakers.items():
            speakers.setdefault(who, set()).update(said)
    return _Evidence(
        sentences=[s for p in parts for s in p.sentences],
        stems=set().union(*(p.stems for p in parts)),
        lows=set().union(*(p.lows for p in parts)),
        numbers=set().union(*(p.numbers for p in parts)),
        bigrams=set().union(*(p.bigrams for p in parts)),
        seq_len=offset,
        positions=positions,
        negated=any(p.negated for p in parts),
        first=any(p.first for p in parts),
        speakers=speakers,
    )


# Feature order is part of the fitted model's contract.
FEATURES = (
    "coverage",
    "best_sentence_coverage",
    "bigram_coverage",
    "longest_run",
    "novel_words_log",
    "unsupported_numbers",
    "unsupported_entities",
    "negation_mismatch",
    "first_person",
    "second_person",
    "question",
    "speaker_mismatch",
    "claim_len_log",
    "source_len_log",
    "coverage_x_source_len",
    "exact_coverage",
    "conflicts",
)

# Fitted by `groundwire eval FILE --fit` on the "fit" half (sha1(claim_id) even).
WEIGHTS: tuple[float, ...] = (
    0.9279,  # coverage
    1.8969,  # best_sentence_coverage
    -1.4535,  # bigram_coverage
    1.7155,  # longest_run
    -0.8492,  # novel_words_log
    0.0134,  # unsupported_numbers
    -0.1405,  # unsupported_entities
    -0.7228,  # negation_mismatch
    -1.6059,  # first_person
    -0.9997,  # second_person
    -1.5125,  # question
    -0.7672,  # speaker_mismatch
    1.1954,  # claim_len_log
    0.2729,  # source_len_log
    0.1059,  # coverage_x_source_len
    0.0035,  # exact_coverage
    0.0867,  # conflicts
)
BIAS = -4.0436
SUPPORTED_THRESHOLD = 0.72
PARTIAL_THRESHOLD = 0.44


@dataclass(slots=True)
class Analysis:
    """Signals for one claim against its evidence, plus what explains them."""

    features: dict[str, float]
    spans: list[EvidenceSpan]
    missing_words: list[str]
    missing_numbers: list[str]
    missing_entities: list[str]
    negation_flip: bool
    # (claim word, source word) pairs where the claim puts a different number or name
    # in the slot the source fills: a contradiction, not an extrapolation.
    conflicts: list[tuple[str, str]] = field(default_factory=list)


def _speakers(turns: Sequence[SourceTurn]) -> dict[str, set[str]]:
    """Speaker name (lower) -> stems of what that speaker said, for 'Name: text' transcripts."""
    # a copy: the cached evidence must never be mutated through a caller
    return {who: set(said) for who, said in _evidence(turns).speakers.items()}


def _turn_speakers(text: str) -> dict[str, set[str]]:
    """`_speakers` of one turn (a speaker's line ends where the next 'Name: ' starts, on
    whitespace, so no word straddles two lines: each line is read in place)."""
    lines: dict[str, set[str]] = {}
    if ":" not in text:  # cheap prefilter: no 'Name: ' mark possible
        return lines
    marks = list(_SPEAKER_LINE.finditer(text))
    findall = _WORD.findall
    for i, m in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        said = lines.setdefault(m.group(1).lower(), set())
        raws = findall(text, m.end(), end)
        if raws:
            _, s_stems, s_content, _ = zip(*_parts_of(raws), strict=True)
            said.update(itertools.compress(s_stems, s_content))
    return lines


def _entities(tokens: Sequence[Token], text: str) -> list[Token]:
    """Capitalised words that are not sentence-initial: a cheap named-entity proxy."""
    found: list[Token] = []
    for i, tok in enumerate(tokens):
        if not tok.text[:1].isupper() or tok.low in STOPWORDS:
            continue
        if i == 0:
            continue
        # last non-blank character before the word (text[:start].rstrip()[-1])
        j = tok.start - 1
        while j >= 0 and text[j].isspace():
            j -= 1
        if j < 0 or text[j] in ".!?:\"'(":
            continue
        found.append(tok)
    return found


def analyse(claim_text: str, turns: Sequence[SourceTurn], known_names: set[str]) -> Analysis:
    """Compute the verifier's signals. Pure function; the unit tests drive it directly."""
    ctoks = tokenize(claim_text)
    content = [t for t in ctoks if t.content and t.low not in known_names]
    ev = _evidence(turns)
    sentences = ev.sentences
    src_stems = ev.stems
    src_lows = ev.lows
    src_numbers = ev.numbers
    src_bigrams = ev.bigrams
    src_first = ev.first

    n = len(content)
    stems = [t.stem for t in content]
    found = [s in src_stems for s in stems]
    coverage = sum(found) / n if n else 1.0
    best: Sentence | None = None
    best_cov = 0.0
    uniq = set(stems)
    # claim stems found in each sentence: for the best sentence and for the spans
    shared = [uniq & s.stems for s in sentences] if uniq else []
    if uniq:
        size = len(uniq)
        for s, hit in zip(sentences, shared, strict=True):
            cov = len(hit) / size
            if cov > best_cov:
                best, best_cov = s, cov
    bigrams = list(itertools.pairwise(stems))
    bigram_cov = sum(b in src_bigrams for b in bigrams) / len(bigrams) if bigrams else coverage
    longest = _longest_run_at(stems, ev.positions) / n if n else 1.0

    clows = [t.low for t in ctoks]
    missing_numbers = []
    for t in ctoks:
        num = number_value(t.low)
        if num is not None and num not in src_numbers and t.low not in src_lows:
            missing_numbers.append(t.text)
    missing_entities = [
        t.text
        for t in _entities(ctoks, claim_text)
        if t.low not in known_names and t.low not in src_lows and t.stem not in src_stems
    ]
    # A leading "no"/"not really" answers the other speaker; it negates no stated fact.
    claim_neg = not _NEGATIONS_BUT_NO.isdisjoint(clows[1:])
    best_neg = best is not None and best.negated
    negation_flip = best is not None and claim_neg != best_neg
    if claim_neg and not ev.negated:
        negation_flip = True
    first = not FIRST_PERSON.isdisjoint(clows) and not src_first
    second = not SECOND_PERSON.isdisjoint(clows)
    question = claim_text.rstrip().endswith("?")
    speaker_mismatch = _speaker_mismatch_of(claim_text, ev.speakers)

    missing_words = [t.text for t, ok in zip(content, found, strict=True) if not ok]
    features = {
        "coverage": coverage,
        "best_sentence_coverage": best_cov,
        "bigram_coverage": bigram_cov,
        "longest_run": longest,
        "novel_words_log": math.log1p(len(missing_words)),
        "unsupported_numbers": float(min(len(missing_numbers), 3)),
        "unsupported_entities": float(min(len(missing_entities), 3)),
        "negation_mismatch": float(negation_flip),
        "first_person": float(first),
        "second_person": float(second),
        "question": float(question),
        "speaker_mismatch": speaker_mismatch,
        "claim_len_log": math.log1p(n),
        # Long sources cover many words by chance: let the model shift with length.
        "source_len_log": math.log1p(ev.seq_len),
        "coverage_x_source_len": coverage * math.log1p(ev.seq_len),
        "exact_coverage": sum(t.low in src_lows for t in content) / n if n else 1.0,
    }
    spans = _evidence_spans(uniq, sentences, shared)
    conflicts = _conflicts(ctoks, claim_text, sentences, missing_numbers, missing_entities)
    features["conflicts"] = float(min(len(conflicts), 2))
    return Analysis(
        features,
        spans,
        missing_words,
        missing_numbers,
        missing_entities,
        negation_flip,
        conflicts,
    )


def _conflicts(
    ctoks: Sequence[Token],
    claim_text: str,
    sentences: Sequence[Sentence],
    missing_numbers: Sequence[str],
    missing_entities: Sequence[str],
) -> list[tuple[str, str]]:
    """Swapped specifics: the claim's number/name sits between the same neighbours as a
    different number/name in the source ("has 5 engineers" vs "has 3 engineers").

    An added specific with no counterpart ("April 30" where the source says "end of
    April") is an extrapolation (PARTIAL); a replaced one contradicts the source.
    """
    wanted = set(missing_numbers) | set(missing_entities)
    if not wanted:
        return []
    claim_lows = {t.low for t in ctoks}
    out: list[tuple[str, str]] = []
    for i, tok in enumerate(ctoks):
        if tok.text not in wanted:
            continue
        is_num = number_value(tok.low) is not None
        prev = ctoks[i - 1].low if i > 0 else None
        nxt = ctoks[i + 1].low if i + 1 < len(ctoks) else None
        for s in sentences:
            st = s.lows
            raws = s.raws
            for j, low in enumerate(st):
                if low in claim_lows:
                    continue
                same_kind = (
                    (number_value(low) is not None)
                    if is_num
                    else (raws[j][:1].isupper() and low not in STOPWORDS and j > 0)
                )
                if not same_kind:
                    continue
                if (prev is not None and j > 0 and st[j - 1] == prev) or (
                    nxt is not None and j + 1 < len(st) and st[j + 1] == nxt
                ):
                    out.append((tok.text, raws[j]))
                    break
            if out and out[-1][0] == tok.text:
                break
    return out


def _longest_run(stems: Sequence[str], src_seq: Sequence[str]) -> int:
    """Longest run of consecutive claim content words that also appears consecutively."""
    if not stems or not src_seq:
        return 0
    positions: dict[str, list[int]] = {}
    for i, s in enumerate(src_seq):
        positions.setdefault(s, []).append(i)
    return _longest_run_at(stems, positions)


def _longest_run_at(stems: Sequence[str], positions: dict[str, list[int]]) -> int:
    """`_longest_run` against the source sequence given as stem -> positions."""
    best = 0
    prev: dict[int, int] = {}
    for s in stems:
        at = positions.get(s)
        if not at:
            prev = {}
            continue
        get = prev.get
        cur = {j: get(j - 1, 0) + 1 for j in at}
        top = max(cur.values())
        if top > best:
            best = top
        prev = cur
    return best


def _speaker_mismatch(claim_text: str, turns: Sequence[SourceTurn]) -> float:
    """Share of claim clauses that name a speaker whose own lines do not carry the clause.

    "Anna will bring the cake" is not grounded by "Bob: I'll bring the cake": the words are
    all in the source, but said by someone else about someone else.
    """
    return _speaker_mismatch_of(claim_text, _speakers(turns))


def _speaker_mismatch_of(claim_text: str, speakers: dict[str, set[str]]) -> float:
    if len(speakers) < 2:
        return 0.0
    clauses = [c for c in _CLAUSE_SPLIT.split(claim_text) if c]
    checked = mismatched = 0
    get = _PARTS.get
    for clause in clauses:
        raws = _WORD.findall(clause)  # the clause's tokens, without building them
        named: list[str] = []
        words: set[str] = set()
        for raw in raws:
            low, st, content, _ = get(raw) or _all_parts(raw)
            if low in speakers:
                if raw[:1].isupper():
                    named.append(low)
            elif content:
                words.add(st)
        if not named or len(words) < 2:
            continue
        checked += 1
        own = len(words & speakers[named[0]])
        others = max(len(words & said) for who, said in speakers.items() if who != named[0])
        if own + 1 < others:
            mismatched += 1
    return mismatched / checked if checked else 0.0


def _evidence_spans(
    stems: set[str],
    sentences: Sequence[Sentence],
    shared: Sequence[set[str] | frozenset[str]] | None = None,
) -> list[EvidenceSpan]:
    """Exact substrings of the turns that carry claim words: per sentence, the stretch
    from the first to the last matched content word, best sentences first (at most 3).

    `shared`, when given, is `stems & s.stems` for each sentence (already computed)."""
    # s.stems holds the stems of s's content words, so the stems hit in s are
    # s.stems & stems; the hit tokens themselves are needed for the (at most 6) best.
    if not stems:
        return []
    if shared is None:
        shared = [stems & s.stems for s in sentences]
    scored: list[tuple[int, Sentence, set[str] | frozenset[str]]] = []
    for s, hit in zip(sentences, shared, strict=True):
        if hit:
            scored.append((len(hit), s, hit))
    scored.sort(key=lambda x: -x[0])
    spans: list[EvidenceSpan] = []
    covered: set[str] = set()
    for count, s, hit in scored[:6]:
        new = hit - covered
        if not new or (spans and count < 2):
            continue
        # the first and last matched content word, located by index among the words
        hits = [c and st in stems for st, c in zip(s.word_stems, s.content, strict=True)]
        j = hits.index(True)
        k = len(hits) - 1 - hits[::-1].index(True)
        offsets = s.word_spans()
        start, end = offsets[j][0], offsets[k][1]
        spans.append(
            EvidenceSpan(turn_id=s.turn.id, start=start, end=end, text=s.turn.text[start:end])
        )
        covered |= new
        if len(spans) == 3:
            break
    return spans


def probability(
    features: dict[str, float], names: Sequence[str], weights: Sequence[float], bias: float
) -> float:
    z = bias + sum(w * features[name] for name, w in zip(names, weights, strict=True))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


@functools.lru_cache(maxsize=1_024)
def _first_person_head(text: str) -> bool:
    return _FIRST_PERSON_RE.search(text[:2000]) is not None


def known_names(claim: Claim, turns: Sequence[SourceTurn]) -> set[str]:
    """Names that refer to the speaker of first-person evidence (the memory's owner).

    A memory about its owner says "Georgian will ..." where the owner said "I will ...":
    the owner's name is not an invented entity when the evidence is in the first person.
    """
    names: set[str] = set()
    if not (claim.user_id or claim.subject):
        return names
    if any(_first_person_head(turn.text) for turn in turns):
        for value in (claim.user_id, claim.subject):
            if value:
                names.update(t.low for t in tokenize(value.replace("_", " ")))
    return names


class LexicalVerifier:
    """Offline verifier: signals above, logistic score, thresholds -> verdict and spans."""

    name = "lexical"
    feature_names: tuple[str, ...] = FEATURES
    weights: tuple[float, ...] = WEIGHTS
    bias: float = BIAS
    default_supported: float = SUPPORTED_THRESHOLD
    default_partial: float = PARTIAL_THRESHOLD

    def __init__(self, cfg: GroundingConfig | None = None) -> None:
        self.cfg = cfg or GroundingConfig()
        hi, lo = self.cfg.supported_threshold, self.cfg.partial_threshold
        self.supported_threshold = self.default_supported if hi is None else hi
        self.partial_threshold = self.default_partial if lo is None else lo
        self.partial_threshold = min(self.partial_threshold, self.supported_threshold)

    async def verify_batch(self, batch: Sequence[GroundingRequest]) -> list[GroundingReport]:
        return [self.verify_one(req) for req in batch]

    async def aclose(self) -> None:
        """Nothing to release: the verifier holds no connections."""

    def extra_features(self, claim_text: str, turns: Sequence[SourceTurn]) -> dict[str, float]:
        """Hook for subclasses that add signals (the embedding verifier)."""
        return {}

    def score(self, analysis: Analysis) -> float:
        return probability(analysis.features, self.feature_names, self.weights, self.bias)

    def verify_one(self, req: GroundingRequest) -> GroundingReport:
        claim = req.claim
        try:
            turns = bounded_turns(req.turns, self.cfg.max_evidence_chars)
            if not turns:
                return no_evidence_report(claim, self.name)
            quoted = self._verbatim(claim, turns)
            if quoted is not None:
                return quoted
            analysis = analyse(claim.content, turns, known_names(claim, turns))
            analysis.features.update(self.extra_features(claim.content, turns))
            return self._decide(claim, analysis, turns)
        except Exception as exc:  # never raise into the stream
            return unknown_report(claim, self.name, f"verifier error: {type(exc).__name__}")

    def _verbatim(self, claim: Claim, turns: Sequence[SourceTurn]) -> GroundingReport | None:
        """A claim the source states word for word is supported, whatever the fitted score
        says about its length: the weights learn from paraphrases, and a short exact quote
        ("X is a constrained mapping.") would otherwise look thin. Three words at least, so
        a fragment like "is not" never counts as a quote."""
        text = claim.content.strip().rstrip(".!?;:").strip()
        if len(text.split()) < 3:
            return None
        span = locate_span(turns, text)
        if span is None:
            return None
        return finish_report(
            claim,
            GroundingVerdict.SUPPORTED,
            verifier=self.name,
            score=1.0,
            spans=[span],
            reasoning="supported: the source states the claim verbatim",
        )

    def _decide(self, claim: Claim, a: Analysis, turns: Sequence[SourceTurn]) -> GroundingReport:
        p = self.score(a)
        hi, lo = self.supported_threshold, self.partial_threshold
        specifics = [*a.missing_numbers, *a.missing_entities]
        contradiction = bool(a.conflicts) or (
            a.negation_flip and a.features["best_sentence_coverage"] >= 0.9
        )
        penalty = 0.0
        if contradiction or a.features["speaker_mismatch"] >= 1.0:
            verdict = GroundingVerdict.NOT_SUPPORTED
        elif p >= hi and not specifics and not a.negation_flip:
            verdict = GroundingVerdict.SUPPORTED
        elif p >= lo and a.spans:
            verdict = GroundingVerdict.PARTIAL
            # just under SUPPORTED loses little, barely above NOT_SUPPORTED the most
            penalty = penalty_for(min(p, hi), lo, hi, self.cfg)
        elif specifics and a.spans and self._core_supported(claim, a, turns, lo):
            # Seed 002's PARTIAL: the core is in the source, the claim adds specifics
            # (a date, a percentage, a project name) the source never gave.
            verdict = GroundingVerdict.PARTIAL
            lo_pen, hi_pen = sorted((self.cfg.penalty_min, self.cfg.penalty_max))
            penalty = round(min(hi_pen, lo_pen + 0.05 * (len(specifics) - 1)), 4)
        else:
            verdict = GroundingVerdict.NOT_SUPPORTED
        return finish_report(
            claim,
            verdict,
            verifier=self.name,
            score=p,
            spans=a.spans,
            reasoning=_explain(verdict, a),
            penalty=penalty,
        )

    def _core_supported(
        self, claim: Claim, a: Analysis, turns: Sequence[SourceTurn], floor: float
    ) -> bool:
        """Score the claim again with its unsupported numbers and names removed."""
        drop = {w.lower() for w in (*a.missing_numbers, *a.missing_entities)}
        core = " ".join(
            w for w in claim.content.split() if w.strip(".,;:!?%()\"'").lower() not in drop
        )
        if not core.strip():
            return False
        b = analyse(core, turns, known_names(claim, turns))
        b.features.update(self.extra_features(core, turns))
        return self.score(b) >= floor and not b.missing_numbers and not b.missing_entities


def _explain(verdict: GroundingVerdict, a: Analysis) -> str:
    parts = [f"{a.features['coverage']:.0%} of content words found in the source"]
    if a.missing_numbers:
        parts.append("numbers not in the source: " + ", ".join(a.missing_numbers[:5]))
    if a.missing_entities:
        parts.append("names not in the source: " + ", ".join(a.missing_entities[:5]))
    if a.conflicts:
        parts.append(
            "contradicts the source: "
            + ", ".join(f"{c!r} where the source says {s!r}" for c, s in a.conflicts[:3])
        )
    if a.negation_flip:
        parts.append("negation differs from the best-matching source sentence")
    if a.features["first_person"]:
        parts.append("first-person statement the source does not make")
    if a.features["speaker_mismatch"]:
        parts.append("attributed to a speaker who did not say it")
    if a.missing_words and verdict is not GroundingVerdict.SUPPORTED:
        parts.append("unsupported words: " + ", ".join(a.missing_words[:8]))
    return f"{verdict.value}: " + "; ".join(parts)


def clear_turn_caches() -> None:
    """Forget the per-turn evidence cache (benchmarks: time the first sight of a turn)."""
    _turn_evidence.cache_clear()
    _first_person_head.cache_clear()
