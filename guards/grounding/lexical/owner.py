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

from groundwire.guards.grounding.lexical.evidence import (
    OWNER_WORDS,
    Sentence,
    evidence_for,
    users_own_words,
)
from groundwire.guards.grounding.lexical.irregular_past import IRREGULAR_PAST
from groundwire.guards.grounding.lexical.person import first_person_in
from groundwire.guards.grounding.lexical.plural_openers import source_noun_opener
from groundwire.guards.grounding.lexical.text import (
    FIRST_PERSON,
    NEGATIONS,
    STOPWORDS,
    ClaimWords,
    word_set,
)
from groundwire.topics.records import SourceTurn

__all__ = [
    "SOMEONE_ELSE",
    "implied_owner",
    "owner_elsewhere",
    "owner_swaps",
    "owner_unheard",
    "subjectless_owner",
]

_POSSESSIVE = word_set("my our")
# finite verbs a subjectless memory opens with ("Is planning", "Has two kids")
_FINITE = word_set(
    """is isn't was wasn't has hasn't had hadn't does doesn't did didn't can can't cannot
    will won't would wouldn't should shouldn't could couldn't might must used plans"""
)
# singular only: a plural noun and "are" is as often a general statement ("Logs are kept
# for 30 days") as the owner's ("Kids are Mia and Leo")
_COPULA = word_set("is was")
_PLURAL_VERBS = word_set(
    """are aren't were weren't have haven't had do don't did didn't can can't cannot will
    won't would should could may might must need almost always never often usually also
    still rarely sometimes all both"""
)
_SUBJECT = word_set("i i'm i've i'd i'll me myself we we're we've we'd we'll us ourselves")


def implied_owner(words: ClaimWords, text: str) -> bool | None:
    """Whether the claim leaves its subject out, the way memory layers write about their
    owner: None for a claim with a subject of its own; False where it opens with the
    verb ("Prefers dark mode", "Is planning a trip", "Moved to Berlin"), so the owner
    is its subject; True where it opens with a bare noun (one or two words) and a copula
    or a label colon ("Name is Priya", "Manager: Dana", "Favourite food is sushi"), so
    the noun is the owner's. Word shapes only (a closed list of auxiliaries, an -s or
    -ed verb), no tagger: a plural noun read as a verb ("Parents live in Lyon") still
    names the owner's own, so the misreading costs nothing."""
    lows, spans = words.lows, words.spans
    if not lows:
        return None
    first = lows[0]
    if first in _FINITE:
        return False
    if first in OWNER_WORDS or first in _SPEECH:
        return None  # "User is ...": named; "Asked about pricing": the user's part in the turn
    if first in STOPWORDS or not first.isalpha():
        return None
    for k in (1, 2):  # "Name is", "Favourite food is", "Manager: Dana"
        if len(lows) <= k or any(low in STOPWORDS for low in lows[1:k]):
            break
        if lows[k] in _COPULA or ":" in text[spans[k - 1][1] : spans[k][0]]:
            return True
    if len(first) <= 3 or first.endswith(("ss", "us", "is")):
        return None
    if first.endswith("ed"):
        return False
    if first.endswith("s") and not (len(lows) > 1 and _verb_after_plural(lows[1])):
        return False  # "Prefers dark mode"; not "Users are unable ...", "Users signed up"
    return None


def _verb_after_plural(low: str) -> bool:
    """Whether the word after an -s word shows the -s word is a plural subject: a verb
    of its own follows ("Users are ...", "Users signed up", "Users often forget"), also
    an irregular past ("Prices rose by 5%", "Sales fell", `IRREGULAR_PAST`, session 17)."""
    return low in _PLURAL_VERBS or low.endswith(("ed", "ly")) or low in IRREGULAR_PAST


def owner_swaps(
    words: ClaimWords,
    known: set[str] | frozenset[str],
    sentences: Sequence[Sentence],
    shared: Sequence[set[str] | frozenset[str]],
    uniq: set[str],
    implied: bool | None = None,
) -> list[tuple[str, str]]:
    """(the claim's owner word, "my <someone>") where a sentence holding every content
    stem of the claim says it of the speaker's someone, not of the speaker: the owner as
    the subject ("the user lives ...") against a clause without a first-person subject,
    the owner's thing ("the user's birthday") against a clause where "my" owns none of
    the claim's words ("my dad's birthday"); and likewise against a third person ("He
    lives in Berlin", "Her birthday is May 3", `_someone_else`), in a clause holding
    more than half of the claim's content stems ("Is married to Dana" is not said of
    "my wife" in "My wife Dana and I got married"). `implied`
    (`implied_owner`) stands for an owner the claim leaves out ("Prefers dark mode",
    "Name is Priya")."""
    lows = words.lows
    owner = next((i for i, low in enumerate(lows) if low in known), None)
    if not uniq:
        return []
    if owner is not None:
        possessive = lows[owner].endswith("'s")
        named = words.raws[owner]
    elif implied is not None:
        possessive, named = implied, "(the user)"
    else:
        return []
    for s, hit in zip(sentences, shared, strict=True):
        if len(hit) < len(uniq) or (_POSSESSIVE.isdisjoint(s.lows) and _THIRD.isdisjoint(s.lows)):
            continue
        if owner is None and possessive and _named(s, lows[0]):
            continue  # "Dana is vegetarian" / "My wife Dana is vegetarian": Dana is a name
        clause_of = s.clause_of()
        held: dict[int, set[str]] = {}
        for j, st in enumerate(s.word_stems):
            if st in uniq and s.content[j]:
                held.setdefault(clause_of[j], set()).add(st)
        for clause in sorted(held):
            if 2 * len(held[clause]) <= len(uniq):
                continue  # "My wife Dana | and I got married": the claim is mostly elsewhere
            positions = s.clause_positions(clause)
            if clause and _WHO.isdisjoint(s.lows[j] for j in positions):
                # "Tom, my brother, | works at Acme": a clause without a subject of its
                # own has the sentence's, so the clauses before it are read with it
                positions = tuple(range(positions[-1] + 1))
            other = _someone_else(s, positions, words, possessive)
            if other is not None and not _me_too(s, clause):
                return [(named, other)]
    return []


def _me_too(s: Sentence, held: int) -> bool:
    """Whether another clause of the sentence gives the speaker the same predicate by
    ellipsis: function words only, a first-person subject, no negation ("My brother
    works at Acme | and so do I", "..., me too", "... and I do too"; not "but I don't")."""
    clause_of = s.clause_of()
    by_clause: dict[int, list[int]] = {}
    for j, c in enumerate(clause_of):
        if c != held:
            by_clause.setdefault(c, []).append(j)
    return any(
        not any(s.content[j] for j in at)
        and first_person_in(s.raws, s.lows, _SUBJECT, at)
        and NEGATIONS.isdisjoint(s.lows[j] for j in at)
        for at in by_clause.values()
    )


def _someone_else(
    s: Sentence, positions: Sequence[int], words: ClaimWords, possessive: bool
) -> str | None:
    """Who the clause at `positions` says the claim of, where that is not the speaker:
    "my <someone>" not named in the claim (`owner_swaps`), or "he"/"she"/"they" as its
    subject ("He is planning a trip to Japan"), "his"/"her"/"their" owning a word of the
    claim ("Her name is Priya") for the owner's thing. None where the speaker is in the
    clause: a first-person subject, or "my" owning a word of the claim. "My manager's
    manager" is someone else's too, where the claim has no "manager's": a chain of owners
    longer than the claim's ("User's manager: Dana")."""
    lows, stems = s.lows, set(words.stems)
    mine = [j + 1 for j in positions[:-1] if lows[j] in _POSSESSIVE and s.content[j + 1]]
    others = [k for k in mine if s.word_stems[k] not in stems or _chained(s, k, words)]
    if possessive:
        if len(others) < len(mine):
            return None  # "my birthday": the owner's own thing is named too
        if others:
            return f"{s.raws[others[0] - 1]} {s.raws[others[0]]}"
        theirs = [
            j for j in positions[:-1] if lows[j] in _THIRD_OWNS and s.word_stems[j + 1] in stems
        ]
        return f"{s.raws[theirs[0]]} {s.raws[theirs[0] + 1]}" if theirs else None
    if first_person_in(s.raws, lows, _SUBJECT, positions):
        return None  # "my wife is vegetarian, I eat anything": the speaker is here too
    if others:
        return f"{s.raws[others[0] - 1]} {s.raws[others[0]]}"
    third = [j for j in positions if lows[j] in _THIRD_SUBJECT]
    return s.raws[third[0]] if third else None


def _chained(s: Sentence, k: int, words: ClaimWords) -> bool:
    """Whether the source's "my <word at k>" owns a further thing the claim's word does
    not: "manager's" where the claim says "manager" ("My manager's manager is Dana").
    Not where another word of the claim follows ("My name's Priya", "My manager's Dana"):
    that "'s" is "is", and the value comes after it."""
    low = s.lows[k]
    if not low.endswith("'s") or low in words.lows:
        return False
    after = k + 1
    return not (
        after < len(s.lows)
        and s.content[after]
        and s.word_stems[after] in words.stems
        and s.word_stems[after] != s.word_stems[k]
    )


# someone else than the speaker, as a clause's subject or as the owner of a thing
_THIRD_SUBJECT = word_set(
    "he she they he's she's they're he'd she'd they'd he'll she'll they'll they've"
)
_THIRD_OWNS = word_set("his her their")
_THIRD = _THIRD_SUBJECT | _THIRD_OWNS
# a sentence without any of these says nothing of someone other than the speaker
SOMEONE_ELSE = _POSSESSIVE | _THIRD
# a clause with none of these has no subject of its own that tells whose it is
_WHO = _SUBJECT | SOMEONE_ELSE


def _named(s: Sentence, low: str) -> bool:
    """Whether the sentence writes `low` capitalised after its first word (a name)."""
    return any(j and lw == low and s.raws[j][:1].isupper() for j, lw in enumerate(s.lows))


def owner_elsewhere(
    words: ClaimWords,
    known: set[str] | frozenset[str],
    turns: Sequence[SourceTurn],
    implied: bool | None,
    aligned: tuple[Sequence[Sentence], Sequence[set[str] | frozenset[str]], set[str]],
) -> bool:
    """For a claim about the user (named "the user" or left out): whether every source
    sentence holding all of the claim's content words (`aligned`: the sentences, the claim
    stems each holds, the claim's stems) is outside the user's turns and
    speaks of no one the owner could be (no first- or second-person word, no name of
    the owner's).
    "Many children are allergic to peanuts." in a document does not say "The user is
    allergic to peanuts", though the user said "I'm new here" elsewhere. False where no
    sentence holds them all: a claim pieced together is left to the score."""
    sentences, shared, uniq = aligned
    if not uniq:
        return False
    if implied is None and (OWNER_WORDS.isdisjoint(words.lows) or not users_own_words(turns)):
        return False  # not about the user, or no turn of the user's ("user-444" is an id)
    full = [s for s, hit in zip(sentences, shared, strict=True) if len(hit) == len(uniq)]
    return bool(full) and all(
        s.turn.source != "user"
        and not first_person_in(s.raws, s.lows, _ABOUT_OWNER)
        and known.isdisjoint(s.lows)
        for s in full
    )


# a sentence with one of these may speak of the owner: the speaker ("I"), or the user
# addressed ("Would you prefer dark mode?", answered "Yes" by the user)
_ABOUT_OWNER = FIRST_PERSON | word_set("you your yours yourself you're you've you'd you'll")


def _written_as_name(low: str, turns: Sequence[SourceTurn]) -> bool:
    """Whether the evidence writes the claim's first word capitalised (at the head of a
    sentence or inside one): a subject or a name there ("Postgres runs the ledger."), so
    the claim opens with its subject, not with a verb of the owner's. The speaker's own
    verb is written after "I" ("I prefer", "I work"), in lower case."""
    ev = evidence_for(turns)
    if low not in ev.lows:
        return False
    return any(
        lw == low and s.raws[j][:1].isupper() for s in ev.sentences for j, lw in enumerate(s.lows)
    )


def subjectless_owner(
    words: ClaimWords, text: str, known: set[str] | frozenset[str], turns: Sequence[SourceTurn]
) -> tuple[bool | None, bool]:
    """For a claim that leaves its owner out (`implied_owner`), where the evidence has
    turns of the user's: (`implied_owner`'s answer when the user's turns speak of the
    user, else None; whether none does and the claim opens with its verb, so it is
    attributed to a speaker who did not say it, as `owner_unheard` for "the user").
    (None, False) for any other claim and where no turn is the user's: without the
    user's turns nothing says whose memory it is. A bare noun first ("Postgres is the
    main database") is never unheard: the noun may be the subject, not the owner's
    thing, and a user's plain "The main database is Postgres" grounds it. The word-shape
    test runs first; the turns are read only when it passes."""
    if not known.isdisjoint(words.lows):
        return None, False  # the owner is named ("Georgian prefers ...")
    if not any(turn.source == "user" for turn in turns):
        return None, False  # the cheaper test first: most claims cite no user turn
    implied = implied_owner(words, text)
    if implied is None:
        return None, False
    if _written_as_name(words.lows[0], turns):
        return None, False  # "Postgres runs the ledger": the evidence's subject, not a verb
    if implied is False and source_noun_opener(words.lows[0], turns):
        return None, False  # "Students get ..." / "... for students" (`plural_openers.py`)
    if users_own_words(turns):
        return implied, False
    return None, not implied


def owner_unheard(
    words: ClaimWords, known: set[str] | frozenset[str], turns: Sequence[SourceTurn]
) -> bool:
    """Whether the claim is about "the user" (its first content word), the evidence has
    turns of the user's, and none of them speaks of the user (`evidence.users_own_words`
    put "user" among the known names otherwise)."""
    if not OWNER_WORDS.isdisjoint(known):
        return False
    lows = words.lows
    first = next((i for i, c in enumerate(words.content) if c), None)
    if first is None or lows[first] not in OWNER_WORDS:
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
