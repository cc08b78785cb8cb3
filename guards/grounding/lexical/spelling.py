"""A name the claim writes differently from the source is still the source's name.

People retype the names they read: they drop or double a letter ("Chirugien" for
"Chirurgien", "Japana" for "Japan"), join a name the source writes as two words
("Wallstreet" for "Wall Street"), or shorten it to its initials ("NY" for "New York").
Read as an unknown name, such a spelling makes the claim look as if it adds a specific
the source never gave, and, sitting where the source has the real name, as if it swapped
one name for another: a contradiction. `same_name_in` finds the source's spelling of the
name instead, so the claim is read as naming what the source names.

Four forms only, each tight enough that two different names do not pass:

* joined: the claim's word is two or three consecutive source words written as one,
* initials: the claim's word is written in capitals (two or three letters) and is the
  initials of as many consecutive capitalised source words,
* capitals (session 15b): a word written with capitals inside it ("JavaScript",
  "PagerDuty") and an acronym of as many letters ("JS", "PD"), either way round: the
  capitals are the word's initials as surely as those of words written apart,
* one mechanical slip (`one_name`): both words of six letters or more, the same first
  letter and the same last two letters, and between them only a doubled letter written
  once ("Anette" / "Annette", "Philip" / "Phillip") or two neighbours swapped
  ("Stockohlm" / "Stockholm"). A letter added, dropped or changed makes another name as
  easily as a typo ("Daniela" / "Daniel", "Christina" / "Christine", "Adriana" /
  "Ariana", "Marcela" / "Marcelo"), and the ending is where given names mark gender and
  form ("Francis" / "Frances", "Marian" / "Marina"): those are different people, and a
  memory guard must not approve a swapped person to spare a typo a review. Measured on
  Faker's given and family names of 26 Latin-script locales (`bench/measure_name_slips.py`):
  the rule of one or two edits anywhere read 5,309 pairs of different given names and
  5,007 of family names as one name, this one 232 and 200, most of them one name's two
  spellings ("Dennis" / "Denis", "Mohamed" / "Mohammed"); it keeps 18% of simulated
  one-letter typos of names and 19% of place names (none with a letter dropped or
  changed), where the old rule kept all.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import cast

from groundwire.guards.grounding.lexical.evidence import Evidence, Sentence
from groundwire.guards.grounding.lexical.text import ClaimWords, claim_words
from groundwire.guards.grounding.lexical.text import capitals as capital_positions

__all__ = ["as_source_names", "may_name", "one_name", "same_name_in"]

# the length from which a slip can be read as the same name (both spellings)
ONE_SLIP = 6


def one_name(a: str, b: str) -> bool:
    """Whether `a` and `b` (lower case, no possessive) are one name written with one
    mechanical slip: six letters or more each, the same first letter and last two
    letters, and otherwise a doubled letter written once or two neighbours swapped (see
    the module docstring for why nothing else). The same word is not a slip."""
    if len(a) < ONE_SLIP or len(b) < ONE_SLIP or a == b:
        return False
    if a[0] != b[0] or a[-2:] != b[-2:]:
        return False
    if len(a) == len(b):  # two neighbours swapped: the only difference
        k = next(k for k in range(len(a)) if a[k] != b[k])
        return k + 1 < len(a) and a[k] == b[k + 1] and a[k + 1] == b[k] and a[k + 2 :] == b[k + 2 :]
    short, long = (a, b) if len(a) < len(b) else (b, a)
    if len(long) != len(short) + 1:
        return False
    k = next((k for k in range(len(short)) if short[k] != long[k]), len(short))
    # `long` has one letter more at k; a slip when it doubles its neighbour
    return long[k + 1 :] == short[k:] and long[k] == long[k - 1]


def _capitals(raw: str) -> str | None:
    """The capitals of a word written with capitals inside it and small letters too
    ("JavaScript": "js", "PagerDuty": "pd"), two or three of them, lower case; None for any
    other word ("Java", "NASA", "iPhone")."""
    if not raw.isalpha() or raw.isupper() or not raw[:1].isupper():
        return None
    caps = "".join(c for c in raw if c.isupper())
    return caps.lower() if 2 <= len(caps) <= 3 else None


def _acronym(raw: str) -> bool:
    """A word of two or three capitals ("JS", "GCP")."""
    return raw.isupper() and raw.isalpha() and 2 <= len(raw) <= 3


def same_name_in(raw: str, sentences: Sequence[Sentence]) -> str | None:
    """The source's spelling of the name the claim writes as `raw` (joined, initials or
    one mechanical slip away, `one_name`; see the module docstring), or None when the
    source has no such name. (`may_name` answers whether this finds one from an index per
    evidence: a new form here needs its key there.)"""
    low = raw.lower()
    base = low[:-2] if low.endswith("'s") else low
    initials = raw.isupper() and raw.isalpha() and 2 <= len(raw) <= 3
    slips = len(low) >= ONE_SLIP
    caps = _capitals(raw)
    for s in sentences:
        raws, lows = s.raws, s.lows
        for k, word in enumerate(raws):
            if (initials and _capitals(word) == low) or (
                caps is not None and _acronym(word) and lows[k] == caps
            ):
                return word
            for n in (2, 3):
                if k + n > len(lows):
                    break
                if "".join(lows[k : k + n]) == low:
                    return " ".join(raws[k : k + n])
                run = raws[k : k + n]
                if (
                    initials
                    and all(w[:1].isupper() for w in run)
                    and all(s.content[k : k + n])
                    and "".join(w[0] for w in run).lower() == low
                ):
                    return " ".join(run)
            if (
                slips
                and word[:1].isupper()
                and lows[k][:1] == low[:1]
                and one_name(base, lows[k][:-2] if lows[k].endswith("'s") else lows[k])
            ):
                return word
    return None


# what `may_name` reads of an evidence: its joined runs, its initials (and the capitals of
# its words written with capitals inside), its capitalised words by first letter and its
# acronyms (kept in `Evidence.derived` under this key)
_NAMES_KEY = "spelling.names"
_Names = tuple[set[str], set[str], dict[str, tuple[str, ...]], set[str]]


def _names_of(ev: Evidence) -> _Names:
    """The index `may_name` reads, built once per evidence: the lower-case joins of two
    and three consecutive words of a sentence, the initials of as many consecutive
    capitalised content words, and the distinct lower-case capitalised words by their
    first letter (the three forms `same_name_in` accepts, as keys)."""
    memo = ev.derived
    if memo is None:
        memo = ev.derived = {}
    got = memo.get(_NAMES_KEY)
    if got is not None:
        return cast("_Names", got)
    joined: set[str] = set()
    initials: set[str] = set()
    acronyms: set[str] = set()
    capitals: dict[str, set[str]] = {}
    for s in ev.sentences:
        raws, lows, content = s.raws, s.lows, s.content
        # C-level passes: the joins of each two, then each three, neighbours
        pairs = list(map(operator.add, lows, lows[1:]))
        joined.update(pairs)
        joined.update(map(operator.add, pairs, lows[2:]))
        caps = list(capital_positions(raws))
        for k in caps:
            capitals.setdefault(lows[k][:1], set()).add(lows[k])
            inner = _capitals(raws[k])
            if inner is not None:  # "JavaScript": an acronym "JS" names it
                initials.add(inner)
            elif _acronym(raws[k]):  # "JS": a word "JavaScript" names it
                acronyms.add(lows[k])
        if len(caps) < 2:
            continue
        named = {k for k in caps if content[k]}  # capitalised content words
        for k in named:
            if k + 1 in named:
                two = raws[k][0] + raws[k + 1][0]
                initials.add(two.lower())
                if k + 2 in named:
                    initials.add((two + raws[k + 2][0]).lower())
    # never changed once built (shared by every claim that cites the evidence)
    names: _Names = (
        joined,
        initials,
        {a: tuple(lows) for a, lows in capitals.items()},
        acronyms,
    )
    memo[_NAMES_KEY] = names
    return names


def may_name(raw: str, ev: Evidence) -> bool:
    """Whether `same_name_in(raw, ev.sentences)` finds a name: the same three tests, read
    from an index of the evidence built once (`_names_of`) instead of by a pass over every
    word of every sentence for each capitalised word of each claim (that pass was ~7 % of
    the lexical verifier's time on the dev file, a cost paid per claim for what is a
    property of the turns)."""
    joined, initials, capitals, acronyms = _names_of(ev)
    low = raw.lower()
    if low in joined:
        return True
    if _acronym(raw) and low in initials:
        return True
    if acronyms and _capitals(raw) in acronyms:
        return True
    if len(low) < ONE_SLIP:
        return False
    base = low[:-2] if low.endswith("'s") else low
    return any(
        one_name(base, other[:-2] if other.endswith("'s") else other)
        for other in capitals.get(low[:1], ())
    )


def as_source_names(
    words: ClaimWords, positions: Sequence[int], sentences: Sequence[Sentence]
) -> ClaimWords:
    """The claim's words with the stem of each name at `positions` (names the source
    writes another way: `may_name`) replaced by the stem of the source's first word of
    that name, so a rule that compares where names stand ("from JS to TypeScript" against
    "from TypeScript to JavaScript", `roles.reversed_direction`) reads the claim's "JS" as
    the source's "JavaScript" (session 15b); unchanged when there are none."""
    if not positions:
        return words
    stems = list(words.stems)
    for i in positions:
        spelled = same_name_in(words.raws[i], sentences)
        if spelled is not None:
            theirs = claim_words(spelled).stems
            if theirs:
                stems[i] = theirs[0]
    return words._replace(stems=tuple(stems))
