"""Who is calling: bearer JWTs, browser sessions, and a rate limit per credential.

Why JWTs verified against a key set, not API keys: reviewers are people who already sign
in to the organisation's identity provider; a JWT carries their tenant, user id and roles,
signed by a key the service only has the *public* half of, and expires by itself. The
service stores no secret that could mint an identity, and revoking a user is the
provider's business. Only asymmetric algorithms are accepted (no `none`, no HMAC with a
public key as secret), `exp`, `iat`, `aud` (and `iss` when configured) are required.

Identity comes only from the verified token (or the server-side session it opened),
never from a request body, path or query.

The web page signs in by posting a token once; the service answers with a session cookie
(random id, HttpOnly, Secure, SameSite=Strict, `__Host-` prefix) whose identity and CSRF
token live in Redis, so page scripts never hold the bearer token.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import jwt
import orjson

from groundwire.streams.review.config import ReviewAuthConfig
from groundwire.streams.review.keys import Keys
from groundwire.streams.review.rules import Reviewer
from groundwire.streams.review.store import RedisClient
from groundwire.topics.records import ID_MAX, ID_PATTERN

_ID = re.compile(ID_PATTERN)


class AuthError(Exception):
    """The credential is missing, malformed, expired or not signed by a trusted key. The
    message is for the log; the caller only ever hears "unauthenticated"."""


def load_jwks(cfg: ReviewAuthConfig) -> jwt.PyJWKSet:
    text = cfg.jwks
    if cfg.jwks_file is not None:
        text = cfg.jwks_file.read_text(encoding="utf-8")
    if not text:
        raise ValueError("review.auth.jwks_file or review.auth.jwks must name the key set")
    keys = jwt.PyJWKSet.from_json(text)
    for key in keys.keys:
        if key.key_type == "oct":
            raise ValueError("review.auth: symmetric (oct) keys are not accepted")
    return keys


@dataclass(frozen=True, slots=True)
class Verified:
    reviewer: Reviewer
    expires_at: float  # unix time
    credential: str  # a digest of the token: the rate-limit and log handle


class Authenticator:
    """Verifies bearer tokens. A token verified once is remembered (by its SHA-256, until
    its `exp`) so a reviewer's every request does not pay a signature check again; only
    successes are cached, so a bad token is checked (and refused) every time."""

    CACHE_MAX = 10_000

    def __init__(self, cfg: ReviewAuthConfig, keys: jwt.PyJWKSet | None = None) -> None:
        self.cfg = cfg
        self.keys = keys if keys is not None else load_jwks(cfg)
        self._by_kid = {k.key_id: k for k in self.keys.keys if k.key_id}
        self._cache: OrderedDict[str, Verified] = OrderedDict()

    def verify(self, token: str) -> Verified:
        if not token or len(token) > self.cfg.max_token_bytes:
            raise AuthError("token missing or too long")
        digest = hashlib.sha256(token.encode()).hexdigest()
        hit = self._cache.get(digest)
        if hit is not None and hit.expires_at + self.cfg.leeway_s > time.time():
            self._cache.move_to_end(digest)
            return hit
        verified = self._verify(token, digest[:32])
        self._cache[digest] = verified
        if len(self._cache) > self.CACHE_MAX:
            self._cache.popitem(last=False)
        return verified

    def _verify(self, token: str, credential: str) -> Verified:
        cfg = self.cfg
        try:
            header = jwt.get_unverified_header(token)
        except jwt.PyJWTError as exc:
            raise AuthError(f"malformed token: {exc}") from None
        alg = header.get("alg")
        if alg not in cfg.algorithms:
            raise AuthError(f"algorithm {alg!r} not accepted")
        kid = header.get("kid")
        if kid is not None:
            key = self._by_kid.get(kid)
        elif len(self.keys.keys) == 1:
            key = self.keys.keys[0]
        else:
            key = None
        if key is None:
            raise AuthError("no trusted key for this token")
        if key.algorithm_name and header.get("alg") != key.algorithm_name:
            raise AuthError("token algorithm does not match its key")
        try:
            claims: dict[str, Any] = jwt.decode(
                token,
                key.key,
                algorithms=[alg],
                audience=cfg.audience,
                issuer=cfg.issuer,
                leeway=cfg.leeway_s,
                options={"require": ["exp", "iat", "aud"]},
            )
        except jwt.PyJWTError as exc:
            raise AuthError(f"token refused: {exc}") from None
        tenant = claims.get(cfg.tenant_claim)
        user = claims.get(cfg.user_claim)
        if not _valid_id(tenant) or not _valid_id(user):
            raise AuthError("token lacks a valid tenant or user claim")
        roles = claims.get(cfg.roles_claim) or []
        if not isinstance(roles, list):
            raise AuthError("roles claim is not a list")
        admin = cfg.admin_role is not None and cfg.admin_role in roles
        return Verified(Reviewer(str(tenant), str(user), admin), float(claims["exp"]), credential)


def _valid_id(value: Any) -> bool:
    return isinstance(value, str) and 0 < len(value) <= ID_MAX and bool(_ID.match(value))


@dataclass(frozen=True, slots=True)
class Session:
    reviewer: Reviewer
    csrf: str
    expires_at: float


class Sessions:
    """Browser sessions in Redis under a digest of their id (a leaked Redis dump holds no
    usable cookie); a session never outlives the token that opened it."""

    def __init__(self, client: RedisClient, keys: Keys, ttl_s: float) -> None:
        self.client = client
        self.keys = keys
        self.ttl_s = ttl_s

    @staticmethod
    def _digest(session_id: str) -> str:
        return hashlib.sha256(session_id.encode()).hexdigest()

    async def open(self, verified: Verified) -> tuple[str, Session]:
        session_id = secrets.token_urlsafe(32)
        expires = min(time.time() + self.ttl_s, verified.expires_at)
        ttl_ms = max(1, int((expires - time.time()) * 1000))
        session = Session(verified.reviewer, secrets.token_urlsafe(32), expires)
        r = verified.reviewer
        body = orjson.dumps(
            {"t": r.tenant_id, "u": r.user_id, "a": r.admin, "x": session.csrf, "e": expires}
        )
        await self.client.set(self.keys.session(self._digest(session_id)), body, px=ttl_ms)
        return session_id, session

    async def find(self, session_id: str) -> Session | None:
        if not session_id or len(session_id) > 128:
            return None
        raw = await self.client.get(self.keys.session(self._digest(session_id)))
        if raw is None:
            return None
        doc = orjson.loads(raw)
        if doc["e"] < time.time():
            return None
        return Session(Reviewer(doc["t"], doc["u"], bool(doc["a"])), doc["x"], doc["e"])

    async def close(self, session_id: str) -> None:
        await self.client.delete(self.keys.session(self._digest(session_id)))


def same_token(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode(), b.encode())


class RateLimiter:
    """A token bucket per key (a credential's identity, or a client address), in process.

    Bounded: the least recently seen keys are forgotten past `max_keys`, which can only
    hand a forgotten key a fresh bucket. With several replicas each enforces its own."""

    def __init__(self, rate_per_s: float, burst: int, max_keys: int = 100_000) -> None:
        self.rate = rate_per_s
        self.burst = float(burst)
        self.max_keys = max_keys
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def allow(self, key: str, now: float | None = None) -> float:
        """0.0 when the request may go ahead, else the seconds until it could."""
        t = time.monotonic() if now is None else now
        tokens, last = self._buckets.pop(key, (self.burst, t))
        tokens = min(self.burst, tokens + (t - last) * self.rate)
        wait = 0.0
        if tokens >= 1.0:
            tokens -= 1.0
        else:
            wait = (1.0 - tokens) / self.rate
        self._buckets[key] = (tokens, t)
        if len(self._buckets) > self.max_keys:
            self._buckets.popitem(last=False)
        return wait
