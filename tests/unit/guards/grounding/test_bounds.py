"""Structural bounds on the lexical rules' work per claim (session 12, bounded inputs).

A claim and source at the size limits made of one pattern repeated made several rules
pair every copy with every other (seconds to minutes per claim; timed in
bench/bench_grounding.py, never here). These tests check that each bound holds as
written and that the indexed readings give the answers of the plain scans."""

from __future__ import annotations

import random

from groundwire.guards.grounding.lexical import magnitudes, opinion, roles, slot_swaps
from groundwire.guards.grounding.lexical.magnitudes import _Index, _same
from groundwire.topics.records import SourceTurn


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
    calls = [0]
    plain = slot_swaps._same

    def counted(*args: str) -> bool:
        calls[0] += 1
        return plain(*args)

    monkeypatch.setattr(slot_swaps, "_same", counted)
    monkeypatch.setattr(slot_swaps, "MAX_STEPS", 10**9)
    assert slot_swaps.claim_slot_swaps(claim, turns, frozenset()) == []
    unbounded = calls[0]
    calls[0] = 0
    monkeypatch.setattr(slot_swaps, "MAX_STEPS", 500)
    assert slot_swaps.claim_slot_swaps(claim, turns, frozenset()) == []
    # each word read costs a step and at most two comparisons; a sentence's words are
    # charged before they are read, so one sentence may pass the budget
    assert calls[0] <= 2 * (500 + 6) < unbounded


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
