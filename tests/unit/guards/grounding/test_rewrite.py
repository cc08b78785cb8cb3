"""The offline rewrite of a PARTIAL claim (grounding.rewrite_partial, docs/spec.md
§Grounding): keep what the evidence supports, never replace the claim's content."""

from __future__ import annotations

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding.lexical import LexicalVerifier
from groundwire.guards.protocols import GroundingRequest
from groundwire.topics.records import Claim, GroundingReport, SourceTurn
from groundwire.topics.vocab import GroundingVerdict

MVP = "I think I should be done with the MVP by end of April, pretty confident."


def verify(content: str, text: str, **cfg: object) -> GroundingReport:
    turns = [SourceTurn(id="turn-1", text=text, source="corpus")]
    c = Claim(claim_id="c", tenant_id="t", content=content, source="chat", source_turns=turns)
    return LexicalVerifier(GroundingConfig(**cfg)).verify_one(GroundingRequest(c, turns))  # type: ignore[arg-type]


def test_the_sharpened_plan_is_softened_to_what_was_said() -> None:
    """docs/spec.md §Grounding: the exact date and the percentage go, the deadline the
    speaker gave comes back in their words, and "will" follows the hedged source."""
    report = verify("Georgian will deliver the Inbox3 MVP by April 30 with 95% confidence", MVP)
    assert report.verdict is GroundingVerdict.PARTIAL
    assert report.rewritten_content == "Georgian expects to deliver the MVP by end of April"


def test_a_named_path_is_taken_from_the_source_whole() -> None:
    report = verify(
        "The retry logic lives in src/worker/retry_policy.py",
        "The retry logic is in src/worker/retry.py.",
    )
    assert report.verdict is GroundingVerdict.PARTIAL
    assert report.rewritten_content == "The retry logic lives in src/worker/retry.py"


def test_no_rewrite_when_switched_off_or_not_partial() -> None:
    off = verify(
        "Georgian will deliver the Inbox3 MVP by April 30 with 95% confidence",
        MVP,
        rewrite_partial=False,
    )
    assert off.verdict is GroundingVerdict.PARTIAL and off.rewritten_content is None
    supported = verify("The MVP is done by end of April", MVP)
    assert supported.rewritten_content is None
    refuted = verify("Georgian works at Google", MVP)
    assert refuted.verdict is GroundingVerdict.NOT_SUPPORTED and refuted.rewritten_content is None


def test_a_listed_fact_the_evidence_has_nothing_of_is_dropped_whole() -> None:
    """Memory layers list facts with semicolons: an unfounded one goes whole, not down to
    a stray verb ("Lives in Berlin moved")."""
    report = verify("Lives in Berlin; moved from Munich in 2023", "I live in Berlin now.")
    assert report.verdict is GroundingVerdict.PARTIAL
    assert report.rewritten_content == "Lives in Berlin"
    # a listed fact the evidence has a word of is cut down as before, not dropped
    kept = verify("Lives in Berlin; moved from Munich in 2023", "I live in Berlin. I moved.")
    assert kept.rewritten_content is None or "moved" in kept.rewritten_content


def test_no_rewrite_that_only_loses_punctuation() -> None:
    """The phrases are joined with spaces: a rewrite that drops no word is no rewrite."""
    report = verify("Manager: Dana", "My manager is Dana.")
    assert report.rewritten_content is None


def test_no_coordinator_is_left_dangling_where_a_listed_name_goes() -> None:
    report = verify("Speaks French and German", "I speak French.")
    assert report.rewritten_content == "Speaks French"
