"""POST /v1/answers:score against the real Redis and Kafka: the score in the response and
on answers.scored and audit, once; the review API's authentication and tenant rules;
bounded bodies; the validated cache; the regeneration webhook through the SSRF guard;
and 503, nothing recorded, when Kafka is away."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import orjson
import pytest
import redis.asyncio as aioredis
from confluent_kafka import Consumer

from groundwire.streams.settings import Settings
from groundwire.topics.vocab import AnswerAction, ReviewDenial, RiskLevel
from tests.support.review import ADMIN_ROLE, Signer

pytestmark = pytest.mark.integration

PATH = "/v1/answers:score"
INBOX3 = (
    "Your Inbox3 project is at 60% completion. The main blockers are OAuth and rate limits. "
    "Your team of 3 engineers is allocated 50% to this project."
)
CONTEXT = [
    {"id": "mem_X", "text": "Inbox3 is at 60% completion.", "source": "corpus"},
    {"id": "mem_Y", "text": "Inbox3 blockers are OAuth and rate limits.", "source": "corpus"},
]


def body(answer_id: str = "a-1", text: str = INBOX3, **extra: Any) -> dict[str, Any]:
    return {"answer_id": answer_id, "text": text, "context": CONTEXT, **extra}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def read(settings: Settings, suffix: str, count: int, timeout_s: float = 20.0) -> list[Any]:
    consumer = Consumer(
        {
            "bootstrap.servers": settings.bootstrap_servers,
            "group.id": f"peek-{time.time_ns()}",
            "enable.auto.commit": False,
            "isolation.level": "read_committed",
            "auto.offset.reset": "earliest",
        }
    )
    consumer.subscribe([settings.topics.name(suffix)])
    out: list[Any] = []
    deadline = time.monotonic() + timeout_s
    try:
        while time.monotonic() < deadline:
            for m in consumer.consume(100, 0.5):
                if not m.error():
                    out.append((dict(m.headers() or []), orjson.loads(m.value())))
            if len(out) >= count:
                # a little longer, to see a duplicate if there were one
                extra_until = time.monotonic() + 1.5
                while time.monotonic() < extra_until:
                    out.extend(
                        (dict(m.headers() or []), orjson.loads(m.value()))
                        for m in consumer.consume(100, 0.5)
                        if not m.error()
                    )
                break
    finally:
        consumer.close()
    return out


async def test_a_scored_answer_is_returned_and_recorded_once(service, make_settings, signer):
    settings = make_settings()
    api = await service.start(settings)
    response = await api.post(PATH, json=body(), headers=bearer(signer.token("acme", "georgian")))
    assert response.status_code == 200, response.text
    scored = response.json()
    assert scored["faithfulness"] == 0.5 and scored["risk"] == RiskLevel.HIGH.value
    assert scored["answer"]["tenant_id"] == "acme" and scored["answer"]["user_id"] == "georgian"
    assert scored["action"] == AnswerAction.WARNED.value and "[unverified:" in scored["final_text"]
    assert response.headers["x-request-id"]
    [(headers, on_topic)] = read(settings, "answers.scored", 1)
    assert on_topic == scored and headers["risk"] == b"high"
    audit = read(settings, "audit", 1)
    assert [(h["event"], doc["answer"]["answer_id"]) for h, doc in audit] == [
        (b"answer_score", "a-1")
    ]


async def test_identity_comes_from_the_token_only(service, make_settings, signer):
    settings = make_settings()
    api = await service.start(settings)
    token = bearer(signer.token("acme", "georgian"))
    other_tenant = await api.post(PATH, json=body(tenant_id="globex"), headers=token)
    assert other_tenant.status_code == 403
    assert other_tenant.json()["error"] == "forbidden"
    other_user = await api.post(PATH, json=body(user_id="someone"), headers=token)
    assert other_user.status_code == 403
    admin = bearer(signer.token("acme", "boss", roles=[ADMIN_ROLE]))
    assert (await api.post(PATH, json=body(user_id="someone"), headers=admin)).status_code == 200
    assert (await api.post(PATH, json=body())).status_code == 401
    forged = Signer.new().token("acme", "georgian")
    assert (await api.post(PATH, json=body(), headers=bearer(forged))).status_code == 401
    # the refusals are audited like any refused review request (a caller's burst of them
    # once a second)
    client = aioredis.Redis.from_url(settings.redis_url.get_secret_value())
    keys = [k async for k in client.scan_iter(match=f"{settings.review.redis_prefix}:*:x")]
    entries = [e for k in keys for _, e in await client.xrange(k)]
    denials = [e.get(b"dn") for e in entries]
    assert ReviewDenial.FORBIDDEN.value.encode() in denials
    await client.aclose()


async def test_bodies_are_bounded_and_checked(service, make_settings, signer):
    settings = make_settings(max_context_sources=3, http_max_body_bytes=200_000)
    api = await service.start(settings)
    token = bearer(signer.token("acme", "georgian"))
    # larger than the review API's 16 KiB, within the endpoint's own limit
    big_context = [{"id": f"m{i}", "text": "x" * 30_000, "source": "corpus"} for i in range(3)]
    assert (await api.post(PATH, json=body(context=big_context), headers=token)).status_code == 200
    huge = [{"id": "m", "text": "x" * 300_000, "source": "corpus"}]
    assert (await api.post(PATH, json=body(context=huge), headers=token)).status_code == 413
    many = [{"id": f"m{i}", "text": "t", "source": "corpus"} for i in range(4)]
    too_many = await api.post(PATH, json=body(context=many), headers=token)
    assert too_many.status_code == 413
    invalid = await api.post(PATH, json={"text": "no id"}, headers=token)
    assert invalid.status_code == 400 and invalid.json()["error"] == "invalid_request"
    assert "no id" not in invalid.text  # the input is never echoed
    schema = (await api.get("/openapi.json")).json()
    assert PATH in schema["paths"]


async def test_a_validated_score_comes_from_the_shared_cache(service, make_settings, signer):
    settings = make_settings()
    api = await service.start(settings)
    token = bearer(signer.token("acme", "georgian"))
    good = "Inbox3 is at 60% completion. The main blockers are OAuth and rate limits."
    first = (await api.post(PATH, json=body("a-1", good), headers=token)).json()
    second = (await api.post(PATH, json=body("a-2", good), headers=token)).json()
    assert (first["cached"], second["cached"]) == (False, True)
    assert second["claims"] == first["claims"] and second["answer"]["answer_id"] == "a-2"
    client = aioredis.Redis.from_url(settings.redis_url.get_secret_value())
    prefix = settings.guards.faithfulness.cache.redis_prefix
    keys = [k async for k in client.scan_iter(match=f"{prefix}:*")]
    assert len(keys) == 1 and b":{" in keys[0]  # one entry, hash-tagged by tenant
    assert 0 < await client.pttl(keys[0]) <= 300_000
    await client.aclose()
    # another tenant with the same answer and context does not see it
    other = bearer(signer.token("globex", "georgian"))
    assert (await api.post(PATH, json=body("a-3", good), headers=other)).json()["cached"] is False


class _Hook(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        size = int(self.headers.get("content-length", "0"))
        request = json.loads(self.rfile.read(size))
        answer = "Inbox3 is at 60% completion." if request["attempt"] == 1 else "?"
        payload = json.dumps({"answer": answer}).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *_args: object) -> None:
        """Quiet."""


@pytest.fixture
def webhook() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Hook)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/regenerate"
    server.shutdown()


async def test_regenerate_asks_the_webhook_through_the_ssrf_guard(
    service, make_settings, signer, webhook
):
    token = bearer(signer.token("acme", "georgian"))
    refused = make_settings(on_hallucination="regenerate", regenerate={"webhook_url": webhook})
    api = await service.start(refused)
    scored = (await api.post(PATH, json=body(), headers=token)).json()
    assert scored["action"] == AnswerAction.BLOCKED.value  # loopback is not public
    assert all("refused non-public address" in a["error"] for a in scored["attempts"])
    allowed = make_settings(
        on_hallucination="regenerate",
        regenerate={"webhook_url": webhook, "webhook_allowlist": ["127.0.0.1"]},
    )
    api = await service.start(allowed)
    scored = (await api.post(PATH, json=body(), headers=token)).json()
    assert scored["action"] == AnswerAction.REGENERATED.value
    assert scored["final_text"] == "Inbox3 is at 60% completion."
    assert scored["faithfulness"] == 0.5  # the original answer's score, for the metrics


async def test_no_kafka_means_503_and_nothing_recorded(service, make_settings, signer):
    settings = make_settings()
    dead = settings.model_copy(
        update={"bootstrap_servers": "127.0.0.1:9", "kafka_call_timeout_s": 1.0}
    )
    api = await service.start(settings, kafka_settings=dead)
    token = bearer(signer.token("acme", "georgian"))
    response = await api.post(PATH, json=body(), headers=token)
    assert response.status_code == 503
    assert response.headers["retry-after"] == "1"
    assert response.json()["error"] == "unavailable"
    assert read(settings, "answers.scored", 1, timeout_s=3) == []


async def test_a_verifier_that_is_down_degrades_to_the_fallback_and_says_so(
    service, make_settings, signer
):
    """Seed 001's degradation: the configured verifier (an LLM here) is unreachable, the
    offline lexical verifier scores the claims, the response and the record say so, and a
    degraded score is never cached."""
    base = make_settings(verifier="llm")
    grounding = base.guards.grounding.model_copy(
        update={
            "llm_base_url": "http://127.0.0.1:9/v1",  # nothing listens on the discard port
            "llm_model": "any",
            "llm_max_retries": 0,
            "llm_timeout_s": 2.0,
        }
    )
    settings = base.model_copy(
        update={"guards": base.guards.model_copy(update={"grounding": grounding})}
    )
    api = await service.start(settings)
    token = bearer(signer.token("acme", "georgian"))
    first = (await api.post(PATH, json=body("a-1"), headers=token)).json()
    assert first["degraded"] is True and first["verifier"] == "llm"
    assert "the offline lexical verifier scored them" in first["degradation"]
    assert "verifier_degraded" in [w["type"] for w in first["warnings"]]
    assert first["faithfulness"] == 0.5 and first["risk"] == RiskLevel.HIGH.value
    again = (await api.post(PATH, json=body("a-2"), headers=token)).json()
    assert again["cached"] is False and again["degraded"] is True
    recorded = read(settings, "answers.scored", 2)
    assert sorted(doc["answer"]["answer_id"] for _, doc in recorded) == ["a-1", "a-2"]
    assert all(doc["degraded"] for _, doc in recorded)


@pytest.mark.parametrize(
    "metadata",
    [b"NaN", b"-Infinity", b'"\\ud800"'],
    ids=["nan", "infinity", "lone-surrogate"],
)
async def test_json_only_the_framework_reads_is_a_400_not_a_crash(
    service, make_settings, signer, metadata
):
    """FastAPI's parser accepts these; the limits are checked on a second, stricter parse
    (orjson), which raised: a 500 and a stack trace in the log for each such request."""
    settings = make_settings()
    api = await service.start(settings)
    raw = orjson.dumps(body())[:-1] + b',"metadata":{"x":' + metadata + b"}}"
    response = await api.post(
        PATH,
        content=raw,
        headers={**bearer(signer.token("acme", "georgian")), "content-type": "application/json"},
    )
    assert response.status_code == 400, response.text
    assert response.json()["error"] == "invalid_request"
