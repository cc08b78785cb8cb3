"""All runtime settings in one object: env vars `GROUNDWIRE_*` (nested with `__`), optional YAML.

Precedence, highest first: explicit keyword arguments, environment variables, the YAML
file named by `GROUNDWIRE_CONFIG` (e.g. config/guards.prod.yaml), defaults. One object
means one place to audit a threshold change before promotion (seed 002: "lenient in dev,
strict in prod").
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, SecretStr
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    YamlConfigSettingsSource,
)

from groundwire.guards.config import GuardsConfig
from groundwire.topics.names import DEFAULT_PREFIX, TopicNames


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="GROUNDWIRE_", env_nested_delimiter="__", extra="forbid"
    )

    # Kafka
    bootstrap_servers: str = "127.0.0.1:9092"
    topic_prefix: str = DEFAULT_PREFIX
    partitions: int = Field(default=6, ge=1)
    replication_factor: int = Field(default=1, ge=1)
    consumer_group: str = "groundwire"
    # Redis
    redis_url: SecretStr = SecretStr("redis://127.0.0.1:6379/0")
    # The URL names one node of a Redis Cluster (dedup keys and citation verdicts are
    # routed by slot; a tenant's dedup keys share one slot through their {tenant} hash tag).
    redis_cluster: bool = False
    # Worker
    # Stable across restarts on purpose: it names the transactional.id and the static group
    # membership, so a restarted worker fences its own dead transaction at once. Give each
    # worker on one host its own id.
    worker_id: str = Field(default_factory=lambda: os.uname().nodename, min_length=1)
    session_timeout_ms: int = Field(default=10_000, ge=1_000)
    transaction_timeout_ms: int = Field(default=30_000, ge=1_000)
    max_content_bytes: int = Field(default=16_384, ge=1)
    max_record_bytes: int = Field(default=1_048_576, ge=1)
    batch_size: int = Field(default=500, ge=1)
    batch_within_s: float = Field(default=0.05, gt=0)
    metrics_port: int = Field(default=9464, ge=0)  # 0 disables the /metrics endpoint
    prometheus_url: str = "http://127.0.0.1:9090"  # read by `groundwire report`
    # Where grounding runs. "screen" (default): in the stateless stage, which serves any
    # partition and otherwise has little CPU work, so the keyed route stage is left with
    # dedup and the policy. "route": as DESIGN.md draws it. Either way the route stage
    # grounds any screened record that arrives without a report.
    grounding_stage: Literal["screen", "route"] = "screen"
    # Python's cyclic GC, per stage process. Each batch allocates tens of thousands of
    # short-lived objects, so the default gen0 threshold (700) runs a collection every few
    # claims and a full one every few batches over the grounding caches; measured, that
    # was 25-35 % of the route stage's CPU. Objects without cycles are still freed at once
    # by reference counting. 0 keeps the interpreter's defaults. `gc_freeze` moves what
    # exists after start-up (modules, compiled patterns, models) out of collections.
    gc_gen0_threshold: int = Field(default=50_000, ge=0)
    gc_freeze: bool = True
    # Guards
    guards: GuardsConfig = Field(default_factory=GuardsConfig)

    @property
    def topics(self) -> TopicNames:
        return TopicNames(self.topic_prefix)

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        sources: list[PydanticBaseSettingsSource] = [init_settings, env_settings]
        config_file = os.environ.get("GROUNDWIRE_CONFIG")
        if config_file:
            path = Path(config_file)
            if not path.is_file():
                raise FileNotFoundError(f"GROUNDWIRE_CONFIG points at {path}, which is not a file")
            sources.append(YamlConfigSettingsSource(settings_cls, yaml_file=path))
        sources.append(file_secret_settings)
        return tuple(sources)


def load_settings(**overrides: Any) -> Settings:
    """Build settings; keyword overrides win over environment and YAML."""
    return Settings(**overrides)
