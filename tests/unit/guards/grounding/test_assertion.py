"""What the source asserts (docs/grounding.md §What the source asserts), and the other
checks that read a claim's words in their place: who did what to whom, negative
implicatives, a denial that leaves out its predicate, a name the source only denies,
frequencies and months.

Every case that must not be supported is paired with one that must be, so the tests
fail when a rule becomes too eager as well as when it misses.
"""

from __future__ import annotations

import pytest

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding.lexical import LexicalVerifier, analyze
from groundwire.guards.grounding.lexical.assertion import STRONG, sentence_moods
from groundwire.guards.grounding.lexical.evidence import evidence_for
from groundwire.guards.protocols import GroundingRequest
from groundwire.topics.records import Claim, GroundingReport, SourceTurn
from groundwire.topics.vocab import GroundingVerdict

SUPPORTED = GroundingVerdict.SUPPORTED
PARTIAL = GroundingVerdict.PARTIAL
NOT_SUPPORTED = GroundingVerdict.NOT_SUPPORTED


def turns_of(*texts: str) -> list[SourceTurn]:
    return [SourceTurn(id=f"turn-{i}", text=t, source="user") for i, t in enumerate(texts, 1)]


def verify(content: str, *texts: str) -> GroundingReport:
    turns = turns_of(*texts)
    claim = Claim(
        claim_id="c", tenant_id="t", content=content, source="conversation", source_turns=turns
    )
    return LexicalVerifier(GroundingConfig()).verify_one(GroundingRequest(claim, turns))


def approvable(report: GroundingReport) -> bool:
    return report.verdict in (SUPPORTED, PARTIAL)


# --- a quote is read in its sentence ------------------------------------------------------


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("the staging cluster runs Debian", "Nobody thinks the staging cluster runs Debian."),
        ("the nightly export is encrypted", "It is false that the nightly export is encrypted."),
        ("the CDN caches the login page", "Does the CDN cache the login page?"),
        ("the ledger service uses MySQL", "Let's pretend the ledger service uses MySQL."),
    ],
)
def test_a_quote_inside_a_denial_question_or_frame_is_not_support(claim: str, source: str) -> None:
    report = verify(claim, source)
    assert report.verdict is NOT_SUPPORTED, report.reasoning


def test_a_quote_of_a_plain_statement_is_still_support() -> None:
    report = verify(
        "the staging cluster runs Debian", "As of today the staging cluster runs Debian."
    )
    assert report.verdict is SUPPORTED
    assert report.reasoning == "supported: the source states the claim verbatim"


# --- questions ------------------------------------------------------------------------------


def test_a_question_is_not_a_statement_but_an_answered_one_is() -> None:
    asked = verify(
        "We use Postgres for the billing ledger", "Do we use Postgres for the billing ledger?"
    )
    assert asked.verdict is NOT_SUPPORTED
    assert "asked, not stated" in asked.reasoning
    answered = verify(
        "We use Postgres for the billing ledger",
        "Do we use Postgres for the billing ledger?",
        "Yes, since last year.",
    )
    assert answered.verdict is SUPPORTED, answered.reasoning
    denied = verify(
        "We use Postgres for the billing ledger",
        "Do we use Postgres for the billing ledger?",
        "Ravi: No, it moved away.",
    )
    assert denied.verdict is NOT_SUPPORTED
    assert "called false" in denied.reasoning


def test_the_answer_to_a_question_supports_its_own_value() -> None:
    source = "The ingest queue has 16 partitions? No, it has 24 partitions."
    assert verify("The ingest queue has 24 partitions", source).verdict is SUPPORTED
    assert verify("The ingest queue has 16 partitions", source).verdict is NOT_SUPPORTED


@pytest.mark.parametrize(
    "source",
    [
        "Why do we use Postgres for the billing ledger?",
        "When did we start using Postgres for the billing ledger?",
        "How do we use Postgres for the billing ledger?",
    ],
)
def test_a_wh_question_takes_what_it_asks_about_as_given(source: str) -> None:
    report = verify("We use Postgres for the billing ledger", source)
    assert "asked, not stated" not in report.reasoning, report.reasoning
    # a yes-no question does not
    asked = verify(
        "We use Postgres for the billing ledger", "Do we use Postgres for the billing ledger?"
    )
    assert "asked, not stated" in asked.reasoning


def test_did_you_know_presupposes_what_follows() -> None:
    report = verify(
        "the billing ledger moved to Postgres", "Did you know the billing ledger moved to Postgres?"
    )
    assert report.verdict is SUPPORTED, report.reasoning


def test_only_the_last_clause_of_a_declarative_sentence_is_asked() -> None:
    moods = sentence_moods(
        evidence_for(turns_of("The export runs at midnight, can we move it to noon?")).sentences[0]
    )
    assert moods == {1: "question"}


def test_a_claim_that_reports_the_question_is_not_held_to_it() -> None:
    source = "Nia: Can you recommend a good Italian cookbook?"
    report = verify("Nia asks for a good Italian cookbook recommendation", source)
    assert "asked, not stated" not in report.reasoning


# --- denials said of a statement ------------------------------------------------------------


def test_a_statement_the_same_sentence_calls_wrong_is_not_support() -> None:
    source = "Omar said the quota is 50 jobs per hour, but that's wrong."
    assert verify("The quota is 50 jobs per hour", source).verdict is NOT_SUPPORTED
    # a noun that is also a verb of speaking ("requests") does not make it a report
    noun = "Omar said the gateway allows 200 requests per minute, but that's wrong."
    assert verify("The gateway allows 200 requests per minute", noun).verdict is NOT_SUPPORTED
    # "wrong" said of a thing is no denial
    assert approvable(
        verify(
            "The wrong certificate was deployed", "The wrong certificate was deployed on Monday."
        )
    )


def test_a_denied_value_does_not_stop_the_corrected_one() -> None:
    texts = (
        "Omar said the quota is 50 jobs per hour, but that's wrong.",
        "The real quota is 80 jobs per hour.",
    )
    assert approvable(verify("The quota is 80 jobs per hour", *texts))


# --- hedges, plans and conditions cap at PARTIAL ---------------------------------------------


@pytest.mark.parametrize(
    "source",
    [
        "If the budget allows, we move the audit logs to Glacier next quarter.",
        # a third party's belief, and a plan that was only considered or proposed
        "Priya thinks we move the audit logs to Glacier next quarter.",
        "We considered moving the audit logs to Glacier next quarter.",
        # the future is not done yet
        "We will move the audit logs to Glacier next quarter.",
    ],
)
def test_a_hedged_planned_or_conditional_source_caps_a_plain_claim(source: str) -> None:
    report = verify("We move the audit logs to Glacier next quarter", source)
    assert report.verdict is PARTIAL, report.reasoning
    assert report.confidence_penalty == GroundingConfig().penalty_max


@pytest.mark.parametrize(
    "source",
    [
        "We might move the audit logs to Glacier next quarter.",
        "We plan to move the audit logs to Glacier next quarter.",
    ],
)
def test_a_modal_or_intention_struck_out_is_not_supported(source: str) -> None:
    """Session 16 (`dropped_modal.py`): the source's subject, modal or "plan to", verb;
    the claim the same subject right before the same verb: the possibility or plan told
    as a fact (until session 15 only a verb with -s was read so)."""
    report = verify("We move the audit logs to Glacier next quarter", source)
    assert report.verdict is NOT_SUPPORTED, report.reasoning


def test_a_claim_that_keeps_the_hedge_is_not_capped() -> None:
    report = verify(
        "We might move the audit logs to Glacier next quarter",
        "We might move the audit logs to Glacier next quarter.",
    )
    assert report.verdict is SUPPORTED


def test_a_plan_confirmed_elsewhere_is_a_fact() -> None:
    report = verify(
        "We moved the audit logs to Glacier",
        "We plan to move the audit logs to Glacier.",
        "Update: we moved the audit logs to Glacier on Friday.",
    )
    assert report.verdict is SUPPORTED, report.reasoning


def test_a_hedge_in_another_clause_does_not_hedge_this_one() -> None:
    report = verify(
        "the export job runs on Spark",
        "Maybe we should rewrite it, but the export job runs on Spark today.",
    )
    assert report.verdict is SUPPORTED, report.reasoning


def test_a_given_up_habit_is_not_the_present() -> None:
    source = "I used to commute to the Leeds office, now I work from Bristol."
    assert verify("I commute to the Leeds office", source).verdict is NOT_SUPPORTED
    assert (
        verify(
            "a sensor used to measure humidity", "They installed a sensor used to measure humidity."
        ).verdict
        is SUPPORTED
    )


def test_every_mood_is_ranked_and_the_strong_ones_leave_nothing_asserted() -> None:
    assert {"question", "hypothetical", "denied", "past", "unrealised", "done"} == STRONG


# --- who did what to whom --------------------------------------------------------------------


def test_swapped_roles_contradict_the_source() -> None:
    source = "Priya reviewed Marco's pull request before the release."
    report = verify("Marco reviewed Priya's pull request before the release", source)
    assert report.verdict is NOT_SUPPORTED
    assert "contradicts the source" in report.reasoning
    assert verify("Priya reviewed Marco's pull request", source).verdict is SUPPORTED


def test_passive_voice_and_symmetric_relations_are_not_swaps() -> None:
    passive = verify(
        "Marco's pull request was reviewed by Priya", "Priya reviewed Marco's pull request."
    )
    assert approvable(passive), passive.reasoning
    met = analyze(
        "Lena met Tariq at the Oslo summit", turns_of("Tariq met Lena at the Oslo summit."), set()
    )
    assert not met.conflicts


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "The team moved from Jenkins to GitHub Actions",
            "The team moved from GitHub Actions to Jenkins.",
        ),
        ("We migrated from MySQL to Postgres", "We migrated from Postgres to MySQL last year."),
        (
            "The standup moved from Tuesday to Thursday",
            "The standup moved from Thursday to Tuesday.",
        ),
    ],
)
def test_a_reversed_direction_contradicts(claim: str, source: str) -> None:
    report = verify(claim, source)
    assert report.verdict is NOT_SUPPORTED, report.reasoning
    assert "contradicts the source" in report.reasoning
    assert verify(claim, claim + ".").verdict is SUPPORTED


def test_a_direction_the_source_also_takes_the_claims_way_is_no_reversal() -> None:
    # one sentence goes each way: the claim's way is there too
    source = "The return flight goes from Berlin to Paris. The flight goes from Paris to Berlin."
    found = analyze("The flight goes from Paris to Berlin", turns_of(source), set())
    assert not found.conflicts
    both = "Replies go from the billing service to the gateway; requests go from the gateway."
    found = analyze("Replies go from the gateway to the billing service", turns_of(both), set())
    assert found.conflicts  # the only complete direction the source gives is the reverse


# --- negative implicatives, elliptical denials, names only denied ----------------------------


@pytest.mark.parametrize("verb", ["failed to", "has yet to", "refused to", "forgot to"])
def test_a_negative_implicative_denies_its_infinitive(verb: str) -> None:
    source = f"The vendor {verb} renew the support contract."
    assert verify("The vendor renewed the support contract", source).verdict is NOT_SUPPORTED


def test_an_implicative_without_an_infinitive_negates_nothing() -> None:
    report = verify("The nightly backup failed", "The nightly backup failed twice this week.")
    assert report.verdict is SUPPORTED, report.reasoning


def test_a_denial_that_leaves_out_its_predicate_is_read_with_it() -> None:
    source = "The runbook covers Kafka outages, but not Redis outages."
    assert verify("The runbook covers Redis outages", source).verdict is NOT_SUPPORTED
    assert verify("The runbook covers Kafka outages", source).verdict is SUPPORTED


def test_a_leading_denial_is_read_with_the_clause_after_it() -> None:
    source = "Without caching, the page loads in 4 seconds."
    assert verify("The page loads in 4 seconds with caching", source).verdict is NOT_SUPPORTED
    assert verify("The page loads in 4 seconds without caching", source).verdict is SUPPORTED
    assert verify("The page loads in 4 seconds", source).verdict is SUPPORTED
    # and the other way round: the claim opens with the denial
    report = verify(
        "Without caching, the page loads in 4 seconds", "With caching the page loads in 4 seconds."
    )
    assert report.verdict is NOT_SUPPORTED, report.reasoning


def test_what_an_exception_takes_out_is_denied() -> None:
    source = "All services except the gateway are written in Go."
    report = verify("The gateway is written in Go", source)
    assert report.verdict is NOT_SUPPORTED, report.reasoning
    # the exception bears on one word: another service is not denied by it
    assert verify("The billing service is written in Go", source).verdict is not NOT_SUPPORTED
    assert verify("All services except the gateway are written in Go", source).verdict is SUPPORTED
    # the other way round: the claim takes out what the source states
    excluded = verify("All services excluding the gateway use Go", "The gateway uses Go.")
    assert excluded.verdict is NOT_SUPPORTED, excluded.reasoning


def test_a_name_taken_from_a_denial_is_not_support() -> None:
    source = "The reporting service writes to Postgres. We do not use Cassandra anymore."
    assert verify("The reporting service writes to Cassandra", source).verdict is NOT_SUPPORTED
    both = "The reporting service writes to Postgres. Cassandra holds the event archive."
    assert verify("The reporting service writes to Cassandra", both).verdict is not NOT_SUPPORTED


# --- frequencies and months are values -------------------------------------------------------


def test_a_swapped_frequency_contradicts_and_an_equal_one_does_not() -> None:
    source = "Index rebuilds run nightly on the search cluster."
    assert (
        verify("Index rebuilds run weekly on the search cluster", source).verdict is NOT_SUPPORTED
    )
    # the same value in other words: not a contradiction (the word itself is still new)
    assert approvable(verify("Index rebuilds run daily on the search cluster", source))


def test_a_swapped_version_contradicts_and_the_same_one_does_not() -> None:
    source = "We run the payments API v2 in production since May."
    assert verify("We run the payments API v3 in production", source).verdict is NOT_SUPPORTED
    assert verify("We run the payments API v2 in production", source).verdict is SUPPORTED


def test_a_thousands_suffix_is_part_of_the_number() -> None:
    source = "The fleet has 5k nodes across three regions."
    assert verify("The fleet has 5 nodes across three regions", source).verdict is NOT_SUPPORTED
    assert approvable(verify("The fleet has 5000 nodes across three regions", source))


def test_may_the_month_is_a_name_and_may_the_modal_is_not() -> None:
    source = "The contract with the vendor was signed last March."
    assert (
        verify("The contract with the vendor was signed last May", source).verdict is NOT_SUPPORTED
    )
    modal = analyze(
        "The vendor may sign the contract", turns_of("The vendor will sign the contract."), set()
    )
    assert "may" not in [w.lower() for w in modal.missing_entities]


# --- a value the source names only as what changed -------------------------------------------


def test_the_value_changed_from_is_not_the_value() -> None:
    source = "The standup moved from Tuesday to Thursday this quarter."
    old = verify("The standup is on Tuesday", source)
    assert old.verdict is NOT_SUPPORTED
    assert "only as what changed" in old.reasoning
    assert verify("The standup is on Thursday", source).verdict is not NOT_SUPPORTED
    scaled = "The search cluster was scaled from 3 to 5 replicas."
    assert verify("The search cluster has 3 replicas", scaled).verdict is NOT_SUPPORTED
    # a claim that tells the change itself, and a value also named as itself, are kept
    assert verify("The standup moved from Tuesday to Thursday", source).verdict is SUPPORTED
    both = "The standup moved from Tuesday to Thursday. Tuesday keeps the retro."
    assert "only as what changed" not in verify("The retro is on Tuesday", both).reasoning


# --- words read as they show: lookalike letters, curly apostrophes, invisible characters ---


@pytest.mark.parametrize(
    "negated",
    [
        "The cache is n\u043et enabled",  # Cyrillic "о"
        "The cache is \uff4e\uff4f\uff54 enabled",  # fullwidth
        "The cache is n\u200bot enabled",  # zero-width space inside the word
        "The cache isn\u2019t enabled",  # the apostrophe word processors and models write
        "The cache is n&#111;t enabled",  # an HTML character reference
        "The cache is \u0274\u1d0f\u1d1b enabled",  # small capitals
        "The cache is n o t enabled",  # spelled letter by letter
        "The cache is n-e-v-e-r enabled",
        "The cache is n.o.t. enabled",
        "The cache is n0t enabled",  # a digit for a letter
        "The cache isnt enabled",  # the apostrophe dropped, as chat does
    ],
)
def test_a_disguised_negation_is_read_as_one_on_either_side(negated: str) -> None:
    stated = "The cache is enabled"
    claim_side = verify(negated, stated + ".")
    assert claim_side.verdict is NOT_SUPPORTED, claim_side.reasoning
    source_side = verify(stated, negated + ".")
    assert source_side.verdict is NOT_SUPPORTED, source_side.reasoning


def test_a_disguised_source_keeps_its_own_offsets_in_evidence_spans() -> None:
    source = "We checked it: the cache isn\u2019t enabled in st\u200baging."
    report = verify("The cache isn't enabled in staging", source)
    assert approvable(report), report.reasoning
    for span in report.evidence_spans:
        assert source[span.start : span.end] == span.text
    assert any("isn\u2019t" in span.text for span in report.evidence_spans)


# --- a number is read with its unit -----------------------------------------------------------


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("The deploy runs at 3am", "The deploy runs at 3pm."),
        ("The deploy runs at 3 am", "The deploy runs at 3 pm."),
        ("Latency is under 200 ms", "Latency is under 200 seconds."),
        ("The job ran for 2 hours", "The job ran for 2 minutes."),
        ("The job ran for two hours", "The job ran for 2 minutes."),
        ("The deploy runs at 3 a.m. on Sundays", "The deploy runs at 3 p.m. on Sundays."),
        # a currency: a sign against the number, or a word after it
        ("The plan costs €5 per month", "The plan costs $5 per month."),
        ("The plan costs 5 euros per month", "The plan costs $5 per month."),
        ("The fee is £20 per seat", "The fee is 20€ per seat."),
        ("The fee is 5 cents per call", "The fee is $5 per call."),
        ("Revenue was 5 million euros last year", "Revenue was $5 million last year."),
        # "a"/"an" before a unit is one of it
        ("The cache TTL is an hour", "The cache TTL is a day."),
    ],
)
def test_the_same_number_with_another_unit_contradicts(claim: str, source: str) -> None:
    report = verify(claim, source)
    assert report.verdict is NOT_SUPPORTED, report.reasoning
    assert "contradicts the source" in report.reasoning


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("The deploy runs at 3am", "The deploy runs at 3 am."),
        ("The deploy runs at 3am on Sundays", "The deploy runs at 3 a.m. on Sundays."),
        ("The job ran for two hours", "The job ran for 2 hours."),
        ("The job ran for 2 hours", "The job ran for 2 hrs."),
        # the other unit belongs to another mention of the number
        ("Logs are kept for 30 minutes", "Backups are kept for 30 days and logs for 30 minutes."),
        ("In the 1990s we used Perl", "In the 1990s we used Perl."),
        ("The plan costs $5 per month", "The plan costs 5 dollars per month."),
        ("The plan costs 5 USD per month", "The plan costs $5 per month."),
        ("Revenue was $5 million last year", "Revenue was 5 million dollars last year."),
        ("The fee is 20 pounds per seat", "The fee is £20 per seat."),
        ("The cache TTL is an hour", "The cache TTL is one hour."),
        ("The cache TTL is 1 hour", "The cache TTL is an hour."),
        # the euro belongs to another mention of the number
        ("The plan costs $5 per month", "Setup costs €5 and the plan costs $5 per month."),
    ],
)
def test_the_same_number_with_its_unit_or_a_synonym_stays_approvable(
    claim: str, source: str
) -> None:
    report = verify(claim, source)
    assert approvable(report), report.reasoning


# --- a date is one value; scale words and the dozen are numbers -------------------------


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("The release is on 2024-03-05", "The release is on 2024-03-03."),
        ("The release is on 03/05/2024", "The release is on 03/03/2024."),
        ("The cluster has a dozen nodes", "The cluster has 6 nodes."),
        ("The budget is $5 mln", "The budget is $5 billion."),
        # "every"/"per" before a unit is one of it
        ("The job runs every day", "The job runs every week."),
        ("The job runs every hour", "The job runs every 2 hours."),
        ("The plan costs $5 per month", "The plan costs $5 per year."),
        # a strict bound where the source states the value itself
        ("The cluster has more than 3 nodes", "The cluster has 3 nodes."),
        ("The queue holds fewer than 100 messages", "The queue holds 100 messages."),
    ],
)
def test_another_date_or_scale_contradicts(claim: str, source: str) -> None:
    report = verify(claim, source)
    assert report.verdict is NOT_SUPPORTED, report.reasoning


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("The release is on 2024-03-05", "The release is on 2024-03-05."),
        # a date with slashes reads either way round
        ("The release is on 2024-03-05", "The release is on 05/03/2024."),
        ("The release is on 2024-03-05", "The release is on 03/05/2024."),
        ("The cluster has a dozen nodes", "The cluster has 12 nodes."),
        ("We may lose 5 million dollars", "We may lose 5 mln dollars."),
        ("The job runs every day", "The job runs every day and reports every week."),
        ("The job runs every hour", "The job runs every hour and backs up every 2 hours."),
        # a bound against a value the source only approximates or bounds itself
        ("The cluster has more than 3 nodes", "The cluster has about 3 nodes."),
        ("The cluster has more than 3 nodes", "The cluster has at least 3 nodes."),
        ("Over 1.5 million people live there", "An estimated 1.5 million people live there."),
    ],
)
def test_the_same_date_or_scale_written_otherwise_stays_approvable(claim: str, source: str) -> None:
    report = verify(claim, source)
    assert approvable(report), report.reasoning


# --- a later correction or change outweighs an earlier statement ------------------------


@pytest.mark.parametrize(
    ("claim", "turns"),
    [
        ("The cache is enabled", ["The cache is enabled.", "Correction: the cache is disabled."]),
        (
            "The deploy is on Friday",
            ["The deploy is on Friday.", "Update: the deploy moved to Monday."],
        ),
        (
            "We use MySQL for billing",
            ["We use MySQL for billing.", "Actually, we moved billing to Postgres last month."],
        ),
        ("The limit is 100", ["The limit is 100.", "The limit was raised to 200."]),
        ("The deploy is on Friday", ["The deploy was on Friday, but it got pushed to Monday."]),
    ],
)
def test_a_later_correction_or_change_outweighs_the_earlier_statement(
    claim: str, turns: list[str]
) -> None:
    report = verify(claim, *turns)
    assert report.verdict is NOT_SUPPORTED, report.reasoning


@pytest.mark.parametrize(
    ("claim", "turns"),
    [
        # the statement is the correction
        ("The cache is enabled", ["The cache was disabled. Now the cache is enabled."]),
        ("The cache is enabled", ["Is the cache disabled?", "No, the cache is enabled."]),
        # what comes later is about something else
        ("The cache is enabled", ["The cache is enabled.", "The logs are disabled."]),
        # the change came first, the claim tells its outcome
        ("The deploy is on Friday", ["The deploy moved to Friday.", "The deploy is on Friday."]),
        # a claim about the past stays true after a later change
        ("The deploy was on Friday", ["The deploy was on Friday.", "Then it moved to Monday."]),
    ],
)
def test_an_earlier_or_unrelated_change_leaves_the_statement_standing(
    claim: str, turns: list[str]
) -> None:
    report = verify(claim, *turns)
    assert report.verdict is SUPPORTED, report.reasoning


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("We chose Kafka for the event bus", "We almost chose Kafka for the event bus."),
        ("The migration is done", "The migration is nearly done."),
        ("The migration finished on Friday", "The migration almost finished on Friday."),
    ],
)
def test_what_almost_happened_did_not(claim: str, source: str) -> None:
    report = verify(claim, source)
    assert report.verdict is NOT_SUPPORTED, report.reasoning
    # ... and a claim that keeps the "almost" says what the source says
    kept = verify(source.rstrip("."), source)
    assert kept.verdict is SUPPORTED, kept.reasoning


@pytest.mark.parametrize(
    "source",
    [
        "Almost 50 users signed up on Friday.",
        "Nearly all users signed up on Friday.",
        "Users almost always signed up on Friday.",
    ],
)
def test_almost_before_an_amount_only_rounds_it(source: str) -> None:
    report = verify("Users signed up on Friday", source)
    assert approvable(report), report.reasoning


def test_a_state_the_source_says_ended_is_not_the_present() -> None:
    source = "Alice owned the billing service until March; Bob owns it now."
    assert verify("Alice owns the billing service", source).verdict is NOT_SUPPORTED
    assert verify("Alice is the team lead", "Alice was the team lead until 2023.").verdict is (
        NOT_SUPPORTED
    )
    # told in the past tense it is true; "until" after the present bounds nothing past
    assert verify("Alice owned the billing service", source).verdict is SUPPORTED
    assert verify("Alice was the team lead", "Alice was the team lead until 2023.").verdict is (
        SUPPORTED
    )
    assert verify("The cache is warm", "The cache is warm until midnight.").verdict is SUPPORTED
    # a passive in the present is no past ("is warmed until midnight")
    warmed = verify("The cache is warmed", "The cache is warmed until midnight.")
    assert warmed.verdict is SUPPORTED, warmed.reasoning


@pytest.mark.parametrize(
    "source",
    [
        "The gateway and the billing API use mTLS.",
        "The billing API and the gateway use mTLS.",
    ],
)
def test_only_one_where_the_source_names_two_contradicts(source: str) -> None:
    report = verify("Only the gateway uses mTLS", source)
    assert report.verdict is NOT_SUPPORTED, report.reasoning
    assert "contradicts the source" in report.reasoning


def test_only_one_where_the_source_says_only_stands() -> None:
    report = verify("Only the gateway uses mTLS", "Only the gateway uses mTLS.")
    assert report.verdict is SUPPORTED, report.reasoning


@pytest.mark.parametrize(
    "source",
    [
        # "and" joins objects or other clauses, not another subject
        "The gateway uses mTLS and TLS 1.3.",
        "The gateway uses mTLS; the billing API and the queue share a VPC.",
    ],
)
def test_only_one_where_the_source_names_no_other(source: str) -> None:
    """The role rule reads no second subject here (`roles.only_one_of_many`). Until
    session 18 the claim was supported; the source states no exclusivity, so its "only"
    is now an exclusivity added (`added_only.py`, docs/grounding.md *Session 18: red
    team*) and the claim is refused for that reason alone."""
    report = verify("Only the gateway uses mTLS", source)
    assert "'only the gateway'" not in report.reasoning.lower()
    assert report.verdict is NOT_SUPPORTED, report.reasoning
    assert "'Only' where the source says" in report.reasoning


def test_a_claims_own_plan_is_held_to_a_source_that_asks_about_that_plan() -> None:
    """A claim with an intention word of its own ("is planning") is not held to a plan
    the source only makes, but a source that asks whether to make that very plan asserts
    not even the plan; one that asks about the thing planned proposes it."""
    asked = verify("Is planning a trip to Japan in May", "Should I plan a trip to Japan in May?")
    assert asked.verdict is GroundingVerdict.NOT_SUPPORTED, asked.reasoning
    assert "asked, not stated" in asked.reasoning
    proposed = verify(
        "Emily and James planned to meet at the station at 6",
        "Emily: Should we meet at the station at 6? James: Sure, see you there.",
    )
    assert approvable(proposed), proposed.reasoning
    hedged = verify("We might migrate to Postgres", "Should we migrate to Postgres?")
    assert "asked, not stated" not in hedged.reasoning
