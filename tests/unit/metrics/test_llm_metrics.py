"""LLM cost metrics: bounded labels that match the client's vocabulary, wired by telemetry.

* every outcome and caller the guards' LLM client can report has its own label (the two
  closed sets are defined on both sides of the guards/metrics boundary; this test is
  what keeps them equal);
* hostile caller or outcome strings land in `other`, never in a new series;
* `streams.telemetry.watch_llm_usage` routes the client's reports to the counters;
* the rule file selects only label values the code writes.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from typing import get_args

import pytest

from groundwire.guards.grounding import llm_client
from groundwire.metrics import llm
from groundwire.metrics.registry import REGISTRY
from groundwire.streams import telemetry
from tests.support import REPO


def value(name: str, **labelset: str) -> float:
    return REGISTRY.get_sample_value(name, labelset) or 0.0


def series(name: str) -> int:
    return sum(1 for family in REGISTRY.collect() for s in family.samples if s.name == name)


@pytest.fixture
def watched() -> Iterator[None]:
    telemetry.watch_llm_usage()
    yield
    llm_client.set_observers()


def test_every_client_outcome_has_a_label() -> None:
    assert set(get_args(llm_client.CallOutcome)) == set(llm.LLM_CALL_OUTCOMES) - {"other"}
    assert set(llm_client.CLAIM_OUTCOMES) == set(llm.LLM_CLAIM_OUTCOMES) - {"other"}
    claim_outcomes = get_args(llm_client.LlmClaimUsage.__annotations__["outcome"])
    assert not claim_outcomes or set(claim_outcomes) <= set(llm.LLM_CLAIM_OUTCOMES)


def test_series_exist_at_zero() -> None:
    for caller in llm.LLM_CALLERS:
        for outcome in llm.LLM_CALL_OUTCOMES:
            labels = {"caller": caller, "outcome": outcome}
            assert REGISTRY.get_sample_value("groundwire_llm_calls_total", labels) is not None
    for outcome in llm.LLM_CLAIM_OUTCOMES:
        labels = {"outcome": outcome}
        assert REGISTRY.get_sample_value("groundwire_llm_claims_total", labels) is not None


def test_client_reports_reach_the_counters(watched: None) -> None:
    before_in = value("groundwire_llm_tokens_total", caller="grounding", kind="prompt")
    before_out = value("groundwire_llm_tokens_total", caller="grounding", kind="completion")
    before_calls = value("groundwire_llm_calls_total", caller="grounding", outcome="truncated")
    before_claims = value("groundwire_llm_claims_total", outcome="over_budget")
    before_n = value("groundwire_llm_claim_seconds_count")
    llm_client._notify("call", llm_client.LlmCallUsage("grounding", "truncated", 700, 512, 9.5))
    llm_client.observe_claim(llm_client.LlmClaimUsage("over_budget", 0, 0, 0.0))
    llm_client.observe_claim(llm_client.LlmClaimUsage("answered", 700, 512, 9.6))
    assert value("groundwire_llm_tokens_total", caller="grounding", kind="prompt") == (
        before_in + 700
    )
    assert value("groundwire_llm_tokens_total", caller="grounding", kind="completion") == (
        before_out + 512
    )
    assert (
        value("groundwire_llm_calls_total", caller="grounding", outcome="truncated")
        == before_calls + 1
    )
    assert value("groundwire_llm_claims_total", outcome="over_budget") == before_claims + 1
    assert value("groundwire_llm_claim_seconds_count") == before_n + 1  # over_budget: no time


def test_a_failing_observer_never_fails_the_call() -> None:
    def boom(_usage: object) -> None:
        raise RuntimeError("metrics down")

    llm_client.set_observers(on_call=boom, on_claim=boom)
    try:
        llm_client._notify("call", llm_client.LlmCallUsage("grounding", "ok", 1, 1, 0.1))
        llm_client.observe_claim(llm_client.LlmClaimUsage("answered", 1, 1, 0.1))
    finally:
        llm_client.set_observers()


def test_label_cardinality_is_bounded_under_hostile_input() -> None:
    for _ in range(2000):
        junk = secrets.token_hex(8)
        llm.observe_llm_call(junk, junk, 1, 1, 0.01)
        llm.observe_llm_claim(junk, 0.01)
    assert series("groundwire_llm_calls_total") <= len(llm.LLM_CALLERS) * len(llm.LLM_CALL_OUTCOMES)
    assert series("groundwire_llm_tokens_total") <= len(llm.LLM_CALLERS) * len(llm.TOKEN_KINDS)
    assert series("groundwire_llm_claims_total") <= len(llm.LLM_CLAIM_OUTCOMES)
    assert value("groundwire_llm_calls_total", caller="other", outcome="other") >= 2000


_SELECTOR = re.compile(r"\b(groundwire_llm_[a-z_]+)\{([^}]*)\}")
_MATCHER = re.compile(r'([a-z_]+)\s*(=~|=|!=)\s*"([^"]*)"')
_ALLOWED = {
    "groundwire_llm_tokens_total": {"caller": llm.LLM_CALLERS, "kind": llm.TOKEN_KINDS},
    "groundwire_llm_calls_total": {"caller": llm.LLM_CALLERS, "outcome": llm.LLM_CALL_OUTCOMES},
    "groundwire_llm_claims_total": {"outcome": llm.LLM_CLAIM_OUTCOMES},
}


def test_rules_select_only_values_the_code_writes() -> None:
    checked = 0
    for path in sorted((REPO / "metrics" / "rules").rglob("*.yml")):
        for metric, body in _SELECTOR.findall(path.read_text()):
            known = _ALLOWED.get(metric, {})
            for label, op, wanted in _MATCHER.findall(body):
                if label in known:
                    values = wanted.split("|") if op == "=~" else [wanted]
                    for v in values:
                        assert v in known[label], f'{path.name}: {metric}{{{label}="{v}"}}'
                        checked += 1
    assert checked >= 5


def test_a_scan_report_carries_its_judge_calls_to_the_counters(watched: None) -> None:
    """`groundwire scan` runs in a process of its own (CLI, CronJob, the worker's child):
    its LLM judge's calls are tallied there, travel in the scan's report, and are counted
    by the memory stage that reads it. Other callers' calls in the scan's process still
    reach the observer that was set."""
    from datetime import UTC, datetime

    from groundwire.metrics import consistency
    from groundwire.topics.memory import ScanReport

    before_ok = value("groundwire_llm_calls_total", caller="judge", outcome="ok")
    before_cut = value("groundwire_llm_calls_total", caller="judge", outcome="truncated")
    before_in = value("groundwire_llm_tokens_total", caller="judge", kind="prompt")
    before_out = value("groundwire_llm_tokens_total", caller="judge", kind="completion")
    before_n = value("groundwire_llm_call_seconds_count", caller="judge")
    before_grounding = value("groundwire_llm_calls_total", caller="grounding", outcome="ok")
    with llm_client.CallTally("judge") as tally:
        llm_client._notify("call", llm_client.LlmCallUsage("judge", "ok", 400, 80, 6.5))
        llm_client._notify("call", llm_client.LlmCallUsage("judge", "truncated", 410, 512, 20.0))
        llm_client._notify("call", llm_client.LlmCallUsage("grounding", "ok", 300, 40, 2.0))
    # the tally kept the judge's calls away from this process's counters...
    assert value("groundwire_llm_calls_total", caller="judge", outcome="ok") == before_ok
    # ...passed the other caller's on, and gave the observer back afterwards
    assert (
        value("groundwire_llm_calls_total", caller="grounding", outcome="ok")
        == before_grounding + 1
    )
    llm_client._notify("call", llm_client.LlmCallUsage("grounding", "ok", 1, 1, 0.1))
    assert (
        value("groundwire_llm_calls_total", caller="grounding", outcome="ok")
        == before_grounding + 2
    )
    assert tally.calls == {"ok": 1, "truncated": 1}
    assert (tally.prompt_tokens, tally.completion_tokens) == (810, 592)

    from groundwire.streams.memory.scan_job import _judge_usage

    usage = _judge_usage(tally)
    assert usage is not None
    now = datetime.now(UTC)
    report = ScanReport(
        run_id="r", started_at=now, finished_at=now, duration_s=1.0, complete=True, llm=usage
    )
    # through the wire format, as the memory stage reads it from memories.commands
    consistency.observe_scan(ScanReport.model_validate_json(report.model_dump_json()))
    assert value("groundwire_llm_calls_total", caller="judge", outcome="ok") == before_ok + 1
    assert (
        value("groundwire_llm_calls_total", caller="judge", outcome="truncated") == before_cut + 1
    )
    assert value("groundwire_llm_tokens_total", caller="judge", kind="prompt") == before_in + 810
    assert (
        value("groundwire_llm_tokens_total", caller="judge", kind="completion") == before_out + 592
    )
    assert value("groundwire_llm_call_seconds_count", caller="judge") == before_n + 2
    assert _judge_usage(llm_client.CallTally("judge")) is None  # the rule judge: no section
