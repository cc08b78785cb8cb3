"""Thresholds and switches of every guard, as plain pydantic models.

They live in `guards` (not in the streaming settings) so the guards stay usable without
Kafka; `groundwire.streams.settings.Settings` nests them and fills them from
`GROUNDWIRE_*` environment variables or a YAML file. Each guard's owner extends its own
section; defaults follow the seeds.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field


class HedgeConfig(BaseModel):
    enabled: bool = True
    # Frequency adverbs (typically, usually, often, ...) are seed 000 technical hedges
    # -> review; a deployment whose claims are mostly documentation may turn them off.
    frequency_adverbs_review: bool = True
    # Bounded input: text beyond this many characters is not scanned.
    max_chars: int = Field(default=20_000, ge=1)
    max_words: int = Field(default=20, ge=1)


class CitationConfig(BaseModel):
    verify: bool = True
    adr_dirs: list[Path] = Field(default_factory=lambda: [Path("docs/adrs")])
    git_repos: list[Path] = Field(default_factory=list)
    url_timeout_s: float = 5.0
    url_max_redirects: int = 3
    # Hosts or CIDRs that may be fetched even though they resolve to private ranges.
    url_allowlist: list[str] = Field(default_factory=list)
    issue_tracker: Literal["none", "file", "github", "gitlab"] = "none"
    issue_file: Path | None = None
    issue_api_base: str | None = None
    issue_repo: str | None = None  # owner/name (GitHub) or project id/path (GitLab)
    issue_token: str | None = Field(default=None, repr=False)
    cache_ttl_s: float = 3600.0


class ProvenanceConfig(BaseModel):
    allowed_sources: list[str] = Field(default_factory=lambda: ["corpus", "user", "documentation"])
    reserved_prefixes: list[str] = Field(
        default_factory=lambda: ["chat:", "draft:", "tmp:", "gen:", "assistant:"]
    )


class DedupConfig(BaseModel):
    enabled: bool = True
    # A claim is a duplicate when its word Jaccard to a memory EXCEEDS this (seed: ">92%").
    threshold: float = Field(default=0.92, ge=0.0, le=1.0)
    num_perm: int = Field(default=128, ge=1, le=1024)
    backend: Literal["memory", "redis"] = "memory"
    seed: int = 1  # MinHash permutation seed; changing it invalidates an existing index
    # LSH layout: bands/rows derived from `threshold` so a pair at the threshold is missed
    # by LSH with probability <= lsh_max_miss (docs/dedup.md); set both to override.
    lsh_max_miss: float = Field(default=1e-5, gt=0.0, lt=1.0)
    lsh_bands: int | None = Field(default=None, ge=1)
    lsh_rows: int | None = Field(default=None, ge=1)
    # Bounded input: a text with more distinct words fails closed (review), never indexed.
    max_tokens: int = Field(default=4096, ge=1, le=16_000)
    redis_prefix: str = Field(default="gw:dedup", min_length=1, max_length=64)
    # Mean band entries per Redis hash shard before one splits; keep well under Redis'
    # hash-max-listpack-entries (128) so shards stay in the compact encoding.
    redis_shard_load: int = Field(default=40, ge=1, le=10_000)
    redis_socket_timeout_s: float = Field(default=2.0, gt=0.0)
    redis_connect_timeout_s: float = Field(default=1.0, gt=0.0)
    redis_retries: int = Field(default=1, ge=0, le=5)
    # Upper bound on one batch's Redis work including retries: past it the batch fails closed.
    redis_batch_timeout_s: float = Field(default=5.0, gt=0.0)


class GroundingConfig(BaseModel):
    enabled: bool = True
    verifier: Literal["lexical", "embedding", "llm"] = "lexical"
    skip_for_types: list[str] = Field(default_factory=lambda: ["preference"])
    min_confidence_after_penalty: float = Field(default=0.3, ge=0.0, le=1.0)
    on_verifier_failure: Literal["block", "allow_with_flag", "queue"] = "queue"
    # Offline verifiers score P(supported) in [0, 1]: at or above `supported_threshold`
    # -> SUPPORTED, at or above `partial_threshold` -> PARTIAL, below -> NOT_SUPPORTED.
    # None = the verifier's own calibrated default (see docs/grounding.md).
    supported_threshold: float | None = Field(default=None, ge=0.0, le=1.0)
    partial_threshold: float | None = Field(default=None, ge=0.0, le=1.0)
    # Seed 002: a PARTIAL verdict costs 0.10-0.30 confidence, more the weaker the support.
    penalty_min: float = Field(default=0.10, ge=0.0, le=1.0)
    penalty_max: float = Field(default=0.30, ge=0.0, le=1.0)
    # Bounded input: evidence text beyond this many characters per claim is not read.
    max_evidence_chars: int = Field(default=50_000, ge=1)
    # Optional local model file (ONNX) for verifier="embedding"; None = the packaged one.
    embedding_model_path: Path | None = None
    llm_base_url: str | None = None
    llm_model: str | None = None
    llm_api_key: str | None = Field(default=None, repr=False)
    llm_timeout_s: float = 10.0
    llm_max_concurrency: int = 8
    llm_max_retries: int = 2
    llm_backoff_base_s: float = Field(default=0.25, gt=0.0)
    llm_backoff_max_s: float = Field(default=4.0, gt=0.0)
    llm_breaker_failures: int = Field(default=5, ge=1)
    llm_breaker_cooldown_s: float = Field(default=30.0, gt=0.0)
    llm_max_tokens: int = Field(default=512, ge=16)
    rewrite_partial: bool = False


class PolicyConfig(BaseModel):
    trusted_sources: list[str] = Field(
        default_factory=lambda: ["user", "documentation", "adr", "commit", "manual"]
    )


class GuardsConfig(BaseModel):
    hedge: HedgeConfig = Field(default_factory=HedgeConfig)
    citation: CitationConfig = Field(default_factory=CitationConfig)
    provenance: ProvenanceConfig = Field(default_factory=ProvenanceConfig)
    dedup: DedupConfig = Field(default_factory=DedupConfig)
    grounding: GroundingConfig = Field(default_factory=GroundingConfig)
    policy: PolicyConfig = Field(default_factory=PolicyConfig)
