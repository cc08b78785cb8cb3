"""Settings of store-time consistency (docs/spec.md §Store-time consistency).

The keys of the specification's `consistency_scan:` block keep their names here, under
`guards.consistency` (`schedule`, `signals.*`, `judge_model`, `auto_actions.*`,
`max_clusters_per_scan`, `enabled`); the rest are what running it needs (which
predicates are stateful, where the view lives in Redis, the LLM judge's endpoint).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator


class Section(BaseModel):
    """As guards/config.py's Section (an unknown key is an error); its own copy, so that
    guards/config.py can import this module without a cycle."""

    model_config = ConfigDict(extra="forbid")


# Predicates whose latest value replaces the earlier ones (a person works at one place,
# lives in one city; a service uses one database): spec §Store-time consistency.
DEFAULT_STATEFUL = (
    "works_at",
    "employer",
    "current_employer",
    "lives_in",
    "located_in",
    "based_in",
    "uses_database",
    "has_role",
    "has_title",
    "reports_to",
    "status",
)


class SignalsConfig(Section):
    # Signal A: same subject and predicate (different object).
    structural: bool = True
    # Signal B: two memories at least this similar, about another subject or predicate.
    # Cosine of sentence embeddings where the optional model is installed, else the word
    # Jaccard of their MinHash sketches (spec default 0.85).
    semantic_similarity_threshold: float = Field(default=0.85, ge=0.0, le=1.0)
    # Signal C, and write-time supersession: valid_from more than this many days apart.
    temporal_drift_days: float = Field(default=30.0, ge=0.0)
    # "auto": embeddings when the packaged model is installed, else MinHash; "minhash" or
    # "embedding" force one ("embedding" without the model fails at start).
    semantic_backend: Literal["auto", "minhash", "embedding"] = "auto"


class AutoActionsConfig(Section):
    merge_equivalent: bool = True
    supersede_temporal: bool = True
    flag_contradiction: bool = True


class ConsistencyConfig(Section):
    """guards.consistency: the memory view, write-time supersession and the scan."""

    # Off: the memory stage still keeps the view; nothing supersedes and no scan runs.
    enabled: bool = True
    # Five-field cron, UTC (minute hour day-of-month month day-of-week): nightly at 03:00.
    schedule: str = "0 3 * * *"
    signals: SignalsConfig = Field(default_factory=SignalsConfig)
    # "rule" (offline, default) or "llm": one call per new cluster to an OpenAI-compatible
    # endpoint (judge_model at llm_base_url); a failed call leaves the cluster unjudged.
    judge: Literal["rule", "llm"] = "rule"
    judge_model: str = "claude-haiku-4-5"
    auto_actions: AutoActionsConfig = Field(default_factory=AutoActionsConfig)
    # Clusters judged per scan (the cost ceiling); a capped scan resumes at the next run.
    max_clusters_per_scan: int = Field(default=200, ge=1)
    # Predicates whose new value supersedes the old at write time (predicate_is_stateful);
    # compared after lower-casing and joining words with "_".
    stateful_predicates: list[str] = Field(default_factory=lambda: list(DEFAULT_STATEFUL))
    # Memory types the scan looks at (the specification's fact and preference).
    scan_memory_types: list[str] = Field(default_factory=lambda: ["fact", "preference"])
    # Run the schedule inside `groundwire worker` (the memory stage's process; one
    # replica at a time by a Redis lease). Off where a CronJob runs `groundwire scan`.
    run_in_worker: bool = True
    # Bounded work: text beyond this many characters is not read by the extractor,
    # the signals or the judge; a tenant's scan reads its memories in pages of this size.
    max_text_chars: int = Field(default=2_000, ge=16)
    page_size: int = Field(default=2_000, ge=10, le=100_000)
    # LSH buckets holding more memories than this are not paired (a common phrase
    # everyone shares says nothing about two memories); keeps the scan near-linear.
    max_bucket: int = Field(default=64, ge=2)
    # Redis: keys P:<topic prefix>:{tenant}:... (hash-tagged per tenant, like the dedup
    # index); how long a change's record of what it wrote is kept for replays.
    redis_prefix: str = Field(default="gw:mem", min_length=1, max_length=64)
    redis_timeout_s: float = Field(default=5.0, gt=0.0)
    op_retention_s: float = Field(default=604_800.0, gt=0.0)
    # The LLM judge's endpoint (same client rules as the grounding LLM verifier).
    llm_base_url: str | None = None
    llm_api_key: SecretStr | None = Field(default=None, repr=False)
    llm_timeout_s: float = Field(default=20.0, gt=0.0)
    llm_max_concurrency: int = Field(default=4, ge=1)
    llm_max_retries: int = Field(default=2, ge=0)
    llm_breaker_failures: int = Field(default=5, ge=1)
    llm_breaker_cooldown_s: float = Field(default=60.0, gt=0.0)
    llm_max_tokens: int = Field(default=300, ge=16)
    # How the verdict's JSON is requested, as guards.grounding.llm_structured_output:
    # "auto" probes the endpoint (json_schema, json_object with a schema, json_object,
    # plain prompt) before the first call; a mode pins it.
    llm_structured_output: Literal[
        "auto", "json_schema", "json_object_schema", "json_object", "prompt"
    ] = "auto"
    llm_capability_ttl_s: float = Field(default=600.0, gt=0.0)
    llm_system_role: bool | None = None  # as guards.grounding.llm_system_role

    @field_validator("redis_prefix")
    @classmethod
    def _no_hash_tag(cls, value: str) -> str:
        if "{" in value or "}" in value:
            raise ValueError("must not contain '{' or '}' (hash tags)")
        return value

    @field_validator("schedule")
    @classmethod
    def _cron(cls, value: str) -> str:
        from groundwire.guards.consistency.cron import CronSchedule

        CronSchedule.parse(value)  # raises ValueError with the reason
        return value
