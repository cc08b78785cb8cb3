"""Producer authentication (docs/spec.md §Producer authentication): only a producer keyed
for a trusted source keeps it; everyone else is screened as ai_synthesis (or refused)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import orjson
import pytest

from groundwire.guards.config import GuardsConfig, ProducerAuthConfig
from groundwire.guards.producer_auth import build_authenticator
from groundwire.guards.testing import ExactDedup
from groundwire.guards.validator import Validator
from groundwire.topics.codec import DecodedClaim, DecodeLimits, decode_signed_claim
from groundwire.topics.records import RoutedResult
from groundwire.topics.signing import sign_claim
from groundwire.topics.vocab import ProducerAuthAction, ProducerAuthOutcome, Source, Tier

DOCS_KEY = "docs-bot"
DOCS_SECRET = "docs-secret-0123456789abcdef"
CHAT_KEY = "chat-ui"
CHAT_SECRET = "chat-secret-0123456789abcdef"
OTHER_SECRET = "someone-else-0123456789abcdef"

CLAIM: dict[str, Any] = {
    "claim_id": "c1",
    "tenant_id": "acme",
    "content": "OAuth2 is required for the billing API",
    "source": "documentation",
}


def _cfg(**auth: Any) -> GuardsConfig:
    base: dict[str, Any] = {
        "keys": {DOCS_KEY: ["documentation", "manual"], CHAT_KEY: ["user"]},
        "secrets": {DOCS_KEY: DOCS_SECRET, CHAT_KEY: CHAT_SECRET},
    }
    return GuardsConfig(producer_auth=ProducerAuthConfig(**(base | auth)))


def _decoded(doc: dict[str, Any]) -> DecodedClaim:
    decoded = decode_signed_claim(orjson.dumps(doc), DecodeLimits())
    assert isinstance(decoded, DecodedClaim)
    return decoded


def _check(doc: dict[str, Any], cfg: GuardsConfig | None = None):  # type: ignore[no-untyped-def]
    decoded = _decoded(doc)
    return build_authenticator(cfg or _cfg()).check(decoded.claim, decoded.signed_payload)


def test_valid_signature_keeps_the_trusted_source() -> None:
    result = _check(sign_claim(CLAIM, DOCS_KEY, DOCS_SECRET.encode()))
    assert result.report.outcome is ProducerAuthOutcome.VERIFIED
    assert result.report.action is ProducerAuthAction.KEPT
    assert result.claim.source is Source.DOCUMENTATION and not result.refused


@pytest.mark.parametrize(
    ("doc", "outcome"),
    [
        (CLAIM, ProducerAuthOutcome.UNSIGNED),  # missing
        (sign_claim(CLAIM, DOCS_KEY, OTHER_SECRET.encode()), ProducerAuthOutcome.BAD_SIGNATURE),
        ({**CLAIM, "key_id": DOCS_KEY, "signature": "0" * 64}, ProducerAuthOutcome.BAD_SIGNATURE),
        ({**CLAIM, "key_id": DOCS_KEY, "signature": "not hex"}, ProducerAuthOutcome.BAD_SIGNATURE),
        (sign_claim(CLAIM, "retired", DOCS_SECRET.encode()), ProducerAuthOutcome.UNKNOWN_KEY),
        ({**CLAIM, "signature": "a" * 64}, ProducerAuthOutcome.UNKNOWN_KEY),  # no key id
        # a valid signature, but chat-ui may only claim `user`
        (
            sign_claim(CLAIM, CHAT_KEY, CHAT_SECRET.encode()),
            ProducerAuthOutcome.SOURCE_NOT_PERMITTED,
        ),
    ],
    ids=[
        "missing",
        "wrong-secret",
        "wrong-signature",
        "malformed",
        "unknown-key",
        "no-key-id",
        "key-not-allowed-this-source",
    ],
)
def test_unauthenticated_trusted_source_is_downgraded(
    doc: dict[str, Any], outcome: ProducerAuthOutcome
) -> None:
    result = _check(doc)
    assert result.report.outcome is outcome
    assert result.report.action is ProducerAuthAction.DOWNGRADED
    assert result.report.claimed_source is Source.DOCUMENTATION
    assert result.claim.source is Source.AI_SYNTHESIS
    assert result.claim.content == CLAIM["content"]


def test_a_key_scoped_to_tenants_authenticates_only_their_claims() -> None:
    """The registry is shared by every tenant: acme's documentation key must not make a
    claim it writes into globex `documentation` (approved there on its word)."""
    cfg = _cfg(key_tenants={DOCS_KEY: ["acme"]})
    own = _check(sign_claim(CLAIM, DOCS_KEY, DOCS_SECRET.encode()), cfg)
    assert own.report.outcome is ProducerAuthOutcome.VERIFIED
    foreign = _check(
        sign_claim({**CLAIM, "tenant_id": "globex"}, DOCS_KEY, DOCS_SECRET.encode()), cfg
    )
    assert foreign.report.outcome is ProducerAuthOutcome.SOURCE_NOT_PERMITTED
    assert foreign.report.action is ProducerAuthAction.DOWNGRADED
    assert foreign.claim.source is Source.AI_SYNTHESIS
    # an unscoped key still signs for any tenant (one producer serving them all)
    chat = {**CLAIM, "tenant_id": "globex", "source": "user"}
    assert _check(sign_claim(chat, CHAT_KEY, CHAT_SECRET.encode()), cfg).report.outcome is (
        ProducerAuthOutcome.VERIFIED
    )
    with pytest.raises(ValueError, match="key_tenants"):
        build_authenticator(_cfg(key_tenants={"retired": ["acme"]}))


@pytest.mark.parametrize(
    "edit",
    [
        {"content": "OAuth2 is optional for the billing API"},
        {"source": "manual"},
        {"tenant_id": "globex"},
        {"source_turns": [{"id": "k", "source": "corpus", "text": "new evidence"}]},
        {"metadata": {"added": True}},
        {"key_id": CHAT_KEY},
    ],
)
def test_replayed_with_edited_content_does_not_verify(edit: dict[str, Any]) -> None:
    """A signature taken from a genuine claim and replayed on edited content fails."""
    genuine = sign_claim(CLAIM, DOCS_KEY, DOCS_SECRET.encode())
    assert _check(genuine).report.outcome is ProducerAuthOutcome.VERIFIED
    replayed = {**genuine, **edit}
    result = _check(replayed)
    assert result.report.outcome is ProducerAuthOutcome.BAD_SIGNATURE
    assert result.claim.source is Source.AI_SYNTHESIS


def test_other_sources_keep_theirs_whatever_the_signature() -> None:
    for doc in (
        {**CLAIM, "source": "ai_synthesis"},
        sign_claim({**CLAIM, "source": "conversation"}, DOCS_KEY, OTHER_SECRET.encode()),
    ):
        result = _check(doc)
        assert result.report.action is ProducerAuthAction.KEPT
        assert result.claim.source.value == doc["source"]
    signed = _check(sign_claim({**CLAIM, "source": "ai_synthesis"}, CHAT_KEY, CHAT_SECRET.encode()))
    assert signed.report.outcome is ProducerAuthOutcome.VERIFIED


def test_strict_mode_refuses_instead() -> None:
    result = _check(CLAIM, _cfg(mode="strict"))
    assert result.refused and result.report.action is ProducerAuthAction.REFUSED
    assert not _check(
        sign_claim(CLAIM, DOCS_KEY, DOCS_SECRET.encode()), _cfg(mode="strict")
    ).refused


def test_enforcement_starts_with_the_first_key_or_always() -> None:
    """Default: no key configured -> nothing to verify against, sources stand (counted as
    unsigned/kept); `require_signature: always` downgrades them even then."""
    open_cfg = GuardsConfig()
    result = _check(CLAIM, open_cfg)
    assert (result.report.outcome, result.report.action) == (
        ProducerAuthOutcome.UNSIGNED,
        ProducerAuthAction.KEPT,
    )
    assert result.claim.source is Source.DOCUMENTATION
    closed = GuardsConfig(producer_auth=ProducerAuthConfig(require_signature="always"))
    assert _check(CLAIM, closed).claim.source is Source.AI_SYNTHESIS
    signed = sign_claim(CLAIM, DOCS_KEY, DOCS_SECRET.encode())
    assert _check(signed, closed).report.outcome is ProducerAuthOutcome.UNKNOWN_KEY


def test_trusted_sources_default_to_the_policys_and_can_be_set() -> None:
    cfg = _cfg()
    cfg.policy.trusted_sources = ["documentation"]
    assert _check({**CLAIM, "source": "user"}, cfg).report.action is ProducerAuthAction.KEPT
    narrow = _cfg(trusted_sources=["user"])
    assert _check(CLAIM, narrow).report.action is ProducerAuthAction.KEPT
    assert _check({**CLAIM, "source": "user"}, narrow).claim.source is Source.AI_SYNTHESIS


def test_the_registry_is_checked_at_start_and_never_shows_secrets(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no secret"):
        build_authenticator(_cfg(secrets={DOCS_KEY: DOCS_SECRET}))
    with pytest.raises(ValueError, match="shorter than"):
        build_authenticator(_cfg(secrets={DOCS_KEY: "short", CHAT_KEY: CHAT_SECRET}))
    with pytest.raises(ValueError, match="unknown source"):
        build_authenticator(_cfg(keys={DOCS_KEY: ["docs"], CHAT_KEY: ["user"]}))
    with pytest.raises(ValueError, match=r"not in producer_auth\.keys"):
        build_authenticator(
            _cfg(secrets={DOCS_KEY: DOCS_SECRET, CHAT_KEY: CHAT_SECRET, "x": DOCS_SECRET})
        )
    secrets = tmp_path / "secrets.yaml"
    secrets.write_text(f"{DOCS_KEY}: {DOCS_SECRET}\n{CHAT_KEY}: '{CHAT_SECRET}'\n")
    auth = build_authenticator(_cfg(secrets={}, secrets_file=secrets))
    assert DOCS_SECRET not in repr(auth.registry) and DOCS_SECRET not in repr(_cfg())
    decoded = _decoded(sign_claim(CLAIM, DOCS_KEY, DOCS_SECRET.encode()))
    assert (
        auth.check(decoded.claim, decoded.signed_payload).report.outcome
        is ProducerAuthOutcome.VERIFIED
    )
    secrets.write_text("- not a mapping\n")
    with pytest.raises(ValueError, match="mapping") as err:
        build_authenticator(_cfg(secrets={}, secrets_file=secrets))
    assert "not a mapping" not in str(err.value)


def _validate(cfg: GuardsConfig, *docs: dict[str, Any]) -> list[RoutedResult]:
    auth = build_authenticator(cfg)
    checked = [auth.check(d.claim, d.signed_payload) for d in map(_decoded, docs)]
    validator = Validator(cfg, ExactDedup(), None)
    return asyncio.run(
        validator.validate_batch(
            [c.claim for c in checked], producer_auth=[c.report for c in checked]
        )
    )


def test_the_decision_shows_the_producer_check() -> None:
    """Any producer labelling its own output `documentation` used to be auto-approved."""
    forged, genuine = _validate(
        _cfg(),
        CLAIM,
        sign_claim(
            {**CLAIM, "claim_id": "c2", "content": "Tokens expire after one hour"},
            DOCS_KEY,
            DOCS_SECRET.encode(),
        ),
    )
    assert forged.validation.tier is not Tier.AUTO_APPROVE
    assert forged.claim.source is Source.AI_SYNTHESIS
    assert "source_downgraded" in forged.tags
    assert "producer_unauthenticated: documentation (unsigned)" in forged.validation.checks_failed
    assert (
        forged.producer_auth is not None
        and forged.producer_auth.claimed_source is Source.DOCUMENTATION
    )
    assert genuine.validation.tier is Tier.AUTO_APPROVE
    assert f"producer_authenticated: {DOCS_KEY}" in genuine.validation.checks_passed
