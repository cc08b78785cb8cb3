"""All runtime settings in one object: env vars `GROUNDWIRE_*` (nested with `__`), optional YAML.

Precedence, highest first: explicit keyword arguments, environment variables, the YAML
file named by `GROUNDWIRE_CONFIG` (config/guards.example.yaml documents every key),
defaults. One object means one place to audit a threshold change before promotion.

Strict on purpose: an unknown key anywhere in the YAML file, or a `GROUNDWIRE_*`
environment variable that names no setting, is an error at start (`SettingsError`), so a
typo in a threshold never passes silently. The only `GROUNDWIRE_*` names that are not
settings are the ones in `TOOLING_ENV` and those starting with `GROUNDWIRE_STACK_`, read
by the repository's scripts.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, model_validator
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    YamlConfigSettingsSource,
)

from groundwire.guards.config import GuardsConfig
from groundwire.streams.review.config import ReviewConfig
from groundwire.topics.codec import DecodeLimits
from groundwire.topics.names import DEFAULT_PREFIX, TopicNames

ENV_PREFIX = "GROUNDWIRE_"
# Read by the scripts (scripts/*.sh) and the YAML loader, not by Settings fields.
TOOLING_ENV = frozenset({"GROUNDWIRE_CONFIG", "GROUNDWIRE_VENV", "GROUNDWIRE_TOOLS_DIR"})
TOOLING_PREFIX = "GROUNDWIRE_STACK_"


class SettingsError(ValueError):
    """Settings that cannot be used: unknown names or invalid values, all listed."""


# librdkafka properties the pipeline owns: setting them through the extra maps would
# break exactly-once (transactions, isolation, offset handling) or group identity.
OWNED_KAFKA_PROPERTIES = frozenset(
    {
        "bootstrap.servers",
        "group.id",
        "group.instance.id",
        "transactional.id",
        "enable.idempotence",
        "isolation.level",
        "enable.auto.commit",
        "enable.auto.offset.store",
        "transaction.timeout.ms",
    }
)
# ... and the ones KafkaClientConfig has typed (and secret-safe) settings for.
TYPED_KAFKA_PROPERTIES = frozenset(
    {
        "security.protocol",
        "sasl.mechanism",
        "sasl.mechanisms",
        "sasl.username",
        "sasl.password",
        "ssl.ca.location",
        "ssl.certificate.location",
        "ssl.key.location",
        "ssl.key.password",
    }
)
KafkaValue = str | int | float | bool


class ClaimLedgerConfig(BaseModel):
    """The route stage's memory of decided claim_ids (streams/ledger.py), in Redis."""

    model_config = ConfigDict(extra="forbid")

    enabled: bool = True
    # How long a decided claim_id is remembered: a copy published later than this is
    # decided again. Redis holds about 150 bytes per claim for the window.
    retention_s: float = Field(default=86_400.0, gt=0)
    redis_prefix: str = Field(default="gw:claims", min_length=1, max_length=64)
    redis_timeout_s: float = Field(default=2.0, gt=0)


class KafkaClientConfig(BaseModel):
    """How every Kafka client of groundwire connects to the cluster.

    Secrets are SecretStr: they reach librdkafka and nothing else (never a log line or a
    repr). `*_extra` passes further librdkafka properties through (e.g. `client.rack`,
    `socket.keepalive.enable`, `ssl.endpoint.identification.algorithm`), except the ones
    in OWNED_KAFKA_PROPERTIES, which the pipeline's guarantees depend on.
    """

    model_config = ConfigDict(extra="forbid")

    security_protocol: Literal["PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"] = "PLAINTEXT"
    sasl_mechanism: Literal["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"] | None = None
    sasl_username: str | None = None
    sasl_password: SecretStr | None = None
    ssl_ca_location: Path | None = None
    ssl_certificate_location: Path | None = None
    ssl_key_location: Path | None = None
    ssl_key_password: SecretStr | None = None
    # Extra librdkafka properties for every client, then per client kind (these win).
    extra: dict[str, KafkaValue] = Field(default_factory=dict)
    consumer_extra: dict[str, KafkaValue] = Field(default_factory=dict)
    producer_extra: dict[str, KafkaValue] = Field(default_factory=dict)
    admin_extra: dict[str, KafkaValue] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _consistent(self) -> KafkaClientConfig:
        sasl = self.security_protocol.startswith("SASL_")
        if sasl and not (self.sasl_mechanism and self.sasl_username and self.sasl_password):
            raise ValueError(
                f"security_protocol {self.security_protocol} needs sasl_mechanism, "
                "sasl_username and sasl_password"
            )
        if not sasl and (self.sasl_mechanism or self.sasl_username or self.sasl_password):
            raise ValueError(
                f"sasl_* settings are set but security_protocol is {self.security_protocol}"
            )
        owned = sorted(
            key
            for extra in (self.extra, self.consumer_extra, self.producer_extra, self.admin_extra)
            for key in extra
            if key in OWNED_KAFKA_PROPERTIES or key in TYPED_KAFKA_PROPERTIES
        )
        if owned:
            raise ValueError(
                f"{', '.join(owned)}: set by groundwire itself or by the security settings, "
                "not through the extra librdkafka properties"
            )
        return self

    def common(self) -> dict[str, KafkaValue]:
        """The properties every client gets: security first, then `extra`."""
        props: dict[str, KafkaValue] = {"security.protocol": self.security_protocol}
        if self.sasl_mechanism:
            props["sasl.mechanism"] = self.sasl_mechanism
        if self.sasl_username is not None:
            props["sasl.username"] = self.sasl_username
        if self.sasl_password is not None:
            props["sasl.password"] = self.sasl_password.get_secret_value()
        for key, path in (
            ("ssl.ca.location", self.ssl_ca_location),
            ("ssl.certificate.location", self.ssl_certificate_location),
            ("ssl.key.location", self.ssl_key_location),
        ):
            if path is not None:
                props[key] = str(path)
        if self.ssl_key_password is not None:
            props["ssl.key.password"] = self.ssl_key_password.get_secret_value()
        props.update(self.extra)
        return props


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX, env_nested_delimiter="__", extra="forbid"
    )

    # Kafka
    bootstrap_servers: str = "127.0.0.1:9092"
    # How every consumer, producer and admin client connects: security protocol, SASL,
    # TLS files and extra librdkafka properties (streams/kafka.py).
    kafka: KafkaClientConfig = Field(default_factory=KafkaClientConfig)
    topic_prefix: str = DEFAULT_PREFIX
    partitions: int = Field(default=6, ge=1)
    replication_factor: int = Field(default=1, ge=1)
    # Replicas that must have a write before it counts (acks=all, which transactions use).
    # None: 2 when replication_factor is 3 or more (one broker may fail without losing or
    # refusing writes), else replication_factor - 1, at least 1.
    min_insync_replicas: int | None = Field(default=None, ge=1)
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
    # Bounds on one input record, checked at decode before any other work (docs in
    # README "Bad input"); a record over any of them goes to the dlq with its reason.
    max_record_bytes: int = Field(default=524_288, ge=1)
    max_content_bytes: int = Field(default=16_384, ge=1)
    max_json_depth: int = Field(default=16, ge=2, le=256)
    max_source_turns: int = Field(default=256, ge=1, le=100_000)
    max_turn_bytes: int = Field(default=65_536, ge=1)
    max_metadata_bytes: int = Field(default=16_384, ge=2)
    # An output record larger than this is replaced by a dlq record (output_too_large):
    # the broker would refuse it, and a refused write would fail the whole transaction.
    # Keep it at or below the topics' max.message.bytes and librdkafka's message.max.bytes.
    max_output_bytes: int = Field(default=1_000_000, ge=1_024)
    # Batching adapts to load (streams/batching.py): a stage takes what its consumer has
    # already fetched, up to batch_size records, without waiting for more; so batches are
    # small (low latency) under light input and full (one transaction per batch_size
    # records) under heavy input. batch_within_s is how long an idle stage waits for the
    # first record before its loop comes round (health, lag reports). batch_linger_s is
    # how long a batch that is not full waits for more: each transaction costs the stage
    # ~7 ms of commit and the broker a marker per partition, so at 1,000 claims/s batches
    # of ~18 spent 270 us per claim committing, and 120 us with a 10 ms linger (batches
    # of ~50; bench/results/pipeline.md). It adds at most that much latency per stage,
    # and none when the stage's previous batch closed more than 4 lingers ago (behind its
    # input, or a claim after a pause: streams/batching.py).
    # Both are passed to librdkafka in whole milliseconds (truncated): an idle wait under
    # 1 ms would be 0 and spin the idle stage on a core, a linger under 1 ms would silently
    # be none, so such values are refused rather than rounded.
    batch_size: int = Field(default=500, ge=1)
    batch_within_s: float = Field(default=0.25, ge=0.001, le=60.0)
    batch_linger_s: float = Field(default=0.01, ge=0, le=5.0)
    # Liveness. Each transactional call (send offsets, commit, abort, init) gives up after
    # kafka_call_timeout_s; a record whose processing raises is retried alone this many
    # times, then dead-lettered (reason processing_failed). A stage with input waiting
    # and no commit for stall_timeout_s is unhealthy: its process exits and the
    # supervisor starts it again (from the committed offsets).
    kafka_call_timeout_s: float = Field(default=30.0, gt=0)
    record_max_attempts: int = Field(default=3, ge=1, le=20)
    stall_timeout_s: float = Field(default=120.0, ge=5.0)
    metrics_port: int = Field(default=9464, ge=0)  # 0 disables the /metrics endpoint
    prometheus_url: str = "http://127.0.0.1:9090"  # read by `groundwire report`
    # Where grounding runs. "screen" (default): in the stateless stage, which serves any
    # partition and otherwise has little CPU work, so the keyed route stage is left with
    # dedup and the policy. "route": in the keyed stage, where the design first placed it
    # (docs/architecture.md, "Departures from the design"). Either way the route stage
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
    claim_ledger: ClaimLedgerConfig = Field(default_factory=ClaimLedgerConfig)
    # The review queue service (`groundwire review serve`; streams/review/config.py)
    review: ReviewConfig = Field(default_factory=ReviewConfig)
    # Guards
    guards: GuardsConfig = Field(default_factory=GuardsConfig)

    @model_validator(mode="after")
    def _linger_in_whole_ms(self) -> Settings:
        if 0 < self.batch_linger_s < 0.001:
            raise ValueError(
                f"batch_linger_s={self.batch_linger_s}: 0 (no linger) or at least 0.001 "
                "(librdkafka waits in whole milliseconds)"
            )
        return self

    @property
    def topics(self) -> TopicNames:
        return TopicNames(self.topic_prefix)

    @property
    def effective_min_insync_replicas(self) -> int:
        if self.min_insync_replicas is not None:
            return self.min_insync_replicas
        return max(1, min(2, self.replication_factor - 1))

    @property
    def decode_limits(self) -> DecodeLimits:
        return DecodeLimits(
            max_record_bytes=self.max_record_bytes,
            max_content_bytes=self.max_content_bytes,
            max_json_depth=self.max_json_depth,
            max_source_turns=self.max_source_turns,
            max_turn_bytes=self.max_turn_bytes,
            max_metadata_bytes=self.max_metadata_bytes,
        )

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


def env_name_error(name: str) -> str | None:
    """None when the environment variable `name` names a setting (or is tooling's), else
    why it does not. Nested sections use `__`; a dict-valued setting takes any key below."""
    upper = name.upper()
    if upper in TOOLING_ENV or upper.startswith(TOOLING_PREFIX):
        return None
    if not upper.startswith(ENV_PREFIX):
        return f"{name} lacks the {ENV_PREFIX} prefix"
    model: type[BaseModel] = Settings
    parts = upper[len(ENV_PREFIX) :].lower().split("__")
    for i, part in enumerate(parts):
        field = model.model_fields.get(part)
        if field is None:
            return f"{name}: {part!r} is not a setting of {model.__name__}"
        if i == len(parts) - 1:
            return None
        annotation = field.annotation
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            model = annotation
            continue
        if getattr(annotation, "__origin__", None) is dict:
            return None
        return f"{name}: {part!r} is not a nested settings section"
    return None


def unknown_env_names(environ: Mapping[str, str] | None = None) -> list[str]:
    """Every `GROUNDWIRE_*` variable in `environ` that names no setting, with why."""
    env = os.environ if environ is None else environ
    problems = []
    for name in sorted(env):
        if name.upper().startswith(ENV_PREFIX):
            why = env_name_error(name)
            if why is not None:
                problems.append(why)
    return problems


def load_settings(**overrides: Any) -> Settings:
    """Build settings; keyword overrides win over environment and YAML.

    Raises SettingsError naming every unknown environment variable, unknown YAML key and
    invalid value at once, so one start-up shows everything to fix.
    """
    unknown = unknown_env_names()
    if unknown:
        raise SettingsError("unknown environment variable(s): " + "; ".join(unknown))
    try:
        return Settings(**overrides)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or '<root>'}: {err['msg']}"
            for err in exc.errors()
        )
        raise SettingsError(problems) from None
    except (OSError, yaml.YAMLError) as exc:
        raise SettingsError(f"GROUNDWIRE_CONFIG: {exc}") from None
