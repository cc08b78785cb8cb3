"""Session 18 red team of the grounding check on the write path: a claim that keeps the
source's words and turns one closed-class term round (`changed_terms.py`):

* an obligation changed, "must not" / "need not", "must" / "should" (`obligations.py`);
* a bound or a range told as an exact value, "10 replicas" / "up to 10"
  (`dropped_bounds.py`);
* a condition turned round, "if" / "unless" (`inverted_conditions.py`);
* a time bound turned round, "until May" / "since May" (`time_bounds.py`);
* percent told for percentage points (`percentage_points.py`);
* a quantity told by a phrase, "no", "both", "hardly any" (`quantifier_phrases.py`);
* a frequency changed by its period, "every other day" (`frequency_periods.py`);
* a rank changed before a superlative, "second largest" (`ordinal_superlatives.py`);
* an exclusivity added, "only" (`added_only.py`);
* an equality told as a difference, "as fast as" / "faster than" (`equatives.py`);
* an order told with the other preposition, "before" / "following" (`temporal_order.py`).

Each with the claims it must catch and faithful restatements touching the same words
that it must leave alone (read by the rule itself, and through the whole verifier)."""

from __future__ import annotations

import pytest

from groundwire.guards.grounding.lexical.changed_terms import changed_terms
from groundwire.guards.grounding.lexical.dropped_bounds import bounded_at, dash_range_values
from groundwire.guards.grounding.lexical.inverted_conditions import conditions
from groundwire.guards.grounding.lexical.obligations import (
    ADVISED,
    FORBIDDEN,
    NOT_REQUIRED,
    PERMITTED,
    REQUIRED,
    conflicts_with,
    obligation_classes,
)
from groundwire.guards.grounding.lexical.percentage_points import unit_of
from groundwire.guards.grounding.lexical.text import claim_words, clause_ids
from groundwire.topics.vocab import GroundingVerdict
from tests.unit.guards.grounding.one_turn import one_turn, verify_one_turn

NOT = GroundingVerdict.NOT_SUPPORTED

CAUGHT = [
    # obligations
    ("Engineers must not deploy on Fridays.", "Engineers need not deploy on Fridays."),
    ("Engineers don't have to deploy on Fridays.", "Engineers can't deploy on Fridays."),
    ("Employees must use the VPN.", "Employees should use the VPN."),
    (
        "Reviewers have to sign off on schema changes.",
        "Reviewers should sign off on schema changes.",
    ),
    (
        "Contractors must not share the VPN credentials.",
        "Contractors don't have to share the VPN credentials.",
    ),
    ("Interns are allowed to merge to main.", "Interns are forbidden to merge to main."),
    # bounds and ranges told as exact values
    ("Exactly three replicas serve reads.", "At least three replicas serve reads."),
    ("We run 10 replicas.", "We run up to 10 replicas."),
    ("The rollout takes 5 days.", "The rollout takes between 3 and 5 days."),
    ("The meeting is 2 hours.", "The meeting is 1-2 hours."),
    ("The fix takes three days.", "The fix takes two to three days."),
    ("The cluster has 12 nodes.", "The cluster has at most 12 nodes."),
    # conditions
    ("We deploy if the tests fail.", "We deploy unless the tests fail."),
    ("The job retries when the network is down.", "The job retries unless the network is down."),
    (
        "The job pages on-call when the disk is full.",
        "The job pages on-call unless the disk is full.",
    ),
    # time bounds
    ("The freeze lasts until May.", "The freeze has lasted since May."),
    ("Ana has led the team since 2021.", "Ana led the team until 2021."),
    # percent and points
    ("Conversion rose by 5%.", "Conversion rose by 5 percentage points."),
    ("Churn fell 2 percentage points.", "Churn fell 2 percent."),
    # quantity phrases
    ("No service uses mTLS.", "Every service uses mTLS."),
    ("Both regions failed over.", "One of the two regions failed over."),
    ("Neither replica is healthy.", "Both replicas are healthy."),
    (
        "Ana reviewed most pull requests last week.",
        "Ana reviewed hardly any pull requests last week.",
    ),
    ("All of the tests are flaky.", "Only some of the tests are flaky."),
    # frequencies
    ("Deploys happen every day.", "Deploys happen every other day."),
    ("The sync runs biweekly.", "The sync runs weekly."),
    ("The index is rebuilt every 6 hours.", "The index is rebuilt every 12 hours."),
    # ranks
    ("Acme is our largest customer.", "Acme is our second largest customer."),
    ("Ana is the third fastest runner on the team.", "Ana is the fastest runner on the team."),
    # exclusivity
    (
        "Only Ana has admin access to the billing database.",
        "Ana has admin access to the billing database.",
    ),
    ("The API only accepts JSON payloads.", "The API accepts JSON payloads."),
    # equatives and comparatives
    (
        "Postgres is as fast as MySQL for our workload.",
        "Postgres is faster than MySQL for our workload.",
    ),
    (
        "Postgres is faster than MySQL for our workload.",
        "Postgres is as fast as MySQL for our workload.",
    ),
    (
        "The new API is as reliable as the old one.",
        "The new API is more reliable than the old one.",
    ),
    (
        "The staging cluster is as big as production.",
        "The staging cluster is bigger than production.",
    ),
    # order prepositions
    ("Ben joined the team before the launch.", "Ben joined the team following the launch."),
    ("The patch shipped after the freeze.", "The patch shipped prior to the freeze."),
    (
        "We notify customers after the maintenance window.",
        "We notify customers ahead of the maintenance window.",
    ),
]

KEPT = [
    ("Engineers don't have to deploy on Fridays.", "Engineers need not deploy on Fridays."),
    ("Engineers are not allowed to deploy on Fridays.", "Engineers must not deploy on Fridays."),
    ("Contractors are required to sign the NDA.", "Contractors have to sign the NDA."),
    ("Contractors need to sign the NDA.", "Contractors must sign the NDA."),
    ("Interns are permitted to merge to main.", "Interns can merge to main."),
    (
        "The outage has to do with the cache.",
        "The outage has to do with the cache eviction policy.",
    ),
    ("We run up to 10 replicas.", "We run at most 10 replicas."),
    ("The rollout takes 3 to 5 days.", "The rollout takes between 3 and 5 days."),
    ("The meeting lasts between one and two hours.", "The meeting lasts 1-2 hours."),
    ("Latency is 200 ms.", "Latency went from 50 ms to 200 ms."),
    ("The cluster has 12 nodes.", "The cluster has 12 nodes, up to 4 of them spot instances."),
    ("Ana worked at Acme from 2019 to 2021.", "Ana worked at Acme 2019-2021."),
    ("The cluster scaled to 20 pods.", "The cluster scaled from 5 to 20 pods."),
    ("When the network is up, the job retries.", "The job retries when the network is up."),
    (
        "We deploy if the tests pass.",
        "We deploy unless the tests fail, and we deploy if the tests pass.",
    ),
    (
        "Unless the budget is approved, the project stops.",
        "The project stops unless the budget is approved.",
    ),
    ("The freeze lasts until May.", "The freeze lasts till May."),
    ("Ana has led the team since 2021.", "Since 2021 Ana has led the team."),
    ("Conversion rose by 5 points.", "Conversion rose by 5 percentage points."),
    ("Churn fell 2 percent.", "Churn fell 2%."),
    ("Both data centers lost power.", "Both of the data centers lost power."),
    ("Neither replica is healthy.", "Neither of the replicas is healthy."),
    ("Only some of the dashboards are stale.", "Some of the dashboards are stale, not all."),
    ("No, the cache is warm.", "The cache is warm."),
    ("Every one of the nodes failed.", "All of the nodes failed."),
    ("We run a no-downtime deploy.", "We run a no-downtime deploy every week."),
    ("The index is rebuilt twice a day.", "The index is rebuilt every 12 hours."),
    ("Backups run every night.", "Backups run nightly."),
    ("The sync runs fortnightly.", "The sync runs every two weeks."),
    ("Acme is our second largest customer.", "Acme is our 2nd largest customer."),
    (
        "Acme is our largest customer.",
        "Acme is our largest customer and Globex our second largest.",
    ),
    (
        "Only Ana has admin access to the billing database.",
        "Nobody but Ana has admin access to the billing database.",
    ),
    (
        "Only Ana has admin access to the billing database.",
        "Ana alone has admin access to the billing database.",
    ),
    ("We only run 3 replicas in staging.", "We run 3 replicas in staging."),
    ("The cluster only has a few nodes.", "The cluster has a few nodes."),
    ("The API accepts JSON payloads.", "The API only accepts JSON payloads."),
    (
        "Postgres is as fast as MySQL for our workload.",
        "For our workload, Postgres is as fast as MySQL.",
    ),
    (
        "MySQL is slower than Postgres for our workload.",
        "Postgres is faster than MySQL for our workload.",
    ),
    ("As many as 500 people signed up.", "Up to 500 people signed up."),
    ("Ben joined the team prior to the launch.", "Ben joined the team before the launch."),
    (
        "We notify customers in advance of the maintenance window.",
        "We notify customers before the maintenance window.",
    ),
    ("The team followed the runbook.", "The team followed the runbook after the outage."),
    # a partitive before a superlative ranks; a source "only" before a clause cut
    (
        "He is considered one of the greatest quarterbacks.",
        "Many analysts consider him among the greatest quarterbacks of all time.",
    ),
    (
        "Freshwater fish only drink water through the skin.",
        'Freshwater fish only "drink" water through their skin, while saltwater fish drink it.',
    ),
    (
        "The animals have to be shorn every three years.",
        "The animal can only be shorn every three years, and has to be caught from the wild.",
    ),
]

# faithful restatements an older rule refuses (sentence-level negation, on main too):
# the session-18 rules must still read them as agreeing
AGREE_ONLY = [
    ("We deploy if the tests don't fail.", "We deploy unless the tests fail."),
    ("We deploy unless the tests fail.", "We deploy if the tests do not fail."),
    ("Engineers cannot deploy on Fridays.", "Engineers are forbidden to deploy on Fridays."),
    ("Signing the NDA is optional for contractors.", "Contractors don't need to sign the NDA."),
    ("Hardly any endpoint is documented.", "Barely any endpoint is documented."),
    ("Almost no tickets were reopened.", "Hardly any tickets were reopened."),
    ("The team meets every other week.", "The team meets biweekly."),
    ("Certificates are rotated every year.", "Certificates are rotated annually."),
    ("The job runs once a week.", "The job runs weekly."),
    ("The sync runs every two weeks.", "The sync runs biweekly."),
]


@pytest.mark.parametrize(("claim", "source"), CAUGHT)
def test_caught(claim: str, source: str) -> None:
    assert changed_terms(claim, one_turn(source, "user"))
    assert verify_one_turn(claim, source, "user").verdict is NOT


@pytest.mark.parametrize(("claim", "source"), KEPT)
def test_kept(claim: str, source: str) -> None:
    assert changed_terms(claim, one_turn(source, "user")) == []
    assert verify_one_turn(claim, source, "user").verdict is not NOT


@pytest.mark.parametrize(("claim", "source"), AGREE_ONLY)
def test_rules_read_agreement(claim: str, source: str) -> None:
    assert changed_terms(claim, one_turn(source, "user")) == []


def _classes(text: str) -> list[int]:
    return [c for c, _ in obligation_classes(claim_words(text).lows)]


def test_obligation_classes() -> None:
    assert _classes("We must not deploy") == [FORBIDDEN]
    assert _classes("We mustn't deploy") == [FORBIDDEN]
    assert _classes("We need not deploy") == [NOT_REQUIRED]
    assert _classes("We don't have to deploy") == [NOT_REQUIRED]
    assert _classes("We have to deploy") == [REQUIRED]
    assert _classes("We should deploy") == [ADVISED]
    assert _classes("We may deploy") == [PERMITTED]
    assert _classes("Interns are not allowed to merge") == [FORBIDDEN]
    assert _classes("Review is mandatory") == [REQUIRED]
    assert _classes("Review is optional") == [NOT_REQUIRED]
    # no modal: the month, a noun, a relation
    assert _classes("The launch is in May") == []
    assert _classes("a can of soup") == []
    assert _classes("This has to do with caching") == []
    assert _classes("The animal can only be shorn every three years") == []


def test_obligation_conflicts() -> None:
    assert conflicts_with(REQUIRED, ADVISED)
    assert conflicts_with(FORBIDDEN, NOT_REQUIRED)
    assert conflicts_with(NOT_REQUIRED, FORBIDDEN)
    assert not conflicts_with(ADVISED, REQUIRED)  # weaker, entailed
    assert not conflicts_with(PERMITTED, NOT_REQUIRED)  # "may" / "optional"
    assert not conflicts_with(NOT_REQUIRED, PERMITTED)


def _bound(text: str, number: str) -> str | None:
    w = claim_words(text)
    return bounded_at(w.lows, w.numbers, w.lows.index(number))


def test_bounded_at() -> None:
    assert _bound("between 3 and 5 days", "5") == "between 3 and 5"
    assert _bound("between 3 and 5 days", "3") == "between 3 and 5"
    assert _bound("two to three days", "three") == "two to three"
    assert _bound("up to 10 replicas", "10") == "up to 10"
    assert _bound("salaries range from 90 to 120", "120") == "90 to 120"
    # a change, not a range; years; a number alone
    assert _bound("latency went from 50 to 200", "200") is None
    assert _bound("from 2019 to 2021", "2021") is None
    assert _bound("we run 10 replicas", "10") is None


def test_dash_ranges() -> None:
    assert dash_range_values("1-2 hours") == {"1", "2"}
    assert dash_range_values("3\u20135 days") == {"3", "5"}
    assert dash_range_values("2019-2021") == set()
    assert dash_range_values("on 2024-05-01") == set()


def _conds(text: str) -> list[tuple[str, bool]]:
    w = claim_words(text)
    return [
        (word, pos)
        for word, _, pos in conditions(
            w.lows, w.stems, w.content, clause_ids(text, w.spans, w.lows)
        )
    ]


def test_condition_polarity() -> None:
    assert _conds("We deploy unless the tests fail") == [("unless", False)]
    assert _conds("We deploy if the tests do not fail") == [("if", False)]
    assert _conds("We deploy if the tests fail") == [("if", True)]
    assert _conds("We deploy even if the tests fail") == []


def test_percent_units() -> None:
    lows = claim_words("rose by 5 percentage points and 3 % and 2 pp").lows
    assert unit_of(lows, lows.index("5")) == "points"
    assert unit_of(lows, lows.index("3")) == "percent"
    assert unit_of(lows, lows.index("2")) == "points"


def test_claim_without_trigger_reads_nothing() -> None:
    assert (
        changed_terms("Ana leads the infra team.", one_turn("Ben leads the infra team.", "user"))
        == []
    )


def test_frequency_periods() -> None:
    from groundwire.guards.grounding.lexical.frequency_periods import frequencies

    def periods(text: str) -> list[tuple[float, ...]]:
        return [p for p, _, _ in frequencies(claim_words(text).lows)]

    assert periods("runs every other day") == [(2.0,)]
    assert periods("runs twice a week") == [(3.5,)]
    assert periods("runs every 3 days") == [(3.0,)]
    assert periods("runs biweekly") == [(3.5, 14.0)]
    assert periods("100 requests per hour") == []  # a rate, not how often


def test_ranks_and_only() -> None:
    from groundwire.guards.grounding.lexical.added_only import reads_only
    from groundwire.guards.grounding.lexical.ordinal_superlatives import ranked_superlatives

    assert ranked_superlatives(claim_words("our second largest customer").lows) == [
        ("largest", 2, 1)
    ]
    assert ranked_superlatives(claim_words("most services use it").lows) == []
    assert reads_only(claim_words("Only Ana has access").lows) == [0]
    assert reads_only(claim_words("not only Ana has access").lows) == []
    assert reads_only(claim_words("we only run 3 replicas").lows) == []


def test_equatives_and_orders() -> None:
    from groundwire.guards.grounding.lexical.equatives import comparisons
    from groundwire.guards.grounding.lexical.temporal_order import orders

    kinds = [
        (k, sorted(a))
        for k, a, _, _ in comparisons(claim_words("as fast as X, bigger than Y").lows)
    ]
    assert kinds == [("equative", ["fast"]), ("comparative", ["big", "bigg", "bigge"])]
    assert comparisons(claim_words("as many as 500 people").lows) == []
    assert [(b, o) for b, o, _, _ in orders(claim_words("shipped prior to the freeze").lows)] == [
        (True, "freeze")
    ]
    assert [(b, o) for b, o, _, _ in orders(claim_words("the day following the launch").lows)] == [
        (False, "launch")
    ]
