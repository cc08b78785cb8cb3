"""The shrug (emoticon or emoji) admits uncertainty as plainly as "no idea"; text without
one is untouched."""

from __future__ import annotations

import pytest

from groundwire.guards.hedge import analyze
from groundwire.topics.vocab import HedgeAction, HedgeCategory


@pytest.mark.parametrize(
    "text",
    ["We use Redis for sessions ¯\\_(ツ)_/¯", "We use Redis 🤷", "We use Redis 🤷\u200d♀️ now"],
)
def test_the_shrug_admits_uncertainty(text: str) -> None:
    report = analyze(text)
    assert report.action is HedgeAction.BLOCK
    assert report.category is HedgeCategory.ADMITTED_UNCERTAINTY


@pytest.mark.parametrize("text", ["We use Redis for sessions.", "The ツアー starts in May 2024."])
def test_no_shrug_no_hedge(text: str) -> None:
    assert analyze(text).action is HedgeAction.NONE
