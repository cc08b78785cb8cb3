"""The source side of a claim: each turn read once into sentences, word sets and speakers.

Several claims in a batch (and the core re-score of a claim, see `verifier.py`) often cite
the same turns, so everything the features need from a turn is computed in one pass and
cached per turn (`_turn_evidence`); the evidence of several turns is those per-turn
indexes concatenated. Only the words (strings) are extracted up front: `Token`s with
offsets are built lazily, for the few sentences that supply evidence spans.

What the cache keeps is stored in tuples, not lists, where it can be: a tuple of strings
and numbers is untracked by the cyclic garbage collector after its first collection,
while every list (and set) stays tracked and is scanned again by each full collection.
Each new turn used to leave ~100 tracked objects in the cache (a list per content stem
in `positions` alone); the full collections they caused were ~25 % of the verifier's CPU
time on first sight of the turns (bench/bench_grounding.py, turn cache cleared).
"""

from __future__ import annotations

import functools
import itertools
import operator
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from groundwire.guards.grounding.lexical.antonyms import codes, codes_of
from groundwire.guards.grounding.lexical.numerals import read_numerals
from groundwire.guards.grounding.lexical.person import first_person_in, first_person_match
from groundwire.guards.grounding.lexical.text import (
    AUXILIARIES,
    COORDINATORS,
    DEGREE,
    EXCEPTIONS,
    FIRST_PERSON,
    NEGATIONS,
    NEGATIONS_BUT_NO,
    WORD,
    ClaimWords,
    Token,
    clause_cuts,
    fold_disguises,
    has_implicative,
    parts_of,
    read_decades,
    tokenize,
    word_offsets,
)
from groundwire.topics.records import Claim, SourceTurn

__all__ = [
    "OWNER_WORDS",
    "ClaimClauses",
    "Evidence",
    "Sentence",
    "clear_turn_caches",
    "evidence_for",
    "known_names",
    "split_sentences",
]

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
_NO_CODES: frozenset[int] = frozenset()


@dataclass(slots=True)
class Sentence:
    """One sentence of a source turn, read as words (its `Token`s are built on demand)."""

    turn: SourceTurn
    # the turn's text as its words read (`text.fold_disguises`: same offsets as
    # `turn.text`, lookalike letters and invisible characters read as what they show)
    text: str
    start: int
    end: int
    raws: tuple[str, ...]  # the words as read, in order
    lows: tuple[str, ...]  # the same, lowercase
    word_stems: tuple[str, ...]  # their stems
    content: tuple[bool, ...]  # whether each is a content word
    stems: frozenset[str] = field(default_factory=frozenset)
    # has a negation other than a leading-answer "no" (see `features.analyze`)
    negated: bool = False
    # has any negation word, "no" included (`polarity.check_polarity`)
    any_negation: bool = False
    _tokens: tuple[Token, ...] | None = None
    _spans: tuple[tuple[int, int], ...] | None = None
    # per clause (numbered 0, 1, 2, ...): its word positions and its distinct content
    # stems (tuples of strings: untracked by the garbage collector, unlike sets)
    _clause_pos: tuple[tuple[int, ...], ...] = ()
    _clause_stems: tuple[tuple[str, ...], ...] = ()
    _clause_of: tuple[int, ...] | None = None
    # the clauses' stems as sets, for the sentences a claim clause is checked against
    # (`crossing.crossed_clauses`)
    _clause_sets: tuple[frozenset[str], ...] | None = None
    # clause number -> position of its first negation (`polarity._negations`, no skips)
    _negations: dict[int, int] | None = None
    # clause number -> its mood when the sentence does not simply assert it
    # (`assertion.sentence_moods`)
    _moods: dict[int, str] | None = None
    # stem -> first position of its capitalised words (`roles.swapped_roles`)
    _capitals: dict[str, int] | None = None
    # content stem -> its first and its last position (`roles.swapped_arguments`, which
    # reads them for every claim the sentence holds whole)
    _ends: tuple[dict[str, int], dict[str, int]] | None = None
    # the positions of the content words that have antonyms, and all their codes
    _code_pos: tuple[int, ...] | None = None
    _code_union: frozenset[int] | None = None

    @property
    def tokens(self) -> tuple[Token, ...]:
        """The sentence's tokens (offsets in the turn), built on first use: most
        sentences are only ever read as word sets, a few (the best) for their spans."""
        if self._tokens is None:
            self._tokens = tuple(tokenize(self.text[self.start : self.end], self.start))
        return self._tokens

    def word_spans(self) -> tuple[tuple[int, int], ...]:
        """(start, end) in the turn of each word, computed on first use (span sentences)."""
        if self._spans is None:
            self._spans = tuple(word_offsets(self.text, self.start, self.end))
        return self._spans

    def _antonyms(self) -> None:
        # C-level passes: the codes of the content and degree words, then the positions
        # of those that have some (an empty set is false: compress drops it)
        lows = self.lows
        content: Sequence[bool] = self.content
        if not DEGREE.isdisjoint(lows):
            content = list(map(operator.or_, content, map(DEGREE.__contains__, lows)))
        sets = codes_of(list(itertools.compress(lows, content)))
        if any(sets):
            where = itertools.compress(range(len(content)), content)
            self._code_pos = tuple(itertools.compress(where, sets))
            self._code_union = frozenset().union(*sets)
        else:
            self._code_pos, self._code_union = (), _NO_CODES

    def antonym_codes(self) -> Iterator[tuple[int, frozenset[int]]]:
        """(index, antonym codes) of the content words that have antonyms in WordNet
        (`antonyms.codes`). The positions are computed on first use and kept with the
        turn's cache; the codes are looked up again (`codes` is cached) rather than
        kept, as only the rare sentence whose `antonym_union` meets a claim's reads them."""
        if self._code_pos is None:
            self._antonyms()
        assert self._code_pos is not None
        lows = self.lows
        return ((j, codes(lows[j])) for j in self._code_pos)

    def antonym_union(self) -> frozenset[int]:
        """Every antonym code of the sentence's content words (see `antonym_codes`)."""
        if self._code_union is None:
            self._antonyms()
        assert self._code_union is not None
        return self._code_union

    def _split_clauses(self) -> None:
        cuts = clause_cuts(self.text, self.word_spans(), self.lows)
        n = len(cuts)
        # a clause runs from one cut to the next: clause i is words bounds[i]:bounds[i+1]
        bounds = [0, *itertools.compress(range(n), cuts), n]
        self._clause_pos = tuple(tuple(range(a, b)) for a, b in itertools.pairwise(bounds))
        self._clause_stems = tuple(
            map(tuple, clause_stem_sets(self.word_stems, self.content, self.lows, bounds))
        )
        self._clause_of = tuple(itertools.accumulate(cuts))  # = clause_ids(...)

    def clauses(self) -> Iterator[tuple[int, tuple[int, ...], tuple[str, ...]]]:
        """(clause number, word positions, distinct content stems) of each clause (cut at
        punctuation and conjunctions, `text.clause_ids`), computed on first use: only
        sentences that may contradict a claim by a negation need it. Kept as two
        tuples, not one tuple per clause (fewer objects for the garbage collector)."""
        if self._clause_of is None:
            self._split_clauses()
        return zip(itertools.count(), self._clause_pos, self._clause_stems)

    def clause_sets(self) -> tuple[frozenset[str], ...]:
        """The distinct content stems of each clause as sets (see `clauses`), made on
        first use and kept: only sentences that hold a whole claim clause need them."""
        if self._clause_sets is None:
            if self._clause_of is None:
                self._split_clauses()
            self._clause_sets = tuple(map(frozenset, self._clause_stems))
        return self._clause_sets

    def clause_positions(self, clause: int) -> tuple[int, ...]:
        """The word positions of clause number `clause` (see `clauses`)."""
        if self._clause_of is None:
            self._split_clauses()
        return self._clause_pos[clause]

    def clause_of(self) -> tuple[int, ...]:
        """The clause number of each word (see `clauses`)."""
        if self._clause_of is None:
            self._split_clauses()
        assert self._clause_of is not None
        return self._clause_of


def clause_stem_sets(
    stems: Sequence[str], content: Sequence[bool], lows: Sequence[str], bounds: Sequence[int]
) -> list[frozenset[str]]:
    """The distinct content stems of each clause (clause i is words bounds[i]:bounds[i+1]),
    for aligning a claim's clauses with a source's (`polarity.check_polarity`).

    Two kinds of clause leave out what the clause before them said (ellipsis), and are
    aligned as if they said it:

    * "The cache runs on Redis and is not replicated": a clause that opens with a
      conjunction and goes straight on with an auxiliary has no subject of its own; it
      shares the one of the clause before, taken to be that clause's first content word;
    * "I'm allergic to peanuts, but not to shellfish", "the rotation is weekly, never
      daily": a clause that opens with a negation (after a conjunction or not) and has
      one content word denies the predicate of the clause before for that word; it
      shares all of that clause's content words (the negation still bears only on its
      own word); one that opens the sentence ("Without caching, the page loads in 4
      seconds") shares those of the clause after it."""
    out: list[frozenset[str]] = []
    subject = ""
    before: frozenset[str] = frozenset()
    leading = False  # the first clause is a negation and one content word
    for a, b in itertools.pairwise(bounds):
        words = list(itertools.compress(stems[a:b], content[a:b]))
        own = mine = frozenset(words)
        first = lows[a]
        if b - a > 1 and first in COORDINATORS:
            second = lows[a + 1]
            if subject and b - a > 2 and second in AUXILIARIES:
                own = mine | {subject}
            elif len(mine) == 1 and second in NEGATIONS_BUT_NO:
                own = mine | before
        elif first in NEGATIONS_BUT_NO and not out:
            # the negation itself may be a content word ("without")
            leading = len(mine) - content[a] == 1
        elif first in NEGATIONS_BUT_NO and len(mine) == 1:
            own = mine | before
        if leading and len(out) == 1:
            out[0] = out[0] | mine
        out.append(own)
        subject = words[0] if words else ""
        before = mine
    return out


class ClaimClauses:
    """A claim's clauses, split on first use and shared by the checks that align them
    with the source's (`polarity.check_polarity`, `assertion.unasserted`): most claims
    need neither, some need both."""

    __slots__ = ("_bounds", "_content", "_ids", "_sets", "_text", "_words")

    def __init__(self, words: ClaimWords, text: str, content: Sequence[bool]) -> None:
        self._words, self._text, self._content = words, text, content
        self._ids: list[int] | None = None
        self._bounds: list[int] = []
        self._sets: list[frozenset[str]] = []

    def _split(self) -> list[int]:
        w = self._words
        cuts = clause_cuts(self._text, w.spans, w.lows)
        self._ids = list(itertools.accumulate(cuts))  # = text.clause_ids(...)
        # clause i runs from one cut to the next: words bounds[i]:bounds[i+1]
        self._bounds = [0, *itertools.compress(range(len(cuts)), cuts), len(cuts)]
        self._sets = clause_stem_sets(w.stems, self._content, w.lows, self._bounds)
        return self._ids

    def ids(self) -> list[int]:
        """The clause number of each word."""
        return self._split() if self._ids is None else self._ids

    def bounds(self) -> list[int]:
        """Clause i is words bounds[i]:bounds[i+1]."""
        if self._ids is None:
            self._split()
        return self._bounds

    def stem_sets(self) -> list[frozenset[str]]:
        """The content stems of each clause (`clause_stem_sets`)."""
        if self._ids is None:
            self._split()
        return self._sets


def split_sentences(turn: SourceTurn) -> list[Sentence]:
    """Sentences of one turn; cached, since several claims often cite the same turns."""
    return _turn_evidence(turn).sentences


@dataclass(slots=True)
class Evidence:
    """Everything `features.analyze` needs from the source side, computed once per turn.

    Never mutated after construction (shared through the cache), except `derived`: what
    another reader computes from these fields once per evidence (the learned verifier's
    source prefixes and lemmas), kept here so it lives and is cleared with the cache."""

    sentences: list[Sentence]
    stems: set[str]
    lows: set[str]
    numbers: set[str]
    bigrams: set[tuple[str, str]]
    seq_len: int  # content stems + one separator per sentence
    positions: dict[str, tuple[int, ...]]  # content stem -> indices in that sequence
    negated: bool
    first: bool
    speakers: dict[str, set[str]]  # speaker name (lower) -> stems of what they said
    any_negation: bool = False  # some sentence has a negation word ("no" included)
    question: bool = False  # some turn has a question mark (`assertion.unasserted`)
    derived: dict[str, object] | None = None  # made on first use (most readers never do)


@functools.lru_cache(maxsize=1_024)
def _turn_evidence(turn: SourceTurn) -> Evidence:
    """One pass over a turn: sentences, word sets, the stem sequence, speakers; cached,
    since several claims (and the core re-score of a claim) often cite the same turns.

    Only the words (strings) are extracted here; `Token`s with offsets are built lazily
    for the few sentences that supply evidence spans (`Sentence.tokens`)."""
    text = fold_disguises(turn.text)
    findall = WORD.findall
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
        s_lows, s_stems, s_content, s_nums = zip(*parts_of(raws), strict=True)
        # "in her 60s" is an age, not the 1960s; "the 1960 's" is the 1960s
        s_stems, s_nums = read_decades(s_lows, s_stems, s_nums)
        s_nums = read_numerals(raws, s_lows, s_nums)  # "IV replicas", "a pair of"
        if "own" in s_lows:
            s_content = _own_as_verb(s_lows, s_content)
        seq = list(itertools.compress(s_stems, s_content))
        lows.update(s_lows)
        numbers.update(s_nums)
        # NEGATIONS_BUT_NO is a subset of NEGATIONS: most sentences need one test
        any_neg = not NEGATIONS.isdisjoint(s_lows)
        # a negative implicative ("failed to") and an exception ("except the gateway")
        # are negations to the polarity checks only
        denies = any_neg or has_implicative(s_lows) or not EXCEPTIONS.isdisjoint(s_lows)
        sentences.append(
            Sentence(
                turn,
                text,
                start,
                end,
                tuple(raws),
                s_lows,
                s_stems,
                s_content,
                frozenset(seq),
                any_neg and not NEGATIONS_BUT_NO.isdisjoint(s_lows),
                denies,
            )
        )
        bigrams.update(itertools.pairwise(seq))
        src_seq += seq
        src_seq.append("\0")
    numbers.discard(None)
    stems = set(src_seq)
    stems.discard("\0")
    positions: dict[str, tuple[int, ...]] = {}
    get = positions.get
    # a repeated stem's positions gathered in a list: growing its tuple copied it at every
    # copy (quadratic: one word 12,000 times through 50 KB of evidence took 0.3 s)
    repeated: dict[str, list[int]] = {}
    for i, st in enumerate(src_seq):
        at = get(st)
        if at is None:  # most stems occur once: build the tuples directly
            positions[st] = (i,)
        elif st in repeated:
            repeated[st].append(i)
        else:
            repeated[st] = [at[0], i]
    for st, many in repeated.items():
        positions[st] = tuple(many)
    return Evidence(
        sentences=sentences,
        stems=stems,
        lows=lows,
        numbers=numbers,  # type: ignore[arg-type]  # None discarded above
        bigrams=bigrams,
        seq_len=len(src_seq),
        positions=positions,
        negated=any(s.negated for s in sentences),
        # "the US" is no "us" (`person`): the sentences are read only where the set has it
        first=not FIRST_PERSON.isdisjoint(lows)
        and any(first_person_in(s.raws, s.lows) for s in sentences),
        speakers=_turn_speakers(text),
        any_negation=any(s.any_negation for s in sentences),
        question="?" in text,
    )


# Possessives before which "own" only stresses the owner ("my own car", "on their own")
_OWN_STRESSED = frozenset(("my", "your", "his", "her", "its", "our", "their", "one's"))


def _stresses_own(low: str) -> bool:
    """A possessive: "my", "their", "Zuckerberg's", or the "s" of "Saverin 's" written
    apart."""
    return low in _OWN_STRESSED or low.endswith("'s") or low == "s"


def _own_as_verb(lows: Sequence[str], content: Sequence[bool]) -> tuple[bool, ...]:
    """The source's content flags with "own" a content word where it is no possessive's
    stress: the verb of "I own a Tesla", which a claim's "Owns a Tesla" (a content word:
    only the bare form is listed among the function words) must find. After "my", "our",
    ... or a name's "'s" it stays a function word, as in a claim, where the bare form
    stays one: "Has own car" against "I have my own car" reads as before."""
    return tuple(
        c or (low == "own" and (k == 0 or not _stresses_own(lows[k - 1])))
        for k, (low, c) in enumerate(zip(lows, content, strict=True))
    )


# The turns last asked for and their evidence. One claim's verifier asks for the evidence
# of the same turn objects five times or more (the features, the verbatim test, the slot
# swaps, added evaluations, the verdict's own tests), and each look-up in the caches below
# hashes every turn (pydantic: a tuple of its fields) and, on a hit, compares the turns
# field by field. The same objects (a `SourceTurn` is frozen) have the same evidence;
# one entry, holding the turns it was made for, so no other object takes their place.
_last_read: tuple[tuple[SourceTurn, ...], Evidence | None] = ((), None)


def evidence_for(turns: Sequence[SourceTurn]) -> Evidence:
    """The evidence of several turns: their per-turn evidence, concatenated in order.

    The concatenation is cached too: the claims of one answer (read-time faithfulness)
    are all checked against the same context, so the same turns come back several times
    in a row."""
    global _last_read
    last, found = _last_read
    if found is not None and len(turns) == len(last) and all(map(operator.is_, turns, last)):
        return found
    ev = _turn_evidence(turns[0]) if len(turns) == 1 else _joined_evidence(tuple(turns))
    _last_read = (tuple(turns), ev)
    return ev


@functools.lru_cache(maxsize=256)
def _joined_evidence(turns: tuple[SourceTurn, ...]) -> Evidence:
    parts = [_turn_evidence(t) for t in turns]
    at: dict[str, list[int]] = {}
    speakers: dict[str, set[str]] = {}
    offset = 0
    for p in parts:
        for st, idx in p.positions.items():
            at.setdefault(st, []).extend(j + offset for j in idx)
        offset += p.seq_len
        for who, said in p.speakers.items():
            speakers.setdefault(who, set()).update(said)
    return Evidence(
        sentences=[s for p in parts for s in p.sentences],
        stems=set().union(*(p.stems for p in parts)),
        lows=set().union(*(p.lows for p in parts)),
        numbers=set().union(*(p.numbers for p in parts)),
        bigrams=set().union(*(p.bigrams for p in parts)),
        seq_len=offset,
        positions={st: tuple(idx) for st, idx in at.items()},
        negated=any(p.negated for p in parts),
        first=any(p.first for p in parts),
        speakers=speakers,
        any_negation=any(p.any_negation for p in parts),
        question=any(p.question for p in parts),
    )


def speaker_lines(text: str) -> list[tuple[str, int, int]]:
    """(speaker name in lower case, start, end) of each `Name: text` line of a turn: a
    line runs from after its mark to where the next 'Name: ' starts, so no word straddles
    two lines. One reading for every rule that asks who said what (`speaker_acts.py`,
    `speaker_values.py`, the speakers of `evidence_for`)."""
    if ":" not in text:  # cheap prefilter: no 'Name: ' mark possible
        return []
    marks = list(_SPEAKER_LINE.finditer(text))
    return [
        (m.group(1).lower(), m.end(), marks[i + 1].start() if i + 1 < len(marks) else len(text))
        for i, m in enumerate(marks)
    ]


def _turn_speakers(text: str) -> dict[str, set[str]]:
    """Speaker name (lower) -> stems of what that speaker said, for 'Name: text'
    transcripts (a speaker's line ends where the next 'Name: ' starts, on whitespace, so
    no word straddles two lines: each line is read in place)."""
    lines: dict[str, set[str]] = {}
    findall = WORD.findall
    for speaker, start, end in speaker_lines(text):
        said = lines.setdefault(speaker, set())
        raws = findall(text, start, end)
        if raws:
            _, s_stems, s_content, _ = zip(*parts_of(raws), strict=True)
            said.update(itertools.compress(s_stems, s_content))
    return lines


@functools.lru_cache(maxsize=1_024)
def _first_person_head(text: str) -> bool:
    head = text[:2000]
    # "the US economy" is no "us" (`person.first_person_match`)
    return first_person_match(_FIRST_PERSON_RE, head)


# The claim and turns `known_names` last read and their names. The verifier asks for the
# names of the same claim and turns objects again after its analysis (the slot swaps of
# its findings, the core's rescue); both are frozen, so the same objects have the same
# names. One entry, holding the objects it was made for, so no other takes their ids.
_last_names: tuple[Claim | None, tuple[SourceTurn, ...], frozenset[str]] = (None, (), frozenset())


def known_names(claim: Claim, turns: Sequence[SourceTurn]) -> set[str]:
    """Names that refer to the speaker of first-person evidence (the memory's owner).

    A memory about its owner says "Georgian will ..." where the owner said "I will ...":
    the owner's name is not an invented entity when the evidence is in the first person.
    So is "the user" where a turn of the user's own speaks in the first person.

    A fresh set each call (a caller may change it); the same objects asked again are
    answered from the call before (`_last_names`)."""
    global _last_names
    last_claim, last_turns, found = _last_names
    if (
        claim is last_claim
        and len(turns) == len(last_turns)
        and all(map(operator.is_, turns, last_turns))
    ):
        return set(found)
    names = _known_names(claim, turns)
    _last_names = (claim, tuple(turns), frozenset(names))
    return names


def _known_names(claim: Claim, turns: Sequence[SourceTurn]) -> set[str]:
    """`known_names`, read anew."""
    names: set[str] = set()
    if "user" in claim.content.lower() and users_own_words(turns):
        names.update(OWNER_WORDS)  # "The user lives in Berlin" from the user's "I live ..."
    if not (claim.user_id or claim.subject):
        return names
    if any(_first_person_head(turn.text) for turn in turns):
        for value in (claim.user_id, claim.subject):
            if value:
                names.update(t.low for t in tokenize(value.replace("_", " ")))
    return names


# How memories name their owner: the speaker of the user's own first-person turns. The
# clause that says it of "my sister" instead is caught by `owner.owner_swaps`.
OWNER_WORDS = frozenset(("user", "user's"))
_YES = re.compile(
    r"\s*(?:yes|yeah|yep|yup|sure|correct|right|exactly|absolutely|definitely|indeed|"
    r"that's right|please)\b",
    re.IGNORECASE,
)
_YOU = re.compile(r"\byou(?:r|rs|rself)?\b", re.IGNORECASE)


def users_own_words(turns: Sequence[SourceTurn]) -> bool:
    """Whether a turn of the user's speaks of the user: in the first person ("I live in
    Berlin"), or as a yes to the turn before it asking the user about the user ("Would
    you prefer dark mode?" / "Yes, please")."""
    before: SourceTurn | None = None
    for turn in turns:
        if turn.source == "user":
            if _first_person_head(turn.text):
                return True
            if (
                before is not None
                and before.source != "user"
                and before.text.rstrip().endswith("?")
                and _YOU.search(before.text) is not None
                and _YES.match(turn.text) is not None
            ):
                return True
        before = turn
    return False


def clear_turn_caches() -> None:
    """Forget the per-turn evidence cache (benchmarks: time the first sight of a turn),
    and what other readers keep per turn or sentence (dates, enumerations)."""
    # imported here: both modules import this one
    from groundwire.guards.grounding.lexical.counts import _enumerations_in
    from groundwire.guards.grounding.lexical.restated_dates import _turn_dates

    global _last_read
    _last_read = ((), None)
    _turn_evidence.cache_clear()
    _joined_evidence.cache_clear()
    _first_person_head.cache_clear()
    _enumerations_in.cache_clear()
    _turn_dates.cache_clear()
