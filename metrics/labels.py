"""Bounded label values.

Every label value that reaches Prometheus goes through this module. Free text (policy
reasons, provenance rejections, verifier verdicts, hedge categories) is mapped onto a
fixed vocabulary so a new wording in a guard, or a hostile producer, can never create
unbounded series: cardinality is what takes a Prometheus server down, and tenant ids or
claim text in a label would also leak data into a system with weaker access control.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable
from functools import lru_cache

OTHER = "other"
_MAX_INPUT = 512  # longer inputs are truncated before matching; reasons are short

TIERS: tuple[str, ...] = ("auto_approve", "flag_review", "block")

# Why a claim ended in its tier. Order in _REASON_RULES matters (first match wins), so
# negated or more specific phrasings ("not supported", "unverified", "ungrounded") are
# tested before the words they contain.
REASON_CODES: tuple[str, ...] = (
    "personal_speculation",
    "admitted_uncertainty",
    "suggestion",
    "duplicate",
    "reentry",
    "not_supported",
    "low_confidence",
    "technical_hedge",
    "approximation",
    "dedup_failed",
    "verifier_failed",
    "citation_unverified",
    "verified_citation",
    "trusted_source",
    "decision_stated",
    "preference_stated",
    "partial_grounding",
    "grounded",
    "ungrounded",
    OTHER,
)

_REASON_RULES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), code)
    for pattern, code in (
        # first: its detail is a producer-chosen memory id, which may contain any word
        (r"^duplicate", "duplicate"),
        (r"speculat", "personal_speculation"),
        (r"admits? uncertain|uncertainty", "admitted_uncertainty"),
        (r"suggestion", "suggestion"),
        (r"duplicate", "duplicate"),
        (r"re ?entry|provenance|model output|reserved (id )?prefix|admissible evidence", "reentry"),
        (r"not supported|unsupported|hallucinat|fabricat", "not_supported"),
        (r"confidence.*(below|under|minimum|penalt)|low confidence", "low_confidence"),
        (r"dedup.*(fail|error|unavailable|timeout)", "dedup_failed"),
        (r"verifier.*(fail|error|unavailable|timeout|unknown)|verifier unknown", "verifier_failed"),
        (r"hedge", "technical_hedge"),
        (r"approximat", "approximation"),
        (
            r"unverified citation|citation.*(not verified|unverified|invalid|not found)",
            "citation_unverified",
        ),
        (r"verified citation|citation verified", "verified_citation"),
        (r"trusted source", "trusted_source"),
        (r"decision", "decision_stated"),
        (r"preference", "preference_stated"),
        (r"partial", "partial_grounding"),
        (r"ungrounded|needs verification|no evidence", "ungrounded"),
        (r"grounded|supported by", "grounded"),
    )
)

GROUNDING_VERDICTS: tuple[str, ...] = (
    "supported",
    "partial",
    "not_supported",
    "unknown",
    "skipped",
)

DEDUP_RESULTS: tuple[str, ...] = ("unique", "duplicate", "failed")

CITATION_TYPES: tuple[str, ...] = ("adr", "commit", "url", "issue", OTHER)
CITATION_VERIFIED: tuple[str, ...] = ("true", "false", "unchecked")

# The provenance guard's own codes (guards/provenance.py: "source_not_allowed:model",
# "reserved_prefix:chat:", "template_signature", "created_after_claim").
REENTRY_REASONS: tuple[str, ...] = (
    "source_not_allowed",
    "reserved_prefix",
    "template_signature",
    "created_after_claim",
    OTHER,
)
_REENTRY_RULES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), code)
    for pattern, code in (
        (r"prefix|reserved", "reserved_prefix"),
        (r"created|after|later|future|newer|timestamp|time", "created_after_claim"),
        (r"signature|template", "template_signature"),
        (r"source|model|assistant|synthes|generated|not allowed|untrusted", "source_not_allowed"),
    )
)

DLQ_REASONS: tuple[str, ...] = (
    "not_json",
    "invalid_utf8",
    "not_object",
    "invalid_claim",
    "too_large",
    OTHER,
)

STAGES: tuple[str, ...] = ("screen", "route", "dedup", "grounding", "produce", OTHER)

# guards/hedge.py's HedgeCategory values; BoundedLabel admits a few more if it grows.
HEDGE_CATEGORIES: tuple[str, ...] = (
    "personal_speculation",
    "admitted_uncertainty",
    "suggestion",
    "technical_hedge",
    "approximation",
)


def _words(text: str) -> str:
    """Lower-case, separators collapsed to single spaces, truncated."""
    return re.sub(r"[\s_\-:;,./]+", " ", text[:_MAX_INPUT].lower()).strip()


def _snake(text: str) -> str:
    return _words(text).replace(" ", "_")


def _first_match(text: str, rules: Iterable[tuple[re.Pattern[str], str]]) -> str:
    for pattern, code in rules:
        if pattern.search(text):
            return code
    return OTHER


@lru_cache(maxsize=2048)
def reason_code(reason: str | None) -> str:
    """Map a policy's free-text reason (or an already-coded one) to a REASON_CODES value."""
    if not reason:
        return OTHER
    snake = _snake(reason)
    if snake in REASON_CODES:
        return snake
    # Policy reasons put producer-controlled detail (a citation, a source name) after a
    # colon; only the policy's own wording before it may choose the code.
    return _first_match(_words(reason.split(":", 1)[0]), _REASON_RULES)


@lru_cache(maxsize=1024)
def reentry_reason(reason: str | None) -> str:
    """Map a provenance rejection (free text or code) to a REENTRY_REASONS value.

    A code may carry a detail after a colon ("source_not_allowed:model"); the detail is
    producer-controlled text, so the code before the colon decides when it is a known one.
    """
    if not reason:
        return OTHER
    head = _snake(reason.split(":", 1)[0])
    if head in REENTRY_REASONS:
        return head
    return _first_match(_words(reason), _REENTRY_RULES)


def one_of(value: object, allowed: tuple[str, ...], default: str = OTHER) -> str:
    """`value` normalised to snake case if it is in `allowed`, else `default`."""
    if value is None:
        return default
    snake = _snake(str(value))
    return snake if snake in allowed else default


def grounding_verdict(value: str | None) -> str:
    """Verifier verdicts arrive as SUPPORTED / not_supported / "Not supported" ...

    Anything unrecognised counts as `unknown`, which is also what a failed verifier
    reports, so the UNKNOWN-rate alert sees it.
    """
    if not value:
        return "skipped"
    return one_of(value, GROUNDING_VERDICTS, default="unknown")


def citation_verified(value: bool | None) -> str:
    if value is None:
        return "unchecked"
    return "true" if value else "false"


class BoundedLabel:
    """Admits the first `limit` distinct values beyond a known set; later ones become "other".

    For vocabularies another engineer owns and may extend (hedge categories): new values
    show up on the dashboard without a code change here, yet a runaway producer of new
    strings can add at most `limit` series.
    """

    def __init__(self, known: Iterable[str], limit: int = 16, max_len: int = 40) -> None:
        self._known = frozenset(known)
        self._extra: set[str] = set()
        self._limit = limit
        self._max_len = max_len
        self._lock = threading.Lock()

    def __call__(self, value: object) -> str:
        if value is None:
            return OTHER
        snake = _snake(str(value))[: self._max_len].strip("_")
        if not snake or not re.fullmatch(r"[a-z][a-z0-9_]*", snake):
            return OTHER
        if snake in self._known:
            return snake
        with self._lock:
            if snake in self._extra:
                return snake
            if len(self._extra) < self._limit:
                self._extra.add(snake)
                return snake
        return OTHER
