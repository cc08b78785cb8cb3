"""The one place that assembles guard components from configuration.

The worker's stages and `groundwire check` (and a library user) need the same parts: a
citation verifier (optionally sharing verdicts through Redis), a grounder, a validator
with its dedup index. Building them here means one rule for which backend is used: Redis
when the section asks for it and a Redis URL is given, in-process otherwise.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from groundwire.guards.citations import CitationVerifier
from groundwire.guards.citations import build_citation_verifier as _citation_verifier
from groundwire.guards.config import GuardsConfig
from groundwire.guards.dedup import build_dedup_index
from groundwire.guards.grounder import Grounder
from groundwire.guards.grounding import build_verifier
from groundwire.guards.protocols import DedupIndex, GroundingVerifier
from groundwire.guards.validator import Validator


@dataclass(frozen=True, slots=True)
class GuardServices:
    """What the guards may reach beyond their configuration.

    `redis_url` is a secret's value (it may hold a password): it is handed to the Redis
    client and kept out of this object's repr, so no log line or traceback formatting the
    services can show it.
    The callbacks let a driver count citation lookups and cache errors (metrics) without
    the guards importing a metrics library.
    """

    redis_url: str | None = field(default=None, repr=False)
    redis_cluster: bool = False
    verify_urls: bool = True
    on_citation_lookups: Callable[[str, int], None] | None = None
    on_citation_cache_error: Callable[[str], None] | None = None


def build_citation_verifier(cfg: GuardsConfig, services: GuardServices) -> CitationVerifier:
    """With verification off it still reports citations, as "verification disabled"."""
    return _citation_verifier(
        cfg.citation,
        services.redis_url,
        verify_urls=services.verify_urls,
        on_lookups=services.on_citation_lookups,
        on_cache_error=services.on_citation_cache_error,
        cluster=services.redis_cluster,
    )


def build_grounding_verifier(cfg: GuardsConfig) -> GroundingVerifier | None:
    return build_verifier(cfg.grounding) if cfg.grounding.enabled else None


def build_grounder(cfg: GuardsConfig) -> Grounder:
    return Grounder(cfg, build_grounding_verifier(cfg))


def build_dedup(cfg: GuardsConfig, services: GuardServices) -> DedupIndex | None:
    if not cfg.dedup.enabled:
        return None
    url = services.redis_url if cfg.dedup.backend == "redis" else None
    return build_dedup_index(cfg.dedup, url, cluster=services.redis_cluster)


def build_validator(
    cfg: GuardsConfig,
    services: GuardServices | None = None,
    citation_verifier: CitationVerifier | None = None,
) -> Validator:
    """A validator owning its dedup index and grounding verifier (closed by `aclose`).

    The citation verifier is shared, not owned: pass the one the screen side uses, or
    None when this validator only decides already-screened claims.
    """
    services = services or GuardServices()
    return Validator(
        cfg, build_dedup(cfg, services), build_grounding_verifier(cfg), citation_verifier
    )
