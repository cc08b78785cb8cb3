"""Whose "I" grounds a claim's "I" (`lexical/first_person_source.py`): a document that
quotes someone in the first person no longer makes every first-person statement of the
claim the source's; a first-person source sentence about the same thing still does."""

from __future__ import annotations

import pytest

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding.lexical import LexicalVerifier, analyze
from groundwire.guards.grounding.lexical import features as features_module
from groundwire.guards.protocols import GroundingRequest
from groundwire.topics.records import Claim, GroundingReport, SourceTurn
from groundwire.topics.vocab import GroundingVerdict

CFG = GroundingConfig()
PAGE = (
    "Critic Dana Holt wrote: I found the ending dull. "
    "The film premiered at Cannes in 2017 and was directed by Ana Ruiz."
)
USER = "I moved to Berlin in May and started a new job at Acme."


def _turns(text: str, source: str) -> list[SourceTurn]:
    return [SourceTurn(id="t1", text=text, source=source)]


def _verify(claim: str, text: str, source: str = "corpus") -> GroundingReport:
    turns = _turns(text, source)
    c = Claim(claim_id="c1", tenant_id="t1", content=claim, source="chat", source_turns=turns)
    return LexicalVerifier(CFG).verify_one(GroundingRequest(c, turns))


def _first(claim: str, text: str, source: str = "corpus") -> float:
    return analyze(claim, _turns(text, source), set()).features["first_person"]


@pytest.mark.parametrize(
    "claim",
    ["I saw the film at Cannes in 2017.", "I watched it when it premiered at Cannes in 2017."],
)
def test_a_quoted_critics_i_does_not_ground_the_speakers_i(
    claim: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _first(claim, PAGE) == 1.0
    report = _verify(claim, PAGE)
    assert report.verdict is GroundingVerdict.NOT_SUPPORTED
    assert "first-person statement the source does not make" in report.reasoning
    # without the rule any "I" of the source let the claim's pass
    monkeypatch.setattr(features_module, "first_person_unheld", lambda *_: False)
    assert _first(claim, PAGE) == 0.0
    assert _verify(claim, PAGE).verdict is not GroundingVerdict.NOT_SUPPORTED


@pytest.mark.parametrize(
    ("claim", "text", "source"),
    [
        ("I found that the ending was dull.", PAGE, "corpus"),  # the critic's own sentence
        ("I moved to Berlin in May.", USER, "user"),  # the user's own words
        ("I started a new job at Acme.", USER, "user"),
        ("The film premiered at Cannes in 2017.", PAGE, "corpus"),  # no first person
    ],
)
def test_a_first_person_source_sentence_about_it_still_holds_the_claim(
    claim: str, text: str, source: str
) -> None:
    assert _first(claim, text, source) == 0.0


def test_a_source_without_a_first_person_reads_as_before() -> None:
    # control: no "I" in the source, the claim's "I" was and is unheld
    text = "The film premiered at Cannes in 2017 and was directed by Ana Ruiz."
    assert _first("I saw the film at Cannes in 2017.", text) == 1.0


def test_the_source_is_read_once_whatever_the_claims_sentences(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # bounded work at the size limits (calls counted, not timed): each first-person source
    # sentence is read once per evidence, not once per claim sentence
    from groundwire.guards.grounding.lexical import first_person_source as module
    from groundwire.guards.grounding.lexical.evidence import evidence_for

    seen: list[int] = []
    real = module.first_person_in

    def counting(raws, lows, *args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(len(lows))
        return real(raws, lows, *args, **kwargs)

    monkeypatch.setattr(module, "first_person_in", counting)
    turns = _turns(("I sat down. " * 5000)[:50_000], "user")
    claim = ("I ran home. " * 1500)[:16_000]
    sentences = len(evidence_for(turns).sentences)
    claim_sentences = claim.count(".")
    for _ in range(3):  # later claims against the same evidence read it no more
        assert analyze(claim, turns, set()).features["first_person"] == 1.0
    assert len(seen) <= sentences + 3 * claim_sentences
