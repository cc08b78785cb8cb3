"""Every security property of the review queue (docs/spec.md §Review queue), against the
real Redis: authorization, isolation without an existence oracle, bounds, race freedom,
the audit trail, and the HTTP boundary (authentication, CSRF, limits, errors)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import httpx
import jwt
import pytest

from groundwire.streams.review.relay import _entry, audit_event
from groundwire.streams.review.rules import Reviewer
from groundwire.streams.review.store import Decided, Refused
from groundwire.topics.vocab import ReviewAction, ReviewDecision, ReviewDenial, ReviewLimit
from tests.support.review import ADMIN_ROLE, AUDIENCE, Signer

pytestmark = pytest.mark.integration

T = "acme"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def outbox(store, tenant: str = T) -> list:
    raw = await store.client.xrange(store.keys.outbox(store.keys.shard_of(tenant)))
    return [audit_event(_entry(r)) for r in raw]


# -- the queue: owners, pages, idempotence --------------------------------------------


async def test_owner_sees_own_claims_newest_first_with_a_cursor(api, signer, enqueue):
    base = datetime.now(UTC) - timedelta(hours=1)
    for i in range(5):
        await enqueue(T, "alice", f"claim {i}", routed_at=base + timedelta(minutes=i))
    await enqueue(T, "bob", "bob's claim")
    headers = bearer(signer.token(T, "alice"))
    first = await api.get("/api/v1/pending?limit=3", headers=headers)
    assert first.status_code == 200
    page = first.json()
    assert [i["content"] for i in page["items"]] == ["claim 4", "claim 3", "claim 2"]
    second = await api.get(f"/api/v1/pending?limit=3&cursor={page['next_cursor']}", headers=headers)
    rest = second.json()
    assert [i["content"] for i in rest["items"]] == ["claim 1", "claim 0"]
    assert rest["next_cursor"] is None
    assert all(i["owner"] == "alice" for i in page["items"] + rest["items"])


async def test_enqueue_is_idempotent_by_claim_id(store, enqueue):
    first = await enqueue(T, "alice", "same claim", claim_id="c-once")
    again = await enqueue(T, "alice", "same claim", claim_id="c-once")
    assert first.seen == "new" and again.seen == "duplicate"
    assert again.queue_id == first.queue_id
    page = await store.list(Reviewer(T, "alice"), owner=None, limit=50, cursor="", request_id="r")
    assert len(page.items) == 1


# -- authorization and isolation: no IDOR, no existence oracle ------------------------


async def test_another_users_claim_answers_exactly_like_a_missing_one(api, signer, enqueue, store):
    mine = await enqueue(T, "alice", "alice's claim")
    mallory = bearer(signer.token(T, "mallory"))
    missing = "A" * 22
    for method, suffix, body in (
        ("GET", "", None),
        ("POST", "/approve", {}),
        ("POST", "/reject", {"reason": "no"}),
    ):
        foreign = await api.request(
            method, f"/api/v1/pending/{mine.queue_id}{suffix}", headers=mallory, json=body
        )
        absent = await api.request(
            method, f"/api/v1/pending/{missing}{suffix}", headers=mallory, json=body
        )
        assert foreign.status_code == absent.status_code == 404
        assert foreign.content == absent.content
        assert set(foreign.headers) == set(absent.headers)
    # still pending for its owner, and the attempts are on the audit trail
    own = await api.get(
        f"/api/v1/pending/{mine.queue_id}", headers=bearer(signer.token(T, "alice"))
    )
    assert own.status_code == 200
    denials = [e for e in await outbox(store) if e.action is ReviewAction.DENIED]
    assert [e.denial for e in denials] == [ReviewDenial.NOT_OWNER, ReviewDenial.NOT_FOUND] * 3
    assert all(e.actor == "mallory" and e.request_id and e.at for e in denials)


async def test_same_user_id_in_another_tenant_reaches_nothing(api, signer, enqueue):
    mine = await enqueue(T, "alice", "acme alice")
    other = bearer(signer.token("globex", "alice"))
    assert (await api.get(f"/api/v1/pending/{mine.queue_id}", headers=other)).status_code == 404
    listed = await api.get("/api/v1/pending", headers=other)
    assert listed.json()["items"] == []
    approve = await api.post(f"/api/v1/pending/{mine.queue_id}/approve", headers=other)
    assert approve.status_code == 404


async def test_identity_comes_from_the_credential_not_the_request(api, signer, enqueue):
    mine = await enqueue(T, "alice", "alice's claim")
    mallory = bearer(signer.token(T, "mallory"))
    forged = await api.post(
        f"/api/v1/pending/{mine.queue_id}/approve?user_id=alice&tenant_id=acme",
        headers={**mallory, "X-User-Id": "alice"},
        json={"user_id": "alice", "reviewer": "alice", "tenant_id": T},
    )
    assert forged.status_code == 404
    listed = await api.get("/api/v1/pending?owner=alice", headers=mallory)
    assert listed.status_code == 403


async def test_tenant_admin_acts_in_its_own_tenant_only(api, signer, enqueue):
    mine = await enqueue(T, "alice", "alice's claim")
    ownerless = await enqueue(T, "", "a claim without a user")
    theirs = await enqueue("globex", "gina", "globex claim")
    admin = bearer(signer.token(T, "root", roles=[ADMIN_ROLE]))
    everything = await api.get("/api/v1/pending?all=true", headers=admin)
    assert {i["queue_id"] for i in everything.json()["items"]} == {
        mine.queue_id,
        ownerless.queue_id,
    }
    assert (
        await api.post(f"/api/v1/pending/{ownerless.queue_id}/approve", headers=admin)
    ).status_code == 200
    assert (
        await api.post(f"/api/v1/pending/{theirs.queue_id}/approve", headers=admin)
    ).status_code == 404
    # without the role the same user is an ordinary owner
    plain = bearer(signer.token(T, "root"))
    assert (await api.get("/api/v1/pending?all=true", headers=plain)).status_code == 403
    assert (
        await api.post(f"/api/v1/pending/{mine.queue_id}/approve", headers=plain)
    ).status_code == 404


async def test_not_found_and_not_owner_take_the_same_path(store, enqueue, monkeypatch):
    """No existence oracle: a missing item and another owner's item are refused by the
    same Redis commands (one script, one round trip), so the work behind the answer does
    not tell them apart (the answer itself is one `Refused`; its `denial` is for metrics
    and the audit only). Counted, not timed."""
    mine = await enqueue(T, "alice", "alice's claim")
    mallory = Reviewer(T, "mallory")
    sent: list[str] = []
    send = store.client.execute_command

    async def counted(*args, **kwargs):
        sent.append(str(args[0]).upper())
        return await send(*args, **kwargs)

    monkeypatch.setattr(store.client, "execute_command", counted)
    seen: dict[str, list[str]] = {}
    for kind, qid in (("foreign", mine.queue_id), ("missing", "missing000000000000001")):
        sent.clear()
        answer = await store.get(mallory, qid, "r")
        assert isinstance(answer, Refused)
        seen[kind] = list(sent)
    assert seen["foreign"] == seen["missing"], seen
    assert len(seen["foreign"]) == 1  # one script call, nothing read first


# -- bounds ---------------------------------------------------------------------------


async def test_per_owner_and_total_bounds_overflow_instead_of_losing(make_settings, redis_client):
    from groundwire.streams.review.store import NewItem, ReviewStore
    from tests.support.review import flagged, record_bytes

    settings = make_settings(max_per_owner=3, max_total=5)
    store = ReviewStore(redis_client, settings.review)

    def item(user: str, n: int) -> NewItem:
        r = flagged(T, user, f"{user} {n}")
        return NewItem(T, user, r.claim.claim_id, n, record_bytes(r), f"t:0:{user}{n}")

    outcomes = await store.enqueue([item("alice", n) for n in range(4)])
    assert [o.state for o in outcomes] == ["queued"] * 3 + ["overflow"]
    assert outcomes[-1].limit is ReviewLimit.OWNER
    outcomes = await store.enqueue([item("bob", n) for n in range(3)])
    assert [o.state for o in outcomes] == ["queued", "queued", "overflow"]
    assert outcomes[-1].limit is ReviewLimit.TOTAL
    async for key in redis_client.scan_iter(match=f"{settings.review.redis_prefix}:*"):
        await redis_client.delete(key)


# -- race freedom ---------------------------------------------------------------------


async def test_concurrent_approvals_produce_exactly_one_decision(store, enqueue):
    mine = await enqueue(T, "alice", "contested")
    alice = Reviewer(T, "alice")
    results = await asyncio.gather(
        *(
            store.decide(alice, mine.queue_id, ReviewDecision.APPROVE, "", f"r{i}")
            for i in range(25)
        )
    )
    assert sum(isinstance(r, Decided) for r in results) == 1
    decisions = [e for e in await outbox(store) if e.action is ReviewAction.APPROVE]
    assert len(decisions) == 1


async def test_approve_racing_reject_produces_exactly_one_decision(store, enqueue):
    for _ in range(20):
        mine = await enqueue(T, "alice", "contested")
        alice = Reviewer(T, "alice")
        a, r = await asyncio.gather(
            store.decide(alice, mine.queue_id, ReviewDecision.APPROVE, "", "ra"),
            store.decide(alice, mine.queue_id, ReviewDecision.REJECT, "wrong", "rr"),
        )
        assert isinstance(a, Decided) != isinstance(r, Decided)
    events = await outbox(store)
    assert sum(e.action in (ReviewAction.APPROVE, ReviewAction.REJECT) for e in events) == 20


async def test_concurrent_http_approvals_answer_200_once(api, signer, enqueue):
    mine = await enqueue(T, "alice", "contested")
    headers = bearer(signer.token(T, "alice"))
    answers = await asyncio.gather(
        *(api.post(f"/api/v1/pending/{mine.queue_id}/approve", headers=headers) for _ in range(10))
    )
    assert sorted(a.status_code for a in answers) == [200] + [404] * 9


# -- the audit trail ------------------------------------------------------------------


async def test_every_action_is_audited_with_actor_time_and_request_id(api, signer, enqueue, store):
    a = await enqueue(T, "alice", "first")
    b = await enqueue(T, "alice", "second")
    headers = bearer(signer.token(T, "alice"))
    listed = await api.get("/api/v1/pending", headers=headers)
    await api.get(f"/api/v1/pending/{a.queue_id}", headers=headers)
    approved = await api.post(f"/api/v1/pending/{a.queue_id}/approve", headers=headers)
    rejected = await api.post(
        f"/api/v1/pending/{b.queue_id}/reject", headers=headers, json={"reason": "stale"}
    )
    await api.get("/api/v1/pending", headers={"Authorization": "Bearer nonsense"})
    events = await outbox(store)  # one shard: the tenantless refusal lands there too
    actions = [e.action for e in events]
    assert actions == [
        ReviewAction.VIEW,
        ReviewAction.VIEW,
        ReviewAction.APPROVE,
        ReviewAction.REJECT,
        ReviewAction.DENIED,
    ]
    assert events[0].count == 2
    assert events[2].request_id == approved.headers["x-request-id"]
    assert events[3].request_id == rejected.headers["x-request-id"] and events[3].reason == "stale"
    assert events[0].request_id == listed.headers["x-request-id"]
    assert all(e.actor == "alice" for e in events[:4])
    assert events[4].denial is ReviewDenial.UNAUTHENTICATED
    assert all(e.at.year >= 2024 for e in events)


# -- the HTTP boundary ----------------------------------------------------------------


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda s: "", id="missing"),
        pytest.param(lambda s: "not.a.jwt", id="garbage"),
        pytest.param(lambda s: Signer.new().token(T, "alice"), id="untrusted-key"),
        pytest.param(lambda s: s.token(T, "alice", ttl_s=-120), id="expired"),
        pytest.param(lambda s: s.token(T, "alice", aud="someone-else"), id="wrong-audience"),
        pytest.param(
            lambda s: jwt.encode({"sub": "alice", "tenant": T, "aud": AUDIENCE}, None, "none"),
            id="alg-none",
        ),
        pytest.param(
            lambda s: jwt.encode(
                {"sub": "alice", "tenant": T, "aud": AUDIENCE, "iat": 1, "exp": 4102444800},
                s.public_bytes,
                "HS256",
                headers={"kid": s.kid},
            ),
            id="hs256-with-the-public-key-as-secret",
        ),
        pytest.param(lambda s: s.token(T, "x" * 300), id="invalid-user-id"),
    ],
)
async def test_bad_credentials_are_refused(api, signer, make):
    token = make(signer)
    response = await api.get("/api/v1/pending", headers=bearer(token) if token else {})
    assert response.status_code == 401
    assert response.json()["error"] == "unauthenticated"


async def _session(api: httpx.AsyncClient, token: str) -> str:
    signed = await api.post(
        "/api/v1/session", json={"token": token}, headers={"Origin": "https://localhost"}
    )
    assert signed.status_code == 200, signed.text
    cookie = signed.headers["set-cookie"]
    for attribute in ("HttpOnly", "Secure", "SameSite=strict", "Path=/"):
        assert attribute.lower() in cookie.lower()
    assert cookie.startswith("__Host-gw_review=")
    return signed.json()["csrf_token"]


async def test_browser_posts_need_the_csrf_token_and_same_origin(api, signer, enqueue):
    mine = await enqueue(T, "alice", "alice's claim")
    csrf = await _session(api, signer.token(T, "alice"))
    path = f"/api/v1/pending/{mine.queue_id}/approve"
    assert (await api.post(path)).status_code == 403
    assert (await api.post(path, headers={"X-CSRF-Token": "wrong"})).status_code == 403
    cross = await api.post(path, headers={"X-CSRF-Token": csrf, "Origin": "https://evil.example"})
    assert cross.status_code == 403
    ok = await api.post(path, headers={"X-CSRF-Token": csrf, "Origin": "https://localhost"})
    assert ok.status_code == 200
    # reading needs no token, and a cross-site sign-in is refused
    assert (await api.get("/api/v1/pending")).status_code == 200
    evil = await api.post(
        "/api/v1/session",
        json={"token": signer.token(T, "alice")},
        headers={"Origin": "https://evil.example"},
    )
    assert evil.status_code == 403


async def test_oversized_bodies_are_refused(api, signer, enqueue):
    mine = await enqueue(T, "alice", "x")
    headers = bearer(signer.token(T, "alice"))
    big = await api.post(
        f"/api/v1/pending/{mine.queue_id}/reject", headers=headers, json={"reason": "y" * 40_000}
    )
    assert big.status_code == 413 and big.json()["error"] == "too_large"


async def test_invalid_input_gets_a_clear_4xx_without_a_trace(api, signer, enqueue):
    mine = await enqueue(T, "alice", "x")
    headers = bearer(signer.token(T, "alice"))
    for response in (
        await api.get("/api/v1/pending?limit=0", headers=headers),
        await api.get("/api/v1/pending?limit=abc", headers=headers),
        await api.get("/api/v1/pending?cursor=%%%", headers=headers),
        await api.post(
            f"/api/v1/pending/{mine.queue_id}/reject", headers=headers, json={"reason": "  "}
        ),
        await api.post(
            f"/api/v1/pending/{mine.queue_id}/reject", headers=headers, content=b"{not json"
        ),
        await api.post(
            f"/api/v1/pending/{mine.queue_id}/reject", headers=headers, json={"reason": "a\u202eb"}
        ),
    ):
        assert response.status_code == 400, response.text
        body = response.json()
        assert body["error"] == "invalid_request"
        assert "Traceback" not in response.text and "input" not in body
    assert (await api.get("/api/v1/pending/../../etc", headers=headers)).status_code == 404


async def test_each_credential_has_a_rate_limit(make_settings, redis_client, signer, enqueue):
    from groundwire.streams.review.store import ReviewStore
    from tests.integration.review.conftest import app_for

    settings = make_settings(rate_per_s=0.001, rate_burst=5)
    store = ReviewStore(redis_client, settings.review)
    transport = httpx.ASGITransport(app=app_for(settings, store))
    async with httpx.AsyncClient(transport=transport, base_url="https://localhost") as api:
        alice = bearer(signer.token(T, "alice"))
        codes = [(await api.get("/api/v1/pending", headers=alice)).status_code for _ in range(7)]
        assert codes == [200] * 5 + [429] * 2
        bob = bearer(signer.token(T, "bob"))
        assert (await api.get("/api/v1/pending", headers=bob)).status_code == 200
    async for key in redis_client.scan_iter(match=f"{settings.review.redis_prefix}:*"):
        await redis_client.delete(key)


async def test_security_headers_and_openapi(api):
    page = await api.get("/")
    csp = page.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert page.headers["x-content-type-options"] == "nosniff"
    assert "<script" in page.text and "onclick" not in page.text
    spec = (await api.get("/openapi.json")).json()
    assert "/api/v1/pending/{queue_id}/approve" in spec["paths"]
    assert (await api.get("/healthz")).status_code == 200


async def test_the_nearly_duplicated_claim_is_shown_only_to_whoever_may_see_it(
    api, signer, enqueue
):
    await enqueue(T, "alice", "The export job may take an hour", claim_id="c-first")
    await enqueue(T, "bob", "Bob's export note", claim_id="c-bob")
    await enqueue(
        T, "alice", "The export job may take about an hour", pending_duplicate_of="c-first"
    )
    await enqueue(T, "alice", "An export may take an hour", pending_duplicate_of="c-bob")
    page = (await api.get("/api/v1/pending", headers=bearer(signer.token(T, "alice")))).json()
    by_content = {i["content"]: i for i in page["items"]}
    mine = by_content["The export job may take about an hour"]
    assert mine["duplicate_of"] == "c-first"
    assert mine["duplicate_content"] == "The export job may take an hour"
    theirs = by_content["An export may take an hour"]
    assert theirs["duplicate_of"] == "c-bob" and theirs["duplicate_content"] is None
