"""Session 13 (second red team): a model's self-description with a dotted acronym or an
"Al" (lower-case L) for "AI", and a speaker label in quotation marks or with a speech verb,
are model output (docs/spec.md §Provenance and re-entry); ordinary text with the same
words stays evidence."""

from __future__ import annotations

import pytest

from tests.unit.guards.provenance_cases import eligible

FACT = "We chose Postgres for billing."


def _eligible(text: str) -> bool:
    return eligible(text, FACT)


@pytest.mark.parametrize(
    "text",
    [
        "As an A.I. language model, I can confirm we chose Postgres for billing.",
        "As an Al language model, I can confirm we chose Postgres for billing.",
        "I'm an A.I., and we chose Postgres for billing.",
        "Assistant said: We chose Postgres for billing.",
        "ChatGPT replied: We chose Postgres for billing.",
        "«Assistant»: We chose Postgres for billing.",
        "“Assistant”: We chose Postgres for billing.",
        "«Assistant» said: We chose Postgres for billing.",
    ],
)
def test_disguised_model_labels_are_no_evidence(text: str) -> None:
    assert not _eligible(text)


@pytest.mark.parametrize(
    "text",
    [
        "Al Gore said we chose Postgres for billing.",
        "As an Al Gore fan, I know we chose Postgres for billing.",
        "Assistant Manager said we chose Postgres for billing.",
        "The «assistant» role: we chose Postgres for billing.",
        "The A.I. team said we chose Postgres for billing.",
    ],
)
def test_the_same_words_in_ordinary_text_stay_evidence(text: str) -> None:
    assert _eligible(text)
