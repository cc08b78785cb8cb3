"""Producer authentication (docs/spec.md §Producer authentication): may this producer
claim this source?

A trusted source (`policy.trusted_sources`: user, documentation, adr, ...) approves a
claim by itself, so the label must not be something any producer can write. A claim may
carry `key_id` and `signature`, an HMAC-SHA256 over its canonical JSON
(topics/signing.py). The key registry (`ProducerAuthConfig`: key id -> the sources the
key may claim; the secrets from a secret setting or file) decides:

* a valid signature by a key that may claim the source (for the claim's tenant, when
  `key_tenants` scopes the key): `verified`, the source stands;
* no signature (`unsigned`), a signature that does not verify (`bad_signature`: a wrong
  secret, or content edited after signing), an unknown key (`unknown_key`), or a key
  that may not claim this source, or not in this tenant (`source_not_permitted`): a
  claim of a trusted source is screened as `ai_synthesis` (`mode: downgrade`, tag
  `source_downgraded`) or refused
  to the dlq as `unauthenticated_source` (`mode: strict`). A claim of any other source
  keeps it: it gains nothing from its label.

This runs in the screen stage, before anything reads the source, and in `groundwire
check`. Enforcement starts once a key is configured (`require_signature:
when_keys_configured`, the default) or at once (`always`). It is configuration and
arithmetic only: no Kafka, no I/O after the registry is built.
"""

from __future__ import annotations

import hmac
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import yaml

from groundwire.guards.config import GuardsConfig, ProducerAuthConfig
from groundwire.topics.records import Claim, ProducerAuthReport
from groundwire.topics.signing import signature_for, signing_payload
from groundwire.topics.vocab import ProducerAuthAction, ProducerAuthOutcome, Source

__all__ = [
    "AuthResult",
    "KeyRegistry",
    "ProducerAuthenticator",
    "build_authenticator",
]

log = logging.getLogger(__name__)

MIN_SECRET_BYTES = 16
_HEX = frozenset("0123456789abcdefABCDEF")


class KeyRegistry:
    """Key id -> (secret, sources it may claim). The secrets never leave this object."""

    def __init__(
        self,
        keys: Mapping[str, Iterable[str]],
        secrets: Mapping[str, bytes],
        tenants: Mapping[str, Iterable[str]] | None = None,
    ) -> None:
        missing = sorted(k for k in keys if k not in secrets)
        if missing:
            raise ValueError(f"producer_auth: no secret for key(s) {', '.join(missing)}")
        unknown = sorted(k for k in secrets if k not in keys)
        if unknown:
            raise ValueError(
                f"producer_auth: secret(s) for key(s) not in producer_auth.keys: "
                f"{', '.join(unknown)}"
            )
        short = sorted(k for k, s in secrets.items() if len(s) < MIN_SECRET_BYTES)
        if short:
            raise ValueError(
                f"producer_auth: the secret of {', '.join(short)} is shorter than "
                f"{MIN_SECRET_BYTES} bytes"
            )
        valid = {s.value for s in Source}
        for key_id, sources in keys.items():
            bad = sorted(set(sources) - valid)
            if bad:
                raise ValueError(f"producer_auth.keys.{key_id}: unknown source(s) {bad}")
        scoped = dict(tenants or {})
        stray = sorted(k for k in scoped if k not in keys)
        if stray:
            raise ValueError(
                f"producer_auth.key_tenants names key(s) not in producer_auth.keys: "
                f"{', '.join(stray)}"
            )
        self._secrets = dict(secrets)
        self._sources = {k: frozenset(v) for k, v in keys.items()}
        self._tenants = {k: frozenset(v) for k, v in scoped.items()}

    def __len__(self) -> int:
        return len(self._secrets)

    def __repr__(self) -> str:  # never the secrets
        return f"KeyRegistry(keys={sorted(self._sources)})"

    def secret(self, key_id: str) -> bytes | None:
        return self._secrets.get(key_id)

    def may_claim(self, key_id: str, source: str, tenant_id: str | None = None) -> bool:
        """May a claim signed with `key_id` claim `source` (in `tenant_id`, when the key is
        scoped to tenants by `producer_auth.key_tenants`)?"""
        if source not in self._sources.get(key_id, frozenset()):
            return False
        scope = self._tenants.get(key_id)
        return scope is None or tenant_id in scope


def load_secrets(cfg: ProducerAuthConfig) -> dict[str, bytes]:
    """The secrets of `cfg.secrets` and `cfg.secrets_file` (a YAML or JSON mapping of key
    id -> secret; a key in both is an error). Values are used as UTF-8 bytes, trimmed."""
    secrets = {k: v.get_secret_value().strip().encode("utf-8") for k, v in cfg.secrets.items()}
    if cfg.secrets_file is not None:
        path = Path(cfg.secrets_file)
        try:
            doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
            # the exception's text may quote the file: name the class only
            raise ValueError(
                f"producer_auth.secrets_file {path}: unreadable ({type(exc).__name__})"
            ) from None
        if not isinstance(doc, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in doc.items()
        ):
            raise ValueError(
                f"producer_auth.secrets_file {path}: expected a mapping of key id -> secret"
            )
        both = sorted(set(doc) & set(secrets))
        if both:
            raise ValueError(f"producer_auth: key(s) {', '.join(both)} have two secrets")
        secrets.update({k: v.strip().encode("utf-8") for k, v in doc.items()})
    return secrets


@dataclass(frozen=True, slots=True)
class AuthResult:
    claim: Claim  # what to screen: its source is ai_synthesis when downgraded
    report: ProducerAuthReport

    @property
    def refused(self) -> bool:
        """Strict mode: the claim goes to the dlq (unauthenticated_source), unscreened."""
        return self.report.action is ProducerAuthAction.REFUSED


class ProducerAuthenticator:
    def __init__(
        self, cfg: ProducerAuthConfig, trusted_sources: Iterable[str], registry: KeyRegistry
    ) -> None:
        self.cfg = cfg
        self.registry = registry
        self.trusted = frozenset(trusted_sources)
        self.enforcing = cfg.require_signature == "always" or len(registry) > 0
        self._refuse = cfg.mode == "strict"

    def verify(self, claim: Claim, payload: bytes | None = None) -> ProducerAuthOutcome:
        """What the signature shows. `payload`: the signed bytes as received
        (`topics.codec.decode_signed_claim`); None for a claim built in code, whose fields as
        set are canonicalised instead."""
        signature = claim.signature
        if signature is None:
            return ProducerAuthOutcome.UNSIGNED
        secret = self.registry.secret(claim.key_id) if claim.key_id is not None else None
        if secret is None:
            return ProducerAuthOutcome.UNKNOWN_KEY
        if payload is None:
            try:
                payload = signing_payload(claim.model_dump(mode="json", exclude_unset=True))
            except (TypeError, ValueError, UnicodeEncodeError):
                payload = b""
        if not payload or len(signature) != 64 or not set(signature) <= _HEX:
            return ProducerAuthOutcome.BAD_SIGNATURE
        if not hmac.compare_digest(signature_for(secret, payload), signature.lower()):
            return ProducerAuthOutcome.BAD_SIGNATURE
        assert claim.key_id is not None
        source = claim.source.value
        if source in self.trusted and not self.registry.may_claim(
            claim.key_id, source, claim.tenant_id
        ):  # another tenant's key claims nothing here either
            return ProducerAuthOutcome.SOURCE_NOT_PERMITTED
        return ProducerAuthOutcome.VERIFIED

    def check(self, claim: Claim, payload: bytes | None = None) -> AuthResult:
        outcome = self.verify(claim, payload)
        action = ProducerAuthAction.KEPT
        if (
            self.enforcing
            and claim.source.value in self.trusted
            and outcome is not ProducerAuthOutcome.VERIFIED
        ):
            action = ProducerAuthAction.REFUSED if self._refuse else ProducerAuthAction.DOWNGRADED
        # the model's validator from a dict: `ProducerAuthReport(**fields)` without the
        # Python `__init__` around the same validation (~2,300 instructions a claim)
        report: ProducerAuthReport = ProducerAuthReport.__pydantic_validator__.validate_python(
            {
                "outcome": outcome,
                "action": action,
                "claimed_source": claim.source,
                "key_id": claim.key_id,
            }
        )
        if action is ProducerAuthAction.DOWNGRADED:
            claim = claim.model_copy(update={"source": Source.AI_SYNTHESIS})
        return AuthResult(claim, report)


def build_authenticator(cfg: GuardsConfig) -> ProducerAuthenticator:
    """The authenticator of `cfg.producer_auth` (trusted sources default to the policy's).
    Raises ValueError for an inconsistent registry (a key without a secret, a short
    secret, an unreadable secrets file), so a misconfigured worker does not start."""
    auth = cfg.producer_auth
    trusted = auth.trusted_sources
    if trusted is None:
        trusted = cfg.policy.trusted_sources
    registry = KeyRegistry(auth.keys, load_secrets(auth), auth.key_tenants)
    authenticator = ProducerAuthenticator(auth, trusted, registry)
    if not authenticator.enforcing:
        log.info(
            "producer authentication is not enforced (no key configured): claims of %s "
            "keep their source unsigned",
            ", ".join(sorted(authenticator.trusted)) or "no source",
        )
    return authenticator
