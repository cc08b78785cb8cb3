"""The review service's HTTP face: a JSON API, its OpenAPI document, and the web page.

Rules every route follows:
* identity only from the verified credential (streams/review/auth.py), never the request;
* another owner's claim answers exactly like a missing one: 404, one body, one Redis
  script on the same path (streams/review/lua.py), and both are audited;
* browser requests ride on a session cookie and must carry the session's CSRF token and a
  same-origin Origin on anything but GET; bearer requests carry no ambient credential;
* every refusal is a small JSON body (`error`, `message`): no stack trace, no echo of
  the input; bodies over `review.max_body_bytes` are refused before they are read whole;
* each credential has a request rate; every response has a request id, a strict
  Content-Security-Policy (no inline script: the page's script is a static file) and
  no-store caching.
"""

# No `from __future__ import annotations` here: FastAPI reads the route signatures'
# annotations at definition time, and some name values local to `build_app`.
import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources
from typing import Annotated, Any

import orjson
from fastapi import Depends, FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from redis.exceptions import RedisError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from groundwire.metrics import review as review_metrics
from groundwire.streams.answers import api as answers_api
from groundwire.streams.answers.api import AnswerEndpoint
from groundwire.streams.review import faults, rules
from groundwire.streams.review.auth import (
    Authenticator,
    AuthError,
    RateLimiter,
    Sessions,
    same_token,
)
from groundwire.streams.review.rules import Reviewer
from groundwire.streams.review.store import Refused, ReviewStore
from groundwire.streams.review.views import (
    QUEUE_ID,
    DecisionOut,
    ErrorOut,
    PendingMemory,
    PendingPage,
    RejectIn,
    SessionIn,
    SessionOut,
    decode_cursor,
    encode_cursor,
    pending_view,
)
from groundwire.streams.settings import Settings
from groundwire.topics.vocab import ReviewDecision, ReviewDenial

log = logging.getLogger(__name__)

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)
_SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
    (b"cache-control", b"no-store"),
]
_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_WEB_FILES = {
    "app.js": "text/javascript; charset=utf-8",
    "app.css": "text/css; charset=utf-8",
}


class ApiError(Exception):
    def __init__(
        self, status: int, error: str, message: str, headers: dict[str, str] | None = None
    ):
        super().__init__(message)
        self.status, self.error, self.message, self.headers = status, error, message, headers


NOT_FOUND = ApiError(404, "not_found", "no such pending claim")


def _json(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(orjson.dumps(body), status, headers, media_type="application/json")


class _BodyTooLarge(Exception):
    pass


class Guard:
    """Pure ASGI middleware: request id, body-size limit, security headers."""

    def __init__(
        self, app: ASGIApp, max_body_bytes: int, per_path: dict[str, int] | None = None
    ) -> None:
        self.app = app
        self.max_body = max_body_bytes
        self.per_path = per_path or {}  # paths with a limit of their own (answers:score)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request_id = uuid.uuid4().hex
        scope.setdefault("state", {})["request_id"] = request_id
        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = [
                    (k, v)
                    for k, v in message.get("headers", [])
                    if k.lower() not in {h for h, _ in _SECURITY_HEADERS}
                ]
                headers += _SECURITY_HEADERS
                headers.append((b"x-request-id", request_id.encode()))
                message = {**message, "headers": headers}
            await send(message)

        limit = self.per_path.get(scope.get("path", ""), self.max_body)
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    too_big = int(value) > limit
                except ValueError:
                    too_big = True
                if too_big:
                    await _error(send_with_headers, 413, "too_large", "request body too large")
                    return
        seen = 0

        async def counted_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise _BodyTooLarge()
            return message

        try:
            await self.app(scope, counted_receive, send_with_headers)
        except _BodyTooLarge:
            if not started:
                await _error(send_with_headers, 413, "too_large", "request body too large")


async def _error(
    send: Callable[[Message], Awaitable[None]], status: int, error: str, msg: str
) -> None:
    body = orjson.dumps({"error": error, "message": msg})
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


@dataclass
class Caller:
    reviewer: Reviewer
    via: str  # bearer | session
    request_id: str


@dataclass
class Context:
    settings: Settings
    store: ReviewStore
    sessions: Sessions
    authenticator: Authenticator
    readiness: Callable[[], Awaitable[tuple[bool, dict[str, Any]]]]
    # POST /v1/answers:score (streams/answers/api.py), when faithfulness is enabled
    answers: AnswerEndpoint | None = None


def _web_file(name: str) -> bytes:
    return resources.files("groundwire.streams.review").joinpath("web", name).read_bytes()


def build_app(ctx: Context) -> ASGIApp:
    cfg = ctx.settings.review
    store, sessions, authenticator = ctx.store, ctx.sessions, ctx.authenticator
    limiter = RateLimiter(cfg.rate_per_s, cfg.rate_burst)
    audit_limiter = RateLimiter(1.0, 1)  # a refused flood is audited once a second per key
    cookie = "__Host-gw_review" if cfg.cookie_secure else "gw_review"
    page = _web_file("index.html")
    statics = {name: _web_file(name) for name in _WEB_FILES}

    app = FastAPI(
        title="groundwire review queue",
        version="1",
        description="Pending memory claims and their owners' decisions "
        "(docs/spec.md §Review queue).",
        docs_url=None,  # the interactive docs load scripts from a CDN: not under this CSP
        redoc_url=None,
    )

    # -- errors: small JSON, never a trace or the input -------------------------------
    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> Response:
        return _json({"error": exc.error, "message": exc.message}, exc.status, exc.headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> Response:
        fields = [
            {"loc": [str(p) for p in e.get("loc", ())], "msg": str(e.get("msg", ""))[:200]}
            for e in exc.errors()[:20]
        ]
        body = {"error": "invalid_request", "message": "the request is invalid", "fields": fields}
        return _json(body, 400)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> Response:
        error = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return _json({"error": error, "message": str(exc.detail)[:200]}, exc.status_code)

    @app.exception_handler(RedisError)
    async def _redis(request: Request, exc: RedisError) -> Response:
        log.warning("review API: Redis: %s: %s", type(exc).__name__, str(exc)[:200])
        body = {"error": "unavailable", "message": "the queue is unavailable; retry"}
        return _json(body, 503, {"retry-after": "1"})

    @app.exception_handler(Exception)
    async def _crash(request: Request, exc: Exception) -> Response:
        log.exception("review API: %s %s failed", request.method, request.url.path)
        return _json({"error": "internal", "message": "internal error"}, 500)

    # -- who is calling ---------------------------------------------------------------
    def request_id(request: Request) -> str:
        return str(request.scope.get("state", {}).get("request_id", ""))

    async def refuse(
        request: Request, denial: ReviewDenial, tenant: str = "", actor: str = "", why: str = ""
    ) -> None:
        review_metrics.observe_denied(denial)
        key = f"{tenant}\0{actor}" if actor else f"ip:{_client(request)}"
        if audit_limiter.allow(f"audit:{denial.value}:{key}") == 0.0:
            fields = {
                "a": "denied",
                "t": tenant,
                "u": actor,
                "r": "owner",
                "at": str(store.now_ms()),
                "rq": request_id(request),
                "dn": denial.value,
                "rs": why[:200],
            }
            try:
                await store.audit(tenant, fields)
            except Exception:  # auditing a refusal must not turn it into a 500
                log.warning("review API: could not audit a refused request")

    def expected_origin(request: Request) -> str:
        if cfg.public_origin:
            return cfg.public_origin.rstrip("/")
        host = request.headers.get("host", "")
        return f"{request.url.scheme}://{host}"

    async def check_origin(request: Request) -> None:
        origin = request.headers.get("origin")
        if origin is not None and origin != expected_origin(request):
            await refuse(request, ReviewDenial.FORBIDDEN, why="cross-origin request")
            raise ApiError(403, "forbidden", "cross-origin request refused")

    async def limit(request: Request, key: str, tenant: str = "", actor: str = "") -> None:
        wait = limiter.allow(key)
        if wait > 0.0:
            await refuse(request, ReviewDenial.RATE_LIMITED, tenant, actor)
            raise ApiError(
                429, "rate_limited", "too many requests", {"retry-after": str(int(wait) + 1)}
            )

    async def caller(request: Request) -> Caller:
        rid = request_id(request)
        header = request.headers.get("authorization")
        if header is not None:
            scheme, _, token = header.partition(" ")
            try:
                if scheme.lower() != "bearer":
                    raise AuthError("not a bearer credential")
                verified = authenticator.verify(token.strip())
            except AuthError as exc:
                await limit(request, f"ip:{_client(request)}")
                await refuse(request, ReviewDenial.UNAUTHENTICATED, why=str(exc))
                raise ApiError(
                    401,
                    "unauthenticated",
                    "a valid bearer token is required",
                    {"www-authenticate": "Bearer"},
                ) from None
            r = verified.reviewer
            await limit(request, f"{r.tenant_id}\0{r.user_id}", r.tenant_id, r.user_id)
            return Caller(r, "bearer", rid)
        session = await sessions.find(request.cookies.get(cookie, ""))
        if session is None:
            await limit(request, f"ip:{_client(request)}")
            await refuse(request, ReviewDenial.UNAUTHENTICATED, why="no session")
            raise ApiError(401, "unauthenticated", "sign in first", {"www-authenticate": "Bearer"})
        r = session.reviewer
        await limit(request, f"{r.tenant_id}\0{r.user_id}", r.tenant_id, r.user_id)
        if request.method not in _SAFE_METHODS:
            await check_origin(request)
            sent = request.headers.get("x-csrf-token", "")
            if not same_token(sent, session.csrf):
                await refuse(request, ReviewDenial.FORBIDDEN, r.tenant_id, r.user_id, "csrf")
                raise ApiError(403, "forbidden", "missing or wrong CSRF token")
        return Caller(r, "session", rid)

    async def with_duplicates(r: Reviewer, views: list[dict[str, Any]]) -> None:
        """The text of the pending claim each view nearly duplicates, when the reviewer may
        see it (their own claim); otherwise only its id, which is on their own record."""
        contents = await store.contents_of(r, [v["duplicate_of"] or "" for v in views])
        for v in views:
            v["duplicate_content"] = contents.get(v["duplicate_of"] or "")

    Who = Annotated[Caller, Depends(caller)]
    errors: dict[int | str, dict[str, Any]] = {
        code: {"model": ErrorOut} for code in (400, 401, 403, 404, 413, 429)
    }

    # -- the queue ----------------------------------------------------------------------
    @app.get(
        "/api/v1/pending",
        response_model=PendingPage,
        responses=errors,
        summary="Your pending claims, newest first",
    )
    async def list_pending(
        request: Request,
        who: Who,
        limit_: Annotated[int, Query(alias="limit", ge=1, le=cfg.page_size_max)] = 20,
        cursor: Annotated[str, Query(max_length=120)] = "",
        owner: Annotated[str | None, Query(max_length=256)] = None,
        all_owners: Annotated[bool, Query(alias="all")] = False,
    ) -> Response:
        r = who.reviewer
        wanted = None if all_owners else (owner if owner is not None else r.user_id)
        if not rules.may_list(r, wanted) or (all_owners and not r.admin):
            await refuse(request, ReviewDenial.NOT_OWNER, r.tenant_id, r.user_id, "list")
            raise ApiError(403, "forbidden", "only a tenant admin may list another owner")
        try:
            member = decode_cursor(cursor)
        except ValueError:
            raise ApiError(400, "invalid_request", "malformed cursor") from None
        page = await store.list(
            r, owner=wanted, limit=limit_, cursor=member, request_id=who.request_id
        )
        views = [pending_view(p) for p in page.items]
        await with_duplicates(r, views)
        return _json({"items": views, "next_cursor": encode_cursor(page.cursor)})

    @app.get(
        "/api/v1/pending/{queue_id}",
        response_model=PendingMemory,
        responses=errors,
        summary="One pending claim",
    )
    async def get_pending(queue_id: str, who: Who) -> Response:
        if not QUEUE_ID.match(queue_id):
            raise NOT_FOUND
        item = await store.get(who.reviewer, queue_id, who.request_id)
        if isinstance(item, Refused):
            review_metrics.observe_denied(item.denial)
            raise NOT_FOUND
        view = pending_view(item)
        await with_duplicates(who.reviewer, [view])
        return _json(view)

    async def decide(queue_id: str, who: Caller, decision: ReviewDecision, reason: str) -> Response:
        if not QUEUE_ID.match(queue_id):
            raise NOT_FOUND
        done = await store.decide(who.reviewer, queue_id, decision, reason, who.request_id)
        faults.point("decide.after_redis")
        if isinstance(done, Refused):
            review_metrics.observe_denied(done.denial)
            raise NOT_FOUND
        review_metrics.observe_decision(decision, (done.decided_ms - done.submitted_ms) / 1000)
        decided_at = datetime.fromtimestamp(done.decided_ms / 1000, UTC).isoformat()
        return _json({"queue_id": queue_id, "decision": decision.value, "decided_at": decided_at})

    @app.post(
        "/api/v1/pending/{queue_id}/approve",
        response_model=DecisionOut,
        responses=errors,
        summary="Approve: the claim is written to `approved` and becomes a memory",
    )
    async def approve(queue_id: str, who: Who) -> Response:
        return await decide(queue_id, who, ReviewDecision.APPROVE, "")

    @app.post(
        "/api/v1/pending/{queue_id}/reject",
        response_model=DecisionOut,
        responses=errors,
        summary="Reject with a reason: the claim is written to `blocked`",
    )
    async def reject(queue_id: str, body: RejectIn, who: Who) -> Response:
        return await decide(
            queue_id, who, ReviewDecision.REJECT, body.reason[: cfg.reason_max_chars]
        )

    # -- read-time faithfulness (docs/spec.md §Read-time faithfulness) --------------------
    if ctx.answers is not None:
        answers_api.add_routes(app, ctx.answers, Who, refuse, ApiError, errors)

    # -- browser sessions ---------------------------------------------------------------
    def session_body(r: Reviewer, csrf: str) -> dict[str, Any]:
        return {
            "tenant_id": r.tenant_id,
            "user_id": r.user_id,
            "admin": r.admin,
            "csrf_token": csrf,
        }

    @app.post(
        "/api/v1/session",
        response_model=SessionOut,
        responses=errors,
        summary="Sign in with a bearer JWT: opens a session cookie for the web page",
    )
    async def sign_in(request: Request, body: SessionIn) -> Response:
        await limit(request, f"ip:{_client(request)}")
        await check_origin(request)
        try:
            verified = authenticator.verify(body.token.strip())
        except AuthError as exc:
            await refuse(request, ReviewDenial.UNAUTHENTICATED, why=str(exc))
            raise ApiError(401, "unauthenticated", "the token was not accepted") from None
        session_id, session = await sessions.open(verified)
        response = _json(session_body(session.reviewer, session.csrf))
        response.set_cookie(
            cookie,
            session_id,
            max_age=max(1, int(session.expires_at - time.time())),
            path="/",
            secure=cfg.cookie_secure,
            httponly=True,
            samesite="strict",
        )
        return response

    @app.get("/api/v1/session", response_model=SessionOut, responses=errors, summary="Who am I")
    async def whoami(request: Request) -> Response:
        session = await sessions.find(request.cookies.get(cookie, ""))
        if session is None:
            raise ApiError(401, "unauthenticated", "sign in first")
        return _json(session_body(session.reviewer, session.csrf))

    @app.delete("/api/v1/session", status_code=204, responses=errors, summary="Sign out")
    async def sign_out(request: Request, who: Who) -> Response:
        await sessions.close(request.cookies.get(cookie, ""))
        response = Response(status_code=204)
        response.delete_cookie(
            cookie, path="/", secure=cfg.cookie_secure, httponly=True, samesite="strict"
        )
        return response

    # -- health -----------------------------------------------------------------------
    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> Response:
        return _json({"status": "ok"})

    @app.get("/readyz", include_in_schema=False)
    async def readyz() -> Response:
        ok, detail = await ctx.readiness()
        return _json({"ready": ok, **detail}, 200 if ok else 503)

    # -- the page ---------------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    async def index() -> Response:
        return Response(page, media_type="text/html; charset=utf-8")

    @app.get("/static/{name}", include_in_schema=False)
    async def static(name: str) -> Response:
        if name not in statics:
            raise ApiError(404, "not_found", "no such file")
        return Response(statics[name], media_type=_WEB_FILES[name])

    per_path = {}
    if ctx.answers is not None:
        per_path[answers_api.PATH] = ctx.settings.guards.faithfulness.http_max_body_bytes
    return Guard(app, cfg.max_body_bytes, per_path)


def _client(request: Request) -> str:
    return request.client.host if request.client else "unknown"
