"""Contradictions by polarity: an antonym in the slot the source fills, or a negation the
source does not have (docs/spec.md §Grounding, "a source that contradicts the claim").

Word overlap cannot see "approve" vs "reject" or "will" vs "will not": the claim carries
nearly every word of the source and reads as supported. Two checks find such claims, and
both are local, so a word of opposite meaning elsewhere in a long source does not count:

* **antonym substitution.** A content word of the claim that a source sentence does not
  use, and a content word of that sentence that the claim does not use, are antonyms in
  WordNet (`antonyms.py`), and the two stand in the same slot: within `WINDOW` words on
  the same side of each, the claim and the source share a content word ("approve *the
  vendor contract*" / "reject *the vendor contract*"; "*Bob* likes" / "*Bob* dislikes"),
  or one on each side, swapped (active against passive: "*the team* accepted *the
  proposal*" / "*the proposal* was rejected by *the team*").
  If a negation bears on the word of exactly one side (it is among the `SCOPE` content
  words after the negation), the pair agrees ("not legal" is "illegal") and is not a
  contradiction.
* **negation flip.** A clause of the claim is aligned with a clause of the source: they
  share at least two content words, at least `ALIGN` of the claim clause's content words
  and `ALIGN_SOURCE` of the source clause's. One of the two is negated, the other not,
  the negation bears on a shared word (one of the first `SCOPE` content words after it),
  and no antonym pair between the two clauses undoes it ("will not be enabled" / "will be
  enabled").

Clauses are cut at punctuation and at conjunctions (`text.clause_ids`), so "I don't know,
but the cache is enabled" has an unnegated clause about the cache. A leading "no"
answers the other speaker and negates nothing; a negation word that is itself one side
of an antonym pair ("never" against "always") is that pair, not a negation.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Sequence, Set
from dataclasses import dataclass, field

from groundwire.guards.grounding.lexical.antonyms import codes, opposites
from groundwire.guards.grounding.lexical.derived_opposites import (
    derived_opposite,
    may_have_derived,
    may_pair,
    source_stripped,
)
from groundwire.guards.grounding.lexical.evidence import ClaimClauses, Evidence, Sentence
from groundwire.guards.grounding.lexical.negated_conditions import condition_agrees
from groundwire.guards.grounding.lexical.negated_other_clause import negation_of_another
from groundwire.guards.grounding.lexical.negation_agreement import agrees_in_other_form
from groundwire.guards.grounding.lexical.particle_clauses import said_in_its_own_clause
from groundwire.guards.grounding.lexical.pronoun_restatements import restated_with_pronoun
from groundwire.guards.grounding.lexical.text import (
    DECADES,
    DEGREE,
    EXCEPTIONS,
    IMPLICATIVES,
    NEGATIONS,
    STOPWORDS,
    ClaimWords,
    has_implicative,
    implicative_at,
    number_in,
    number_value,
    read_decades,
    word_set,
)

__all__ = [
    "ALIGN",
    "ALIGN_SOURCE",
    "SCOPE",
    "WINDOW",
    "Polarity",
    "check_polarity",
    "same_specifics",
]

WINDOW = 4  # words either side of an antonym pair that must share a content word
ALIGN = 0.6  # share of a claim clause's content words its aligned source clause holds
ALIGN_SOURCE = 1 / 3  # ... and share of the source clause's content words the claim holds
SCOPE = 2  # content words after a negation that it bears on


@dataclass(slots=True)
class Polarity:
    """What contradicts the source by polarity."""

    antonyms: list[tuple[str, str]] = field(default_factory=list)  # (claim word, source word)
    flips: list[str] = field(default_factory=list)  # source clauses the claim negates/un-negates
    # of those, sentences that name a value of the claim only as what changed (also flips)
    superseded: list[str] = field(default_factory=list)
    # aligned clauses whose negations differ and an antonym pair undoes it ("not disabled"
    # / "enabled"), or the differing clause is about another while a clause of the
    # claim's polarity states it (`negated_other_clause.py`): they agree
    agreements: int = 0

    def __bool__(self) -> bool:
        return bool(self.antonyms or self.flips)


def _negations(lows: Sequence[str], clauses: Sequence[int], skip: set[int]) -> dict[int, int]:
    """Clause number -> position of its first negation. Not negations: a clause-initial
    "no" (an answer to the other speaker), "no" before a number ("no 1"), "not only" /
    "not just" (which add, they do not deny), and the words at the positions in `skip`
    (one side of an antonym pair: "never" against "always"). A negative implicative
    followed by "to" ("failed to migrate", "has yet to sign") is one."""
    out: dict[int, int] = {}
    n = len(lows)
    for k, low in enumerate(lows):
        if k in skip or clauses[k] in out:
            continue
        if low not in NEGATIONS:
            # "failed to migrate"; "except the gateway" denies what follows it
            if (low in IMPLICATIVES and implicative_at(lows, k)) or low in EXCEPTIONS:
                out[clauses[k]] = k
            continue
        nxt = lows[k + 1] if k + 1 < n else ""
        if low == "no" and (
            k == 0 or clauses[k - 1] != clauses[k] or nxt[:1].isdigit() or nxt == "one"
        ):
            continue
        if low == "not" and nxt in ("only", "just"):
            continue
        out[clauses[k]] = k
    return out


def _antonym_in(
    claim_words: Sequence[int], lows: Sequence[str], s: Sequence[str], src: Sequence[int]
) -> bool:
    """Some claim word (positions `claim_words` of the claim's lower-case words `lows`) is
    an antonym of some source word (positions `src` of the source's lower-case words `s`),
    neither word being on the other side."""
    src_lows = {s[j] for j in src} - NEGATIONS  # "always" against "never" is the negation
    claim_lows = {lows[i] for i in claim_words}
    for i in claim_words:
        low = lows[i]
        if low in src_lows or low in NEGATIONS:
            continue
        particle = _PARTICLE_OPPOSITES.get(low)
        if particle is not None and not particle.isdisjoint(src_lows - claim_lows):
            return True
        opp = opposites(low)
        if opp and any(w not in claim_lows and not opp.isdisjoint(codes(w)) for w in src_lows):
            return True
        # a phrasal-verb antonym or an un-/dis- coinage (`derived_opposites.py`, session 15)
        if any(w not in claim_lows and derived_opposite(low, w) for w in src_lows):
            return True
    return False


def _derived_pairs(
    lows: Sequence[str],
    cstems: Sequence[str],
    content: Sequence[bool],
    claim_lows: set[str],
    ev: Evidence,
    shared: Sequence[Set[str]],
) -> list[tuple[int, Sentence, int]]:
    """(claim position, sentence, source position) of each pair of words in the same slot
    that `derived_opposites.derived_opposite` makes opposites ("removed" / "added"), as
    the antonym pairs above are read."""
    out: list[tuple[int, Sentence, int]] = []
    # only a claim word the source never uses: one it uses elsewhere ("you're departing
    # from the main station" before "arrive in Bedford") is the source's own word, and
    # a pair of the derived tables is weaker evidence than WordNet's own antonyms
    mine = [
        i
        for i in range(len(lows))
        if content[i] and lows[i] not in ev.lows and cstems[i] not in ev.stems
    ]
    if not mine:
        return out
    claim_stems = {cstems[i] for i in range(len(lows)) if content[i]}
    # a source word no claim word can be paired with is not read against each of them
    # (session 17: one test per source word instead of a call per word pair)
    pairs_with = may_pair([lows[i] for i in mine])
    for s, hit in zip(ev.sentences, shared, strict=True):
        if not hit:
            continue
        # the claim words whose stem this sentence lacks, once per sentence, not per word
        here = [i for i in mine if cstems[i] not in s.stems]
        if not here:
            continue
        for j, other in enumerate(s.lows):
            if not s.content[j] or other in claim_lows or s.word_stems[j] in claim_stems:
                continue
            if not pairs_with(other):
                continue
            for i in here:
                if not derived_opposite(lows[i], other):
                    continue
                if _same_slot(cstems, content, i, s, j) and not _converse(
                    cstems, content, lows, i, s, j
                ):
                    out.append((i, s, j))
                    if len(out) >= MAX_PAIRS:
                        return out
    return out


def _scope(
    positions: Sequence[int], first: int, content: Sequence[bool], lows: Sequence[str]
) -> list[int]:
    """The first `SCOPE` content-word positions after a negation at `first`: what it bears
    on; one after an exception ("all services except *the gateway* are ...")."""
    width = 1 if lows[first] in EXCEPTIONS else SCOPE
    return [k for k in positions if k > first and content[k]][:width]


def _particle_reach(positions: Sequence[int], first: int, scoped: Sequence[int]) -> int:
    """The last position a negation at `first` reaches for particles, which are no content
    words and so never in its scope: the word right after the scope ("not turned *off*"),
    or, when no content word follows the negation, the rest of its clause ("not ever
    *on*"), since then it can only bear on the function words after it."""
    if scoped:
        return scoped[-1] + 1
    return positions[-1] if positions else first


def _bears_on(
    positions: Sequence[int], first: int, content: Sequence[bool], lows: Sequence[str], k: int
) -> bool:
    """Whether the negation at `first` bears on word k: k is in its scope, or k is a
    particle within its reach (`_particle_reach`)."""
    scoped = _scope(positions, first, content, lows)
    if k in scoped:
        return True
    if k <= first or lows[k] not in _PARTICLE_OPPOSITES:
        return False
    return k <= _particle_reach(positions, first, scoped)


def _particles_in_scope(
    positions: Sequence[int], first: int, scoped: Sequence[int], lows: Sequence[str]
) -> list[int]:
    """The particles a negation at `first` bears on (`_bears_on`), besides its scope."""
    end = _particle_reach(positions, first, scoped)
    return [k for k in positions if first < k <= end and lows[k] in _PARTICLE_OPPOSITES]


# Particles that point opposite ways. They are function words, so the antonym check above
# never reads them, and WordNet pairs only a few of them ("up"/"down"); yet "the cache is
# turned off" against "turned on", "latency went up" against "went down", "next week"
# against "last week" say the opposite in the source's own words. A closed class of
# English direction and order words, not a list of examples; "in"/"out" is left out, as
# its phrasal verbs do not oppose ("work out" is no opposite of "work in").
_PARTICLE_OPPOSITES: dict[str, frozenset[str]] = {}
for _a, _b in (
    ("on", "off"),
    ("up", "down"),
    ("before", "after"),
    ("next", "last"),
    ("next", "previous"),
    ("over", "under"),
    ("inside", "outside"),
):
    _PARTICLE_OPPOSITES[_a] = _PARTICLE_OPPOSITES.get(_a, frozenset()) | {_b}
    _PARTICLE_OPPOSITES[_b] = _PARTICLE_OPPOSITES.get(_b, frozenset()) | {_a}
# A universal claim where the source, in the same slot, only says "most", "some",
# "sometimes" ("all services use mTLS" against "most services use mTLS", "the job always
# retries" against "sometimes retries") says more than the source does. One way only:
# "some" where the source says "all" is left to `quantifiers.py` (read as "not all").
# Closed classes of English quantifiers and frequency adverbs.
_WEAKER = word_set(
    """most some many several few certain sometimes often usually occasionally rarely
    seldom mostly partly partially generally typically frequently"""
)
for _universal in ("all", "every", "each", "always", "everyone", "everybody", "everything"):
    _PARTICLE_OPPOSITES[_universal] = _WEAKER
_PARTICLE_WORDS = frozenset(_PARTICLE_OPPOSITES)
_ARTICLES = frozenset(("a", "an", "the"))


def _particle_pairs(
    lows: Sequence[str],
    stems: Sequence[str],
    claim_lows: set[str],
    ev: Evidence,
    shared: Sequence[set[str] | frozenset[str]],
) -> list[tuple[int, Sentence, int]]:
    """(claim position, sentence, source position) of a particle whose opposite the
    source has in the same phrase: the same content word right before both ("turned
    off" / "turned on") or right after both, past an article ("before the deploy" /
    "after the deploy"), or the same words on both sides ("went up after" / "went down
    after"); words are compared by stem ("every service" / "some services"). The
    source's particle must not be in the claim too (then the claim says both)."""
    out: list[tuple[int, Sentence, int]] = []
    for i, low in enumerate(lows):
        others = _PARTICLE_OPPOSITES.get(low)
        if others is None or not others.isdisjoint(claim_lows) or others.isdisjoint(ev.lows):
            continue
        (left, left_at), (right, right_at) = _neighbours(lows, stems, i)
        for s, hit in zip(ev.sentences, shared, strict=True):
            if not hit or others.isdisjoint(s.lows):
                continue
            s_lows = s.lows
            for j, s_low in enumerate(s_lows):
                if s_low in others:
                    (s_left, _), (s_right, _) = _neighbours(s_lows, s.word_stems, j)
                    same_left = left is not None and left == s_left
                    same_right = right is not None and right == s_right
                    # a function word alone is no phrase ("started off *his*" / "embarked
                    # on *his*"); the same word on both sides is ("went up after")
                    if (
                        (same_left and same_right)
                        or (same_left and lows[left_at] not in STOPWORDS)
                        or (same_right and lows[right_at] not in STOPWORDS)
                    ):
                        out.append((i, s, j))
    return out


def _neighbours(
    lows: Sequence[str], stems: Sequence[str], i: int
) -> tuple[tuple[str | None, int], tuple[str | None, int]]:
    """(stem, position) of the word before position i, and of the word after it past an
    article; (None, -1) where there is none."""
    left = (stems[i - 1], i - 1) if i > 0 else (None, -1)
    k = i + 1
    if k < len(lows) and lows[k] in _ARTICLES:
        k += 1
    return left, ((stems[k], k) if k < len(lows) else (None, -1))


def _same_slot(cstems: Sequence[str], content: Sequence[bool], i: int, s: Sentence, j: int) -> bool:
    """Claim word i (of the claim's word stems `cstems`) and source word j stand in the
    same place: within `WINDOW` words they share a content word on the same side ("*Bob*
    likes" / "*Bob* dislikes"), or one on each side, swapped, as an active and a passive
    sentence do ("*the team* accepted *the proposal*" / "*the proposal* was rejected by
    *the team*")."""
    before = {cstems[k] for k in range(max(0, i - WINDOW), i) if content[k]}
    after = {cstems[k] for k in range(i + 1, min(len(cstems), i + WINDOW + 1)) if content[k]}
    stems, scontent = s.word_stems, s.content
    s_before = {stems[k] for k in range(max(0, j - WINDOW), j) if scontent[k]}
    s_after = {stems[k] for k in range(j + 1, min(len(stems), j + WINDOW + 1)) if scontent[k]}
    if not before.isdisjoint(s_before) or not after.isdisjoint(s_after):
        return True
    return not before.isdisjoint(s_after) and not after.isdisjoint(s_before)


def _than(lows: Sequence[str], i: int) -> int | None:
    """Position of the "than" a comparative at i takes ("faster than", "more nodes than")."""
    return next((k for k in range(i + 1, min(len(lows), i + 4)) if lows[k] == "than"), None)


def _converse(
    cstems: Sequence[str], content: Sequence[bool], lows: Sequence[str], i: int, s: Sentence, j: int
) -> bool:
    """Claim word i and source word j are opposite comparatives with the two things they
    compare swapped: the converse, which says the same ("MySQL is slower than Postgres" /
    "Postgres is faster than MySQL"; "v1 has fewer nodes than v2" / "v2 has more nodes
    than v1")."""
    ct, st = _than(lows, i), _than(s.lows, j)
    if ct is None or st is None:
        return False
    stems, scontent = s.word_stems, s.content
    before = {cstems[k] for k in range(max(0, i - WINDOW), i) if content[k]}
    after = {cstems[k] for k in range(ct + 1, min(len(cstems), ct + WINDOW + 1)) if content[k]}
    s_before = {stems[k] for k in range(max(0, j - WINDOW), j) if scontent[k]}
    s_after = {stems[k] for k in range(st + 1, min(len(stems), st + WINDOW + 1)) if scontent[k]}
    # each side's words stand more on the other side in the source than on their own (a
    # head noun both share, "the new cluster" / "the old cluster", or a phrase after both,
    # "for our workload", may stay where it is)
    there, here = len(before & s_after), len(before & s_before)
    back, kept = len(after & s_before), len(after & s_after)
    return there > 0 and back > 0 and there >= here and back >= kept


def _source_negations(s: Sentence) -> dict[int, int]:
    """The sentence's own negations (no antonym pair skipped), kept with it."""
    if s._negations is None:
        s._negations = _negations(s.lows, s.clause_of(), set())
    return s._negations


def _denied_names(
    words: ClaimWords,
    content: Sequence[bool],
    clause: Sequence[int],
    claim_neg: dict[int, int],
    ev: Evidence,
    shared: Sequence[set[str] | frozenset[str]],
) -> list[str]:
    """Source clauses that deny a name the claim asserts, when the source names it
    nowhere else: "The billing service runs on MongoDB" against "... We do not use
    MongoDB anymore." takes its one specific from a denial. A name is a capitalised
    content word that does not open the claim; its clause in the claim is not negated."""
    out: list[str] = []
    raws, stems = words.raws, words.stems
    names = [
        i
        for i in range(1, len(raws))
        if content[i] and raws[i][:1].isupper() and clause[i] not in claim_neg
    ]
    if not names:
        return out
    # the claim's stems that some sentence without any negation holds
    asserted = set().union(
        *(hit for s, hit in zip(ev.sentences, shared, strict=True) if hit and not s.any_negation)
    )
    for i in names:
        if stems[i] in asserted:
            continue  # a sentence without negation names it
        denial = _only_denied(stems[i], ev, shared)
        if denial is not None and denial not in out:
            out.append(denial)
    return out


def _left_behind(
    words: ClaimWords,
    content: Sequence[bool],
    ev: Evidence,
    shared: Sequence[set[str] | frozenset[str]],
) -> list[str]:
    """Source sentences that name a value of the claim only as what something changed
    from ("The meeting moved from Tuesday to Thursday" against "The meeting is on
    Tuesday"; "from 3 to 5 replicas" against "3 replicas"): every mention of it follows
    "from" with a "to" within three words. A claim that itself says "from" is not read."""
    if "from" not in ev.lows or "from" in words.lows:
        return []
    out: list[str] = []
    raws, stems, nums = words.raws, words.stems, words.numbers
    for i in range(len(raws)):
        named = raws[i][:1].isupper() and i > 0
        if not content[i] or not (named or nums[i] is not None):
            continue
        stem, found = stems[i], ""
        for s, hit in zip(ev.sentences, shared, strict=True):
            if stem not in hit:
                continue
            lows = s.lows
            for j, st in enumerate(s.word_stems):
                if st != stem:
                    continue
                if not (j and lows[j - 1] == "from" and "to" in lows[j + 1 : j + 4]):
                    break  # named here as itself
                found = found or " ".join(s.raws)
            else:
                continue
            found = ""
            break
        if found and found not in out:
            out.append(found)
    return out


# Verbs that give a thing a new value ("the deploy moved to Monday", "we migrated
# billing to Postgres", "the limit was raised to 200"), and the claim words that say the
# claim tells of the past, where a later change does not make it false.
_CHANGE_VERBS = word_set(
    """moved move moves changed change changes switched switch switches pushed postponed
    rescheduled migrated migrate migrates updated raised lowered increased decreased
    reduced bumped renamed replaced"""
)
_PAST = frozenset(("was", "were", "had", "did", "used", "previously", "formerly", "once"))


def _changed_since(
    words: ClaimWords,
    content: Sequence[bool],
    ev: Evidence,
    shared: Sequence[set[str] | frozenset[str]],
) -> list[str]:
    """Source sentences that, after naming a value of the claim, give the same thing
    another value: "The deploy is on Friday." then "Update: the deploy moved to Monday."
    against "The deploy is on Friday"; "We use MySQL for billing. ... we moved billing to
    Postgres" against "We use MySQL for billing". The change verb is followed within
    three words by "to" and a value of the same kind (a name, or a number) that the
    claim does not have; the changing sentence shares another content word with the
    claim. A claim in the past tense is not read (a later change leaves it true)."""
    if not _PAST.isdisjoint(words.lows):
        return []
    raws, stems, nums = words.raws, words.stems, words.numbers
    claim_stems = set(stems)
    values = [
        i
        for i in range(len(raws))
        if content[i] and ((raws[i][:1].isupper() and i > 0) or nums[i] is not None)
    ]
    out: list[str] = []
    for i in values:
        stem, is_num = stems[i], nums[i] is not None
        named_at: tuple[int, int] | None = None  # (sentence, word) of its first mention
        for n, (s, hit) in enumerate(zip(ev.sentences, shared, strict=True)):
            if named_at is None:
                if stem in hit:
                    named_at = (n, s.word_stems.index(stem))
                else:
                    continue
            if len(hit - {stem}) < 1:
                continue
            new = _new_value(s, 0 if n != named_at[0] else named_at[1] + 1, is_num)
            if new is not None and s.word_stems[new] not in claim_stems:
                text = " ".join(s.raws)
                if text not in out:
                    out.append(text)
                break
    return out


def _new_value(s: Sentence, start: int, is_num: bool) -> int | None:
    """Position of the value a change verb at or after `start` gives ("moved to
    *Monday*"): a capitalised word or (`is_num`) a number within three words after "to"."""
    lows, raws = s.lows, s.raws
    for k in range(start, len(lows)):
        if lows[k] not in _CHANGE_VERBS:
            continue
        for t in range(k + 1, min(len(lows), k + 4)):
            if lows[t] != "to" or t + 1 >= len(lows):
                continue
            v = t + 1
            if v < len(lows) and lows[v] in ("the", "a", "an"):
                v += 1
            if v >= len(lows):
                break
            if is_num and number_value(lows[v]) is not None:
                return v
            if not is_num and raws[v][:1].isupper():
                return v
            break
    return None


def _only_denied(
    stem: str, ev: Evidence, shared: Sequence[set[str] | frozenset[str]]
) -> str | None:
    """The first source clause that denies `stem`, when every mention of it is denied
    (it is among the `SCOPE` content words after a negation of its clause); else None."""
    first: str | None = None
    for s, hit in zip(ev.sentences, shared, strict=True):
        if stem not in hit:
            continue
        if not s.any_negation:
            return None
        negs, sclause = _source_negations(s), s.clause_of()
        for j, st in enumerate(s.word_stems):
            if st != stem:
                continue
            positions = s.clause_positions(sclause[j])
            neg = negs.get(sclause[j])
            if neg is None or j not in _scope(positions, neg, s.content, s.lows):
                return None  # asserted here: not taken from a denial
            if first is None:
                first = " ".join(s.raws[k] for k in positions)
    return first


def same_specifics(
    words: ClaimWords,
    c_pos: Sequence[int],
    s: Sentence,
    d_pos: Sequence[int],
    d_stems: Sequence[str] = (),
) -> bool:
    """Every number of a claim clause (its word positions `c_pos`) stands in the source
    clause (positions `d_pos` of sentence `s`, or among the stems `d_stems` it shares
    with the clause it leaves out: "Without caching, the page loads in 4 seconds"):
    otherwise the two share their frame, not their statement ("The deadline is March 10"
    is not "The deadline is not March 3" negated). Names are not compared: a dialogue's
    clause names its speaker only in the label ("Maria: I'll bring him")."""
    nums = words.numbers
    need = {nums[k] for k in c_pos if nums[k] is not None}
    if not need:
        return True
    lows = s.lows
    have = {number_value(lows[j]) for j in d_pos}
    if not (DECADES.isdisjoint(have) and DECADES.isdisjoint(need)):
        # "in her 60s" is an age, "the 1960 's" the 1960s (`text.read_decades`)
        read = read_decades(lows, s.word_stems, tuple(map(number_value, lows)))[1]
        have = {read[j] for j in d_pos}
    if need <= have or need <= have.union(map(number_value, d_stems)):
        return True
    if DECADES.isdisjoint(need):
        return False
    # a decade without its century stands in one with it (`text.same_number`)
    have.update(map(number_value, d_stems))
    return all(n is not None and number_in(n, have) for n in need)


# the words that open a quantity phrase (`quantifier_phrases.PHRASE_WORDS`, which this
# module cannot import at load time): the gate of `quantity_negations`
_PHRASE_WORDS = word_set("no neither hardly barely scarcely almost virtually only one either both")

# Antonym pairs read per claim at most: real claims hold a handful; a claim and source at
# the size limits made of one opposed pair repeated ("my sister X" / "my brother Y" a
# thousand times) would otherwise pair every copy with every other, for seconds of CPU.
MAX_PAIRS = 64


def check_polarity(
    words: ClaimWords,
    claim_text: str,
    ev: Evidence,
    shared: Sequence[set[str] | frozenset[str]],
    known_names: set[str],
    content: Sequence[bool] | None = None,
    clauses: ClaimClauses | None = None,
) -> Polarity:
    """Antonym substitutions and negation flips of the claim (its words: `claim_words`)
    against the sentences that share content words with it (`shared[i]`: the claim stems
    sentence i holds). `content`, when given, is whether each claim word is a content word
    not in `known_names` (already computed)."""
    result = Polarity()
    if not shared or not words.raws:  # no content words, nothing to align
        return result
    lows, cstems = words.lows, words.stems
    if content is None:
        content = [c and low not in known_names for c, low in zip(words.content, lows, strict=True)]
    claim_lows = set(lows)

    # -- antonym pairs in the same slot -------------------------------------------------
    pairs: list[tuple[int, Sentence, int]] = []
    # (position, opposite codes) of the content words that have antonyms
    # (degree words too: "more" against "less")
    opposable = content
    if not DEGREE.isdisjoint(lows):
        opposable = list(map(operator.or_, content, map(DEGREE.__contains__, lows)))
    opp = [
        (i, o)
        for i, o in zip(
            itertools.compress(itertools.count(), opposable),
            map(opposites, itertools.compress(lows, opposable)),
            strict=True,
        )
        if o
    ]
    if opp:
        wanted = frozenset().union(*(o for _, o in opp))  # codes opposite to a claim word
        claim_stems = set(itertools.compress(cstems, content))
        for s, hit in zip(ev.sentences, shared, strict=True):
            if not hit or wanted.isdisjoint(s.antonym_union()):
                continue
            for j, found in s.antonym_codes():
                if found.isdisjoint(wanted):
                    continue
                if s.lows[j] in claim_lows or s.word_stems[j] in claim_stems:
                    continue
                for i, o in opp:
                    if o.isdisjoint(found) or cstems[i] in s.stems:
                        continue
                    if _same_slot(cstems, content, i, s, j) and not _converse(
                        cstems, content, lows, i, s, j
                    ):
                        pairs.append((i, s, j))
                if len(pairs) >= MAX_PAIRS:
                    break
            if len(pairs) >= MAX_PAIRS:
                break
    # -- opposites through a phrasal verb or an un-/dis- coinage (session 15) -------------
    if len(pairs) < MAX_PAIRS and may_have_derived(lows, content, ev.lows, source_stripped(ev)):
        pairs.extend(_derived_pairs(lows, cstems, content, claim_lows, ev, shared))
    # -- particles of opposite direction in the same phrase ("turned off" / "turned on") ---
    if not _PARTICLE_WORDS.isdisjoint(claim_lows):
        # not one the source writes itself in the clause that states the claim
        # ("Over 100 tickets were closed and under 100 were opened"; session 17)
        held = set(itertools.compress(cstems, content))
        pairs.extend(
            (i, s, j)
            for i, s, j in _particle_pairs(lows, cstems, claim_lows, ev, shared)
            if not said_in_its_own_clause(lows[i], held, s, j)
        )
    # -- a value the source only names as what changed ("from Tuesday to Thursday") -------
    result.superseded = _left_behind(words, content, ev, shared)
    if _CHANGE_VERBS.isdisjoint(claim_lows) and not _CHANGE_VERBS.isdisjoint(ev.lows):
        result.superseded += _changed_since(words, content, ev, shared)
    result.flips.extend(result.superseded)
    claim_negated = (
        not NEGATIONS.isdisjoint(claim_lows)
        or has_implicative(lows)
        or not EXCEPTIONS.isdisjoint(claim_lows)
    )
    if not (pairs or claim_negated or ev.any_negation):
        return result  # nothing to compare polarities of (most claims)
    if clauses is None:
        clauses = ClaimClauses(words, claim_text, content)
    clause = clauses.ids()
    claim_neg = _negations(lows, clause, {i for i, _, _ in pairs})
    # clause number -> its word positions (a clause runs from one cut to the next)
    bounds = clauses.bounds()
    claim_clauses = {c: list(range(a, b)) for c, (a, b) in enumerate(itertools.pairwise(bounds))}
    # each sentence's negations skip all its paired words: read once per sentence, not per
    # pair (a claim and source holding many pairs made this quadratic in their length)
    skips: dict[int, set[int]] = {}
    for _, ss, jj in pairs:
        skips.setdefault(id(ss), set()).add(jj)
    negs: dict[int, tuple[tuple[int, ...], dict[int, int]]] = {}
    for i, s, j in pairs:
        read = negs.get(id(s))
        if read is None:
            sclause = s.clause_of()
            read = negs[id(s)] = (sclause, _negations(s.lows, sclause, skips[id(s)]))
        sclause, source_neg = read
        # undone only by a negation that bears on the pair's own word ("not disabled")
        c_first, d_first = claim_neg.get(clause[i]), source_neg.get(sclause[j])
        claim_undoes = c_first is not None and _bears_on(
            claim_clauses[clause[i]], c_first, content, lows, i
        )
        source_undoes = d_first is not None and _bears_on(
            s.clause_positions(sclause[j]), d_first, s.content, s.lows, j
        )
        if claim_undoes == source_undoes:
            pair = (words.raws[i], s.raws[j])
            if pair not in result.antonyms:
                result.antonyms.append(pair)

    # -- a name the source only ever denies ---------------------------------------------
    if ev.any_negation:
        for text in _denied_names(words, content, clause, claim_neg, ev, shared):
            if text not in result.flips:
                result.flips.append(text)

    # -- negation flips between aligned clauses ------------------------------------------
    # the claim's clauses read as the source's are (`Sentence.clauses`)
    c_stem_sets = clauses.stem_sets()
    aligned = [
        (c_id, c_pos, c_stem_sets[c_id])
        for c_id, c_pos in claim_clauses.items()
        if len(c_stem_sets[c_id]) >= 2
    ]
    if not aligned:
        return result
    for s, hit in zip(ev.sentences, shared, strict=True):
        if not hit:
            continue
        negated = s.any_negation
        if not (claim_neg or negated):
            continue
        if negated:
            s_skip = {jj for _, ss, jj in pairs if ss is s}
            if s_skip:
                source_neg = _negations(s.lows, s.clause_of(), s_skip)
            else:  # the sentence's own negations, the same for every claim: kept with it
                source_neg = _source_negations(s)
        else:
            source_neg = {}
        if not (claim_neg or source_neg):
            continue
        for c_id, c_pos, c_stems in aligned:
            if hit.isdisjoint(c_stems):
                continue
            for d_id, d_pos, d_stems in s.clauses():
                if (c_id in claim_neg) == (d_id in source_neg):
                    continue
                if len(d_pos) < 3 and len(d_stems) < 3:  # a fragment, unless elliptical
                    continue
                common = c_stems.intersection(d_stems)
                # cheap bound first: even with an antonym pair counted, are they aligned?
                most = len(common) + 1
                if not common or most < ALIGN * len(c_stems) or most < ALIGN_SOURCE * len(d_stems):
                    continue
                # what the negation bears on: the first SCOPE content words after it ("no
                # *written rule* against female players" is not about players)
                claim_side, source_side = list(c_pos), list(d_pos)
                if c_id in claim_neg:
                    claim_side = _scope(c_pos, claim_neg[c_id], content, lows)
                    focus = {cstems[k] for k in claim_side}
                    claim_side += _particles_in_scope(c_pos, claim_neg[c_id], claim_side, lows)
                else:
                    source_side = _scope(d_pos, source_neg[d_id], s.content, s.lows)
                    focus = {s.word_stems[k] for k in source_side}
                    source_side += _particles_in_scope(d_pos, source_neg[d_id], source_side, s.lows)
                # an antonym under the negation aligns the clauses too and undoes it: "not
                # disabled" is "enabled", "not allowed" is "forbidden"
                paired = _antonym_in(claim_side, lows, s.lows, source_side)
                # or the other side denies it in another form (`negation_agreement.py`)
                if not paired and agrees_in_other_form(
                    c_id in claim_neg,
                    lows,
                    cstems,
                    c_pos,
                    claim_side,
                    s,
                    d_pos,
                    source_side,
                    claim_neg[c_id] if c_id in claim_neg else source_neg[d_id],
                ):
                    paired = True
                # or a negation inside "if" the other side writes as "unless"
                # (`negated_conditions.py`, session 18)
                if not paired and ("unless" in claim_lows or "unless" in s.lows):
                    if c_id in claim_neg:
                        paired = condition_agrees(
                            lows, cstems, content, c_pos, claim_neg[c_id],
                            s.lows, s.word_stems, s.content, d_pos,
                        )  # fmt: skip
                    else:
                        paired = condition_agrees(
                            s.lows, s.word_stems, s.content, d_pos, source_neg[d_id],
                            lows, cstems, content, c_pos,
                        )  # fmt: skip
                # or a quantity phrase denies alike: "almost no" / "hardly any", "No
                # customer" / "Not a single customer" (`quantity_negations.py`, session 18)
                if not paired and not (
                    _PHRASE_WORDS.isdisjoint(claim_lows) and _PHRASE_WORDS.isdisjoint(s.lows)
                ):
                    # imported here: quantifier_phrases -> quantifiers imports this module
                    from groundwire.guards.grounding.lexical.quantity_negations import (
                        commas_after,
                        quantity_agrees,
                    )

                    mine = (lows, c_pos, commas_after(claim_text, words.spans))
                    theirs = (s.lows, d_pos, commas_after(s.text, s.word_spans()))
                    paired = (
                        quantity_agrees(mine, theirs, claim_neg[c_id])
                        if c_id in claim_neg
                        else quantity_agrees(theirs, mine, source_neg[d_id])
                    )
                shared_words = len(common) + paired
                if shared_words < 2 or shared_words < ALIGN * len(c_stems):
                    continue
                if shared_words < ALIGN_SOURCE * len(d_stems):
                    continue
                if paired:
                    result.agreements += 1
                    continue
                if focus.isdisjoint(common) or not same_specifics(words, c_pos, s, d_pos, d_stems):
                    continue
                if negation_of_another(
                    c_stems, d_id, s.clause_sets(), c_id in claim_neg, source_neg.keys()
                ):  # "Ben has not closed the ticket; Ana has closed it" (session 17)
                    result.agreements += 1
                    continue
                if restated_with_pronoun(c_stems, s, d_id, c_id in claim_neg, source_neg.keys()):
                    result.agreements += 1  # "...; they are prohibited from ..." (session 18)
                    continue
                text = " ".join(s.raws[k] for k in d_pos)
                if text not in result.flips:
                    result.flips.append(text)
    return result
