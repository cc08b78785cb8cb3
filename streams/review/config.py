"""Settings of the review service (`Settings.review`, env `GROUNDWIRE_REVIEW__*`).

Kept apart from streams/settings.py so the shared settings file only names the section;
config/guards.example.yaml documents every key with its default.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

# Asymmetric algorithms only: the service holds public keys and can never mint a token,
# and no "none"/HMAC algorithm can be smuggled in by a token header (algorithm confusion).
JwtAlgorithm = Literal["EdDSA", "ES256", "ES384", "RS256", "RS384", "RS512", "PS256"]


def _default_algorithms() -> list[JwtAlgorithm]:
    return ["EdDSA", "ES256", "RS256"]


class ReviewAuthConfig(BaseModel):
    """Bearer JWTs from the organisation's identity provider, checked against its public keys."""

    model_config = ConfigDict(extra="forbid")

    # A JSON Web Key Set (RFC 7517) of public keys: a file, or the document inline.
    jwks_file: Path | None = None
    jwks: str | None = None
    algorithms: list[JwtAlgorithm] = Field(default_factory=_default_algorithms)
    issuer: str | None = None  # required `iss` when set
    audience: str = "groundwire-review"  # required `aud`
    tenant_claim: str = "tenant"  # the claim naming the caller's tenant
    user_claim: str = "sub"  # the claim naming the caller's user id
    roles_claim: str = "roles"  # a list of role names
    # The optional tenant-admin role: a token carrying it may act on every claim of its
    # own tenant (never another tenant's). Unset: only owners act.
    admin_role: str | None = None
    leeway_s: float = Field(default=30.0, ge=0.0, le=300.0)
    max_token_bytes: int = Field(default=8_192, ge=256)


class ReviewConfig(BaseModel):
    """The review queue, its HTTP API and web page, its feed and its relay."""

    model_config = ConfigDict(extra="forbid")

    host: str = "127.0.0.1"
    port: int = Field(default=8080, ge=0, le=65_535)
    # Bounds (docs/spec.md §Review queue): a claim arriving when its owner has
    # max_per_owner pending, or the queue max_total, goes to `blocked` (review_queue_full).
    max_per_owner: int = Field(default=100, ge=1)
    max_total: int = Field(default=10_000, ge=1)
    # Redis shards of the queue (hash tags): each holds its tenants' items and one outbox.
    # max_total is divided evenly across them (exact with the default single shard).
    shards: int = Field(default=1, ge=1, le=256)
    redis_prefix: str = Field(default="gw:review", min_length=1, max_length=64)
    redis_timeout_s: float = Field(default=2.0, gt=0)
    # Connections to Redis per process; a request waits (up to redis_timeout_s) for a free
    # one instead of opening more, so a burst of reviewers cannot exhaust Redis.
    redis_max_connections: int = Field(default=64, ge=2, le=10_000)
    # How long a decided claim_id is remembered, so a replayed review record never queues
    # the claim again.
    claim_retention_s: float = Field(default=604_800.0, gt=0)
    page_size_max: int = Field(default=100, ge=1, le=1_000)
    reason_max_chars: int = Field(default=1_000, ge=1, le=1_000)
    max_body_bytes: int = Field(default=16_384, ge=1_024)
    # Per credential (tenant, user): a token bucket of `rate_burst` requests refilled at
    # `rate_per_s`; unauthenticated requests share one bucket per client address.
    rate_per_s: float = Field(default=20.0, gt=0)
    rate_burst: int = Field(default=60, ge=1)
    session_ttl_s: float = Field(default=28_800.0, gt=0)
    # Session cookies are Secure unless this is false; browsers treat http://localhost as
    # secure, so loopback tests keep it true (docs/operations.md §Review service).
    cookie_secure: bool = True
    # The page's own origin (e.g. https://review.example.com); browser POSTs whose Origin
    # differs are refused. Unset: the Host the request was sent to.
    public_origin: str | None = None
    # The relay: outbox entries per Kafka transaction, idle poll, lease on a shard.
    relay_batch: int = Field(default=500, ge=1, le=10_000)
    relay_idle_s: float = Field(default=0.1, gt=0)
    relay_lease_s: float = Field(default=10.0, ge=1.0)
    gauge_interval_s: float = Field(default=5.0, gt=0)
    auth: ReviewAuthConfig = Field(default_factory=ReviewAuthConfig)

    @model_validator(mode="after")
    def _consistent(self) -> ReviewConfig:
        if "{" in self.redis_prefix or "}" in self.redis_prefix:
            raise ValueError("review.redis_prefix must not contain '{' or '}' (hash tags)")
        if self.max_per_owner > self.max_total:
            raise ValueError("review.max_per_owner cannot exceed review.max_total")
        return self

    @property
    def max_per_shard(self) -> int:
        return -(-self.max_total // self.shards)
