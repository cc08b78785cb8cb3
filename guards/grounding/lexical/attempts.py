"""An attempt told as a success (session 16): "We fixed the memory leak" where the source
says "We tried to fix the memory leak".

A verb of trying before "to" (try, attempt, in any form) says the act was undertaken,
not that it came off: as with an intention ("we planned to migrate"), the act told as
done is another fact. `assertion.py` reads such a verb as the mood of an intention
(`attempts_at`), so the claim in the past is refused unless the source tells the deed
elsewhere ("we tried to fix the leak and fixed it on Monday"). Only before "to": "I
tried sushi", "we attempted a fix" name a thing done.
"""

from __future__ import annotations

from collections.abc import Sequence

from groundwire.guards.grounding.lexical.text import word_set

__all__ = ["ATTEMPTS", "attempts_at"]

ATTEMPTS = word_set("try tries tried trying attempt attempts attempted attempting")


def attempts_at(lows: Sequence[str], k: int) -> bool:
    """Whether the word at k is a verb of trying before "to" ("tried to fix")."""
    return lows[k] in ATTEMPTS and k + 1 < len(lows) and lows[k + 1] == "to"
