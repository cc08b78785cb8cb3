"""Citation verification: does the cited ADR, commit, URL or issue exist?
(docs/spec.md §Citations)

Existence is not support: where the verifier can read what the artifact says (an ADR's
body, a commit's message, a page's text; bounded by `citation.artifact_max_chars`), the
report carries that text in-process (`CitationReport.artifact_text`) and
`guards/artifacts.py` checks the claim against it.

Models fabricate citations that look right, so a citation only counts as grounding once
the thing it names has been found: an ADR file in a configured directory (`adr.py`), a
commit in a configured git repository (`git.py`), a URL that answers 2xx behind the SSRF
guard (`url.py`, `ssrf.py`), an issue the tracker knows (`issues.py`). This module is the
facade the screening stage calls.

Results are cached with a TTL (negative results too: a hallucinated URL cited a thousand
times is fetched once per TTL). Transient failures are cached briefly so an outage is
neither hammered nor remembered for an hour. Two levels (`cache.py`): the process's own
cache, then optionally one shared in Redis by every worker.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence

from groundwire.guards.citations.adr import verify_adr
from groundwire.guards.citations.cache import (
    CacheKey,
    CitationVerdict,
    RedisVerdictCache,
    TTLCache,
    settings_scope,
)
from groundwire.guards.citations.detect import Citation
from groundwire.guards.citations.git import verify_commit
from groundwire.guards.citations.issues import IssueTracker, build_issue_tracker
from groundwire.guards.citations.ssrf import Resolver
from groundwire.guards.citations.url import UrlVerifier
from groundwire.guards.config import CitationConfig
from groundwire.guards.redis_client import connect
from groundwire.topics.records import CitationReport
from groundwire.topics.vocab import CitationType

__all__ = ["CitationVerifier", "build_citation_verifier", "verdict_settings"]


class CitationVerifier:
    """Verifies detected citations through two cache levels: the process's own TTL cache
    and, when given, a Redis cache shared by every worker (`averify_many` only; the sync
    `verify` serves `groundwire check` and stays in-process)."""

    def __init__(
        self,
        cfg: CitationConfig,
        *,
        verify_urls: bool = True,
        issue_tracker: IssueTracker | None = None,
        resolver: Resolver | None = None,
        clock: Callable[[], float] = time.monotonic,
        max_concurrency: int = 16,
        shared_cache: RedisVerdictCache | None = None,
        on_lookups: Callable[[str, int], None] | None = None,
    ) -> None:
        self._cfg = cfg
        self._verify_urls = verify_urls
        self._issues = issue_tracker if issue_tracker is not None else build_issue_tracker(cfg)
        self._urls = UrlVerifier(
            cfg.url_timeout_s,
            cfg.url_max_redirects,
            cfg.url_allowlist,
            resolver,
            max_text=cfg.artifact_max_chars,
        )
        self.cache = TTLCache(cfg.cache_ttl_s, cfg.cache_max_entries, clock)
        self.shared_cache = shared_cache
        self._max_concurrency = max_concurrency
        self.checks_run = 0  # uncached checks, for tests and metrics
        self.shared_hits = 0  # verdicts taken from the shared cache
        self._on_lookups = on_lookups

    def close(self) -> None:
        self._urls.close()
        close = getattr(self._issues, "close", None)
        if callable(close):
            close()

    async def aclose(self) -> None:
        self.close()
        if self.shared_cache is not None:
            await self.shared_cache.aclose()

    def _check(self, citation: Citation) -> CitationVerdict:
        max_text = self._cfg.artifact_max_chars
        if citation.type is CitationType.ADR:
            return verify_adr(citation.number or 0, self._cfg.adr_dirs, max_text)
        if citation.type is CitationType.COMMIT:
            return verify_commit(
                citation.value, self._cfg.git_repos, self._cfg.url_timeout_s, max_text
            )
        if citation.type is CitationType.URL:
            if not self._verify_urls:
                return CitationVerdict(None, "URL verification disabled")
            return self._urls.verify(citation.value)
        if self._issues is None:
            return CitationVerdict(None, "no issue tracker configured")
        return self._issues.exists(citation.number or 0)

    def _checked(self, citation: Citation) -> CitationVerdict:
        """Local cache, else a real check (which lands in the local cache)."""
        key = _key(citation)
        verdict = self.cache.get(key)
        if verdict is None:
            verdict = self._check(citation)
            self.checks_run += 1
            self.cache.put(key, verdict)
        return verdict

    def verify(self, citation: Citation) -> CitationReport:
        if not self._cfg.verify:
            return _disabled(citation)
        return _report(citation, self._checked(citation))

    async def averify_many(self, citations: Sequence[Citation]) -> list[CitationReport]:
        """Verify concurrently (checks are blocking I/O, run in threads, bounded); each
        distinct citation is checked once even if many claims cite it, and not at all
        when this process or another worker already knows the verdict."""
        if not self._cfg.verify:
            return [_disabled(c) for c in citations]
        unique: dict[CacheKey, Citation] = {}
        for c in citations:
            unique.setdefault(_key(c), c)
        verdicts: dict[CacheKey, CitationVerdict] = {}
        for key in unique:
            hit = self.cache.get(key)
            if hit is not None:
                verdicts[key] = hit
        missing = [k for k in unique if k not in verdicts]
        self._count("local", len(unique) - len(missing))
        if missing and self.shared_cache is not None:
            before = len(missing)
            shared = await self.shared_cache.get_many(missing)
            for key, found in zip(missing, shared, strict=True):
                if found is not None:
                    verdicts[key] = found[0]
                    self.cache.put(key, found[0], ttl_s=found[1])
                    self.shared_hits += 1
            missing = [k for k in missing if k not in verdicts]
            self._count("shared", before - len(missing))
        if missing:
            self._count("checked", len(missing))
            sem = asyncio.Semaphore(self._max_concurrency)

            async def one(c: Citation) -> CitationVerdict:
                async with sem:
                    return await asyncio.to_thread(self._checked, c)

            fresh = await asyncio.gather(*(one(unique[k]) for k in missing))
            verdicts.update(zip(missing, fresh, strict=True))
            if self.shared_cache is not None:
                await self.shared_cache.put_many(list(zip(missing, fresh, strict=True)))
        return [_report(c, verdicts[_key(c)]) for c in citations]

    def _count(self, source: str, n: int) -> None:
        if self._on_lookups is not None and n:
            self._on_lookups(source, n)

    def scope(self) -> str:
        """What the shared cache's keys are scoped by (see `cache.py`)."""
        return settings_scope(verdict_settings(self._cfg, self._verify_urls))


def verdict_settings(cfg: CitationConfig, verify_urls: bool = True) -> list[object]:
    """The settings a verdict depends on; the token is left out (it only authorises)."""
    return [
        sorted(str(p) for p in cfg.adr_dirs),
        sorted(str(p) for p in cfg.git_repos),
        sorted(cfg.url_allowlist),
        cfg.url_max_redirects,
        verify_urls,
        cfg.issue_tracker,
        str(cfg.issue_file),
        cfg.issue_api_base,
        cfg.issue_repo,
        cfg.artifact_max_chars,  # verdicts carry that much of the artifact's text
    ]


def _key(citation: Citation) -> CacheKey:
    return (citation.type.value, citation.value)


def _disabled(citation: Citation) -> CitationReport:
    return CitationReport(type=citation.type, value=citation.value, reason="verification disabled")


def _report(citation: Citation, verdict: CitationVerdict) -> CitationReport:
    report = CitationReport(
        type=citation.type,
        value=citation.value,
        verified=verdict.verified,
        reason=verdict.reason,
    )
    return report.with_artifact_text(verdict.text) if verdict.text else report


def build_citation_verifier(
    cfg: CitationConfig,
    redis_url: str | None = None,
    *,
    verify_urls: bool = True,
    on_lookups: Callable[[str, int], None] | None = None,
    on_cache_error: Callable[[str], None] | None = None,
    cluster: bool = False,
) -> CitationVerifier:
    """The verifier the stages use: with the shared Redis cache when `cache_backend` is
    "redis" and a Redis URL is known, in-process only otherwise."""
    verifier = CitationVerifier(cfg, verify_urls=verify_urls, on_lookups=on_lookups)
    if redis_url and cfg.cache_backend == "redis":
        client = connect(
            redis_url,
            socket_timeout_s=cfg.redis_timeout_s,
            connect_timeout_s=cfg.redis_timeout_s,
            retries=0,
            cluster=cluster,
        )
        verifier.shared_cache = RedisVerdictCache(
            client,
            prefix=cfg.redis_prefix,
            scope=verifier.scope(),
            ttl_s=cfg.cache_ttl_s,
            on_error=on_cache_error,
        )
    return verifier
