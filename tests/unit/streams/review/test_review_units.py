"""The review queue's pure parts: who may act, cursors, the reviewer's view of a record,
token verification, the rate limiter, and the records the feed and the relay write."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import orjson
import pytest

from groundwire.streams.review.auth import Authenticator, AuthError, RateLimiter
from groundwire.streams.review.config import ReviewAuthConfig, ReviewConfig
from groundwire.streams.review.feed import overflow_record
from groundwire.streams.review.keys import Keys, member, new_queue_id
from groundwire.streams.review.relay import Entry, outputs_of
from groundwire.streams.review.rules import Reviewer, may_list, role_for
from groundwire.streams.review.store import Pending
from groundwire.streams.review.views import (
    QUEUE_ID,
    RejectIn,
    decode_cursor,
    encode_cursor,
    pending_view,
)
from groundwire.streams.settings import Settings
from groundwire.topics.records import ReviewAuditEvent, ReviewedResult, RoutedResult
from groundwire.topics.vocab import ReasonCode, ReviewLimit, ReviewRole, Tier
from tests.support.review import ADMIN_ROLE, Signer, flagged, record_bytes


def test_only_the_owner_or_an_admin_of_the_same_tenant_may_act() -> None:
    alice, admin = Reviewer("acme", "alice"), Reviewer("acme", "root", admin=True)
    assert role_for(alice, "acme", "alice") is ReviewRole.OWNER
    assert role_for(alice, "acme", "bob") is None
    assert role_for(alice, "globex", "alice") is None
    assert role_for(admin, "acme", "bob") is ReviewRole.TENANT_ADMIN
    assert role_for(admin, "globex", "bob") is None
    assert role_for(alice, "acme", "") is None  # an ownerless claim: admins only
    assert role_for(admin, "acme", "") is ReviewRole.TENANT_ADMIN
    assert may_list(alice, None) and may_list(alice, "alice") and not may_list(alice, "bob")
    assert may_list(admin, "bob")


def test_key_names_do_not_collide_across_id_boundaries() -> None:
    keys = Keys("gw:review", 4)
    assert keys.owner_zset("a:b", "c") != keys.owner_zset("a", "b:c")
    assert keys.base_of("acme").startswith("gw:review:{")
    assert all(k.startswith(keys.base_of("acme")) for k in (keys.item("acme", "q"),))
    ids = {new_queue_id() for _ in range(1000)}
    assert len(ids) == 1000
    # an id is typed on command lines: one starting with '-' would parse as an option
    assert not any(i.startswith("-") for i in ids)
    assert all(QUEUE_ID.match(i) for i in ids)


@pytest.mark.parametrize("bad", ["%%%", "bm9wZQ", "x" * 200, encode_cursor("12:abc")])
def test_cursors_round_trip_and_refuse_what_we_never_issued(bad: str | None) -> None:
    m = member(1_700_000_000_000, "abc_DEF-1")
    assert decode_cursor(encode_cursor(m) or "") == m
    assert decode_cursor("") == ""
    with pytest.raises(ValueError):
        decode_cursor(bad or "")


def test_a_reject_reason_is_trimmed_and_refuses_control_characters() -> None:
    assert RejectIn(reason="  stale  ").reason == "stale"
    for bad in ("   ", "a\x00b", "evil\u202etxt"):
        with pytest.raises(ValueError):
            RejectIn(reason=bad)


def test_the_view_shows_why_and_the_evidence() -> None:
    r = flagged(
        "acme", "alice", "It may fail", turns=[("t1", "It may fail often")], spans=[("t1", 0, 11)]
    )
    view = pending_view(Pending("q1", "alice", 1_700_000_000_000, record_bytes(r)))
    assert view["validation"]["reason_code"] == "technical_hedge"
    assert view["grounding"]["evidence_spans"][0]["text"] == "It may fail"
    assert view["source_turns"] == [{"id": "t1", "text": "It may fail often", "source": "user"}]
    assert view["submitted_at"].startswith("2023-11-14T22:13:20")


def _auth(signer: Signer, **kw) -> Authenticator:
    return Authenticator(ReviewAuthConfig(jwks=signer.jwks, admin_role=ADMIN_ROLE, **kw))


def test_tokens_give_the_identity_and_the_admin_role() -> None:
    signer = Signer.new()
    auth = _auth(signer)
    v = auth.verify(signer.token("acme", "alice"))
    assert v.reviewer == Reviewer("acme", "alice", admin=False)
    assert auth.verify(signer.token("acme", "root", roles=[ADMIN_ROLE])).reviewer.admin
    with pytest.raises(AuthError):
        auth.verify(signer.token("acme", "alice", roles="review-admin"))  # type: ignore[arg-type]
    with pytest.raises(AuthError):
        _auth(signer, issuer="https://id.example").verify(signer.token("acme", "alice"))
    with pytest.raises(AuthError):
        auth.verify("x" * 9000)


def test_symmetric_keys_are_not_accepted_in_the_key_set() -> None:
    jwks = json.dumps({"keys": [{"kty": "oct", "k": "c2VjcmV0", "kid": "h"}]})
    with pytest.raises(ValueError):
        Authenticator(ReviewAuthConfig(jwks=jwks))


def test_the_rate_limiter_refills_and_is_bounded() -> None:
    limiter = RateLimiter(rate_per_s=1.0, burst=2, max_keys=3)
    assert [limiter.allow("k", now=0.0) for _ in range(3)] == [0.0, 0.0, 1.0]
    assert limiter.allow("k", now=1.0) == 0.0
    for i in range(10):
        limiter.allow(f"other{i}", now=2.0)
    assert len(limiter._buckets) == 3


def test_overflow_is_a_block_with_its_own_reason_code() -> None:
    r = flagged("acme", "alice", "It may fail")
    at = datetime(2026, 1, 1, tzinfo=UTC)
    blocked = RoutedResult.model_validate_json(overflow_record(r, ReviewLimit.OWNER, 100, at))
    assert blocked.validation.tier is Tier.BLOCK
    assert blocked.validation.reason_code is ReasonCode.REVIEW_QUEUE_FULL
    assert "review_queue_full: owner limit 100" in blocked.validation.checks_failed
    assert blocked.claim == r.claim and "review_queue_full" in blocked.tags


def test_a_decision_entry_becomes_its_record_and_its_audit_event() -> None:
    r = flagged("acme", "alice", "It may fail")
    settings = Settings(review=ReviewConfig())
    fields = {
        "a": "reject",
        "t": "acme",
        "u": "alice",
        "r": "owner",
        "at": "1700000000000",
        "rq": "req-1",
        "q": "q1",
        "c": r.claim.claim_id,
        "o": "alice",
        "rs": "wrong",
        "s": "1699999990000",
        "d": record_bytes(r).decode(),
    }
    outputs = outputs_of(settings, Entry("1-0", fields))
    assert [o.topic for o in outputs] == ["groundwire.blocked", "groundwire.audit"]
    record = ReviewedResult.model_validate_json(outputs[0].value)
    assert record.review.reason == "wrong" and record.review.reviewer == "alice"
    assert record.claim == r.claim
    event = ReviewAuditEvent.model_validate(orjson.loads(outputs[1].value))
    assert (event.action.value, event.request_id, event.actor) == ("reject", "req-1", "alice")
    assert outputs_of(settings, Entry("1-0", fields)) == outputs  # pure: replays are identical
