"""Session 17 (screen-stage CPU, issue 15 point 2): each cut that changes how a rule
computes its answer is held to the code it replaced, kept here verbatim as the reference,
on crafted texts and on random ones (both sides of every cheap test the cut adds)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence, Set

import pytest
from pydantic import ValidationError

from groundwire.guards.grounding.base import finish_report
from groundwire.guards.grounding.lexical.attributed_beliefs import attributed_beliefs
from groundwire.guards.grounding.lexical.denied_predicates import (
    MAX_DENIED,
    _denial,
    _in_question,
    _predicates,
    denied_predicates,
)
from groundwire.guards.grounding.lexical.derived_opposites import (
    _CHEAP,
    _LEMMA_WORDS,
    _PAIRS,
    _SPACED_PREFIXES,
    derived_opposite,
    may_have_derived,
    may_pair,
)
from groundwire.guards.grounding.lexical.evidence import (
    Evidence,
    _known_names,
    evidence_for,
    known_names,
)
from groundwire.guards.grounding.lexical.features import (
    MAX_RUN_POSITIONS,
    _longest_run,
    _longest_run_direct,
)
from groundwire.guards.grounding.lexical.graded_predicates import graded_predicates
from groundwire.guards.grounding.lexical.polarity import MAX_PAIRS as POLARITY_MAX_PAIRS
from groundwire.guards.grounding.lexical.polarity import _converse, _derived_pairs, _same_slot
from groundwire.guards.grounding.lexical.spelled_acronyms import (
    _source_acronyms,
    as_source_acronyms,
)
from groundwire.guards.grounding.lexical.text import ClaimWords, capitals, claim_words
from groundwire.topics.codec import dumps
from groundwire.topics.records import (
    Claim,
    EvidenceSpan,
    GroundingReport,
    SourceTurn,
)
from groundwire.topics.vocab import GroundingVerdict

# --- spelled_acronyms: the source's acronyms only for a run of capitalised words ---------

_LONGEST = 4


def _old_source_acronyms(ev: Evidence) -> dict[str, tuple[str, set[str], set[str]]]:
    """`_source_acronyms` at 86c657e (every word of every sentence looked at)."""
    out: dict[str, tuple[str, set[str], set[str]]] = {}
    for s in ev.sentences:
        lows = s.lows
        for k, raw in enumerate(s.raws):
            if 2 <= len(raw) <= _LONGEST and raw.isupper() and raw.isalpha():
                _, before, after = out.setdefault(lows[k], (s.word_stems[k], set(), set()))
                before.add(lows[k - 1] if k else "")
                after.add(lows[k + 1] if k + 1 < len(lows) else "")
    return out


def _old_as_source_acronyms(words: ClaimWords, ev: Evidence) -> ClaimWords:
    """`as_source_acronyms` at 86c657e (the source's acronyms read before the runs)."""
    caps = [i for i in capitals(words.raws) if words.lows[i] not in ev.lows]
    if len(caps) < 2:
        return words
    acronyms = {a: f for a, f in _old_source_acronyms(ev).items() if a not in words.lows}
    if not acronyms:
        return words
    lows = words.lows
    stems = list(words.stems)
    changed = False
    k = 0
    while k < len(caps):
        j = k
        while j + 1 < len(caps) and caps[j + 1] == caps[j] + 1 and j - k + 1 < _LONGEST:
            j += 1
        run = caps[k : j + 1]
        k = j + 1
        if len(run) < 2:
            continue
        letters = "".join(lows[i][0] for i in run)
        found = acronyms.get(letters)
        if found is None:
            found = next(
                (
                    f
                    for a, f in acronyms.items()
                    if len(a) == len(letters) + 1 and a.startswith(letters)
                ),
                None,
            )
        if found is None:
            continue
        stem, before, after = found
        prev = lows[run[0] - 1] if run[0] else ""
        nxt = lows[run[-1] + 1] if run[-1] + 1 < len(lows) else ""
        if prev in before or nxt in after:
            for i in run:
                stems[i] = stem
            changed = True
    return words._replace(stems=tuple(stems)) if changed else words


_ACRONYM_CASES = [
    ("The office is in New York City.", "Our office is in NYC, near the park."),
    ("It runs on Google Cloud now.", "It runs on GCP now. The GCP bill went up."),
    ("The bundle was written by John Smith.", "The JS bundle is large."),
    ("We met Anna Berg in Oslo.", "We met Anna in Oslo. I am OK."),
    ("He works at Acme Widget Corp today", "He works at AWC today; AWC is small. A B C D E"),
    ("New York City", "NYC"),
    ("in New York City and in Los Angeles", "in NYC and in LA, also in LA."),
    ("The NYC office is in New York City.", "NYC office"),
    ("Ünïcode Wörds Here", "ÜWH is 中A and 中 are ok"),
    ("Meeting with Bob Jones", "no capitals here at all"),
    ("", ""),
    ("Only One capital", "US UK EU USA NATO ABCDE I"),
]


@pytest.mark.parametrize(("claim", "source"), _ACRONYM_CASES)
def test_acronyms_as_before_on_crafted_texts(claim: str, source: str) -> None:
    ev = evidence_for([SourceTurn(id="t1", text=source or ".", source="user")])
    words = claim_words(claim)
    assert _source_acronyms(ev) == _old_source_acronyms(ev)
    assert as_source_acronyms(words, ev) == _old_as_source_acronyms(words, ev)


def test_the_run_test_can_tell_a_run() -> None:
    """The cut's cheap test itself: a run of two capitalised words the source lacks reads
    the source's acronym (the stems change), one capitalised word alone never does."""
    ev = evidence_for([SourceTurn(id="t1", text="Our office is in NYC.", source="user")])
    words = claim_words("The office is in New York City.")
    assert as_source_acronyms(words, ev).stems != words.stems
    alone = claim_words("The office is in New and in York.")
    assert as_source_acronyms(alone, ev) is alone


_PROSE = (
    "New York City NYC GCP Google Cloud Platform in the of is a LA Los Angeles JS John Smith"
    " I A OK US us Acme Widget Corp AWC ABCDE NATO nato 中A Ünï ÜW 's ran and , . 3 X1 AB-CD"
    " O'Neil McD MIT Mass Inst"
)
_VOCAB = _PROSE.split()


def _random_text(rng: random.Random) -> str:
    words = [rng.choice(_VOCAB) for _ in range(rng.randint(0, 14))]
    return " ".join(words)


_FILLER = ["in", "the", "at", "we", "met", "runs", "on", "office", "is", "and", "near"]


def _spelled_pair(rng: random.Random) -> tuple[str, str]:
    """A claim that may spell out a source acronym (the cut's changing path): the source
    writes 2-4 random capitals between filler words, the claim a run of capitalised
    words with those initials (or one more word, or other initials) in a like place."""
    letters = "".join(rng.choice("ABCGLNMY") for _ in range(rng.randint(2, 4)))
    before, after = rng.choice(_FILLER), rng.choice(_FILLER)
    source = " ".join([*rng.sample(_FILLER, 2), before, letters, after, *rng.sample(_FILLER, 2)])
    initials = letters if rng.random() < 0.7 else letters[:-1]
    if rng.random() < 0.2:
        initials = "".join(rng.choice("ABCGLNMY") for _ in initials)
    run = [c + rng.choice(["ew", "ork", "ity", "oogle", "loud"]) for c in initials]
    if rng.random() < 0.3:
        run.append("Platform")
    claim = " ".join(
        [
            rng.choice(_FILLER),
            before if rng.random() < 0.6 else rng.choice(_FILLER),
            *run,
            after if rng.random() < 0.5 else rng.choice(_FILLER),
            *([letters] if rng.random() < 0.1 else []),
        ]
    )
    return claim, source


def test_acronyms_as_before_on_random_texts() -> None:
    rng = random.Random(17)
    changed = 0
    for k in range(4_000):
        if k % 2:
            claim, source = _spelled_pair(rng)
        else:
            claim, source = _random_text(rng), _random_text(rng) or "."
        turns = [SourceTurn(id="t1", text=source, source="user")]
        if rng.random() < 0.3:
            turns.append(SourceTurn(id="t2", text=_random_text(rng) or "x", source="assistant"))
        ev = evidence_for(turns)
        words = claim_words(claim)
        assert _source_acronyms(ev) == _old_source_acronyms(ev), (claim, source)
        before = _old_as_source_acronyms(words, ev)
        assert as_source_acronyms(words, ev) == before, (claim, source)
        changed += before is not words
    assert changed > 200  # the changing path was taken, not only the cheap returns


# --- denied_predicates: nothing read when the source has no negation but "no" ----------


def _old_denied_predicates(claim_text: str, turns: list[SourceTurn]) -> list[tuple[str, str]]:
    """`denied_predicates` at 86c657e (the claim's predicates read for every source)."""
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


_DENIAL_CASES = [
    ("Rick said he was happy living with Sam.", "Sam: Rick wasn't very happy here."),
    ("Rick was happy.", "Sam: Rick was happy here."),
    ("The apps are working fine.", "I installed the apps but they don't work."),
    ("He is happy.", "No, he is happy now. No idea why."),  # "no" alone denies nothing
    ("He is happy.", "He failed to be happy, except on Sundays."),  # no negation word
    ("He is happy.", "Is he happy? He is never happy."),
    ("It is late.", "It isnt late at all"),  # a negation without its apostrophe
    ("She was a teacher.", "She was not a teacher. She is a doctor."),
    ("The cache is enabled.", "The cache is not only enabled but warm."),
    ("", "not"),
]


@pytest.mark.parametrize(("claim", "source"), _DENIAL_CASES)
def test_denied_predicates_as_before_on_crafted_texts(claim: str, source: str) -> None:
    turns = [SourceTurn(id="t1", text=source, source="user")]
    assert denied_predicates(claim, turns) == _old_denied_predicates(claim, turns)


def test_the_negation_test_keeps_a_denial() -> None:
    """Both sides of the cut's test: a denied predicate is still found, and a source
    whose only negation is "no" (or an implicative) gives nothing without reading."""
    turns = [SourceTurn(id="t1", text="Sam: Rick wasn't very happy here.", source="user")]
    assert denied_predicates("Rick was happy.", turns) == [("happy", "wasn't very happy")]
    plain = [SourceTurn(id="t1", text="No. Rick failed to be happy here.", source="user")]
    assert not evidence_for(plain).negated
    assert denied_predicates("Rick was happy.", plain) == []


_DENIAL_PROSE = (
    "he she it they was is were are am not n't never no isn't wasn't don't doesn't very"
    " quite happy sad late working fine enabled a the teacher on off only more if ? . ,"
    " failed to except nothing cannot nor Rick Sam"
)
_DENIAL_WORDS = _DENIAL_PROSE.split()


def test_denied_predicates_as_before_on_random_texts() -> None:
    rng = random.Random(1717)
    found = 0
    for _ in range(4_000):
        claim = " ".join(rng.choice(_DENIAL_WORDS) for _ in range(rng.randint(1, 10)))
        if rng.random() < 0.5:  # a predicate after a copula, which the source may deny
            pred = rng.choice(["happy", "late", "working", "enabled", "sad"])
            claim = f"{claim} {rng.choice(['was', 'is', 'are'])} {pred}"
        source = " ".join(rng.choice(_DENIAL_WORDS) for _ in range(rng.randint(1, 16)))
        turns = [SourceTurn(id="t1", text=source, source="user")]
        before = _old_denied_predicates(claim, turns)
        assert denied_predicates(claim, turns) == before, (claim, source)
        found += bool(before)
    assert found > 30  # denials were found, not only empty answers compared


# --- graded_predicates, attributed_beliefs: the trigger words by one set test first ----


def test_graded_predicates_both_sides_of_the_degree_test() -> None:
    """A graded quality is still refused with its degree word; without any degree word the
    set test answers (the shape needs one) and the answer is the same empty list."""
    turns = [SourceTurn(id="t1", text="The universe is big. The sun is a star.", source="user")]
    assert graded_predicates("The universe is so diverse.", turns) == ["diverse"]
    assert graded_predicates("The universe is diverse.", turns) == []
    assert graded_predicates("So, the universe is diverse.", turns) == []  # no shape


def test_attributed_beliefs_both_sides_of_the_verb_test() -> None:
    turns = [SourceTurn(id="t1", text="The universe is big. The sun is a star.", source="user")]
    assert attributed_beliefs("People think the sun moves.", turns) == ["think"]
    assert attributed_beliefs("People say the sun moves.", turns) == []


# --- features._longest_run: the positions it would visit, summed in C -------------------


def _old_visits(stems: list[str], positions: dict[str, tuple[int, ...]]) -> int:
    get = positions.get
    return sum(len(get(s, ())) for s in stems)


def test_longest_run_reads_as_before() -> None:
    """The sum that picks the direct reading or the automaton is the same sum; both sides
    of `MAX_RUN_POSITIONS` give the direct reading's answer."""
    rng = random.Random(5)
    for _ in range(2_000):
        vocab = [f"w{k}" for k in range(rng.randint(1, 8))]
        seq = [rng.choice(vocab) for _ in range(rng.randint(0, 30))]
        positions: dict[str, list[int]] = {}
        for j, st in enumerate(seq):
            positions.setdefault(st, []).append(j)
        pos = {st: tuple(at) for st, at in positions.items()}
        stems = [rng.choice([*vocab, "absent"]) for _ in range(rng.randint(0, 12))]
        visits = sum(map(len, map(pos.get, stems, itertools.repeat((), len(stems)))))
        assert visits == _old_visits(stems, pos)
        assert _longest_run(stems, pos) == _longest_run_direct(stems, pos)
    # past the bound the automaton answers, as before
    size = 2 * MAX_RUN_POSITIONS + 10  # the positions cover every index, as a source's do
    many = {"a": tuple(range(0, size, 2)), "b": tuple(range(1, size, 2))}
    assert _old_visits(["a"], many) > MAX_RUN_POSITIONS
    assert _longest_run(["a", "b", "a"], many) == _longest_run_direct(["a", "b", "a"], many) == 3


# --- evidence.known_names: the names of the same claim and turns objects, asked again ---


def _claim(content: str, user_id: str = "", subject: str | None = None) -> Claim:
    return Claim(
        claim_id="c1",
        tenant_id="t1",
        content=content,
        source="chat",
        user_id=user_id,
        subject=subject,
    )


def test_known_names_memo_answers_only_for_the_same_objects() -> None:
    turns = [SourceTurn(id="t1", text="I live in Berlin and I work at Acme.", source="user")]
    georgian = _claim("Georgian lives in Berlin.", user_id="georgian_k")
    first = known_names(georgian, turns)
    assert first == _known_names(georgian, turns) == {"georgian", "k"}
    first.add("changed by a caller")  # a caller's change never reaches the next answer
    again = known_names(georgian, turns)  # from the memo
    assert again == {"georgian", "k"}
    again.add("changed again")
    assert known_names(georgian, turns) == {"georgian", "k"}
    # an equal claim that is another object, and other turns, are read anew
    other = _claim("The user lives in Berlin.", user_id="ana")
    assert known_names(other, turns) == _known_names(other, turns)
    third_person = [SourceTurn(id="t1", text="She lives in Berlin.", source="user")]
    assert known_names(georgian, third_person) == _known_names(georgian, third_person) == set()
    assert known_names(georgian, turns) == {"georgian", "k"}


def test_known_names_as_before_in_random_order() -> None:
    rng = random.Random(33)
    texts = ["I live in Berlin.", "She lives in Berlin.", "Would you like tea?", "Yes, please"]
    turn_pool = [
        SourceTurn(id=f"t{k}", text=t, source=s)
        for k, (t, s) in enumerate((t, s) for t in texts for s in ("user", "assistant", None))
    ]
    claims = [
        _claim(c, u, sub)
        for c in ("The user likes tea.", "Ana likes tea.", "Likes tea.")
        for u, sub in (("", None), ("ana", None), ("", "ana_b"), ("user_1", "x"))
    ]
    lists = [rng.sample(turn_pool, rng.randint(1, 3)) for _ in range(12)]
    for _ in range(3_000):
        claim, turns = rng.choice(claims), rng.choice(lists)
        if rng.random() < 0.2:
            turns = list(turns)  # the same turns in another list
        assert known_names(claim, turns) == _known_names(claim, turns), (claim, turns)


# --- derived_opposites.may_have_derived: the prefixed forms read from the smaller side --


def _old_may_have_derived(
    lows: Sequence[str], content: Sequence[bool], source_lows: Set[str]
) -> bool:
    """`may_have_derived` at 86c657e (every prefixed form of the claim's words built)."""
    if len(lows) != len(content):
        raise ValueError("lows and content differ in length")
    words = list(itertools.compress(lows, content))
    if not _LEMMA_WORDS.isdisjoint(words):
        return True
    for prefix in _CHEAP:
        if not source_lows.isdisjoint([prefix + low for low in words]):
            return True  # a source word is the prefix + a claim word
    if not any(map((" " + " ".join(words)).__contains__, _SPACED_PREFIXES)):
        return False
    for low in words:
        if low.startswith(_CHEAP):
            for prefix in _CHEAP:
                if low.startswith(prefix) and low[len(prefix) :] in source_lows:
                    return True  # a claim word is the prefix + a source word
    return False


_DERIVED_CASES = [
    (["the", "deploy", "was", "locked"], {"the", "deploy", "was", "unlocked"}),  # src side
    (["the", "deploy", "was", "locked"], {"unlocked", *(f"w{k}" for k in range(40))}),
    (["it", "is", "unreadable"], {"it", "is", "readable"}),
    (["it", "is", "readable"], {"illegible", "unreadable", "in", "im", "un"}),
    (["we", "agree"], {"we", "disagree"}),
    (["a", "b"], set()),
    ([], {"unlocked"}),
    (["un", "in", ""], {"un", "in", "unun", "inin", "ir"}),  # a prefix alone, an empty word
    (["Locked"], {"unLocked"}),  # as written: the test is on lower-case forms
]


@pytest.mark.parametrize(("lows", "source"), _DERIVED_CASES)
def test_may_have_derived_as_before_on_crafted_words(lows: list[str], source: set[str]) -> None:
    content = [True] * len(lows)
    assert may_have_derived(lows, content, source) == _old_may_have_derived(lows, content, source)


def test_may_have_derived_both_sides_of_the_size_test() -> None:
    """The same answer whichever side is read: a source smaller than 7 x the claim's
    words (stripped source words) and a larger one (prefixed claim words)."""
    words = ["the", "door", "was", "locked"]
    content = [False, True, False, True]
    small = {"the", "door", "was", "unlocked"}
    large = small | {f"filler{k}" for k in range(100)}
    assert len(small) < len(_CHEAP) * 2 <= len(large)
    assert may_have_derived(words, content, small)
    assert may_have_derived(words, content, large)
    assert not may_have_derived(words, content, {"the", "door", "was", "closed"})


# made-up stems (no word of the bridged table, so the prefix tests decide), some forms
# of the table, the prefixes alone
_DERIVED_PROSE = (
    "florb unflorb disflorb nonflorb inflorb imflorb ilflorb irflorb zanter unzanter"
    " dizanter irzanter locked unlocked agree disagree the a was in im un dis non il ir x"
)
_DERIVED_VOCAB = _DERIVED_PROSE.split()


def test_may_have_derived_as_before_on_random_words() -> None:
    rng = random.Random(2026)
    true = 0
    for _ in range(5_000):
        lows = [rng.choice(_DERIVED_VOCAB) for _ in range(rng.randint(0, 12))]
        content = [rng.random() < 0.7 for _ in lows]
        source = {rng.choice(_DERIVED_VOCAB) for _ in range(rng.randint(0, 60))}
        before = _old_may_have_derived(lows, content, source)
        assert may_have_derived(lows, content, source) == before, (lows, content, source)
        true += before
    assert 500 < true < 4_500  # both answers were compared


# --- polarity._derived_pairs: a source word read against the claim's words only when
# --- `derived_opposites.may_pair` says some pair may hold --------------------------------


def _derived_vocabulary(rng: random.Random) -> list[str]:
    """Words of the bridged table, their prefixed forms, forms without a prefix, WordNet
    satellites ("readable" / "unreadable") and words of no table."""
    table = sorted(_PAIRS)
    picked = rng.sample(table, 60)
    partners = [w for x in picked[:30] for w in sorted(_PAIRS[x])[:2]]
    prefixed = [p + w for w in picked[:20] for p in ("un", "dis", "in", "non")]
    plain = ["readable", "unreadable", "legal", "illegal", "possible", "impossible"]
    other = ["florb", "unflorb", "zanter", "the", "door", "blocking", "nonblocking", "in"]
    return picked + partners + prefixed + plain + other


def test_may_pair_holds_for_every_derived_pair() -> None:
    """Where `derived_opposite(a, b)` holds, `may_pair` lets `b` through (the test is
    only ever false where no pair holds); on pairs from the table and prefixed forms."""
    rng = random.Random(99)
    vocab = _derived_vocabulary(rng)
    held = 0
    for _ in range(200):
        words = rng.sample(vocab, rng.randint(1, 6))
        test = may_pair(words)
        for b in vocab:
            if any(derived_opposite(a, b) for a in words):
                held += 1
                assert test(b), (words, b)
    assert held > 100
    assert not may_pair(["door"])("florb")  # and it does rule words out


def _old_derived_pairs(
    lows: Sequence[str],
    cstems: Sequence[str],
    content: Sequence[bool],
    claim_lows: set[str],
    ev: Evidence,
    shared: Sequence[Set[str]],
) -> list[tuple[int, object, int]]:
    """`polarity._derived_pairs` at 86c657e (every word pair read)."""
    out: list[tuple[int, object, int]] = []
    mine = [
        i
        for i in range(len(lows))
        if content[i] and lows[i] not in ev.lows and cstems[i] not in ev.stems
    ]
    if not mine:
        return out
    claim_stems = {cstems[i] for i in range(len(lows)) if content[i]}
    for s, hit in zip(ev.sentences, shared, strict=True):
        if not hit:
            continue
        here = [i for i in mine if cstems[i] not in s.stems]
        if not here:
            continue
        for j, other in enumerate(s.lows):
            if not s.content[j] or other in claim_lows or s.word_stems[j] in claim_stems:
                continue
            for i in here:
                if not derived_opposite(lows[i], other):
                    continue
                if _same_slot(cstems, content, i, s, j) and not _converse(
                    cstems, content, lows, i, s, j
                ):
                    out.append((i, s, j))
                    if len(out) >= POLARITY_MAX_PAIRS:
                        return out
    return out


def test_derived_pairs_as_before_on_random_texts() -> None:
    rng = random.Random(7)
    vocab = _derived_vocabulary(rng)
    glue = ["the", "door", "was", "is", "server", "cache", "team", "and", "."]
    found = 0
    for _ in range(1_500):
        claim = " ".join(rng.choice(vocab + glue) for _ in range(rng.randint(2, 10)))
        source = " ".join(rng.choice(vocab + glue) for _ in range(rng.randint(2, 24)))
        ev = evidence_for([SourceTurn(id="t1", text=source, source="user")])
        cw = claim_words(claim)
        uniq = set(itertools.compress(cw.stems, cw.content))
        shared = [uniq.intersection(s.stems) for s in ev.sentences]
        args = (cw.lows, cw.stems, cw.content, set(cw.lows), ev, shared)
        before = _old_derived_pairs(*args)
        assert _derived_pairs(*args) == before, (claim, source)
        found += bool(before)
    assert found > 20


# --- base.finish_report: the report made by the model's validator from a dict ----------


def _old_report(**fields: object) -> GroundingReport:
    return GroundingReport(**fields)  # type: ignore[arg-type]


@pytest.mark.parametrize("verdict", list(GroundingVerdict))
def test_finish_report_builds_what_the_constructor_built(verdict: GroundingVerdict) -> None:
    claim = _claim("The cache is enabled.")
    span = EvidenceSpan(turn_id="t1", start=0, end=5, text="The c")
    got = finish_report(
        claim,
        verdict,
        verifier="lexical",
        score=0.61234567,
        spans=(span,),
        reasoning="why",
        penalty=0.125,
        rewritten_content="The cache" if verdict is GroundingVerdict.PARTIAL else None,
    )
    adjusted = {
        GroundingVerdict.NOT_SUPPORTED: 0.0,
        GroundingVerdict.PARTIAL: max(0.0, round(claim.confidence - 0.125, 4)),
    }.get(verdict, claim.confidence)
    want = _old_report(
        verdict=verdict,
        score=0.6123,
        evidence_spans=[span],
        reasoning="why",
        confidence_penalty=0.125 if verdict is GroundingVerdict.PARTIAL else 0.0,
        adjusted_confidence=adjusted,
        verifier="lexical",
        rewritten_content="The cache" if verdict is GroundingVerdict.PARTIAL else None,
    )
    assert got == want
    assert got.model_fields_set == want.model_fields_set
    assert got.model_dump_json() == want.model_dump_json()
    assert dumps(got) == dumps(want)
    # no score: None, as before
    assert (
        finish_report(claim, verdict, verifier="x", score=None, spans=[], reasoning="").score
        is None
    )


def test_finish_report_refuses_what_the_constructor_refused() -> None:
    claim = _claim("The cache is enabled.")
    with pytest.raises(ValidationError) as old:
        _old_report(verdict=GroundingVerdict.SUPPORTED, verifier=None)
    with pytest.raises(ValidationError) as new:
        finish_report(
            claim,
            GroundingVerdict.SUPPORTED,
            verifier=None,  # type: ignore[arg-type]
            score=1.0,
            spans=[],
            reasoning="",
        )
    assert [e["loc"] for e in new.value.errors()] == [e["loc"] for e in old.value.errors()]
