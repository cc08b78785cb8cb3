""" "May" the month where the word after it rules out the modal (session 17, faithful
restatements).

The modal "may" is followed by a verb's plain form ("may be", "may have") or, in a
question or a wish, by its subject ("May I ...", "May the best team win"). A finite
verb form never follows it: "may was", "may saw", "may has" are no English, so "May
was busy", "May saw prices rise by 5%" and "May's figures" name the month, at the start
of a sentence too, where its capital says nothing. The hedge guard read such a claim as
a technical hedge (review), and the grounding's assertion reading took a source sentence
opening so for a hedged one ("the source does not assert it").

Only finite forms that are never plain forms are listed ("have", "are", "do" are plain
forms: "may have been" stays a modal); a past form in "-ed" is not guessed from its
spelling ("may embed", "may shed" are modals).
"""

from __future__ import annotations

import re

__all__ = ["FINITE_AFTER_MONTH", "MONTH_BY_NEXT", "month_by_next"]

FINITE_AFTER_MONTH = frozenset(
    [
        "is",
        "was",
        "were",
        "has",
        "had",
        "does",
        "did",
        "saw",
        "brought",
        "began",
        "ended",
        "started",
        "marked",
        "showed",
        "came",
        "went",
        "remains",
        "remained",
        "seems",
        "seemed",
        "looks",
        "looked",
    ]
)
# the same test on a lower-cased text, at the character right after "may": a finite form
# or the possessive "'s" ("May's figures")
MONTH_BY_NEXT = re.compile(r"(?:['\u2019]s\b| (?:" + "|".join(sorted(FINITE_AFTER_MONTH)) + r")\b)")


def month_by_next(next_low: str) -> bool:
    """Whether the (lower-case) word after "may" rules out the modal (module docstring)."""
    return next_low in FINITE_AFTER_MONTH
