"""Structural bounds on the lexical rules' work per claim (session 12, bounded inputs).

A claim and source at the size limits made of one pattern repeated made several rules
pair every copy with every other (seconds to minutes per claim; timed in
bench/bench_grounding.py, never here). These tests check that each bound holds as
written and that the indexed readings give the answers of the plain scans."""

from __future__ import annotations

import random

import pytest

from groundwire.guards.grounding.lexical import (
    core_substance,
    crossing,
    denied_predicates,
    features,
    magnitudes,
    opinion,
    roles,
    slot_swaps,
    speaker_acts,
    verifier,
)
from groundwire.guards.grounding.lexical.magnitudes import _Index, _same
from groundwire.topics.records import SourceTurn
from tests.unit.guards.grounding.test_assertion import verify


def _count_calls(monkeypatch: pytest.MonkeyPatch, module: object, name: str) -> list[int]:
    """Replace `module.name` with a wrapper that counts its calls: the work a bound cuts,
    counted rather than timed. Returns the one-item counter (reset it by assignment)."""
    calls = [0]
    plain = getattr(module, name)

    def counted(*args: object) -> object:
        calls[0] += 1
        return plain(*args)

    monkeypatch.setattr(module, name, counted)
    return calls


def test_near_pairs_stops_at_the_span_and_the_budget() -> None:
    found = [(i, 0) for i in range(0, 400, 2)]
    pairs = list(roles._near_pairs(found, [10**9]))
    assert pairs and all(b[0] - a[0] <= roles.ROLE_SPAN for a, b in pairs)
    # every pair within the span is still read (20 later positions within 40 words)
    assert ((0, 0), (40, 0)) in pairs and ((0, 0), (42, 0)) not in pairs
    budget = [100]
    few = list(roles._near_pairs(found, budget))
    assert 0 < len(few) < len(pairs) and budget[0] <= 0


def test_opinion_reads_at_most_max_evaluations(monkeypatch) -> None:
    turns = [SourceTurn(id="t", text="The film premiered in 2017.", source="user")]
    claim = "The film premiered in 2017 and it is amazing."
    assert opinion.added_evaluations(claim, turns)  # the control: read with the default
    monkeypatch.setattr(opinion, "MAX_EVALUATIONS", 0)
    assert opinion.added_evaluations(claim, turns) == []  # the bound: nothing past it


def test_slot_swaps_reads_at_most_max_steps(monkeypatch) -> None:
    turns = [SourceTurn(id="t", text="Priya leads the payments team since March.", source="user")]
    claim = "Priya leads the sales team."
    # the control: read with the default budget
    assert slot_swaps.claim_slot_swaps(claim, turns, frozenset()) == [("sales", "payments")]
    monkeypatch.setattr(slot_swaps, "MAX_STEPS", 0)
    assert slot_swaps.claim_slot_swaps(claim, turns, frozenset()) == []  # nothing past it


def test_slot_swaps_work_stops_at_the_budget(monkeypatch) -> None:
    # every slot ("big", one thing with "large") aligns with every source sentence: without
    # the budget each of 300 slots reads all 400 sentences' words
    turns = [SourceTurn(id="t", text="cat the large team. " * 400, source="user")]
    claim = "cat the big team. " * 300
    calls = _count_calls(monkeypatch, slot_swaps, "_same")
    monkeypatch.setattr(slot_swaps, "MAX_STEPS", 10**9)
    assert slot_swaps.claim_slot_swaps(claim, turns, frozenset()) == []
    unbounded = calls[0]
    calls[0] = 0
    monkeypatch.setattr(slot_swaps, "MAX_STEPS", 500)
    assert slot_swaps.claim_slot_swaps(claim, turns, frozenset()) == []
    # each word read costs a step and at most two comparisons; a sentence's words are
    # charged before they are read, so one sentence may pass the budget
    assert calls[0] <= 2 * (500 + 6) < unbounded


def test_slot_swaps_object_reading_stops_at_the_budget(monkeypatch) -> None:
    # session 13: every object slot ("bug" after "fixed the", no genus shared with
    # "error") aligns with every source sentence; the verb anchors the reading
    turns = [SourceTurn(id="t", text="cat fixed the error. " * 400, source="user")]
    claim = "cat fixed the bug. " * 300
    calls = _count_calls(monkeypatch, slot_swaps, "_ends_alike")
    monkeypatch.setattr(slot_swaps, "MAX_STEPS", 10**9)
    assert slot_swaps.claim_slot_swaps(claim, turns, frozenset()) == []
    unbounded = calls[0]
    calls[0] = 0
    monkeypatch.setattr(slot_swaps, "MAX_STEPS", 500)
    assert slot_swaps.claim_slot_swaps(claim, turns, frozenset()) == []
    assert calls[0] <= 500 + 6 < unbounded


def test_exclamations_are_read_at_most_max_evaluations_times(monkeypatch) -> None:
    # session 13: "What a disaster" repeated through a claim at the size limit
    turns = [SourceTurn(id="t", text="The launch was on Tuesday.", source="user")]
    claim = "What a disaster the launch was! " * 500  # 16,000 characters
    calls = _count_calls(monkeypatch, opinion, "_exclaimed")
    assert opinion.added_evaluations(claim, turns)
    assert 0 < calls[0] <= opinion.MAX_EVALUATIONS


def test_a_standard_is_read_as_a_format_once_per_mention(monkeypatch) -> None:
    # session 13: the modifier reading looks at a bounded window around each mention,
    # once per mention, however many a claim at the size limit holds
    from groundwire.guards import bibrefs

    claim = "Dates use ISO 8601 format. " * 592  # 16,000 characters
    calls = _count_calls(monkeypatch, bibrefs, "_names_a_format")
    assert bibrefs.phantom_bibrefs(claim, ["x" * 50_000]) == []
    assert calls[0] == 592


def _scan(theirs: list, dimension: str, size: float) -> int | None:
    """The plain scan `_Index.first` replaces."""
    for n, (_, m) in enumerate(theirs):
        if m[1] == dimension and _same(size, m[2]):
            return n
    return None


def test_magnitude_index_finds_what_the_scan_finds() -> None:
    rng = random.Random(7)
    sizes = [float(rng.randint(0, 30)) * rng.choice((1, 1e3, 1e-3)) for _ in range(300)]
    sizes += [0.2, 200 * 1e-3, 5e6, 5_000_000.000000001]  # equal within _same's tolerance
    theirs = [(None, (n, rng.choice(("", "time", "data")), s, ())) for n, s in enumerate(sizes)]
    index = _Index(theirs)  # type: ignore[arg-type]
    for size in [*sizes, 7.5, 1e12, 0.0]:
        for dimension in ("", "time", "data", "money:dollar"):
            assert index.first(dimension, size) == _scan(theirs, dimension, size)
    assert magnitudes._same(0.2, 200 * 1e-3)


def _runs_of(rng: random.Random) -> tuple[list[str], dict[str, tuple[int, ...]]]:
    """A random claim stem list and source positions over a small alphabet (repeats
    everywhere), the source cut into sentences by "\\0" as `_turn_evidence` does."""
    alphabet = "abcd"[: rng.randint(1, 4)]
    source = [rng.choice(alphabet + "\0") for _ in range(rng.randint(0, 40))]
    positions: dict[str, tuple[int, ...]] = {}
    for j, st in enumerate(source):
        positions[st] = (*positions.get(st, ()), j)
    return [rng.choice(alphabet + "z") for _ in range(rng.randint(0, 40))], positions


def test_longest_run_automaton_finds_what_the_direct_reading_finds() -> None:
    rng = random.Random(11)
    for _ in range(2_000):
        stems, positions = _runs_of(rng)
        direct = features._longest_run_direct(stems, positions)
        assert features._longest_run_automaton(stems, positions) == direct
    # a run across a sentence end is not a run
    assert features._longest_run_automaton(["a", "b"], {"a": (0,), "\0": (1,), "b": (2,)}) == 1


def test_longest_run_reads_past_the_budget_with_the_automaton(monkeypatch) -> None:
    used: list[str] = []
    for name in ("_longest_run_direct", "_longest_run_automaton"):
        plain = getattr(features, name)
        monkeypatch.setattr(
            features, name, lambda s, p, name=name, plain=plain: used.append(name) or plain(s, p)
        )
    # one word through claim and source: every claim word visits every source position
    positions = {"cat": tuple(range(0, 800, 2)), "\0": tuple(range(1, 800, 2))}
    monkeypatch.setattr(features, "MAX_RUN_POSITIONS", 400 * 300 - 1)
    assert features._longest_run(["cat"] * 300, positions) == 1
    assert used == ["_longest_run_automaton"]
    used.clear()  # the control: at the budget, the direct reading
    monkeypatch.setattr(features, "MAX_RUN_POSITIONS", 400 * 300)
    assert features._longest_run(["cat"] * 300, positions) == 1
    assert used == ["_longest_run_direct"]


API = "The old API was deprecated in 2023 and removed in 2024."


def _crossed(monkeypatch, claim: str, source: str) -> list[tuple[str, str]]:
    """The pairs `crossed_clauses` reports while verifying `claim` against `source`."""
    found: list[tuple[str, str]] = []
    plain = crossing.crossed_clauses

    def spy(*args):  # type: ignore[no-untyped-def]
        found.extend(plain(*args))
        return found

    monkeypatch.setattr(features, "crossed_clauses", spy)
    verify(claim, source)
    return found


def test_crossed_clauses_stops_at_its_budgets(monkeypatch) -> None:
    claim = "The old API was removed in 2023"
    assert _crossed(monkeypatch, claim, API) == [("removed", "deprecated")]  # the control
    for budget in ("MAX_CROSSINGS", "MAX_SENTENCE_READS"):
        with monkeypatch.context() as m:
            m.setattr(crossing, budget, 0)
            assert _crossed(m, claim, API) == []  # nothing past it


def test_crossed_clauses_reads_a_repeated_clause_once(monkeypatch) -> None:
    calls = _count_calls(monkeypatch, crossing, "_crossing")
    # every claim clause is held by every sentence, none crossed: without the replay each
    # of 40 clauses reads all 50 sentences
    assert _crossed(monkeypatch, "cat dog. " * 40, "cat sat and dog ran. " * 50) == []
    assert calls[0] == 50
    # the control: a repeated crossed clause is still reported, re-reading one sentence
    calls[0] = 0
    claim = "The old API was removed in 2023. The old API was removed in 2023."
    assert _crossed(monkeypatch, claim, "The API is new. " + API) == [("removed", "deprecated")]
    assert calls[0] == 2


def test_crossed_clauses_work_stops_at_the_budget(monkeypatch) -> None:
    calls = _count_calls(monkeypatch, crossing, "_crossing")
    # clauses of different words (a replay cannot collapse them), each held by every sentence
    fillers = ["the", "a", "this", "that", "of", "to"]
    claim = " ".join(f"the cat ate {a} {b} dog." for a in fillers for b in fillers)
    source = "the cat sat and the dog ate. " * 40
    monkeypatch.setattr(crossing, "MAX_CROSSINGS", 10**9)
    _crossed(monkeypatch, claim, source)
    unbounded = calls[0]
    calls[0] = 0
    monkeypatch.setattr(crossing, "MAX_CROSSINGS", 100)
    _crossed(monkeypatch, claim, source)
    assert calls[0] <= 100 < unbounded


def test_core_substance_reads_the_core_once_at_the_size_limits(monkeypatch) -> None:
    """A claim at the 16,000-character limit whose core reaches the rescue, against a
    short source and against 50,000 characters of evidence: the rule runs at most once
    per claim and tokenises the core once (`core_substance.py`)."""
    checks = _count_calls(monkeypatch, verifier, "core_has_substance")
    reads = _count_calls(monkeypatch, core_substance, "claim_words")
    festival = "The harvest festival is celebrated by farmers in the autumn season. "
    claim = (
        "People celebrate it on the 12th and 13th with " + " ".join(f"w{i}x" for i in range(4000))
    )[:16_000]
    report = verify(claim, festival)
    assert checks[0] == 1 and reads[0] == 1  # reached, and read once
    assert report.verdict.value == "not_supported"
    long_source = (festival + " ".join(f"q{i}z." for i in range(20_000)))[:50_000]
    checks[0] = reads[0] = 0
    verify(claim, long_source)
    assert checks[0] <= 1 and reads[0] == checks[0]


def test_denied_predicates_reads_each_source_word_once(monkeypatch) -> None:
    """A claim at the 16,000-character limit of distinct predicates ("It is w0x. It is
    w1x. ..."), each denied in 50,000 characters of evidence: the source is read once,
    word by word (one `_denial` per use of a predicate's stem), never claim predicate by
    source word; the control is that the denials are still found."""
    calls = _count_calls(monkeypatch, denied_predicates, "_denial")
    claim = " ".join(f"It is w{i}x." for i in range(3000))[:16_000]
    source = " ".join(f"It is not w{i}x." for i in range(5000))[:50_000]
    found = denied_predicates.denied_predicates(claim, [SourceTurn(id="t", text=source)])
    assert found[0] == ("w0x", "not w0x")  # the control: still read at the limits
    predicates = claim.count(" is ") + 1
    assert 0 < calls[0] <= predicates  # each use of a predicate's stem, once


def test_speaker_acts_reads_each_word_once_at_the_size_limits(monkeypatch) -> None:
    """A 16,000-character claim of names doing things to a speaker ("Lee0x will meet Ann
    at the gate.") against 50,000 characters of transcript in which each speaker says "I
    will meet him": every claim and source word looks for its verb at most once (a
    window of `REACH` words), never claim word by source line; the control is that the
    swaps are still found."""
    calls = _count_calls(monkeypatch, speaker_acts, "_verb_after")
    claim = " ".join(f"Lee{i}x will meet Ann at the gate." for i in range(1000))[:16_000]
    source = " ".join(f"Ann: I will meet him at gate {i}. Bob: ok {i}." for i in range(2000))
    turns = [SourceTurn(id="t", text=source[:50_000])]
    found = speaker_acts.swapped_doers(claim, turns)
    assert found[0] == ("Lee0x", "Ann")  # the control: still read at the limits
    words = len(claim.split()) + len(source[:50_000].split())
    assert 0 < calls[0] <= words


def test_denied_predicates_reads_one_long_clause_in_one_pass(monkeypatch) -> None:
    """A 16,000-character claim of one clause with no mark ("it is w0x it is w1x ..."):
    whether a negation opens the clause before each copula, and whether a question mark
    ends its sentence, are each found in one pass over the claim (`_blocked`, `_asked`),
    not by a scan back to the clause's start or forward to the next mark per predicate."""
    passes = _count_calls(monkeypatch, denied_predicates, "_blocked")
    marks = _count_calls(monkeypatch, denied_predicates, "_asked")
    claim = " ".join(f"it is w{i}x" for i in range(3000))[:16_000]
    source = " ".join(f"it is not w{i}x." for i in range(5000))[:50_000]
    found = denied_predicates.denied_predicates(claim, [SourceTurn(id="t", text=source)])
    assert found[0] == ("w0x", "not w0x")  # the control: still read
    assert passes[0] == 1 and marks[0] == 1
