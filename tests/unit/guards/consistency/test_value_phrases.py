"""A preference's value of a few words (`kinds.changed_span`): "prefers email for
updates" / "prefers phone calls for updates" is one choice made two ways (the domain
"updates" after "for"), as "email" / "Slack" was; the pairs that were distinct stay so."""

from __future__ import annotations

import pytest

from groundwire.guards.consistency.config import ConsistencyConfig
from groundwire.guards.consistency.judge import rule_verdict
from groundwire.guards.consistency.kinds import changed_span
from groundwire.guards.consistency.signals import Cluster
from groundwire.topics.vocab import ConsistencySignal, ConsistencyVerdict
from tests.support.memories import memory

CFG = ConsistencyConfig()
NOW = frozenset({"now"})


def test_changed_span_is_the_one_run_the_sentences_differ_in() -> None:
    a = ["the", "user", "prefers", "email", "for", "updates"]
    b = ["the", "user", "now", "prefers", "phone", "calls", "for", "updates"]
    assert changed_span(a, b, NOW) == ("email", "phone calls")
    two_runs = ["the", "user", "prefers", "coffee", "in", "the", "evening"]
    assert (
        changed_span(["the", "user", "prefers", "tea", "in", "the", "morning"], two_runs, NOW)
        is None
    )
    added = ["the", "user", "prefers", "green", "tea"]
    assert changed_span(["the", "user", "prefers", "tea"], added, NOW) is None
    long = ["the", "user", "prefers", "a", "very", "long", "winding", "walk", "for", "updates"]
    assert changed_span(a, long, NOW) is None  # more than MAX_VALUE_WORDS


def _verdict(a: str, b: str) -> ConsistencyVerdict:
    members = (memory("a", a), memory("b", b))
    return rule_verdict(Cluster(members, frozenset({ConsistencySignal.SEMANTIC})), CFG).verdict


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("The user prefers email for updates", "The user prefers phone calls for updates"),
        ("The user prefers text messages for updates", "The user prefers phone calls for updates"),
    ],
)
def test_values_of_a_few_words_compete_in_one_domain(a: str, b: str) -> None:
    assert _verdict(a, b) is ConsistencyVerdict.CONTRADICTION


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("The user prefers email for updates", "The user prefers phone calls for alerts"),
        ("The user prefers tea in the morning", "The user prefers coffee in the evening"),
        ("The user prefers tea", "The user prefers green tea"),
        ("The user prefers tea", "The user prefers board games"),
    ],
)
def test_controls_stay_distinct(a: str, b: str) -> None:
    assert _verdict(a, b) is not ConsistencyVerdict.CONTRADICTION
