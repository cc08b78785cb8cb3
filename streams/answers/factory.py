"""The answer scorer as a deployment configures it: verifier, Redis cache, webhook.

One place for the stage and the HTTP endpoint, so both score alike. A setting that
cannot work is refused at start (a `regenerate` policy without a webhook), never
discovered on the first risky answer.
"""

from __future__ import annotations

from groundwire.guards.faithfulness.cache import RedisAnswerCache
from groundwire.guards.faithfulness.regenerate import WebhookRegenerator
from groundwire.guards.faithfulness.score import AnswerScorer
from groundwire.guards.redis_client import connect
from groundwire.metrics import faithfulness as faithfulness_metrics
from groundwire.streams.settings import Settings
from groundwire.topics.answers import AnswerLimits

__all__ = ["answer_limits", "build_answer_scorer", "needs_webhook"]


def needs_webhook(settings: Settings) -> bool:
    """Whether any tenant's policy is `regenerate`."""
    f = settings.guards.faithfulness
    return f.on_hallucination == "regenerate" or "regenerate" in f.tenant_policies.values()


def answer_limits(settings: Settings) -> AnswerLimits:
    f = settings.guards.faithfulness
    return AnswerLimits(
        max_record_bytes=settings.max_record_bytes,
        max_json_depth=settings.max_json_depth,
        max_text_chars=f.max_answer_chars,
        max_sources=f.max_context_sources,
        max_source_bytes=settings.max_turn_bytes,
        max_citations=f.max_citations,
        max_metadata_bytes=settings.max_metadata_bytes,
    )


def build_answer_scorer(settings: Settings, *, use_cache: bool = True) -> AnswerScorer:
    """The scorer for the stage or the endpoint; raises ValueError on unusable settings."""
    guards = settings.guards
    f = guards.faithfulness
    regenerator = None
    if f.regenerate.webhook_url:
        regenerator = WebhookRegenerator(f.regenerate)
    elif needs_webhook(settings):
        raise ValueError(
            "faithfulness: a regenerate policy needs faithfulness.regenerate.webhook_url"
        )
    scorer = AnswerScorer(guards, regenerator=regenerator, worker=settings.worker_id)
    faithfulness_metrics.start()
    if use_cache and f.cache.enabled:
        client = connect(
            settings.redis_url.get_secret_value(),
            socket_timeout_s=f.cache.redis_timeout_s,
            connect_timeout_s=f.cache.redis_timeout_s,
            retries=0,
            cluster=settings.redis_cluster,
        )
        scorer.cache = RedisAnswerCache(
            client, guards, scorer.verifier_name, faithfulness_metrics.observe_cache
        )
    return scorer
