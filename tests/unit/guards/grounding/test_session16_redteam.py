"""Session 16 red team of the grounding check on the write path: a source's modal, wish or
obligation struck out (`dropped_modal.py`), a plan's noun read as
an intention (`plan_nouns.py`), a plan confirmed by its own participle
(`assertion._told_deeds`), an attempt told as a success (`attempts.py`), a
multiplication changed (`factor_verbs.py`), a negating
prefix on two WordNet satellites and "non-" written apart (`prefixed_antonyms.py`), and
a source acronym spelled out in the claim (`spelled_acronyms.py`). Each with the case it
must now catch and the controls that must stay as they were."""

from __future__ import annotations

import pytest

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding.lexical import LexicalVerifier
from groundwire.guards.grounding.lexical.derived_opposites import derived_opposite
from groundwire.guards.grounding.lexical.dropped_modal import modal_frames, struck_modal
from groundwire.guards.grounding.lexical.evidence import evidence_for
from groundwire.guards.grounding.lexical.factor_verbs import changed_factors
from groundwire.guards.grounding.lexical.plan_nouns import names_a_plan
from groundwire.guards.grounding.lexical.prefixed_antonyms import prefixed_satellites
from groundwire.guards.grounding.lexical.spelled_acronyms import as_source_acronyms
from groundwire.guards.grounding.lexical.text import claim_words
from groundwire.guards.protocols import GroundingRequest
from groundwire.topics.records import Claim, GroundingReport, SourceTurn
from groundwire.topics.vocab import GroundingVerdict

CFG = GroundingConfig()
NOT = GroundingVerdict.NOT_SUPPORTED


def _verify(content: str, source: str) -> GroundingReport:
    turns = [SourceTurn(id="s", text=source)]
    claim = Claim(claim_id="c1", tenant_id="t1", content=content, source="chat", source_turns=turns)
    return LexicalVerifier(CFG).verify_one(GroundingRequest(claim, turns))


CAUGHT = [
    # a modal struck out with a subject whose present has no -s
    ("We use Redis for the session cache.", "We might use Redis for the session cache."),
    (
        "The interns join the on-call rotation in June.",
        "The interns may join the on-call rotation in June.",
    ),
    (
        "We deploy the API gateway on Fridays.",
        "We might eventually deploy the API gateway on Fridays.",
    ),
    ("The replicas lag behind the primary.", "The replicas might lag behind the primary."),
    # an obligation, the unreal and a wish told as a fact
    ("The service uses TLS 1.3.", "The service should use TLS 1.3."),
    ("We use Redis for the session cache.", "We would use Redis for the session cache."),
    ("Ana leads the infra team.", "Ana wants to lead the infra team."),
    # "plan" as a noun is no intention of the claim's
    ("Our customers pay for the premium plan.", "Our customers might pay for the premium plan."),
    (
        "Our customers pay annually for the enterprise plan.",
        "Our customers could pay annually for the enterprise plan.",
    ),
    # an attempt told as a success
    ("We fixed the memory leak.", "We tried to fix the memory leak."),
    (
        "We migrated the billing database to Aurora.",
        "We attempted to migrate the billing database to Aurora.",
    ),
    # a plan's own participle confirms nothing
    (
        "The staging cluster was decommissioned.",
        "The staging cluster will be decommissioned next quarter.",
    ),
    # a multiplication changed
    ("The new cache halved our read latency.", "The new cache doubled our read latency."),
    ("Signups tripled after the launch.", "Signups doubled after the launch."),
    ("The new index doubled query time.", "The new index cut query time in half."),
    ("Throughput grew tenfold after the rewrite.", "Throughput grew threefold after the rewrite."),
    ("The team will halve the build time.", "The team will double the build time."),
    # a negating prefix
    ("The config file is unreadable by the app.", "The config file is readable by the app."),
    ("The config file is readable by the app.", "The config file is unreadable by the app."),
    ("The cron job is nonblocking.", "The cron job is blocking."),
    ("The nightly job is non-blocking.", "The nightly job is blocking."),
    ("The nightly job is blocking.", "The nightly job is non-blocking."),
    # an acronym spelled out as another name
    ("The office is in New Jersey.", "The office is in NYC."),
    ("The dashboards live in Google Cloud.", "The dashboards live in AWS."),
    # a person's initials are no spelling of an acronym in another place
    ("The bundle was written by John Smith.", "The JS bundle was written by Ana."),
]


@pytest.mark.parametrize(("claim", "source"), CAUGHT)
def test_changed_fact_is_not_supported(claim: str, source: str) -> None:
    assert _verify(claim, source).verdict is NOT


CONTROLS = [
    (
        "We use Postgres for storage.",
        "We might use Redis for caching, and we use Postgres for storage.",
    ),
    (
        "We use RabbitMQ for the job queue.",
        "We might move to Kafka next year. Today we use RabbitMQ for the job queue.",
    ),
    (
        "We use Redis for the session cache.",
        "We might use Memcached, but in the end we use Redis for the session cache.",
    ),
    # a plan confirmed elsewhere in the source, in the past
    (
        "The interns joined the on-call rotation in June.",
        "The interns may join the on-call rotation in May. In June they joined it.",
    ),
    (
        "The staging cluster was decommissioned in May.",
        "We planned to decommission the staging cluster, and it was decommissioned in May.",
    ),
    (
        "We migrated the billing service.",
        "We planned to migrate the billing service and migrated it.",
    ),
    # "so you just want to use us": "just" is no subject, "using" no present
    (
        "Fred is accused of just using them for their big screen TVs.",
        "Harry: so you just want to use us for our big screen TVs",
    ),
    # an attempt that came off, or "tried" with an object
    ("We fixed the memory leak.", "We tried to fix the memory leak and fixed it on Monday."),
    ("I tried sushi in Tokyo.", "I tried sushi in Tokyo."),
    # "plan" as a noun, verbatim
    (
        "Customers on the enterprise plan pay annually.",
        "Customers on the enterprise plan pay annually.",
    ),
    # the same factor written another way, or the source states both
    ("Signups doubled after the launch.", "After the launch, signups doubled."),
    ("The new index halved query time.", "The new index cut query time in half."),
    ("CPU use halved.", "Memory use doubled while CPU use halved."),
    ("Throughput doubled after the rewrite.", "Throughput grew twofold after the rewrite."),
    (
        "We ordered a double espresso machine for the office.",
        "We ordered a double espresso machine for the office and halved the coffee budget.",
    ),
    # "non-" kept, or in another frame
    ("The nightly job is non-blocking.", "The nightly job is non-blocking, unlike the importer."),
    ("It's a sci-fi movie.", "It is a love story that will appeal even to non-sci-fi fans."),
    # an acronym spelled out
    ("The office is in New York City.", "The office is in NYC."),
    ("The analytics jobs run on Google Cloud.", "The analytics jobs run on GCP."),
    ("The billing service runs on Google Cloud Platform.", "The billing service runs on GCP."),
    ("The dashboards live in Amazon Web Services.", "The dashboards live in AWS."),
    ("Abby said it was sunny in Los Angeles.", "Abby: Was sunny in LA."),
]


@pytest.mark.parametrize(("claim", "source"), CONTROLS)
def test_faithful_restatement_is_not_refuted(claim: str, source: str) -> None:
    assert _verify(claim, source).verdict is not NOT


def _w(text: str) -> list[str]:
    return text.split()


def test_modal_frames() -> None:
    lows = _w("we might eventually use redis")
    frames = modal_frames(lows, range(len(lows)))
    assert frames == {("we", "use", True)}
    wish = _w("ana wants to lead the team")
    assert modal_frames(wish, range(len(wish))) == {("ana", "lead", False)}
    # a perfect, a negation or an adverb before the modal gives no frame
    for text in (
        "we might have used redis",
        "we might not use redis",
        "so you just want to use us",
    ):
        words = text.split()
        assert not modal_frames(words, range(len(words)))
    claim = _w("we use redis")
    assert struck_modal(claim, range(3), frames)
    assert not struck_modal(_w("we used redis"), range(3), frames)  # the past: not here
    assert not struck_modal(_w("we might use redis"), range(4), frames)


def test_names_a_plan() -> None:
    lows = _w("we pay for the enterprise plan")
    assert names_a_plan(lows, 5)
    plan = _w("the plan is to migrate")
    assert not names_a_plan(plan, 1)
    assert not names_a_plan(_w("we plan"), 1)
    assert not names_a_plan(_w("a plan for migrating"), 1)


def test_changed_factors() -> None:
    ev = evidence_for([SourceTurn(id="s", text="The new cache doubled our read latency.")])
    shared = [{"cache", "latenc"}]
    assert changed_factors(_w("the new cache halved our read latency"), ev.sentences, shared)
    assert not changed_factors(_w("the new cache doubled it"), ev.sentences, shared)
    # a bare "double" is read only as a verb
    assert not changed_factors(_w("a double shot of latency"), ev.sentences, shared)
    assert changed_factors(
        _w("we will double it"),
        evidence_for([SourceTurn(id="s", text="We will halve it.")]).sentences,
        [{"halv"}],
    )


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("unreadable", "readable", True),
        ("usable", "unusable", True),
        ("invaluable", "valuable", False),  # the prefix alone: on no opposite sides
        ("inflammable", "flammable", False),
        ("readable", "legible", False),  # no prefix
    ],
)
def test_prefixed_satellites(a: str, b: str, expected: bool) -> None:
    assert prefixed_satellites(a, b) is expected
    if expected:
        assert derived_opposite(a, b)


def test_spelled_acronym_takes_the_acronyms_stem() -> None:
    ev = evidence_for([SourceTurn(id="s", text="The office is in NYC.")])
    words = as_source_acronyms(claim_words("The office is in New York City."), ev)
    assert words.stems[4:7] == ("nyc", "nyc", "nyc")
    other = claim_words("The office is in New Jersey.")
    assert as_source_acronyms(other, ev) is other
    # not where the acronym stands, or the claim writes the acronym itself
    late = claim_words("John Smith wrote the bundle.")
    assert (
        as_source_acronyms(
            late, evidence_for([SourceTurn(id="s", text="Ana wrote the JS bundle.")])
        )
        is late
    )
    both = claim_words("The office in New York City is our NYC hub.")
    assert as_source_acronyms(both, ev) is both
    # one capitalised word is no spelling of an acronym
    one = claim_words("The office is in Nashville.")
    assert as_source_acronyms(one, ev) is one
