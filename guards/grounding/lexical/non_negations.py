"""A negation told as the prefix "non-": "The call is not blocking" where the source says
"The call is non-blocking" (session 17, the write-path red team).

`polarity.check_polarity` compares the negations of aligned clauses. "non" is a prefix,
not a clause's negation (`text.NEGATIONS` would read "non-magical people" as denying
the whole sentence; `prefixed_antonyms.non_flips` reads it word by word), so a claim
that writes the source's "non-blocking" as "not blocking" read as a negation the source
lacks, and a faithful memory was blocked; the other way round ("is non-blocking" for
"is not blocking") too.

`non_agrees`: the negation of one clause bears on a word (its scope, as the polarity
rule reads it) that the other clause writes right after "non" ("non-blocking" is read
as "non" and "blocking") or fused to it ("nonblocking"), and the negated side does not
write that word with "non" itself ("not non-blocking" is "blocking"). The two clauses
then agree: the rule counts it as the polarity rule counts "not disabled" against
"enabled" (an agreement, which undoes the sentence-level mismatch too).
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["non_agrees"]


def _prefixed(lows: Sequence[str], positions: Sequence[int]) -> set[str]:
    """The words written with "non" among `positions`: "blocking" of "non blocking" (the
    hyphen split) or of "nonblocking"."""
    out: set[str] = set()
    for k in positions:
        low = lows[k]
        if k and lows[k - 1] == "non":
            out.add(low)
        elif low.startswith("non") and len(low) > 5:
            out.add(low[3:])
    return out


def non_agrees(
    negated_lows: Sequence[str],
    scope: Sequence[int],
    other_lows: Sequence[str],
    other: Sequence[int],
) -> bool:
    """Whether a word in the scope of a clause's negation (`scope`, positions in
    `negated_lows`) is what the other clause (`other`, positions in `other_lows`) writes
    with "non-", and the negated clause does not write it so (module docstring)."""
    if "non" not in other_lows and not any(other_lows[k].startswith("non") for k in other):
        return False
    theirs = _prefixed(other_lows, other)
    if not theirs:
        return False
    mine = {negated_lows[k] for k in scope} - _prefixed(negated_lows, scope)
    return not mine.isdisjoint(theirs)
