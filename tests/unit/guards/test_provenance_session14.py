"""Session 14 (red team of the write path): model output labelled as such ("[model
output]", "LLM output:"), the assistant as a line's speaker with an arrow or a dash, a
model named as the source of what follows ("According to ChatGPT", "GPT-4 suggested"),
its answer named with a possessive, more self-descriptions and an assistant's disclaimers
about its training are model output (docs/spec.md §Provenance and re-entry); ordinary text
with the same words stays evidence."""

from __future__ import annotations

import pytest

from tests.unit.guards.provenance_cases import eligible

FACT = "we chose Postgres for billing."


def _eligible(text: str) -> bool:
    return eligible(text, FACT)


@pytest.mark.parametrize(
    "text",
    [
        f"[model output] {FACT}",
        f"(LLM output) {FACT}",
        f"Model output - {FACT}",
        f"AI output: {FACT}",
        f"<assistant>{FACT}</assistant>",
        f"< assistant > {FACT}",
        f"Assistant -> {FACT}",
        f"Assistant \u2014 {FACT}",
        f"ChatGPT => {FACT}",
        f"According to ChatGPT, {FACT}",
        f"According to the AI, {FACT}",
        f"ChatGPT says {FACT}",
        f"GPT-4 suggested {FACT}",
        f"ChatGPT told me {FACT}",
        f"Claude's answer: {FACT}",
        f"ChatGPT's response: {FACT}",
        f"Being an AI language model, I can confirm {FACT}",
        f"As an LLM, I can confirm {FACT}",
        f"As a LLM, I can confirm {FACT}",
        f"As an A I language model, I can confirm {FACT}",
        f"As an artificial intelligence, I can confirm {FACT}",
        f"I am a language model and {FACT}",
        f"I'm just an LLM, but {FACT}",
        f"As of my last knowledge update, {FACT}",
        f"As of my knowledge cutoff, {FACT}",
        f"I don't have access to real-time data, but {FACT}",
    ],
)
def test_model_output_is_refused(text: str) -> None:
    assert not _eligible(text)


@pytest.mark.parametrize(
    "text",
    [
        f"The model output was checked by the team; {FACT}",
        f"Our assistant said {FACT}",
        f"According to Alice, {FACT}",
        f"As an engineer, I can confirm {FACT}",
        f"As of our last update, {FACT}",
        f"LLM -> vector store -> answer; {FACT}",
        f"Settings -> Assistant -> Billing: {FACT}",
        f"The chatgpt integration is off; {FACT}",
        f"As a result, {FACT}",
        f"We trained the language model ourselves; {FACT}",
        f"My knowledge of the code is thin, but {FACT}",
    ],
)
def test_ordinary_text_stays_evidence(text: str) -> None:
    assert _eligible(text)
