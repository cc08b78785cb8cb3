"""The comparison that session 18's closed-class rules share: a claim's term (a rank, a
time bound, an order, an equative, a unit) against each reading of the same subject in
the aligned source sentences.

A claim turns its term round only when the source words that subject the other way and
never the claim's way: a source that says both ("since May ... until June", a rank given
twice) does not contradict the claim. Each rule says what its readings are; this module
holds the one decision, so the rules cannot drift apart on it.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["first_turned"]


def first_turned(readings: Iterable[tuple[bool, str]]) -> str | None:
    """The source's words for the first reading of the other kind, or None when a reading
    agrees with the claim (or none reads the subject). `readings`: (agrees with the
    claim, the source's words) for each source reading of the claim's subject, in order;
    consumed lazily and left at the first agreement."""
    other: str | None = None
    for agrees, words in readings:
        if agrees:
            return None
        if other is None:
            other = words
    return other
