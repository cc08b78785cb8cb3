"""Session 18 precision audit of the session's write-path rules: faithful restatements
that a rule refused (or fired on) and the narrowed reading that keeps them, each beside
the attack of its shape that the rule must still catch.

* `dropped_bounds.py`: a claim number the claim limits itself with a word of limit in
  the source's direction ("capped at 5000" for "at most 5000");
* `added_only.py`: a source that closes its list exclusive ("..., no other languages",
  "and nothing else");
* `frequency_periods.py`: a count before a period adverb ("twice monthly");
* `inverted_conditions.py`: a negated main clause turns the condition's pair round again
  ("If the tests fail, we don't deploy" / "We deploy unless the tests fail");
* `collective_owner.py` (it widens what counts as found): "we" is the subject of the
  claim's word (not "We think Acme is hiring", "We hope to use Go"), and the claim's
  team is the bare "the team" (not "the marketing team").
"""

from __future__ import annotations

import pytest

from groundwire.guards.grounding.lexical.changed_terms import changed_terms
from groundwire.guards.grounding.lexical.collective_owner import collective_owner_found
from groundwire.guards.grounding.lexical.evidence import evidence_for
from groundwire.guards.grounding.lexical.frequency_periods import frequencies
from groundwire.guards.grounding.lexical.text import claim_words
from groundwire.topics.vocab import GroundingVerdict
from tests.unit.guards.grounding.one_turn import one_turn, verify_one_turn

NOT = GroundingVerdict.NOT_SUPPORTED

# faithful: no session-18 rule fires, and the verifier does not refuse
KEPT = [
    ("The budget is capped at 5000 dollars.", "The budget is at most 5000 dollars."),
    ("The user only speaks English and French.", "I speak English and French, no other languages."),
    ("The user only eats fish.", "I eat fish and nothing else."),
    ("Payroll runs twice a month.", "Payroll runs twice monthly."),
    ("The user takes the pill twice a day.", "I take the pill twice daily."),
]

# faithful, with no rule of the session firing; an older sentence-level negation check
# still refuses it (on the base commit too), so only the rules are asserted
RULES_AGREE = [
    ("If the tests fail, the team doesn't deploy.", "We deploy unless the tests fail."),
    ("If it rains, the user doesn't bike.", "I bike unless it rains."),
]

# attacks of each narrowed shape: still refused by the rule and by the verifier
CAUGHT = [
    ("The budget is capped at 5000 dollars.", "The budget is at least 5000 dollars."),
    ("We run 10 replicas.", "We run up to 10 replicas."),
    ("The user only speaks English.", "I speak English and French."),
    ("Only Ana has admin access.", "Ana has admin access; no other changes were made."),
    ("Only Ana has admin access.", "Ana has admin access. Nothing else changed."),
    ("The user only speaks English.", "I speak English, and no one else in my family does."),
    ("Payroll runs twice a month.", "Payroll runs monthly."),
    ("Payroll runs twice a month.", "Payroll runs three times monthly."),
    ("Backups run daily.", "Backups run twice daily."),
    ("We deploy if the tests fail.", "We deploy unless the tests fail."),
    ("If the tests fail, the team deploys.", "We deploy unless the tests fail."),
]


@pytest.mark.parametrize(("claim", "source"), KEPT)
def test_kept(claim: str, source: str) -> None:
    assert changed_terms(claim, one_turn(source, "user")) == []
    assert verify_one_turn(claim, source, "user").verdict is not NOT


@pytest.mark.parametrize(("claim", "source"), RULES_AGREE)
def test_rules_agree(claim: str, source: str) -> None:
    assert changed_terms(claim, one_turn(source, "user")) == []


@pytest.mark.parametrize(("claim", "source"), CAUGHT)
def test_caught(claim: str, source: str) -> None:
    assert changed_terms(claim, one_turn(source, "user"))
    assert verify_one_turn(claim, source, "user").verdict is NOT


def test_count_before_period_adverb() -> None:
    def periods(text: str) -> list[tuple[float, ...]]:
        return [p for p, _, _ in frequencies(claim_words(text).lows)]

    assert periods("It runs twice monthly.") == [(15.0,)]
    assert periods("It runs 3 times weekly.") == [(7.0 / 3,)]
    assert periods("It runs monthly.") == [(30.0,)]


def _team_found(claim: str, source: str) -> bool:
    cw = claim_words(claim)
    ev = evidence_for(one_turn(source, "user"))
    return collective_owner_found(cw.lows, cw.stems, cw.content, ev.sentences)


def test_team_is_the_subject_we() -> None:
    # kept: "we" the subject of the claim's word, with up to two words between
    assert _team_found("The team uses AWS.", "We use AWS.")
    assert _team_found("The team continues to use Jenkins.", "We never stopped using Jenkins.")
    assert _team_found(
        "The team's decision was to postpone the launch.", "We decided to postpone the launch."
    )
    assert _team_found("The team has 500 users.", "We have up to 500 users.")
    assert _team_found("The team now uses Terraform.", "We have now been using Terraform.")
    # not the subject: another subject, a hope, too far
    assert not _team_found("The team uses Go.", "We want to use Go.")
    assert not _team_found("The team is hiring.", "We think the vendor is hiring.")
    assert not _team_found("The team is hiring.", "We think Acme is hiring.")
    assert not _team_found("The team uses Go.", "We hope to use Go someday.")
    # a team with a modifier of its own is not the user's "we"
    assert not _team_found("The marketing team owns the blog.", "We own the blog.")
    assert not _team_found("The other team uses Jira.", "We use Jira.")


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("The team is hiring.", "We think Acme is hiring."),
        ("The team uses Go.", "We hope to use Go someday."),
        ("The marketing team owns the blog.", "We own the blog."),
    ],
)
def test_team_attacks_refused(claim: str, source: str) -> None:
    assert verify_one_turn(claim, source, "user").verdict is NOT
