"""The memory's owner, named in the third person where the evidence speaks in the first.

Memories are written about their owner ("The user lives in Berlin", "Georgian manages
billing") from what the owner said ("I live in Berlin"). `evidence.known_names` lets the
owner's name and "the user" stand for the speaker, so they are not invented words. That
opens one mistake the words alone cannot show: "My sister lives in Berlin" has every
other word of "The user lives in Berlin", and says it of the speaker's sister. So where
the clause holding the claim's words says it of "my <someone>" and has no first-person
subject of its own ("I", "I'm", "me", ...), the owner in the claim and "my <someone>" in
the source are two people, and the claim is contradicted (`owner_swaps`).

And a claim about "the user" where the user's turns never speak of the user (the
assistant said "Many people are allergic to peanuts", the user "Good to know") is
attributed to a speaker who did not say it (`owner_unheard`), whatever its words share.
"""

from __future__ import annotations

from collections.abc import Sequence

from groundwire.guards.grounding.lexical.evidence import Sentence
from groundwire.guards.grounding.lexical.text import ClaimWords, word_set
from groundwire.topics.records import SourceTurn

__all__ = ["owner_swaps", "owner_unheard"]

_POSSESSIVE = word_set("my our")
_SUBJECT = word_set("i i'm i've i'd i'll me myself we we're we've we'd we'll us ourselves")


def owner_swaps(
    words: ClaimWords,
    known: set[str] | frozenset[str],
    sentences: Sequence[Sentence],
    shared: Sequence[set[str] | frozenset[str]],
    uniq: set[str],
) -> list[tuple[str, str]]:
    """(the claim's owner word, "my <someone>") where a sentence holding every content
    stem of the claim says it of the speaker's someone, not of the speaker: the owner as
    the subject ("the user lives ...") against a clause without a first-person subject,
    the owner's thing ("the user's birthday") against a clause where "my" owns none of
    the claim's words ("my dad's birthday")."""
    lows = words.lows
    owner = next((i for i, low in enumerate(lows) if low in known), None)
    if owner is None or not uniq:
        return []
    possessive = lows[owner].endswith("'s")
    stems = set(words.stems)
    for s, hit in zip(sentences, shared, strict=True):
        if len(hit) < len(uniq) or _POSSESSIVE.isdisjoint(s.lows):
            continue
        clause_of = s.clause_of()
        held = {clause_of[j] for j, st in enumerate(s.word_stems) if st in uniq and s.content[j]}
        for clause in sorted(held):
            positions = s.clause_positions(clause)
            owned = [j + 1 for j in positions[:-1] if s.lows[j] in _POSSESSIVE and s.content[j + 1]]
            others = [k for k in owned if s.word_stems[k] not in stems]
            if not others:
                continue
            if possessive:
                if len(others) < len(owned):
                    continue  # "my birthday": the owner's own thing is named too
            elif any(s.lows[j] in _SUBJECT for j in positions):
                continue  # "my wife is vegetarian, I eat anything": the speaker is here too
            k = others[0]
            return [(words.raws[owner], f"{s.raws[k - 1]} {s.raws[k]}")]
    return []


_OWNER = frozenset(("user", "user's"))


def owner_unheard(
    words: ClaimWords, known: set[str] | frozenset[str], turns: Sequence[SourceTurn]
) -> bool:
    """Whether the claim is about "the user" (its first content word), the evidence has
    turns of the user's, and none of them speaks of the user (`evidence.users_own_words`
    put "user" among the known names otherwise)."""
    if not _OWNER.isdisjoint(known):
        return False
    lows = words.lows
    first = next((i for i, c in enumerate(words.content) if c), None)
    if first is None or lows[first] not in _OWNER:
        return False
    if first + 1 < len(lows) and lows[first + 1] in _SPEECH:
        return False  # "The user asked about pricing": what the user did in the turn
    return any(turn.source == "user" for turn in turns)


# verbs of the user's own part in the conversation: a claim about that act, not about
# the user's life
_SPEECH = word_set(
    """asked asks said says mentioned mentions requested requests wanted wants wondered
    inquired enquired told shared reported complained thanked greeted agreed declined
    replied answered confirmed"""
)
