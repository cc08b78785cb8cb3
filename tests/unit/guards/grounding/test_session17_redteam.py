"""Session 17 red team of the grounding check on the write path. Each general cause with
the claims it must now catch and the controls that must stay as they were:

* a factor told as "<verb> by half" (`factor_phrases.py`, read by `factor_verbs.py`);
* "not X" against the source's "non-X" (`non_negations.py`);
* a spelled-out source acronym inside a list (`features.analyze`, spelled_acronyms);
* a doer behind "has" or an adverb (`doer_gaps.py`, read by `passive_actors.py`);
* "grew by N" against "grew to N" (`change_targets.py`);
* a plan told by "is scheduled / slated / expected / going / about to" (`scheduled.py`);
* a universal's exception dropped or written another way (`exceptions_dropped.py`);
* a denial by "lack" or "far from" (`privatives.py`);
* a state told as ended by cessation, "used to" or "no longer" (`ended_states.py`);
* a bound turned the other way, "more than 500" / "nearly 500" (`opposite_bounds.py`);
* a comparison told from its other side (`converse_comparisons.py`);
* a pronoun's case turned, "we owe" / "owes us" (`pronoun_roles.py`);
* a denied negative verb told plain, "never stopped using" (`negation_agreement.py`);
* a causative told with its cause, "doubled thanks to the cache" (`causatives.py`)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from groundwire.guards.grounding.lexical.causatives import caused_words
from groundwire.guards.grounding.lexical.change_targets import swapped_targets
from groundwire.guards.grounding.lexical.converse_comparisons import converse_words
from groundwire.guards.grounding.lexical.doer_gaps import verb_after_doer
from groundwire.guards.grounding.lexical.ended_states import ceased_at, tells_ended
from groundwire.guards.grounding.lexical.evidence import Sentence, evidence_for
from groundwire.guards.grounding.lexical.exceptions_dropped import dropped_exceptions
from groundwire.guards.grounding.lexical.factor_phrases import by_half, direction
from groundwire.guards.grounding.lexical.non_negations import non_agrees
from groundwire.guards.grounding.lexical.opposite_bounds import bound_of
from groundwire.guards.grounding.lexical.privatives import privative_flips
from groundwire.guards.grounding.lexical.pronoun_roles import pronoun_roles
from groundwire.guards.grounding.lexical.scheduled import scheduled_at
from groundwire.guards.grounding.lexical.text import claim_words
from groundwire.topics.records import SourceTurn
from groundwire.topics.vocab import GroundingVerdict
from tests.unit.guards.grounding.one_turn import verify_one_turn

NOT = GroundingVerdict.NOT_SUPPORTED

CAUGHT = [
    # a factor: "rose by half" is 1.5, "fell by half" 0.5
    ("Latency rose by half after the upgrade.", "Latency halved after the upgrade."),
    ("Latency fell by half after the upgrade.", "Latency doubled after the upgrade."),
    ("Our costs grew by half in May.", "Our costs halved in May."),
    # "non-" and a plain negation are not one another's opposite by accident
    ("The call is not blocking.", "The call is blocking."),
    ("The job is critical.", "The job is non-critical."),
    # an acronym spelled as another service inside a list
    (
        "Our data lives in Amazon S3 and Google Cloud Platform.",
        "Our data lives in Amazon S3 and GCS.",
    ),
    ("We deployed to New Jersey, Boston and Chicago.", "We deployed to NYC, Boston and Chicago."),
    # a doer behind "has" or an adverb
    ("The migration was approved by Ana.", "Ana has rejected the migration; Ben has approved it."),
    ("The migration was approved by Ana.", "Ben already approved the migration."),
    # the amount of a change told as its result, and the other way round
    ("The team grew to 14 engineers.", "The team grew by 14 engineers."),
    ("Revenue rose by 20% this year.", "Revenue rose to 20% this year."),
    # a scheduled plan told as done
    ("The feature shipped in v2.3.", "The feature is scheduled to ship in v2.3."),
    ("Ana signed the lease.", "Ana is about to sign the lease."),
    # an exception dropped
    (
        "All endpoints require authentication.",
        "All endpoints except /health require authentication.",
    ),
    (
        "Everyone on the team has production access.",
        "Everyone on the team except the interns has production access.",
    ),
    # a denial by "lack" or "far from"
    ("The service supports IPv6.", "The service lacks IPv6 support."),
    ("The team has a designer.", "The team lacks a designer."),
    ("The bug is fixed.", "The bug is far from fixed."),
    # a state the source says has ended
    ("We still use Jenkins.", "We stopped using Jenkins."),
    ("We use Jenkins.", "We stopped using Jenkins."),
    # a bound the other way
    ("More than 500 people signed up for the beta.", "Nearly 500 people signed up for the beta."),
    ("At least 3 replicas run.", "Fewer than 3 replicas run."),
    # the compared things turned, the comparative kept
    ("Memcached uses more memory than Redis.", "Redis uses more memory than Memcached."),
    # the negative verb told plain where the source denies it
    ("We stopped using Jenkins.", "We never stopped using Jenkins."),
    ("We lack funding.", "We don't lack funding."),
    # a pronoun's case turned
    ("We owe Acme $5,000.", "Acme owes us $5,000."),
    ("They hired Ana in May.", "Ana hired them in May."),
    ("We hired him last year.", "He hired us last year."),
    ("They sent us the contract.", "We sent them the contract."),
]

KEPT = [
    ("Latency fell by half.", "Latency halved."),
    ("Our costs were cut by half in May.", "Our costs halved in May."),
    ("Our costs halved in May.", "Our costs were cut by half in May."),
    ("The call is not blocking.", "The call is non-blocking."),
    ("The job is non-critical.", "The job is not critical."),
    (
        "Our data lives in Amazon S3 and Google Cloud Storage.",
        "Our data lives in Amazon S3 and GCS.",
    ),
    (
        "We deployed to New York City, Boston and Chicago.",
        "We deployed to NYC, Boston and Chicago.",
    ),
    ("The migration was approved by Ben.", "Ana has rejected the migration; Ben has approved it."),
    ("Ana has approved the migration.", "The migration was approved by Ana."),
    ("The team grew by 14 engineers this year.", "This year the team grew by 14 engineers."),
    ("Ana is going to sign the lease.", "Ana is about to sign the lease."),
    ("Ana went to the office.", "Ana was going to the office."),
    (
        "Everyone on the team but the interns has production access.",
        "Everyone on the team except the interns has production access.",
    ),
    (
        "All endpoints require authentication.",
        "All endpoints require authentication, and the health check is public.",
    ),
    ("The service does not support IPv6.", "The service lacks IPv6 support."),
    ("The service has no IPv6 support.", "The service lacks IPv6 support."),
    ("Ana complained about sleep.", "Ana complained about a lack of sleep."),
    ("The bug is not fixed yet.", "The bug is far from fixed."),
    ("We no longer use Jenkins.", "We stopped using Jenkins."),
    ("We don't use Jenkins anymore.", "We stopped using Jenkins."),
    ("Ana no longer works at Stripe.", "Ana used to work at Stripe."),
    ("We used Jenkins.", "We stopped using Jenkins."),
    ("Fewer than 500 people signed up for the beta.", "Nearly 500 people signed up for the beta."),
    ("Over 500 people signed up.", "At least 500 people signed up."),
    ("Memcached uses more memory than Redis.", "Redis uses less memory than Memcached."),
    (
        "MySQL is slower than Postgres for our workload.",
        "Postgres is faster than MySQL for our workload.",
    ),
    ("Ana hired them in May.", "In May, Ana hired them."),
    # a causative told as an inchoative with its cause
    ("The cache doubled our read throughput.", "Our read throughput doubled thanks to the cache."),
    ("The index halved our query latency.", "Our query latency halved because of the index."),
    # a denied denial states the plain fact
    ("We still use Jenkins.", "We never stopped using Jenkins."),
    ("We still use Jenkins.", "We did not stop using Jenkins."),
    ("We met Ana in May.", "Ana met us in May."),
    ("We hired him last year.", "Last year we hired him."),
]


@pytest.mark.parametrize(("claim", "source"), CAUGHT)
def test_caught(claim: str, source: str) -> None:
    assert verify_one_turn(claim, source, "user").verdict is NOT


@pytest.mark.parametrize(("claim", "source"), KEPT)
def test_kept(claim: str, source: str) -> None:
    assert verify_one_turn(claim, source, "user").verdict is not NOT


def _sentences(text: str) -> Sequence[Sentence]:
    return evidence_for([SourceTurn(id="t1", text=text)]).sentences


def _src(text: str) -> tuple[Sequence[Sentence], set[str]]:
    ev = evidence_for([SourceTurn(id="t1", text=text)])
    return ev.sentences, set(ev.lows)


def test_direction_from_wordnet() -> None:
    assert direction("fell") == "down"
    assert direction("reduced") == "down"
    assert direction("rose") == "up"
    assert direction("grew") == "up"
    assert direction("went") is None  # on no side of an increase


def test_by_half_needs_a_verb_of_change() -> None:
    assert by_half(("latency", "fell", "by", "half"), 3) == "0.5"
    assert by_half(("latency", "rose", "by", "half"), 3) == "1.5"
    assert by_half(("we", "went", "by", "half"), 3) is None
    assert by_half(("half", "of", "it"), 0) is None


def test_non_agrees_only_over_the_same_word() -> None:
    claim = ("the", "call", "is", "not", "blocking")
    assert non_agrees(claim, [4], ("the", "call", "is", "non", "blocking"), [0, 1, 2, 3, 4])
    assert not non_agrees(claim, [4], ("the", "call", "is", "blocking"), [0, 1, 2, 3])
    # "not non-blocking" is "blocking": the negated side writes the word with "non" too
    double = ("the", "call", "is", "not", "non", "blocking")
    assert not non_agrees(double, [5], ("the", "call", "is", "non", "blocking"), [0, 1, 2, 3, 4])


def test_verb_after_doer_skips_a_perfect_and_an_adverb_only() -> None:
    w = claim_words("Ben has already approved it")
    assert verb_after_doer(w.lows, w.spans, "Ben has already approved it", 0) == 3
    w = claim_words("Ben approved it")
    assert verb_after_doer(w.lows, w.spans, "Ben approved it", 0) == 1
    w = claim_words("Ben, has approved")  # punctuation: no doer's verb
    assert verb_after_doer(w.lows, w.spans, "Ben, has approved", 0) == 1


def test_swapped_targets_needs_the_other_preposition() -> None:
    w = claim_words("The team grew to 14 engineers.")
    assert swapped_targets(w.lows, w.stems, w.numbers, _sentences("The team grew by 14."))
    assert not swapped_targets(w.lows, w.stems, w.numbers, _sentences("The team grew to 14."))
    w = claim_words("We moved to 14 offices.")  # "move" is no verb of change
    assert not swapped_targets(w.lows, w.stems, w.numbers, _sentences("We moved by 14 offices."))


def test_scheduled_at_is_no_place() -> None:
    assert scheduled_at(("it", "is", "scheduled", "to", "ship"), 2)
    assert not scheduled_at(("ana", "was", "going", "to", "the", "office"), 2)
    assert not scheduled_at(("we", "scheduled", "to", "ship"), 1)  # no "be"


def test_dropped_exceptions_needs_every_claim_word() -> None:
    w = claim_words("All endpoints require authentication.")
    src = _sentences("All endpoints except /health require authentication.")
    assert dropped_exceptions(w.lows, w.stems, w.content, src)
    clause = _sentences("All endpoints require authentication but the docs say otherwise.")
    assert not dropped_exceptions(w.lows, w.stems, w.content, clause)  # "but" opens a clause
    every = claim_words("Everyone has access.")
    assert dropped_exceptions(
        every.lows, every.stems, every.content, _sentences("Everyone but Ana has access.")
    )
    other = _sentences("All endpoints except /health are public.")
    assert not dropped_exceptions(w.lows, w.stems, w.content, other)
    own = claim_words("All endpoints except /metrics require authentication.")
    assert not dropped_exceptions(own.lows, own.stems, own.content, src)


def test_privative_reads_the_verb_not_the_noun() -> None:
    w = claim_words("Ana slept.")
    assert not privative_flips(w.lows, w.stems, w.content, _sentences("Ana has a lack of sleep."))
    w = claim_words("We have funding.")  # a denied denial
    assert not privative_flips(w.lows, w.stems, w.content, _sentences("We don't lack funding."))
    w = claim_words("The service supports IPv6.")
    found = privative_flips(
        w.lows, w.stems, w.content, _sentences("The service lacks IPv6 support.")
    )
    assert found and found[0][0] == "supports"


def test_ended_states() -> None:
    assert ceased_at(("we", "stopped", "using", "it"), 1)
    assert not ceased_at(("we", "stopped", "the", "job"), 1)
    assert not ceased_at(("we", "never", "stopped", "using", "it"), 2)
    assert tells_ended(("ana", "no", "longer", "works"), range(4))
    assert not tells_ended(("ana", "still", "works"), range(3))


def test_bound_of() -> None:
    assert bound_of(("nearly", "500"), 1) == ("below", True, 0)
    assert bound_of(("more", "than", "500"), 2) == ("above", True, 0)
    assert bound_of(("no", "more", "than", "3"), 3) == ("below", False, 0)
    assert bound_of(("the", "500"), 1) is None


def test_converse_words_needs_an_opposite_comparative() -> None:
    w = claim_words("Memcached uses more memory than Redis.")
    turned = converse_words(
        w.lows, w.stems, w.content, _sentences("Redis uses less memory than Memcached.")
    )
    assert turned == {"memcached", "redis", "more"}
    same = _sentences("Redis uses more memory than Memcached.")
    assert not converse_words(w.lows, w.stems, w.content, same)


def test_pronoun_roles() -> None:
    w = claim_words("We owe Acme money.")
    assert pronoun_roles(w.lows, w.stems, w.content, *_src("Acme owes us money.")) == [("we", "us")]
    assert not pronoun_roles(w.lows, w.stems, w.content, *_src("We owe Acme money."))
    w = claim_words("We met Ana in May.")  # a relation that holds both ways
    assert not pronoun_roles(w.lows, w.stems, w.content, *_src("Ana met us in May."))
    w = claim_words("Ana paid her rent.")  # a possessive "her"
    assert not pronoun_roles(w.lows, w.stems, w.content, *_src("She paid Ana rent."))


def test_caused_words_needs_the_changed_thing_before_the_verb() -> None:
    w = claim_words("The cache doubled our read throughput.")
    src = _sentences("Our read throughput doubled thanks to the cache.")
    assert caused_words(w.lows, w.stems, w.content, src) == {"cache", "read", "throughput"}
    other = _sentences("The cache doubled thanks to our read throughput.")
    assert not caused_words(w.lows, w.stems, w.content, other)
    plain = _sentences("Our read throughput doubled and the cache helped.")  # no marker
    assert not caused_words(w.lows, w.stems, w.content, plain)
