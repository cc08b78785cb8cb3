"""Helpers for review-queue tests: signing keys and tokens, flagged routed records, a
review settings object with its own Redis key prefix, and an in-process API client."""

from __future__ import annotations

import json
import time
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import jwt
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from jwt.algorithms import OKPAlgorithm

from groundwire.topics.codec import dumps
from groundwire.topics.records import (
    Claim,
    EvidenceObject,
    EvidenceSpan,
    GroundingReport,
    RoutedResult,
    SourceTurn,
    ValidationResult,
)
from groundwire.topics.vocab import DedupOutcome, GroundingVerdict, ReasonCode, Source, Tier

AUDIENCE = "groundwire-review"
ADMIN_ROLE = "review-admin"


@dataclass
class Signer:
    """An identity provider of the test's own: an Ed25519 key pair and its JWKS."""

    key: Ed25519PrivateKey
    kid: str

    @classmethod
    def new(cls, kid: str = "k1") -> Signer:
        return cls(Ed25519PrivateKey.generate(), kid)

    @property
    def jwks(self) -> str:
        jwk = json.loads(OKPAlgorithm.to_jwk(self.key.public_key()))
        jwk.update({"kid": self.kid, "alg": "EdDSA", "use": "sig"})
        return json.dumps({"keys": [jwk]})

    @property
    def public_bytes(self) -> bytes:
        """The raw public key: what an algorithm-confusion attack would use as HMAC secret."""
        return self.key.public_key().public_bytes_raw()

    def token(
        self,
        tenant: str,
        user: str,
        *,
        roles: list[str] | None = None,
        ttl_s: float = 600,
        **extra: Any,
    ) -> str:
        now = int(time.time())
        claims: dict[str, Any] = {
            "sub": user,
            "tenant": tenant,
            "roles": roles or [],
            "aud": AUDIENCE,
            "iat": now,
            "exp": now + int(ttl_s),
            **extra,
        }
        return jwt.encode(claims, self.key, algorithm="EdDSA", headers={"kid": self.kid})


def flagged(
    tenant: str,
    user: str,
    content: str,
    *,
    claim_id: str | None = None,
    turns: list[tuple[str, str]] | None = None,
    spans: list[tuple[str, int, int]] | None = None,
    routed_at: datetime | None = None,
    pending_duplicate_of: str | None = None,
) -> RoutedResult:
    """A RoutedResult of tier flag_review, as the route stage writes it to `review`."""
    source_turns = [SourceTurn(id=i, text=t, source="user") for i, t in (turns or [])]
    by_id = {t.id: t.text for t in source_turns}
    evidence_spans = [
        EvidenceSpan(turn_id=i, start=s, end=e, text=by_id[i][s:e]) for i, s, e in (spans or [])
    ]
    claim = Claim(
        claim_id=claim_id or f"c-{uuid.uuid4().hex[:12]}",
        tenant_id=tenant,
        user_id=user,
        content=content,
        source=Source.AI_SYNTHESIS,
        source_turns=source_turns,
    )
    now = routed_at or datetime.now(UTC)
    return RoutedResult(
        claim=claim,
        validation=ValidationResult(
            tier=Tier.FLAG_REVIEW,
            approved=False,
            reason="Technical hedge needs verification: may",
            reason_code=ReasonCode.TECHNICAL_HEDGE,
            dedup=DedupOutcome.UNIQUE,
            evidence=EvidenceObject(claim=content, capture_time=now, confidence="medium"),
            checks_failed=["technical_hedge: may"],
            checks_passed=["not_duplicate"],
        ),
        grounding=GroundingReport(
            verdict=GroundingVerdict.SUPPORTED if evidence_spans else GroundingVerdict.SKIPPED,
            evidence_spans=evidence_spans,
        ),
        routed_at=now,
        worker="test",
        pending_duplicate_of=pending_duplicate_of,
        similarity=0.8 if pending_duplicate_of else None,
    )


def record_bytes(result: RoutedResult) -> bytes:
    return dumps(result)


class ReviewProcess:
    """`groundwire review serve` as a child process (through tests/support/review_service.py,
    so a fault point can be armed), with the environment of one isolated test."""

    def __init__(self, env: dict[str, str], port: int, log_path: Any = None) -> None:
        self.env = env
        self.port = port
        self.log_path = log_path
        self.proc: Any = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, fault: str = "", components: str = "api,feed,relay") -> ReviewProcess:
        import subprocess
        import sys

        env = dict(self.env)
        env.pop("GW_TEST_FAULT", None)
        if fault:
            env["GW_TEST_FAULT"] = fault
        log = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL  # noqa: SIM115
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.support.review_service",
                "--components",
                components,
                "--log-level",
                "info",
            ],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        return self

    def wait_ready(self, timeout_s: float = 60.0) -> None:
        import httpx

        deadline = time.monotonic() + timeout_s
        last = ""
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"review service exited with {self.proc.returncode}")
            try:
                r = httpx.get(self.url + "/readyz", timeout=2)
                if r.status_code == 200:
                    return
                last = r.text
            except httpx.HTTPError as exc:
                last = str(exc)
            time.sleep(0.2)
        raise AssertionError(f"review service not ready: {last}")

    def wait_exit(self, timeout_s: float = 30.0) -> int:
        return int(self.proc.wait(timeout_s))

    def stop(self) -> None:
        import subprocess

        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
