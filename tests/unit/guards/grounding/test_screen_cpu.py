"""The screen stage's CPU cuts of session 13 give what the readings they replace give.

Each cut skips work that cannot change the answer (a pattern that cannot match, pairs
that cannot be reversed, a slot that cannot exist) or keeps what depends on the source
alone. These tests hold each one to the plain reading on the cases it must catch and on
controls, and check that its cache is bounded and its shortcut really is taken (a test
of the shortcut fails when the cut is undone)."""

from __future__ import annotations

import random
import re

import pytest

from groundwire.guards import bibrefs
from groundwire.guards.grounding.lexical import (
    counts,
    dates,
    denied_predicates,
    evidence,
    negation_forms,
    restated_dates,
    roles,
)
from groundwire.guards.grounding.lexical import slot_swaps as slot_swaps_module
from groundwire.guards.grounding.lexical import text as lexical_text
from groundwire.guards.grounding.lexical.evidence import clear_turn_caches, evidence_for
from groundwire.guards.grounding.lexical.slot_swaps import claim_slot_swaps
from groundwire.guards.grounding.lexical.text import claim_words, clause_ids, fold_disguises
from groundwire.topics.records import SourceTurn


def _turns(*texts: str) -> list[SourceTurn]:
    return [SourceTurn(id=f"s{k}", text=t) for k, t in enumerate(texts)]


# -- slot swaps: the claim's slots first --------------------------------------------------


def test_a_claim_without_a_slot_splits_no_clauses(monkeypatch: pytest.MonkeyPatch) -> None:
    def split(*_: object) -> list[int]:
        raise AssertionError("the clauses were split for a claim without a slot")

    monkeypatch.setattr(slot_swaps_module, "clause_ids", split)
    turns = _turns("Priya leads the payments team since March.")
    assert claim_slot_swaps("Priya leads the payments team.", turns, set()) == []


def test_a_claim_with_a_slot_is_still_read() -> None:
    turns = _turns("Priya leads the payments team since March.")
    assert claim_slot_swaps("Priya leads the sales team.", turns, set()) == [("sales", "payments")]


# -- enumerations: the patterns only where they can match, cached per sentence ------------


def _enumerations_unhinted(text: str) -> tuple[tuple[str, int, str], ...]:
    """The two list patterns run over the whole sentence, no hint, no cache."""
    found: list[tuple[str, int, str]] = []
    for m in counts._BEFORE.finditer(text):
        if m.group(2).lstrip().lower().startswith(("such as", "like", "e.g", "for example")):
            continue
        n = counts._items(m.group(2), from_end=False)
        if n:
            found.append((counts.stem(m.group(1).lower()), n, m.group(2).strip()))
    for m in counts._AFTER.finditer(text):
        n = counts._items(m.group(1), from_end=True)
        if n:
            found.append((counts.stem(m.group(2).lower()), n, m.group(1).strip()))
    return tuple(found)


LISTS = [
    "Our services are billing, search and auth",
    "three services: billing, search and auth",
    "the services (billing, search and auth) run here",
    "we run billing, search and auth as our services",
    "Billing, search and auth ARE our services",
    "the tools include git, make or ninja",
    "services such as billing, search and auth",
    "billing, search and auth run on Tuesdays",  # no verb, no mark: no list
    "aſ in the \u017fervices are billing and search",  # a case-blind match outside ASCII
]


@pytest.mark.parametrize("text", LISTS)
def test_enumerations_match_the_unhinted_patterns(text: str) -> None:
    assert counts._enumerations_in(text, 0, len(text)) == _enumerations_unhinted(text)


def test_enumerations_match_on_random_texts() -> None:
    rng = random.Random(13)
    pieces = ["services", "are", "were", "as", "include", "namely", ":", "(", ")", "A", "B"]
    pieces += ["and", "or", ",", "the", "our", "ARE", "As", "\u017f", " ", "\t", "e.g."]
    for _ in range(3000):
        text = " ".join(rng.choice(pieces) for _ in range(rng.randint(1, 14)))
        assert counts._enumerations_in(text, 0, len(text)) == _enumerations_unhinted(text)


def test_a_sentence_without_a_verb_or_mark_runs_no_list_pattern(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class Refuse:
        def finditer(self, text: str) -> list[re.Match[str]]:
            raise AssertionError("a list pattern ran where it cannot match")

    monkeypatch.setattr(counts, "_BEFORE", Refuse())
    monkeypatch.setattr(counts, "_AFTER", Refuse())
    text = "billing, search and auth run on Tuesdays"
    assert counts._enumerations_in.__wrapped__(text, 0, len(text)) == ()


def test_the_enumerations_cache_is_bounded() -> None:
    assert counts._enumerations_in.cache_info().maxsize == counts.ENUMERATIONS_CACHE


# -- dates: the month patterns only where a month's name may be ---------------------------


def _written_dates_unhinted(text: str) -> list[tuple[str, set[tuple[int, int, int]]]]:
    """`written_dates` with its hint taken away (the hint says "maybe" to every text)."""
    saved = dates._may_name_a_month
    dates._may_name_a_month = lambda low: True
    try:
        return dates.written_dates(text)
    finally:
        dates._may_name_a_month = saved


DATED = [
    "The release is on March 6, 2024.",
    "Shipped 5th of March, 2024 and again in June 2023.",
    "in MAR. 2023 and dec 2020",
    "Released in 2009, it grossed 300 million.",  # a year, no month: no date
    "the 2024 roadmap",
    "shipped in Augu\u017ft 2024",  # outside ASCII: the patterns decide (a long s)
]


@pytest.mark.parametrize("text", DATED)
def test_written_dates_match_the_patterns_alone(text: str) -> None:
    assert dates.written_dates(text) == _written_dates_unhinted(text)


def test_a_text_without_a_month_runs_no_month_pattern(monkeypatch: pytest.MonkeyPatch) -> None:
    class Refuse:
        def finditer(self, text: str) -> list[re.Match[str]]:
            raise AssertionError("a month pattern ran over a text naming no month")

    for name in ("_MDY", "_DMY", "_MY"):
        monkeypatch.setattr(dates, name, Refuse())
    assert dates.written_dates("Released in 2009, it grossed 300 million.") == []


def test_a_restated_date_reads_the_same_with_the_turn_cache() -> None:
    turns = _turns("The release is on 2024-03-06.", "Nothing else was dated.")
    for _ in range(2):  # the second read comes from the cache
        claim = "The release is on March 6, 2024."
        assert restated_dates.restate_dates(claim, turns) == "The release is on 2024-03-06."
        changed = "The release is on March 7, 2024."
        assert restated_dates.restate_dates(changed, turns) == changed
    info = restated_dates._turn_dates.cache_info()
    assert info.maxsize == restated_dates.TURN_DATES_CACHE
    assert info.hits >= 1


# -- swapped arguments: only the reversed pairs, when the budget lasts -------------------


def _swapped_arguments_stepwise(
    words: object,
    content: list[bool],
    sentences: list[evidence.Sentence],
    shared: list[set[str]],
    uniq: set[str],
    left: list[int],
) -> list[tuple[str, str]]:
    """Every pair visited in turn, as before the cut (the tests of `_swapped_pair`)."""
    stems = words.stems  # type: ignore[attr-defined]
    positions = [i for i, c in enumerate(content) if c and words.numbers[i] is None]  # type: ignore[attr-defined]
    out: list[tuple[str, str]] = []
    for s, hit in zip(sentences, shared, strict=True):
        if len(hit) < len(uniq):
            continue
        if left[0] <= 0:
            return out
        left[0] -= len(s.word_stems)
        first: dict[str, int] = {}
        last: dict[str, int] = {}
        for j, st in enumerate(s.word_stems):
            if s.content[j]:
                first.setdefault(st, j)
                last[st] = j
        for a, i1 in enumerate(positions):
            for i2 in positions[a + 2 :]:
                if left[0] <= 0:
                    return out
                left[0] -= 1 + i2 - i1
                j1, j2 = first.get(stems[i1]), last.get(stems[i2])
                if j1 is None or j2 is None or stems[i1] == stems[i2] or j2 >= j1:
                    continue
                pair = roles._swapped_pair(words, content, s, j1, j2, i1, i2)  # type: ignore[arg-type]
                if pair is not None and pair not in out:
                    out.append(pair)
    return out


def test_pairs_cost_is_the_sum_over_the_pairs() -> None:
    rng = random.Random(5)
    for _ in range(500):
        positions = sorted(rng.sample(range(40), rng.randint(0, 12)))
        brute = sum(
            1 + positions[b] - positions[a]
            for a in range(len(positions))
            for b in range(a + 2, len(positions))
        )
        assert roles._pairs_cost(positions) == brute


def test_swapped_arguments_match_the_stepwise_reading() -> None:
    rng = random.Random(11)
    vocab = "auth billing service calls the is by a of Paris capital team sales uses reads"
    vocab += " writes Anna Bob 5 and to was similar"
    words_of = vocab.split()
    found = 0
    for _ in range(1500):
        claim = " ".join(rng.choice(words_of) for _ in range(rng.randint(3, 12)))
        texts = []
        for _ in range(rng.randint(1, 3)):
            w = claim.split() + [rng.choice(words_of) for _ in range(rng.randint(0, 3))]
            rng.shuffle(w)
            texts.append(" ".join(w) + ".")
        cw = claim_words(claim)
        ev = evidence_for(_turns(" ".join(texts)))
        uniq = {st for st, c in zip(cw.stems, cw.content, strict=True) if c}
        shared = [uniq & s.stems for s in ev.sentences]
        content = list(cw.content)
        for budget in (roles.MAX_STEPS, rng.randint(1, 80)):
            mine, theirs = [budget], [budget]
            got = roles.swapped_arguments(cw, content, ev.sentences, shared, uniq, mine)
            want = _swapped_arguments_stepwise(cw, content, ev.sentences, shared, uniq, theirs)
            assert got == want, claim
            assert mine == theirs  # the budget left is the same too
            found += bool(got)
    assert found > 100  # the cases do swap arguments


def test_a_swap_is_still_read_and_the_same_order_is_not() -> None:
    source = _turns("the billing service calls the auth service")
    ev = evidence_for(source)
    for claim, want in (
        ("the auth service calls the billing service", [("auth", "billing")]),
        ("the billing service calls the auth service", []),
    ):
        cw = claim_words(claim)
        uniq = {st for st, c in zip(cw.stems, cw.content, strict=True) if c}
        shared = [uniq & s.stems for s in ev.sentences]
        assert roles.swapped_arguments(cw, cw.content, ev.sentences, shared, uniq) == want


# -- evidence: the same turn objects answered from the last look-up ----------------------


def test_the_same_turns_are_answered_from_the_last_look_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[int] = []
    joined = evidence._joined_evidence

    def counted(turns: tuple[SourceTurn, ...]) -> evidence.Evidence:
        calls.append(len(turns))
        return joined(turns)

    monkeypatch.setattr(evidence, "_joined_evidence", counted)
    turns = _turns("The cache runs on Redis.", "It is not replicated.")
    first = evidence_for(turns)
    assert evidence_for(turns) is first
    assert evidence_for(list(turns)) is first  # the same turn objects in another list
    assert calls == [2]


def test_other_turns_are_not_answered_from_the_last_look_up() -> None:
    a = _turns("The cache runs on Redis.", "It is not replicated.")
    b = _turns("The cache runs on Memcached.", "It is replicated.")
    ev_a = evidence_for(a)
    ev_b = evidence_for(b)
    assert ev_b is not ev_a
    assert "memcached" in ev_b.lows and "memcached" not in ev_a.lows
    assert evidence_for(a[:1]).lows == evidence_for(_turns("The cache runs on Redis.")).lows


def test_clearing_the_turn_caches_forgets_the_last_look_up() -> None:
    turns = _turns("The cache runs on Redis.")
    first = evidence_for(turns)
    clear_turn_caches()
    assert evidence_for(turns) is not first


def test_clearing_the_turn_caches_empties_the_dates_and_lists_too() -> None:
    text = "Our services are billing, search and auth"
    counts._enumerations_in(text, 0, len(text))
    restated_dates.restate_dates("On March 6, 2024.", _turns("On 2024-03-06."))
    clear_turn_caches()
    assert counts._enumerations_in.cache_info().currsize == 0
    assert restated_dates._turn_dates.cache_info().currsize == 0


# -- added evaluations: the source's names read once per evidence -----------------------


def test_the_source_names_are_read_once_per_evidence() -> None:
    from groundwire.guards.grounding.lexical import opinion

    turns = _turns("We met Dana in Lisbon. Then we flew home with Sam.")
    names = opinion._source_names(turns)
    assert names == frozenset({"dana", "lisbon", "sam"})
    assert opinion._source_names(list(turns)) is names  # kept with the evidence
    other = opinion._source_names(_turns("Nobody else came, said Ana."))
    assert other == frozenset({"ana"})


# -- bibliographic references: the standards' pattern only where a body is named ---------


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("Per RFC 9110, the method is safe.", "rfc 9110"),
        ("Certified to ISO/IEC 27001:2013 last year.", "iso 27001"),
        ("The radio follows IEEE Std 802.11 closely.", "ieee 802.11"),
        ("Controls map to NIST SP 800-53.", "nist 800-53"),
        ("Dates are written as in ECMA-262.", "ecma 262"),
    ],
)
def test_a_standard_is_still_read(text: str, key: str) -> None:
    from groundwire.guards.bibrefs import bibliographic_references

    assert [k for kind, _, k in bibliographic_references(text) if kind == "standard"] == [key]


def test_a_text_naming_no_body_runs_no_standards_pattern(monkeypatch: pytest.MonkeyPatch) -> None:
    from groundwire.guards import bibrefs

    class Refuse:
        def finditer(self, text: str) -> list[re.Match[str]]:
            raise AssertionError("the standards' pattern ran over a text naming no body")

    monkeypatch.setattr(bibrefs, "_STANDARD", Refuse())
    assert bibrefs.bibliographic_references("The Team met Dana (Smith, 2020) in Rome.") == [
        ("author_year", "(Smith, 2020)", "smith 2020")
    ]


# -- the speaker's own words: "I" found by a pattern that starts at the letter ----------

_I_PLAIN = re.compile(r"(?<![A-Za-z0-9])[Ii](?![A-Za-z0-9])")


@pytest.mark.parametrize(
    "text",
    ["I love cats", "i think so", "I'm here", "Then I went", "iPhone", "Wi-Fi", "pi", "x I",
     "A.I.", "Hi!", "ii", "", "\u0130 and \u0131", "9i", "I9"],
)  # fmt: skip
def test_the_i_word_test_reads_as_the_plain_pattern(text: str) -> None:
    from groundwire.guards.grounding.lexical.assertion import _I_WORD, may_speak_of_itself

    assert may_speak_of_itself(text) == (_I_PLAIN.search(text) is not None)
    assert [m.span() for m in _I_WORD.finditer(text)] == [m.span() for m in _I_PLAIN.finditer(text)]


# -- dates in digits: no pattern over a text without a digit ---------------------------


def test_a_text_without_a_digit_runs_no_date_pattern(monkeypatch: pytest.MonkeyPatch) -> None:
    from groundwire.guards.grounding.lexical import units

    class Refuse:
        def finditer(self, text: str) -> list[re.Match[str]]:
            raise AssertionError("a date pattern ran over a text without a digit")

        def search(self, text: str) -> re.Match[str] | None:
            raise AssertionError("a date pattern ran over a text without a digit")

    for name in ("_ISO_DATE", "_SLASH_DATE", "_YEAR_DIGITS"):
        monkeypatch.setattr(units, name, Refuse())
    assert units._dates("Shipped in early March - or so / maybe later") == []


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("Released on 2024-03-05.", "2024-03-05"),
        ("Due 03/05/2024 at noon", "03/05/2024"),
        ("Since March 5, 2024 it runs", "March 5, 2024"),
    ],
)
def test_a_date_in_digits_is_still_read(text: str, written: str) -> None:
    from groundwire.guards.grounding.lexical import units

    assert [w for w, _ in units._dates(text)] == [written]


# -- session 14 -------------------------------------------------------------------------
# -- the trailing "NOT": its quadratic pattern only where a mark stands before the "not" --


def _plain_negation_ungated(text: str) -> str:
    """`negation_forms.plain_negation` as it read before the mark's gate."""
    lower = text.lower()
    if "not" not in lower and "n't" not in lower:
        return text
    if " one" in lower or " people" in lower or " person" in lower:
        text = negation_forms._CLEFT.sub("not ", text)
    if re.search(r"not\W*$|not\s*[!.]", text, re.IGNORECASE):
        text = negation_forms._TRAILING.sub(negation_forms._trailing, text)
    return text


NEGATIONS = [
    "Alice approves the deploys - NOT.",
    "Alice approves the deploys -- not!",
    "Alice approves the deploys \u2014 not",
    "Alice approves the deploys... not.",
    "Alice approves the deploys \u2026 NOT !",
    "Alice approves the deploys, not.",
    "Alice approves the deploys, or not.",
    "whether or not.",
    "Probably not . It is a huge city .",
    "It is not. It never was, not really.",
    "Bob is not the one who approves deploys - not.",
    "a, not b",
    "x -not\n",
    "cannot.",
]


@pytest.mark.parametrize("text", NEGATIONS)
def test_plain_negation_reads_as_without_the_gate(text: str) -> None:
    assert negation_forms.plain_negation(text) == _plain_negation_ungated(text)


def test_plain_negation_reads_as_without_the_gate_on_random_texts() -> None:
    rng = random.Random(14)
    pieces = ["not", "NOT", "Not", " ", " ", ",", "-", "--", "\u2013", "\u2014", ".", "..",
              "\u2026", "!", "?", "or", "a", "Bob", "one who", "\n", "n't"]  # fmt: skip
    for _ in range(3_000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 12)))
        assert negation_forms.plain_negation(text) == _plain_negation_ungated(text), text


def test_a_trailing_not_is_still_read() -> None:
    assert negation_forms.plain_negation("Alice approves the deploys - NOT.") == (
        "Not Alice approves the deploys."
    )
    assert negation_forms.plain_negation("Probably not . It is a huge city .") == (
        "Probably not . It is a huge city ."
    )


def test_a_not_after_no_mark_runs_no_trailing_pattern(monkeypatch: pytest.MonkeyPatch) -> None:
    class Refuse:
        def sub(self, *_: object) -> str:
            raise AssertionError("the trailing pattern ran without a mark before the not")

    monkeypatch.setattr(negation_forms, "_TRAILING", Refuse())
    text = "Probably not . It is a huge city . It is not."
    assert negation_forms.plain_negation(text) == text


# -- bibliographic references: the upper-case test in one pass for an ASCII text ----------


def test_has_upper_reads_as_the_test_per_character() -> None:
    rng = random.Random(141)
    alphabet = "aZ09 .([\u01c5\u00df\u0130\u03a3\u2160\u24b6\u1e9e\u00e9x"  # title, sharp s, ...
    texts = ["", "plain lower case", "One", "ISO 8601", "\u01c5", "\u2160", "\u24b6 x"]
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 8))) for _ in range(4_000)]
    for text in texts:
        assert bibrefs._has_upper(text) == any(c.isupper() for c in text), text


def test_a_text_without_capitals_looks_for_no_standard(monkeypatch: pytest.MonkeyPatch) -> None:
    class Refuse:
        def __iter__(self) -> object:
            raise AssertionError("looked for a standard's name in a text without capitals")

    monkeypatch.setattr(bibrefs, "_STANDARD_TAGS", Refuse())
    assert bibrefs.bibliographic_references("see the deploy notes [1] (and the runbook)") == [
        ("footnote", "[1]", "[1]")
    ]


def test_a_standard_and_an_author_year_are_still_read_in_capitals() -> None:
    refs = bibrefs.bibliographic_references("Tokens expire per RFC 9999 (Smith et al., 2021).")
    assert [kind for kind, _, _ in refs] == ["standard", "author_year"]


# -- denied predicates: the claim's clauses read only when a predicate may stand ---------


def _predicates_per_word(text: str) -> dict[str, str]:
    """`denied_predicates._predicates` as it read before: the clauses, the negations and
    the question marks of every word first, then the words."""
    dp = denied_predicates
    words = claim_words(text)
    lows, content = words.lows, words.content
    if not dp.COPULAS.intersection(lows):
        return {}
    clause = clause_ids(fold_disguises(text), words.spans, lows)
    blocked: list[bool] = []
    on = False
    for k, low in enumerate(lows):
        if k and clause[k] != clause[k - 1]:
            on = False
        on = on or low in dp.NEGATIONS_BUT_NO or low in dp._SUPPOSING
        blocked.append(on)
    marks = [(m.start(), m.group()) for m in dp._END.finditer(text)]
    asked: list[bool] = []
    at = 0
    for _, end in words.spans:
        while at < len(marks) and marks[at][0] < end:
            at += 1
        asked.append(at < len(marks) and marks[at][1] == "?")
    found: dict[str, str] = {}
    for i in range(1, len(lows)):
        if not content[i] or not words.raws[i][:1].islower() or words.numbers[i] is not None:
            continue
        if lows[i - 1] in dp.COPULAS:
            cop = i - 1
        elif i >= 2 and lows[i - 2] in dp.COPULAS and not content[i - 1]:
            cop = i - 2
            if lows[i - 1] in dp.NEGATIONS_BUT_NO or clause[i - 1] != clause[i]:
                continue
        else:
            continue
        if clause[cop] != clause[i]:
            continue
        if i + 1 < len(lows) and lows[i + 1] in dp._PARTICLES and clause[i + 1] == clause[i]:
            continue
        if cop > 0 and blocked[cop - 1] and clause[cop - 1] == clause[i]:
            continue
        if asked[i]:
            continue
        found.setdefault(words.stems[i], words.raws[i])
    return found


PREDICATES = [
    "Rick said he was happy living with Sam.",
    "The apps he installed are working fine",
    "It is 5 and he was Bob.",
    "He is not happy. Is she happy? She is very happy, and it was a teacher.",
    "If it is late, never was happy; he is turned off but is on time",
    "Was he happy? He was. Is it late, or is it early",
    "she's happy and they're sad, but I'm tired?",
]


@pytest.mark.parametrize("text", PREDICATES)
def test_predicates_read_as_per_word(text: str) -> None:
    assert denied_predicates._predicates(text) == _predicates_per_word(text)


def test_predicates_read_as_per_word_on_random_claims() -> None:
    rng = random.Random(1414)
    vocab = [
        "is",
        "was",
        "are",
        "he's",
        "a",
        "very",
        "not",
        "never",
        "if",
        "happy",
        "tired",
        "off",
        "on",
        "Bob",
        "5",
        "and",
        "but",
        "he",
        "late",
    ]
    vocab += [",", ".", "?", ";", "-"]
    for _ in range(2_000):
        text = " ".join(rng.choice(vocab) for _ in range(rng.randint(1, 16)))
        assert denied_predicates._predicates(text) == _predicates_per_word(text), text


def test_a_claim_without_a_possible_predicate_splits_no_clauses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def split(*_: object) -> list[int]:
        raise AssertionError("the clauses were split for a claim without a predicate")

    monkeypatch.setattr(denied_predicates, "clause_ids", split)
    assert denied_predicates._predicates("The limit is 5 and the owner was Bob.") == {}


def test_a_denied_predicate_is_still_read() -> None:
    turns = _turns("Sam: Rick wasn't very happy here.")
    found = denied_predicates.denied_predicates("Rick said he was happy living with Sam.", turns)
    assert found == [("happy", "wasn't very happy")]


# -- clause cuts: the call before answers the same words ----------------------------------


def _words_of(text: str) -> tuple[tuple[tuple[int, int], ...], tuple[str, ...]]:
    w = claim_words(text)
    return w.spans, w.lows


def test_clause_cuts_read_as_without_the_last_call() -> None:
    rng = random.Random(1415)
    texts = ["It is late, and he left.", "2:34 and 1,200 - then; more", "One.", "a (b) c"]
    for _ in range(500):
        text = rng.choice(texts)
        spans, lows = _words_of(text)
        assert lexical_text.clause_cuts(text, spans, lows) == lexical_text._clause_cuts(
            text, spans, lows
        )


def test_the_same_words_are_cut_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    plain = lexical_text._clause_cuts

    def counted(text: str, *rest: object) -> list[int]:
        calls.append(text)
        return plain(text, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(lexical_text, "_clause_cuts", counted)
    monkeypatch.setattr(lexical_text, "_last_cuts", None)
    text = "It is late, and he left."
    spans, lows = _words_of(text)
    first = lexical_text.clause_cuts(text, spans, lows)
    first[0] = 7  # the caller's copy: the next answer is not changed by it
    again = lexical_text.clause_cuts(text, list(spans), list(lows))
    assert again == plain(text, spans, lows)
    again[0] = 7
    assert lexical_text.clause_cuts(text, spans, lows) == plain(text, spans, lows)
    assert calls == [text]
    other = "It is late and he left"
    assert lexical_text.clause_cuts(other, *_words_of(other)) == plain(other, *_words_of(other))
    assert calls == [text, other]


def test_a_list_changed_after_the_call_is_not_answered_for() -> None:
    text = "It is late, and he left."
    spans, lows = _words_of(text)
    mine = list(lows)
    lexical_text.clause_cuts(text, spans, mine)
    mine[1] = "and"  # a conjunction now: another cut
    assert lexical_text.clause_cuts(text, spans, mine) == lexical_text._clause_cuts(
        text, spans, mine
    )


def test_the_forward_readings_answer_in_any_order() -> None:
    """`_blocked` and `_asked` read forward as `_predicates` asks, in order; asked out of
    order (behind the reading, or between a search and its mark) they still answer as the
    per-word passes."""
    rng = random.Random(1416)
    vocab = ["is", "not", "if", "happy", "and", "he", ",", ".", "?", "never"]
    for _ in range(300):
        text = " ".join(rng.choice(vocab) for _ in range(rng.randint(1, 14)))
        words = claim_words(text)
        if not words.lows:
            continue
        clause = clause_ids(text, words.spans, words.lows)
        blocked_at = denied_predicates._blocked(words.lows, clause)
        asked_at = denied_predicates._asked(text, words.spans)
        for k in [rng.randrange(len(words.lows)) for _ in range(8)]:
            on = any(
                words.lows[j] in denied_predicates.NEGATIONS_BUT_NO
                or words.lows[j] in denied_predicates._SUPPOSING
                for j in range(k + 1)
                if clause[j] == clause[k]
            )
            assert blocked_at(k) == on, (text, k)
            after = [c for c in text[words.spans[k][1] :] if c in ".!?"]
            assert asked_at(k) == (after[:1] == ["?"]), (text, k)
