"""Words, as the lexical verifier reads them: tokens, stems, number values, stopwords.

Every claim and every source turn goes through here, so this is the verifier's hot path
(benchmarked by `bench/bench_grounding.py`). Words repeat a lot across claims and turns, so
what a word is (lowercase, stem, content or not, the number it states) is computed once
and kept in a bounded dict (`_PARTS`) that is read in bulk with `map(dict.get, ...)`, and
the tokens are plain tuples built in C. Those micro-optimisations (`_new_tuple`,
`_GROUP`, `_SPAN`) live here, beside the only code that needs them.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import operator
import re
from collections.abc import Iterator, Sequence, Set
from typing import NamedTuple

from groundwire.guards.canonical import canonical
from groundwire.guards.grounding.lexical.numerals import read_numerals

__all__ = [
    "AUXILIARIES",
    "CONJUNCTIONS",
    "COORDINATORS",
    "DECADES",
    "DEGREE",
    "EXCEPTIONS",
    "FIRST_PERSON",
    "IMPLICATIVES",
    "NEGATIONS",
    "NEGATIONS_BUT_NO",
    "NUMBER_WORDS",
    "SECOND_PERSON",
    "STOPWORDS",
    "SYMMETRIC_RELATIONS",
    "WORD",
    "ClaimWords",
    "Token",
    "capitals",
    "claim_words",
    "clause_ids",
    "fold_disguises",
    "has_implicative",
    "implicative_at",
    "in_decade",
    "number_in",
    "number_value",
    "parts_of",
    "read_decades",
    "same_number",
    "stem",
    "tokenize",
    "word_offsets",
    "word_parts",
    "word_set",
]


def _words(text: str) -> list[str]:
    return text.split()


_INITIAL = operator.itemgetter(0)


def capitals(raws: Sequence[str]) -> Iterator[int]:
    """Positions of the words written with a capital first letter (a word is never
    empty), found by C-level passes."""
    return itertools.compress(itertools.count(), map(str.isupper, map(_INITIAL, raws)))


def word_set(text: str) -> frozenset[str]:
    """The whitespace-separated words of `text`, for writing a word class as prose."""
    return frozenset(text.split())


# The calendar's names, in their order: written like names but dates, which hold no role
# (a different date is a swapped specific, not a different person: `names.py`; a
# transcript gives them as "tomorrow", "TGIF": `transcript.py`), compared as values of
# their own kind (`changed_values.py`, the dedup guard's rival words).
MONTH_NAMES = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
WEEKDAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
CALENDAR = frozenset(MONTH_NAMES + WEEKDAY_NAMES)


# Relations that hold both ways: swapping their two sides says the same (`roles.py`, and
# the role-swap check of near-duplicates, `guards/dedup/minhash.py`).
SYMMETRIC_RELATIONS = word_set(
    """with met meet meets meeting married marry marries marrying dated date dates dating
    and or between versus vs against together each other same exchange exchanged"""
)

# Function words carry no claim content; kept short and generic on purpose.
STOPWORDS = frozenset(
    _words(
        """a an the and or but if then than so of to in on at by for with from into onto over
    under about as is are was were be been being am do does did doing have has had having
    it its it's this that these those there here which who whom whose what when where why
    how all any both each few more most other some such only own same too very can could
    will would shall should may might must just also even still yet again ever already
    not no nor never none n't don't doesn't didn't isn't aren't wasn't weren't won't
    can't couldn't shouldn't wouldn't i me my mine myself we us our ours ourselves you
    your yours yourself he him his himself she her hers herself they them their theirs
    themselves i'm i've i'd i'll you're you've we're they're he's she's that's there's
    what's let's yes yeah oh well really like lot lots thing things something anything
    get got go going gone went make made one ones up down out off just quite pretty
    much many way know think said say says tell"""
    )
)
# Degree words: function words for the overlap score, but "more" against "less", "most"
# against "least", "many" against "few" reverse a statement like an antonym does
# (`polarity.check_polarity` reads them with the content words).
DEGREE = frozenset(_words("more most many much few"))
_NEGATIONS_WRITTEN = frozenset(
    _words(
        """not no never none nobody nothing neither nor without cannot n't don't doesn't
    didn't isn't aren't wasn't weren't won't can't couldn't shouldn't wouldn't hasn't
    haven't hadn't"""
    )
)
# Chat drops the apostrophe ("the cache isnt enabled"): those spellings deny as much.
_UNPOSTROPHED = {w.replace("'", ""): w for w in _NEGATIONS_WRITTEN if "'" in w and w != "n't"}
NEGATIONS = _NEGATIONS_WRITTEN | frozenset(_UNPOSTROPHED)
# ... and are function words wherever their written forms are
STOPWORDS = STOPWORDS | {bare for bare, written in _UNPOSTROPHED.items() if written in STOPWORDS}
# Words that take what follows them out of the clause's statement: "all services except
# the gateway are written in Go" denies it of the gateway (`polarity`, scope one word).
EXCEPTIONS = frozenset(_words("except excluding"))
# A leading "no"/"not really" answers the other speaker; it negates no stated fact.
NEGATIONS_BUT_NO = NEGATIONS - {"no"}
# Verbs that deny the infinitive after them (negative implicatives: "we failed to
# migrate the logs" says they were not migrated); a negation only when "to" follows.
IMPLICATIVES = frozenset(
    _words(
        """fail fails failed failing refuse refuses refused refusing forgot forget forgets
    forgetting neglect neglects neglected decline declines declined unable yet"""
    )
)


def implicative_at(lows: Sequence[str], k: int) -> bool:
    """The word at k denies the infinitive that follows it ("failed to", "has yet to")."""
    return lows[k] in IMPLICATIVES and k + 1 < len(lows) and lows[k + 1] == "to"


def has_implicative(lows: Sequence[str]) -> bool:
    """Some word of `lows` is a negative implicative followed by "to"."""
    return not IMPLICATIVES.isdisjoint(lows) and any(
        implicative_at(lows, k) for k in range(len(lows) - 1)
    )


FIRST_PERSON = frozenset(_words("i me my mine myself we us our ours ourselves i'm i've i'd i'll"))
SECOND_PERSON = frozenset(_words("you your yours yourself you're you've you'd you'll"))
NUMBER_WORDS = {
    w: str(i)
    for i, w in enumerate(
        _words(
            """zero one two three four five six seven eight nine ten eleven twelve thirteen
            fourteen fifteen sixteen seventeen eighteen nineteen twenty"""
        )
    )
}
NUMBER_WORDS.update(
    {"thirty": "30", "forty": "40", "fifty": "50", "hundred": "100", "thousand": "1000"}
)
NUMBER_WORDS.update({"million": "1000000", "billion": "1000000000", "half": "0.5"})
# ... and as business writing abbreviates them, and the dozen
NUMBER_WORDS.update(
    {"mln": "1000000", "bn": "1000000000", "trillion": "1000000000000", "dozen": "12"}
)
# ... and how many times: "twice a day" against "three times a day" is a changed count
# ("once" is read only before a period: `numerals.read_numerals`)
NUMBER_WORDS.update({"twice": "2", "thrice": "3"})
# A frequency is a number too (once per period): "weekly" where the source says
# "nightly" is a swapped number; "nightly" and "daily" are the same one.
NUMBER_WORDS.update(
    {
        "hourly": "1/hour",
        "daily": "1/day",
        "nightly": "1/day",
        "weekly": "1/week",
        "fortnightly": "1/2weeks",
        "monthly": "1/month",
        "quarterly": "1/quarter",
        "yearly": "1/year",
        "annually": "1/year",
    }
)

# One word: letters/digits (with decimal or thousands separators and an 's/'t ending), or %.
# No anchors or look-arounds, so a slice of a text is read in place: findall(text, a, b).
# `[A-Za-z0-9]+(?:[.,][0-9]+)*(?:'[A-Za-z]+)?|%` with possessive quantifiers: what follows
# each part can match empty and never starts with what the part repeats, so the greedy
# match is the only one and giving back never helps; possessive, the engine keeps no
# backtracking state (same matches, findall ~25 % faster on the grounding data).
#
# Besides ASCII letters and digits a word may hold the compatibility characters whose plain
# form is longer than they are, the ligatures ("ﬁve") and vulgar fractions ("1½", "½"):
# `fold_disguises` must keep every offset and so keeps such a token as written, and
# without them here "ﬁve" read as "ve" and "1½" as "1" (a count the source contradicts,
# unseen). Their plain form is the word's lower-case form (`_compute_parts`).
WORD = re.compile(
    r"[A-Za-z0-9\u00bc-\u00be\u2150-\u215e\ufb00-\ufb06]++(?:[.,][0-9]++)*+(?:'[A-Za-z]++)?+|%"
)
_NUMBER = re.compile(r"[0-9]+(?:\.[0-9]+)?")


def stem(word: str) -> str:
    """Fast suffix stripping + truncation: 'works'~'work', 'confident'~'confidence'.

    The inflections of a word whose base ends in a silent e share its stem ('likes',
    'liked', 'liking' ~ 'like'; 'lives' ~ 'live'), as do doubled consonants ('stopped' ~
    'stop') and -ies ('companies' ~ 'company'): an -es is only a suffix after a sibilant
    ('boxes', 'watches'), and a short syllable left by -ed/-ing gets its e back (Porter's
    step 1b, simplified), so a claim in the third person meets evidence in the first."""
    w = word.lower()
    if w.endswith("'s"):
        w = w[:-2]
    n = len(w)
    # -ed/-ing only when a vowel is left ('thing', 'shed' are no inflections), and not
    # the -eed of 'need', 'speed'
    if w.endswith("ing") and n >= 5 and not _VOWELS_Y.isdisjoint(w[:-3]):
        w = _restored(w[:-3])
    elif w.endswith("ed") and n >= 4 and w[-3] != "e" and not _VOWELS_Y.isdisjoint(w[:-2]):
        w = _restored(w[:-2])
    elif n < 5 or w.endswith("ss"):
        if n >= 4 and w.endswith("s") and not w.endswith("ss"):
            w = w[:-1]
        return w[:6]
    elif w.endswith("ies"):
        w = w[:-3] + "y"
    elif w.endswith("es"):
        w = w[:-2] if w.endswith(_SIBILANT_ES) else w[:-1]
    elif w.endswith("s"):
        w = w[:-1]
    elif w.endswith("ly"):
        w = w[:-2]
    if len(w) >= 6 and w[-1] == "e":  # 'manage' ~ 'managed' ('manag')
        w = w[:-1]
    return w[:6]


_SIBILANT_ES = ("ses", "xes", "zes", "ches", "shes")
_VOWELS = frozenset("aeiou")
_VOWELS_Y = frozenset("aeiouy")


def _restored(base: str) -> str:
    """The base left by -ed/-ing: one of a doubled final consonant dropped ('stopp'),
    else the silent e of a short syllable put back ('lik' -> 'like', 'hop' -> 'hope')."""
    last = base[-1]
    if len(base) >= 3 and last == base[-2] and last not in _VOWELS and last not in "lsz":
        return base[:-1]
    if len(base) == 2 and base[0] in _VOWELS and base[1] not in _VOWELS and base[1] not in "wxy":
        return base + "e"  # 'us' (used, using) -> 'use', 'ag' -> 'age'
    if (
        len(base) >= 3
        and base[-1] not in _VOWELS
        and base[-1] not in "wxy"
        and base[-2] in _VOWELS
        and base[-3] not in _VOWELS
        and sum(1 for a, b in itertools.pairwise(base) if a in _VOWELS and b not in _VOWELS) == 1
    ):
        return base + "e"
    return base


# A decade is a value of its own kind, not the number it is written with: "the 60s",
# "the 60's", "the '60s" (the apostrophe is no word character) and "the sixties" are the
# decade "'60s"; "the 1960s" is "1960s", the decade with its century stated. Written
# without a century, a decade is any century's ("the 20s": the 1920s or the 2020s), so
# "'60s" is the same value as "1960s" or "1860s" (`same_number`), while two stated
# centuries must agree ("1960s" vs "1860s" or "1970s" differ). Only tens are decades:
# "5s" or "400s" read as before (their number).
_DECADE = re.compile(r"(?:[0-9]{2})?[0-9]0(?:'s|s)")
_DECADE_WORDS = {
    f"{word}ties": f"'{tens}0s"
    for word, tens in (("twen", 2), ("thir", 3), ("for", 4), ("fif", 5), ("six", 6))
}
_DECADE_WORDS.update({"seventies": "'70s", "eighties": "'80s", "nineties": "'90s"})
# every decade value there is (the short ones and all four-digit ones), for a C-level test
# of whether a column holds one at all (`read_decades`)
DECADES = frozenset(
    [f"'{t}0s" for t in range(10)] + [f"{c:02d}{t}0s" for c in range(100) for t in range(10)]
)
# possessive determiners: "in her 60s" is her age, not the 1960s; "early", "mid", "late"
# may stand between ("in my late 30s", "in his mid-40s": "mid" is a word of its own)
_POSSESSIVES = frozenset(_words("my your his her its our their one's"))
_AGE_STEPS = frozenset(_words("early mid late"))


def _decade(lowered: str) -> str | None:
    """The decade value of a word ("60s" -> "'60s", "1960's" -> "1960s"), else None."""
    if lowered in _DECADE_WORDS:
        return _DECADE_WORDS[lowered]
    if _DECADE.fullmatch(lowered) is None:
        return None
    digits = lowered[: -2 if lowered.endswith("'s") else -1]
    return f"{digits}s" if len(digits) == 4 else f"'{digits}s"


def same_number(a: str | None, b: str | None) -> bool:
    """Whether two number values (`number_value`) name the same value: equal, or a decade
    without its century ("'60s") and one with it that ends the same way ("1960s")."""
    if a == b:
        return True
    if a is None or b is None or a[-1:] != "s" or b[-1:] != "s":
        return False
    if a[0] == "'" and b[0] != "'":
        return b[2:] == a[1:] and b in DECADES
    if b[0] == "'" and a[0] != "'":
        return a[2:] == b[1:] and a in DECADES
    return False


def in_decade(year: str | None, decade: str | None) -> bool:
    """Whether a year (a four-digit `number_value`) falls in a decade ("1962" in "1960s",
    or in "'60s" of no stated century): the decade says less than the year, never
    against it."""
    if year is None or decade is None or decade not in DECADES or not year.isdigit():
        return False
    if len(year) != 4:
        return False
    return year[:3] == decade[:3] if decade[0] != "'" else year[2] == decade[1]


def number_in(value: str, values: Set[str] | Set[str | None]) -> bool:
    """Whether `value` is among `values` as `same_number` reads them (a set look-up unless
    `value` is a decade)."""
    if value in values:
        return True
    if value not in DECADES:
        return False
    if value[0] == "'":  # a decade of no stated century: any century's
        return any(v is not None and v[2:] == value[1:] and v in DECADES for v in values)
    return f"'{value[2:]}" in values


# What follows "one" when it is a pronoun, not a numeral: a relative pronoun ("Alice is
# the one who approves", "the one that failed", "one which"): "one" stands for a person
# or thing the clause describes and states no count (English closed class).
_RELATIVES = frozenset(_words("who whom whose that which"))


def pronoun_ones(lows: Sequence[str], numbers: tuple[str | None, ...]) -> tuple[str | None, ...]:
    """The number column with "one" before a relative pronoun read as no number ("the one
    who approves" is a person, not a count of one: `_RELATIVES`); "one of the three" and
    "one server that failed" keep their number."""
    last = len(lows) - 1
    drop = [
        i for i, low in enumerate(lows) if low == "one" and i < last and lows[i + 1] in _RELATIVES
    ]
    if not drop:
        return numbers
    out = list(numbers)
    for i in drop:
        out[i] = None
    return tuple(out)


def read_decades(
    lows: Sequence[str], stems: tuple[str, ...], numbers: tuple[str | None, ...]
) -> tuple[tuple[str, ...], tuple[str | None, ...]]:
    """The stem and number columns of a sentence with its decades read in context.

    A decade after a possessive is the age it names: "in her 60s" is her age, never the
    1960s. The age keeps the plain number it was read as before decades were values
    ("60"), so the existing number rules compare it ("in his 40s" is not "I'm 25"; "in
    her 60s" is not "the 1960s"). And a decade split from its "'s" by tokenised text ("in
    the 1960 's": the apostrophe is no word character, so "1960" and "s") is the decade
    it writes: "1960" takes the value and stem "1960s". "one" before a relative pronoun
    is no number (`pronoun_ones`). Most columns hold none of these and are given back
    as they are."""
    if "one" in lows:
        numbers = pronoun_ones(lows, numbers)
    if DECADES.isdisjoint(numbers) and "s" not in lows:
        return stems, numbers
    out = list(numbers)
    own = list(stems)
    last = len(lows) - 1
    for i, value in enumerate(numbers):
        if value is None:
            continue
        if i < last and lows[i + 1] == "s":
            split = _decade(lows[i] + "s")
            if split is not None:
                value = out[i] = own[i] = split
        if value[0] != "'" or value not in DECADES or i == 0:
            continue  # a stated century ("her 1960s") is a decade still
        k = i - 1
        if lows[k] in _AGE_STEPS and k > 0:
            k -= 1
        if lows[k] in _POSSESSIVES:
            out[i] = value[1:3]
    return tuple(own), tuple(out)


@functools.lru_cache(maxsize=65_536)
def number_value(word: str) -> str | None:
    """The number a word states ('five' -> '5', '1,200' -> '1200', '2.5k' -> '2500', 'v2'
    -> 'v2': a version is a value too; '60s' -> "'60s", '1960s' -> '1960s': a decade,
    `_DECADE`), else None; cached."""
    lowered = word.lower()
    if lowered in NUMBER_WORDS:
        return NUMBER_WORDS[lowered]
    if lowered[-1:] == "s":
        decade = _decade(lowered)
        if decade is not None:
            return decade
    if lowered[:1] == "v" and lowered[1:2].isdigit():  # a version: "v2", "v1.4"
        version = _NUMBER.fullmatch(lowered, 1)
        return f"v{version.group(0)}" if version else None
    if lowered[:1].isdigit():
        digits = lowered.replace(",", "")
        m = _NUMBER.match(digits)
        if m:
            value = m.group(0)
            if digits[m.end() :] == "k":  # "5k" is 5000, not 5
                value = f"{float(value) * 1000:.3f}".rstrip("0").rstrip(".")
            return value[:-2] if value.endswith(".0") else value
    return None


class Token(NamedTuple):
    """One word (a tuple: built in C, about twice as fast as a dataclass instance)."""

    text: str  # as written
    low: str
    stem: str
    start: int
    end: int
    content: bool


# The first-person pronouns the lexicon has only in lower case (not "I", "I'm", ...):
# written with capitals after the first letter ("US") they are another word (`person`).
_LOWER_PRONOUNS = frozenset(w for w in FIRST_PERSON if w != "i" and not w.startswith("i'"))


def _compute_parts(raw: str) -> tuple[str, str, bool, str | None]:
    # a ligature or a vulgar fraction (`WORD`) reads as its canonical form: "ﬁve" is
    # "five", "1½" is "1.5"
    low = (raw if raw.isascii() else canonical(raw)).lower().replace("’", "'")
    # "May" capitalised is (almost always) the month, not the modal: a content word; so
    # is "US" (the country), no pronoun "us" (`person`): a word of its own
    content = (
        (low not in STOPWORDS or raw == "May" or (low in _LOWER_PRONOUNS and raw[1:].isupper()))
        and low != "%"
        and (len(low) > 1 or low.isdigit())
    )
    value = number_value(low)
    if value is not None and value in DECADES:  # "60s", "60's", "sixties": one decade
        return low, value, content, value
    return low, stem(low), content, value


# raw word -> (lowercase, stem, is-content, number value): a plain dict (read in bulk with
# `map(dict.get, ...)`, no call per word), emptied when it reaches its bound.
_PARTS: dict[str, tuple[str, str, bool, str | None]] = {}
_PARTS_MAX = 65_536


def word_parts(raw: str) -> tuple[str, str, bool, str | None]:
    """(lowercase, stem, is-content, number value) of one word; cached (words repeat)."""
    parts = _PARTS.get(raw)
    if parts is None:
        parts = _compute_parts(raw)
        if len(_PARTS) >= _PARTS_MAX:
            _PARTS.clear()
        _PARTS[raw] = parts
    return parts


def parts_of(raws: Sequence[str]) -> list[tuple[str, str, bool, str | None]]:
    """`word_parts` of many words: one C-level dict pass, Python only for unseen words.

    The pass indexes the dict (a KeyError when some word is new, rare once the cache is
    warm) rather than `get` and a scan for None: that scan compares every part with None
    and cost a quarter of the pass."""
    try:
        return list(map(_PARTS.__getitem__, raws))
    except KeyError:
        return list(map(word_parts, raws))


_new_tuple = tuple.__new__
_GROUP = re.Match.group
_SPAN = re.Match.span


def _tokenize(
    text: str, base: int = 0
) -> tuple[list[Token], list[tuple[str, str, bool, str | None]]]:
    matches = list(WORD.finditer(text))
    raws = list(map(_GROUP, matches))
    parts = parts_of(raws)
    tokens = [
        _new_tuple(Token, (raw, low, stemmed, base + start, base + end, content))
        for raw, (low, stemmed, content, _), (start, end) in zip(
            raws, parts, map(_SPAN, matches), strict=True
        )
    ]
    return tokens, parts


def tokenize(text: str, base: int = 0) -> list[Token]:
    """The words of `text` as `Token`s, their offsets shifted by `base`."""
    return _tokenize(text, base)[0]


class ClaimWords(NamedTuple):
    """A claim's words, as `Token`s and as plain per-word columns (built in C from the
    parts cache; the features and polarity checks read the columns, not the tokens)."""

    raws: tuple[str, ...]  # as written
    lows: tuple[str, ...]
    stems: tuple[str, ...]
    content: tuple[bool, ...]
    numbers: tuple[str | None, ...]  # `number_value` of each word's lower-case form
    spans: tuple[tuple[int, int], ...]  # (start, end) of each word

    def tokens(self) -> list[Token]:
        """The same words as `Token`s (what `tokenize` gives)."""
        return [
            _new_tuple(Token, (raw, low, stemmed, start, end, content))
            for raw, low, stemmed, (start, end), content in zip(
                self.raws, self.lows, self.stems, self.spans, self.content, strict=True
            )
        ]


_TOKEN = re.compile(r"\S+")
_ENTITY = re.compile(r"&(?:#[0-9]+|#[xX][0-9A-Fa-f]+|[A-Za-z][A-Za-z0-9]*);")
# ASCII spellings canonical() reads as other characters: a JSON "\\u" or Python "\\x"
# escape ("\\u006eot") and a backtick between letters, a lost apostrophe ("doesn`t").
_ASCII_DISGUISE = re.compile(r"\\(?:[uU][0-9A-Fa-f]{4}|x[0-9A-Fa-f]{2})|[A-Za-z]`[A-Za-z]")


def _fold_token(m: re.Match[str]) -> str:
    token = m.group(0)
    if token.isascii() and not _ENTITY.search(token) and not _ASCII_DISGUISE.search(token):
        return token
    plain = canonical(token)
    if len(plain) > len(token):
        return token  # an expansion ("…" is "..."): kept, offsets must not move
    return plain + " " * (len(token) - len(plain))


# A negation spelled so that no word reads as one (docs/spec.md §Canonical text): letter
# by letter with the same mark between ("n o t", "n.e.v.e.r", "i-s-n-t"), or with digits
# for letters ("n0t", "n3ver"). Three characters at least, so "A.I." or "a b" never
# qualify; the run is read as a negation only when it spells one, else left as written.
_SPELLED_RUN = re.compile(
    r"(?<![A-Za-z0-9'])[A-Za-z0-9]([ .\-_])[A-Za-z0-9](?:\1[A-Za-z0-9])+\.?(?![A-Za-z0-9])"
)
_MIXED_WORD = re.compile(
    r"(?<![A-Za-z0-9'])(?=[A-Za-z]*[0-9])(?=[0-9]*[A-Za-z])[A-Za-z0-9]{3,9}(?![A-Za-z0-9'])"
)
_LEET = str.maketrans("03457", "oeast")
_SPELLED_NEGATIONS = frozenset(w for w in NEGATIONS if "'" not in w and len(w) >= 3)


def _as_negation(m: re.Match[str]) -> str:
    """The negation a spelled run or a word of letters and digits spells, padded to the
    run's length; the run itself when it spells none ("1" is tried as "i" and as "l")."""
    run = m.group(0)
    letters = "".join(c for c in run.lower() if c.isalnum()).translate(_LEET)
    for reading in {letters.replace("1", "i"), letters.replace("1", "l")}:
        if reading in _SPELLED_NEGATIONS:
            return reading + " " * (len(run) - len(reading))
    return run


# Cheap tests that come first (measured ~0.8 and ~0.7 us on a 130-character claim, the
# patterns above ~1.8 us each): two single characters between marks, and a digit
# against a letter.
_RUN_HINT = re.compile(r"[ .\-_][0-9A-Za-z][ .\-_][0-9A-Za-z][ .\-_]")
_MIXED_HINT = re.compile(r"[0-9](?:(?<=[A-Za-z][0-9])|[A-Za-z])")


# The two hints on an ASCII text by one C-level translation each (session 16): every
# character read as its class, then a substring test. `_RUN_HINT`: a mark of `[ .\-_]`
# ("s"), a letter or digit ("a"), a mark, a letter or digit, a mark, the text padded with
# a space on both sides; `_MIXED_HINT`: a letter ("l") next to a digit ("d"). Each regex
# tried a match at every space or digit (~17,000 instructions for a 100-character claim).
_ASCII_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_ASCII_DIGITS = frozenset("0123456789")
_RUN_CLASSES = bytes(
    ord("s")
    if chr(c) in " .-_"
    else ord("a")
    if chr(c) in _ASCII_LETTERS | _ASCII_DIGITS
    else ord("o")
    for c in range(256)
)
_MIXED_CLASSES = bytes(
    ord("l") if chr(c) in _ASCII_LETTERS else ord("d") if chr(c) in _ASCII_DIGITS else ord("o")
    for c in range(256)
)


def _spelled_negations(text: str) -> str:
    if not text.isascii():
        if _RUN_HINT.search(f" {text} "):
            text = _SPELLED_RUN.sub(_as_negation, text)
        if _MIXED_HINT.search(text):
            text = _MIXED_WORD.sub(_as_negation, text)
        return text
    raw = text.encode()
    if b"sasas" in b"s" + raw.translate(_RUN_CLASSES) + b"s":  # `_RUN_HINT` on " text "
        text = _SPELLED_RUN.sub(_as_negation, text)  # ASCII in, ASCII out
        raw = text.encode()
    classes = raw.translate(_MIXED_CLASSES)
    if b"ld" in classes or b"dl" in classes:  # `_MIXED_HINT`
        text = _MIXED_WORD.sub(_as_negation, text)
    return text


@functools.lru_cache(maxsize=64)
def fold_disguises(text: str) -> str:
    """`text` as its words read, at the same offsets: each whitespace-separated token
    that is not plain ASCII (or holds an HTML character reference) becomes its canonical
    form (`guards/canonical.py`: lookalike letters folded, "’" read as "'", invisible
    characters and soft hyphens removed), padded with spaces to its own length. So
    "isn’t", "nоt" with a Cyrillic "о", "ｎｏｔ" and "n\u200bot" are the negation they
    show, and every word keeps the offset it has in the original (evidence spans point
    into the text as written). A token whose canonical form is longer stays as written.
    Then a negation spelled letter by letter or with digits ("n o t", "n0t") is read as
    that negation, padded to the same length (`_SPELLED_RUN`). Kept for the last few
    texts: a claim is folded by `features.analyze` and read again, folded, by
    `claim_words` (its own output, unchanged, is a cache hit)."""
    if not text.isascii() or "&" in text or "\\" in text or "`" in text:
        text = _TOKEN.sub(_fold_token, text)
    return _spelled_negations(text)


@functools.lru_cache(maxsize=8)
def claim_words(text: str) -> ClaimWords:
    """The words of `text` as columns (`ClaimWords`: what `tokenize` gives, without a
    tuple per word). Kept for the last few texts: the verifier reads a claim in
    `features.analyze` and, when it is PARTIAL, again in `rewrite.rewrite_partial`."""
    matches = list(WORD.finditer(fold_disguises(text)))
    if not matches:
        return ClaimWords((), (), (), (), (), ())
    raws = tuple(map(_GROUP, matches))
    lows, stems, content, numbers = zip(*parts_of(raws), strict=True)
    stems, numbers = read_decades(lows, stems, numbers)
    numbers = read_numerals(raws, lows, numbers)  # "IV replicas", "a pair of"
    return ClaimWords(raws, lows, stems, content, numbers, tuple(map(_SPAN, matches)))


def word_offsets(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """(start, end) of each word in `text[start:end]`, as offsets in `text`."""
    return list(map(_SPAN, WORD.finditer(text, start, end)))


# Clause boundaries: punctuation between two words, a dash between spaces, and the
# conjunctions that join clauses (the conjunction opens the new clause). A negation
# governs the clause it stands in (see `polarity.py`). Words never hold punctuation except
# inside a number ("1,200", "2.5"), so only the gaps between words are searched.
CONJUNCTIONS = frozenset(
    {
        *("and", "but", "or", "while", "whereas", "although", "though", "because"),
        *("however", "yet", "unless", "except"),
    }
)
# Coordinating conjunctions, and the auxiliaries and copulas a subject-less coordinated
# predicate starts with ("... and is not replicated"; `evidence.clause_stem_sets`).
COORDINATORS = frozenset(("and", "but", "or", "yet", "so"))
AUXILIARIES = frozenset(
    _words(
        """is are was were be been being am has have had does do did can could will would
        shall should may might must isn't aren't wasn't weren't hasn't haven't hadn't
        doesn't don't didn't can't couldn't won't wouldn't shouldn't"""
    )
)
# `[,;:.!?()\[\]"“”]|\s[-–—]+\s`, written to start with one character class (a mark or
# a space; the look-behinds tell which was read) so the engine scans ahead for it.
_GAP_BREAK = re.compile(r"[,;:.!?()\[\]\"“”\s](?:(?<=\s)[-–—]++\s|(?<!\s))")
# `_GAP_BREAK` as its two kinds of match, found apart (session 16): the marks by a
# pattern that is one character class without whitespace (the engine skips ahead to a
# mark; `_GAP_BREAK`'s first class holds whitespace, so a match was tried at every
# space), and a dash between spaces only where a dash is.
_GAP_MARK = re.compile(r"[,;:.!?()\[\]\"“”]")
_SPACED_DASH = re.compile(r"\s[-–—]++\s")


_START_OF = operator.itemgetter(0)


# The last words `clause_cuts` read and their cuts. One claim's clauses are asked for by
# several rules (the claim's clause split for polarity and assertion, then the denied
# predicates, slot swaps, added evaluations, ...), each with the same text and words: 143
# of the 332 calls of a warm pass over 200 dev claims repeated the call before. One entry,
# compared by value (the cuts depend on nothing else) and kept as tuples, so a caller's
# list changed later cannot answer for other words; copied out so no caller shares it.
_last_cuts: tuple[str, tuple[tuple[int, int], ...], tuple[str, ...], list[int]] | None = None


def clause_cuts(text: str, spans: Sequence[tuple[int, int]], lows: Sequence[str]) -> list[int]:
    """`_clause_cuts`, answered from the call before when it read the same words."""
    global _last_cuts
    spans = spans if type(spans) is tuple else tuple(spans)
    lows = lows if type(lows) is tuple else tuple(lows)
    last = _last_cuts
    if last is not None and last[0] == text and last[1] == spans and last[2] == lows:
        return list(last[3])
    cuts = _clause_cuts(text, spans, lows)
    _last_cuts = (text, spans, lows, cuts)
    return list(cuts)


def _clause_cuts(text: str, spans: Sequence[tuple[int, int]], lows: Sequence[str]) -> list[int]:
    """For each word (given the words' offsets in `text`, in order, and their lower-case
    forms), 1 (or True) when a new clause starts at it, else 0 (or False); 0 for the first.

    A clause starts at a conjunction, and at a word whose gap from the previous word holds
    a mark, unless that gap is the one mark joining two numbers ("2:34": a time or a
    ratio). Marks inside a word ("1,200") do not count. The per-word test is a C-level
    map; only the marks (far fewer than the words) are placed, by bisection."""
    if len(spans) != len(lows):
        raise ValueError("one lower-case form per word span")
    if not spans:
        return []
    cuts: list[int] = list(map(CONJUNCTIONS.__contains__, lows))
    cuts[0] = 0  # an int: the running sums of `clause_ids` are ints
    if len(spans) > 1:
        starts: list[int] = []
        for at in _gap_breaks(text, spans[0][1], spans[-1][0]):
            if not starts:
                starts = list(map(_START_OF, spans))
            k = bisect.bisect_right(starts, at)  # the first word after the mark (k >= 1)
            prev_end = spans[k - 1][1]
            if at < prev_end or cuts[k]:
                continue  # inside the previous word, or a cut already
            start = starts[k]
            if not (
                start - prev_end == 1 and text[start].isdigit() and text[prev_end - 1].isdigit()
            ):
                cuts[k] = 1
    return cuts


def _gap_breaks(text: str, a: int, b: int) -> list[int]:
    """The start of each match of `_GAP_BREAK` in `text[a:b]` (as `finditer(text, a, b)`
    gives them, not in order; `_clause_cuts` reads each on its own). The pattern matches a
    mark (one character of `_GAP_MARK`: its look-behind `(?<!\\s)` rejects the
    whitespace of its class) or whitespace, dashes and whitespace; the two never overlap
    (a mark is neither whitespace nor a dash), so each kind is found alone: the marks by
    `_GAP_MARK`, the spaced dashes by `_SPACED_DASH` where the text has a dash."""
    out = [m.start() for m in _GAP_MARK.finditer(text, a, b)]
    if "-" in text or "–" in text or "—" in text:  # some dash in the text at all
        out += [m.start() for m in _SPACED_DASH.finditer(text, a, b)]
    return out


def clause_ids(text: str, spans: Sequence[tuple[int, int]], lows: Sequence[str]) -> list[int]:
    """The clause number of each word, given the words' offsets in `text` (in order) and
    their lower-case forms (see `clause_cuts`)."""
    return list(itertools.accumulate(clause_cuts(text, spans, lows)))
