"""The one vocabulary of groundwire: every closed set of values a record or a metric uses.

Wire fields are typed with these enums, so the JSON Schemas in `schemas/` list the allowed
values and producers in other languages can check them; the guards decide in these terms
and `metrics/` maps them to label values without reading any prose. A new value added
here fails a unit test until it has a metric label and a schema entry.
"""

from __future__ import annotations

from enum import StrEnum


class Source(StrEnum):
    """Where a claim came from, as its producer states it."""

    USER = "user"
    DOCUMENTATION = "documentation"
    ADR = "adr"
    COMMIT = "commit"
    MANUAL = "manual"
    CONVERSATION = "conversation"
    CHAT = "chat"
    AI_SYNTHESIS = "ai_synthesis"
    MODEL = "model"
    SYSTEM = "system"


class Tier(StrEnum):
    """Where a claim is routed: auto-approved into memory, to human review, or blocked."""

    AUTO_APPROVE = "auto_approve"
    FLAG_REVIEW = "flag_review"
    BLOCK = "block"


class HedgeAction(StrEnum):
    BLOCK = "block"
    REVIEW = "review"
    NONE = "none"


class HedgeCategory(StrEnum):
    PERSONAL_SPECULATION = "personal_speculation"
    ADMITTED_UNCERTAINTY = "admitted_uncertainty"
    SUGGESTION = "suggestion"
    TECHNICAL_HEDGE = "technical_hedge"
    APPROXIMATION = "approximation"


class CitationType(StrEnum):
    ADR = "adr"
    COMMIT = "commit"
    URL = "url"
    ISSUE = "issue"


class GroundingVerdict(StrEnum):
    """Does the claim's source say it? SKIPPED: grounding did not apply to this claim."""

    SUPPORTED = "supported"
    PARTIAL = "partial"
    NOT_SUPPORTED = "not_supported"
    UNKNOWN = "unknown"
    SKIPPED = "skipped"
