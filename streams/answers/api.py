"""`POST /v1/answers:score`: score an answer over HTTP (docs/spec.md §Read-time
faithfulness), in the review service and under its rules (streams/review/api.py).

* Who is calling comes only from the bearer token (or the page's session): the answer is
  scored for the caller's tenant. A body naming another tenant is refused (403, audited
  as a denied request); another user of the same tenant only for a tenant admin.
* Bounded: the body is limited by `faithfulness.http_max_body_bytes` before it is read
  whole, then by the same limits as the `answers` topic (text, sources, citations).
* The response is the `ScoredAnswer`; the same record goes to `answers.scored` and
  `audit` in one Kafka transaction before the response is sent. If that write fails the
  answer is 503 (retry) and nothing was recorded.
* The body must be strict JSON, as on the `answers` topic: FastAPI's parser also takes
  NaN, Infinity and lone surrogates, which are refused (400), not a crash.
* Errors are the service's small JSON bodies; the rate limit is the caller's.
"""

# No `from __future__ import annotations`: FastAPI reads the route's annotations, and
# `who` is typed with a name local to `add_routes`.
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import orjson
from fastapi import FastAPI, Request
from fastapi.responses import Response
from pydantic import Field

from groundwire.guards.faithfulness.score import AnswerScorer
from groundwire.streams import telemetry
from groundwire.streams.answers.recorder import Recorder, RecordFailed
from groundwire.streams.settings import Settings
from groundwire.streams.stages.answers import scored_outputs
from groundwire.topics.answers import Answer, AnswerLimits, ScoredAnswer, answer_over_limits
from groundwire.topics.records import ID_MAX, ID_PATTERN
from groundwire.topics.redact import redact_url
from groundwire.topics.vocab import DlqReason, ReviewDenial

PATH = "/v1/answers:score"

__all__ = ["PATH", "AnswerEndpoint", "AnswerRequest", "add_routes"]


class AnswerRequest(Answer):
    """The body: an `Answer` whose tenant (and user) default to the caller's."""

    tenant_id: str | None = Field(  # type: ignore[assignment]
        default=None, min_length=1, max_length=ID_MAX, pattern=ID_PATTERN
    )
    user_id: str | None = Field(  # type: ignore[assignment]
        default=None, max_length=ID_MAX, pattern=f"^$|{ID_PATTERN}"
    )


@dataclass
class AnswerEndpoint:
    settings: Settings
    scorer: AnswerScorer
    recorder: Recorder
    limits: AnswerLimits


Refuse = Callable[..., Awaitable[None]]
ErrorFactory = Callable[..., Exception]


def add_routes(
    app: FastAPI,
    endpoint: AnswerEndpoint,
    who: Any,
    refuse: Refuse,
    api_error: ErrorFactory,
    errors: dict[int | str, dict[str, Any]],
) -> None:
    """Register the route on the review API (`who`: its caller dependency)."""

    @app.post(
        PATH,
        response_model=ScoredAnswer,
        responses={**errors, 503: errors[401]},
        summary="Score an answer against the context it was given (read-time faithfulness)",
    )
    async def score_answer(request: Request, body: AnswerRequest, caller: who) -> Response:
        started = time.perf_counter()
        r = caller.reviewer
        if body.tenant_id is not None and body.tenant_id != r.tenant_id:
            await refuse(request, ReviewDenial.FORBIDDEN, r.tenant_id, r.user_id, "answer tenant")
            raise api_error(403, "forbidden", "answers are scored for your own tenant only")
        user = r.user_id if body.user_id is None else body.user_id
        if user != r.user_id and not r.admin:
            await refuse(request, ReviewDenial.FORBIDDEN, r.tenant_id, r.user_id, "answer user")
            raise api_error(403, "forbidden", "only a tenant admin may score another's answer")
        try:
            doc = orjson.loads(await request.body())
        except orjson.JSONDecodeError:
            # FastAPI's parser took it; the answers topic's (strict JSON) would not
            raise api_error(
                400,
                "invalid_request",
                "the body is not strict JSON (NaN, Infinity, lone surrogate)",
            ) from None
        refused = answer_over_limits(doc, endpoint.limits)
        if refused is not None:
            status = 413 if refused.reason is not DlqReason.INVALID_ANSWER else 400
            raise api_error(status, "too_large", refused.detail[:200])
        fields = body.model_dump(exclude={"tenant_id", "user_id"})
        answer = Answer.model_validate({**fields, "tenant_id": r.tenant_id, "user_id": user})
        scored = await endpoint.scorer.score(answer)
        try:
            await endpoint.recorder.record(scored_outputs(endpoint.settings, scored))
        except RecordFailed as exc:
            message = redact_url(f"the score could not be recorded ({exc}); retry")
            raise api_error(503, "unavailable", message, {"retry-after": "1"}) from None
        telemetry.answer_scored(scored, time.perf_counter() - started)
        return Response(scored.model_dump_json(), 200, media_type="application/json")
