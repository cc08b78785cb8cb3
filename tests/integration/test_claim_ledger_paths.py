"""The claim ledger's two ways of talking to Redis give the same answers: one script call
per batch on a single Redis, a pipeline on a Redis Cluster (which refuses a script whose
keys span slots). Each check is made directly against the ledger on real servers."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest

from groundwire.streams.ledger import ClaimLedger, LedgerEntry, Seen, build_claim_ledger
from groundwire.topics.records import Claim
from tests.support.names import RUN
from tests.support.redis_server import RedisClusterServer

pytestmark = pytest.mark.integration


def _claim(i: int, content: str = "the cache keeps sessions for a day") -> Claim:
    # tenants spread over many hash slots, so a cluster batch spans nodes
    return Claim(claim_id=f"c-{i}", tenant_id=f"t-{i % 7}", content=content, source="user")


@pytest.fixture(params=["single", "cluster"])
async def ledger(
    request: pytest.FixtureRequest, redis_url: str, redis_cluster: RedisClusterServer
) -> AsyncIterator[ClaimLedger]:
    cluster = request.param == "cluster"
    led = build_claim_ledger(
        redis_cluster.url if cluster else redis_url,
        prefix=f"{RUN}:ledger:{uuid.uuid4().hex[:8]}",
        retention_s=60,
        timeout_s=2,
        cluster=cluster,
    )
    assert (led._scripts is None) is cluster  # the path under test is the one expected
    yield led
    await led.aclose()


async def test_each_way_of_being_seen_again(ledger: ClaimLedger) -> None:
    first = [LedgerEntry(_claim(i), f"claims:0:{i}") for i in range(40)]
    assert [c.seen for c in await ledger.check(first)] == [Seen.NEW] * 40
    await ledger.record([(e, "approved" if i % 2 else "review") for i, e in enumerate(first)])

    again = [
        LedgerEntry(_claim(0), "claims:0:0"),  # the same record: reprocessed
        LedgerEntry(_claim(1), "claims:3:77"),  # same content elsewhere: a replay
        LedgerEntry(_claim(2, "other content"), "claims:1:5"),  # same id, new content
        LedgerEntry(_claim(99), "claims:0:99"),  # never seen
    ]
    checks = await ledger.check(again)
    assert [c.seen for c in checks] == [Seen.REPROCESSED, Seen.REPLAY, Seen.REUSED, Seen.NEW]
    assert checks[1].earlier_tier == "approved" and checks[1].first_origin == "claims:0:1"
    assert checks[2].first_origin == "claims:0:2"
    # a check never overwrites: the first publication is still the one remembered
    kept = await ledger.check(
        [LedgerEntry(_claim(1), "claims:0:1"), LedgerEntry(_claim(2), "claims:0:2")]
    )
    assert [c.seen for c in kept] == [Seen.REPROCESSED, Seen.REPROCESSED]


async def test_a_replay_of_a_claim_in_flight_has_no_tier_yet(ledger: ClaimLedger) -> None:
    entry = LedgerEntry(_claim(5), "claims:0:5")
    await ledger.check([entry])  # checked, decision not recorded yet
    (check,) = await ledger.check([LedgerEntry(_claim(5), "claims:2:9")])
    assert check.seen is Seen.REPLAY and not check.earlier_tier


async def test_recording_never_creates_an_entry(ledger: ClaimLedger) -> None:
    """`XX`: a decision for a claim_id the ledger no longer holds (expired, or never
    checked) is not written, so a later copy is decided as new."""
    ghost = LedgerEntry(_claim(7), "claims:0:7")
    await ledger.record([(ghost, "approved")])
    (check,) = await ledger.check([ghost])
    assert check.seen is Seen.NEW
