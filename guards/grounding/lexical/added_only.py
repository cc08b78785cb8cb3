"""An exclusivity the source never states: "Only Ana has admin access to the billing
database" where the source says "Ana has admin access to the billing database" (session
18, the write-path red team).

"only" (like "just", "solely", "exclusively") says that nothing else holds: a memory
with it denies every other member the source leaves open ("Ana and Ben have access" is
consistent with the source, not with the memory). It is a function word, so overlap
reads the claim as the source's sentence. The exclusive words are a closed class of
English (a grammar fact): only, just, solely, exclusively, merely, simply, alone, sole,
and the exceptive "but" / "except" after a negative ("nobody but", "no one except").

Read: a claim's "only" (not "not only", "if only"; not before "a" / "to" / "then" /
"now", nor with a number or an amount word in the three words after it, where it grades
an amount or a time: "only 3 replicas", "only run 3 replicas", "only has a few nodes"
say what the plain amount says), where the claim's sentence aligns with source
sentences (`changed_terms.aligned`) none of which holds an exclusive word (nor a
closing "..., no other languages" / "and nothing else", nor a restriction told by a
verb or adjective: "restricted to", "limited to", "reserved for", "exclusive to"), is a
contradiction ("only",
the aligned source sentence). On the fit half of the dev file the 20 claims with such an
"only" align only with sentences that hold one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from groundwire.guards.grounding.lexical.text import number_value, word_set

__all__ = ["EXCLUSIVE", "added_only", "reads_only"]

EXCLUSIVE = word_set(
    "only just solely exclusively merely simply alone sole except but unless nobody none"
)
_NOT_BEFORE = word_set("not if")
# "..., no other languages", "... and nothing else": a negative before "other" / "else",
# set after the listed item ("," or "and" before it) and ending the sentence (at most one
# word after it), states the list exclusive without an exclusive word (audit of session
# 18). Not read elsewhere: "no other changes were made", "no one else in my family does"
# and "Nothing else changed." say nothing of the listed item.
_CLOSING_EXCLUSION = re.compile(
    r"(?:,|\band)\s+(?:no|nothing|nobody|none|not\s+any)(?:\s+one)?\s+(?:other|else)"
    r"(?:\s+[\w'-]+)?\s*[.!?]*\s*$",
    re.IGNORECASE,
)
# A restriction told by a verb or adjective and its preposition ("Deleting projects is
# restricted to admins", "limited to", "confined to", "reserved for", "exclusive to",
# "unique to"): as exclusive as "only admins can", without an exclusive word.
_RESTRICTION = re.compile(
    r"\b(?:(?:restrict|limit|confin)(?:ed|s|ing)?\s+to|reserved\s+for|(?:exclusive|unique)\s+to)\b",
    re.IGNORECASE,
)
_AMOUNT = word_set("few some several little handful couple one once twice")
_NOT_AFTER = word_set(
    """a an to then now once one some few several many a little just recently when after
    before because"""
)


def reads_only(lows: Sequence[str]) -> list[int]:
    """Positions of each exclusive "only" of `lows` (module docstring)."""
    out: list[int] = []
    for k, low in enumerate(lows):
        if low != "only":
            continue
        prev = lows[k - 1] if k else ""
        nxt = lows[k + 1] if k + 1 < len(lows) else ""
        if prev in _NOT_BEFORE or nxt in _NOT_AFTER:
            continue
        near = lows[k + 1 : k + 4]
        if any(number_value(w) is not None or w in _AMOUNT for w in near):
            continue  # "only run 3 replicas", "only has a few nodes": an amount graded
        out.append(k)
    return out


def added_only(
    lows: Sequence[str], raws: Sequence[str], sources: Sequence[tuple[Sequence[str], str]]
) -> list[tuple[str, str]]:
    """("only", the source sentence) when the claim's exclusive "only" meets aligned source
    sentences without an exclusive word (module docstring). `sources`: (lows, text)."""
    mine = reads_only(lows)
    if not mine or not sources:
        return []
    if any(
        not EXCLUSIVE.isdisjoint(s_lows)
        or _CLOSING_EXCLUSION.search(text)
        or _RESTRICTION.search(text)
        for s_lows, text in sources
    ):
        return []
    return [(raws[mine[0]], sources[0][1].strip())]
