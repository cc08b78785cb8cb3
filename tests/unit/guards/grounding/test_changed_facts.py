"""Changed facts that every content word of the claim still supports (session 14, round
2): a quantifier or a frequency adverb changed ("some" / "all", "sometimes" / "always";
`lexical/quantifiers.py`), and a plan, hedge or condition of the source told as done
("We migrated" / "We plan to migrate"; `lexical/assertion.py`, mood "done"). Each rule
has the cases it must now refuse and the controls that must stay as they were."""

from __future__ import annotations

import pytest

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding.lexical import LexicalVerifier
from groundwire.guards.grounding.lexical.quantifiers import (
    QUANTITY,
    changed_quantifiers,
    conflicting,
    quantifier_class,
)
from groundwire.guards.protocols import GroundingRequest
from groundwire.topics.records import Claim, GroundingReport, SourceTurn
from groundwire.topics.vocab import GroundingVerdict

CFG = GroundingConfig()
NS, PARTIAL, SUP = (
    GroundingVerdict.NOT_SUPPORTED,
    GroundingVerdict.PARTIAL,
    GroundingVerdict.SUPPORTED,
)


def _turns(source: str) -> list[SourceTurn]:
    return [SourceTurn(id="s", text=source)]


def _verify(content: str, source: str) -> GroundingReport:
    turns = _turns(source)
    claim = Claim(claim_id="c1", tenant_id="t1", content=content, source="chat", source_turns=turns)
    return LexicalVerifier(CFG).verify_one(GroundingRequest(claim, turns))


TESTS = "{} of the integration tests pass on the main branch."
REVIEWS = "Alice {} reviews the pull requests for the payments team."


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (TESTS.format("Some"), TESTS.format("All")),  # weaker, from the universal end
        (TESTS.format("All"), TESTS.format("Some")),  # stronger
        (TESTS.format("Few"), TESTS.format("Most")),  # into the negative class
        (TESTS.format("Most"), TESTS.format("A few")),  # "a few" is some: stronger
        (REVIEWS.format("always"), REVIEWS.format("sometimes")),
        (REVIEWS.format("sometimes"), REVIEWS.format("always")),
        (REVIEWS.format("rarely"), REVIEWS.format("often")),
        ("Everyone on the team uses Vim.", "Someone on the team uses Vim."),
        # "some" where the source says "all" is read as "not all" (an earlier rule took
        # it as entailed; a memory is read later without its source)
        ("Some services use mTLS", "All services use mTLS."),
    ],
)
def test_a_changed_quantifier_is_a_contradiction(claim: str, source: str) -> None:
    assert changed_quantifiers(claim, _turns(source))
    report = _verify(claim, source)
    assert report.verdict is NS
    assert "contradicts the source" in report.reasoning


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # the same class in other words
        (TESTS.format("Every one"), TESTS.format("All")),
        ("Each integration test passes on the main branch.", TESTS.format("All")),
        (TESTS.format("A few"), TESTS.format("Several")),
        (REVIEWS.format("usually"), REVIEWS.format("often")),
        # a weaker positive word, below the universal end: what the source entails
        (TESTS.format("Some"), TESTS.format("Many")),
        # no quantifier on one side; a bounded one; a set phrase
        (TESTS.format("The"), TESTS.format("All")),
        (TESTS.format("Almost all"), TESTS.format("Most")),
        ("The team members help each other with reviews.", "All the members help with reviews."),
        # another clause's quantifier does not align
        (
            "Some services run on Kubernetes.",
            "Some services run on Kubernetes and all use Postgres.",
        ),
    ],
)
def test_a_kept_quantifier_is_no_contradiction(claim: str, source: str) -> None:
    assert changed_quantifiers(claim, _turns(source)) == []


def test_classes_and_direction() -> None:
    assert quantifier_class(["a", "few"], 1) == (0, QUANTITY["some"])
    assert quantifier_class(["few"], 0) == (0, QUANTITY["few"])
    assert quantifier_class(["not", "all"], 1) is None
    assert quantifier_class(["at", "all"], 1) is None
    assert quantifier_class(["all", "3"], 0) is None
    all_, most, some = QUANTITY["all"], QUANTITY["most"], QUANTITY["some"]
    assert conflicting(0, some, all_) and conflicting(0, all_, some)
    assert conflicting(0, most, some)  # stronger
    assert not conflicting(0, some, most)  # weaker, below the universal end


PLAN = "We plan to migrate the billing service to Postgres."


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("We migrated the billing service to Postgres.", PLAN),
        ("We have migrated the billing service to Postgres.", PLAN),
        (
            "We migrated the billing service to Postgres.",
            "We planned to migrate the billing service to Postgres last year.",
        ),
        ("We switched the cache to Redis.", "We are considering switching the cache to Redis."),
        (
            "The team deployed the new cache on Friday.",
            "If the load tests pass, the team deploys the new cache on Friday.",
        ),
        ("The team migrated to Postgres.", "The team might migrate to Postgres."),
        ("Moved to Berlin", "I plan to move to Berlin."),
    ],
)
def test_a_plan_told_as_done_is_not_supported(claim: str, source: str) -> None:
    report = _verify(claim, source)
    assert report.verdict is NS
    assert "told as done" in report.reasoning


@pytest.mark.parametrize(
    ("claim", "source", "verdict"),
    [
        # a plan kept a plan, or sharpened to "will" (docs/spec.md's sharpened plan)
        (PLAN, PLAN, SUP),
        ("We will migrate the billing service to Postgres.", PLAN, SUP),
        # a hedge dropped from a past deed: the spec's hedge-drop, partial
        ("Alice approved the budget.", "Alice probably approved the budget.", PARTIAL),
        # the plan confirmed elsewhere in the source
        (
            "We migrated the billing service to Postgres.",
            "We planned to migrate the billing service to Postgres and migrated it in May.",
            None,
        ),
    ],
)
def test_a_plan_kept_a_plan_is_as_before(
    claim: str, source: str, verdict: GroundingVerdict | None
) -> None:
    report = _verify(claim, source)
    assert "told as done" not in report.reasoning
    if verdict is not None:
        assert report.verdict is verdict


NDA = "Contractors {} sign the NDA before they start."


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (NDA.format("must"), NDA.format("may")),  # stronger
        (NDA.format("can"), NDA.format("must")),  # weaker, from the necessity end
    ],
)
def test_a_changed_modal_is_a_contradiction(claim: str, source: str) -> None:
    assert changed_quantifiers(claim, _turns(source))
    assert _verify(claim, source).verdict is NS


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (NDA.format("might"), NDA.format("may")),  # one class
        (NDA.format("must"), NDA.format("must")),
        ("The launch of the NDA portal is in May.", "The NDA portal launch is in May 2024."),
        ("Contractors may not sign the NDA.", "Contractors must sign the NDA."),  # polarity's
        ("He opened a can of soup.", "He must open a can of soup."),
    ],
)
def test_a_kept_modal_or_no_modal_is_no_change(claim: str, source: str) -> None:
    assert changed_quantifiers(claim, _turns(source)) == []


@pytest.mark.parametrize(
    ("claim", "source", "reversed_"),
    [
        ("Latency went from 200 ms to 50 ms.", "Latency went from 50 ms to 200 ms.", True),
        ("Latency went from 50 ms to 200 ms.", "Latency went from 50 ms to 200 ms.", False),
        ("Latency rose from 50 ms to 200 ms.", "Latency went from 50 ms to 200 ms.", False),
        ("We moved from Jenkins to GitHub Actions.", "We moved from Jenkins to GitHub.", False),
    ],
)
def test_a_unit_at_both_ends_tells_no_direction(claim: str, source: str, reversed_: bool) -> None:
    report = _verify(claim, source)
    assert (report.verdict is NS) is reversed_, report.reasoning


ONLY = "Only Alice can approve production deploys."


@pytest.mark.parametrize(
    ("claim", "source", "blocked"),
    [
        ("Alice and Bob can approve production deploys.", ONLY, True),
        ("Bob and Alice can approve production deploys.", ONLY, True),
        # the source's own slot, or X alone
        ("Alice can approve production deploys.", ONLY, False),
        (ONLY, ONLY, False),
        ("Alice and Bob can approve production deploys.", "Alice and Bob approve deploys.", False),
        # "not only" closes nothing
        (
            "Alice and Bob can approve production deploys.",
            "Not only Alice can approve production deploys; Bob can too.",
            False,
        ),
    ],
)
def test_a_name_added_where_the_source_says_only(claim: str, source: str, blocked: bool) -> None:
    report = _verify(claim, source)
    assert ("where the source says 'only Alice'" in report.reasoning) is blocked, report.reasoning


@pytest.mark.parametrize("claim", ["and so on", "And?", "and and"])
def test_an_and_without_content_words_is_read_not_an_error(claim: str) -> None:
    # such a claim shares no word with any sentence; the "only" reading has nothing to
    # read (it raised ValueError before, and the claim went to review as a verifier error)
    report = _verify(claim, "It is only the cat and the dog from Paris.")
    assert report.verdict is not GroundingVerdict.UNKNOWN, report.reasoning
    # the control: the same source still contradicts a name added beside "only"
    assert _verify("Alice and Bob can approve production deploys.", ONLY).verdict is (
        GroundingVerdict.NOT_SUPPORTED
    )


def test_a_claim_of_many_quantifiers_reads_a_bounded_number() -> None:
    from groundwire.guards.grounding.lexical.quantifiers import MAX_READ

    claim = " ".join(f"All tests{i} pass on branch{i}." for i in range(3 * MAX_READ))
    source = " ".join(f"Some tests{i} pass on branch{i}." for i in range(3 * MAX_READ))
    found = changed_quantifiers(claim, _turns(source))
    assert len(found) == MAX_READ  # each clause would be one; the rest are not read
