"""Session 13 (second red team): hedge wording the lexicon missed, each sent to the tier
its category has (docs/spec.md §Hedges), and the same words in ordinary use left alone."""

from __future__ import annotations

import pytest

from groundwire.guards.hedge import analyze
from groundwire.topics.vocab import HedgeAction, HedgeCategory

BLOCK, REVIEW = HedgeAction.BLOCK, HedgeAction.REVIEW


@pytest.mark.parametrize(
    ("text", "action", "category"),
    [
        # the claim marked unchecked by a sentence or a note of its own: admitted
        ("We use Redis for the session cache. Unverified.", BLOCK, "admitted_uncertainty"),
        ("Unconfirmed! We use Redis for the session cache.", BLOCK, "admitted_uncertainty"),
        ("We use Redis for the session cache (Unverified.)", BLOCK, "admitted_uncertainty"),
        # the claim labelled the writer's conjecture: personal speculation
        ("We use Redis for the session cache (Speculation.)", BLOCK, "personal_speculation"),
        ("We use Redis for the session cache. Conjecture.", BLOCK, "personal_speculation"),
        # "my guess" as a note of its own: personal speculation
        ("My guess, we use Redis for the session cache.", BLOCK, "personal_speculation"),
        ("We use Redis for the session cache (my guess).", BLOCK, "personal_speculation"),
        # a supposition adverb, like "presumably": a technical hedge
        ("Hypothetically, we use Redis for the session cache.", REVIEW, "technical_hedge"),
        # eye-dialect: an apostrophe for letters left out of a hedge word
        ("We prob'ly use Redis for the session cache.", REVIEW, "technical_hedge"),
        ("I s'pose we use Redis for the session cache.", BLOCK, "personal_speculation"),
        # the thinking face closing the claim: the writer's doubt, as "I wonder"
        ("We use Redis for the session cache 🤔", BLOCK, "admitted_uncertainty"),
        ("We use Redis 🤔. It has 3 replicas.", BLOCK, "admitted_uncertainty"),
    ],
)
def test_disguised_hedges_are_caught(text: str, action: HedgeAction, category: str) -> None:
    report = analyze(text)
    assert report.action is action
    assert report.category is HedgeCategory(category)


@pytest.mark.parametrize(
    "text",
    [
        "Unverified accounts are disabled after 30 days.",
        "The login page rejects unverified emails.",
        "The hypothesis was verified by the load test.",
        "Speculation about the outage was wrong.",
        "The benchmark matched my guess.",
        "That was my guess, and the benchmark confirmed it.",
        "Hypothesis testing runs in the nightly job.",
        "O'Brien's team doesn't run Redis; it'll move, y'all, at 5 o'clock.",
        "🤔 Why does the cache use Redis? Because sessions need it.",
        "We use Redis for the session cache.",
    ],
)
def test_ordinary_uses_stay_unhedged(text: str) -> None:
    assert analyze(text).action is HedgeAction.NONE
