"""Model output under other model families' names or as a reply heading ("Bard:", "Response
from GPT-4:", "### Assistant") is no evidence (docs/spec.md §Provenance and re-entry);
ordinary text with those words stays evidence."""

from __future__ import annotations

import pytest

from tests.unit.guards.provenance_cases import eligible

FACT = "We chose Postgres for billing."


def _eligible(text: str) -> bool:
    return eligible(text, FACT)


@pytest.mark.parametrize(
    "text",
    [
        "Bard: We chose Postgres for billing.",
        "Llama-3: We chose Postgres for billing.",
        "Response from GPT-4: We chose Postgres for billing.",
        "Output of Claude: We chose Postgres for billing.",
        "### Assistant\nWe chose Postgres for billing.",
        "This summary was written by Mistral. We chose Postgres for billing.",
    ],
)
def test_model_output_by_other_names_is_no_evidence(text: str) -> None:
    assert not _eligible(text)


@pytest.mark.parametrize(
    "text",
    [
        "The response from the team: we chose Postgres for billing.",
        "### Assistant manager notes\nWe chose Postgres for billing.",
        "Our bard wrote a song. We chose Postgres for billing.",
        "User: We chose Postgres for billing.",
    ],
)
def test_ordinary_text_with_those_words_stays_evidence(text: str) -> None:
    assert _eligible(text)
