"""Disguised hedges read like plain ones (docs/spec.md §Canonical text, §Hedges).

For every trigger phrase of the hedge lexicon (expanded from the patterns of
`guards/hedge/lexicon.py` themselves, not from example claims), a variant that a reader
sees as the same words — whitespace runs of any kind between words, zero-width and bidi
characters inside words, confusable letters (Unicode's confusables data), case changes,
markdown/HTML markup around words, digits or symbols for letters, letters spelled apart,
hedge words cut apart by spaces — gets the same hedge action and category as the plain
phrase in the same sentence.

Two layers: a deterministic sweep gives every phrase a few seeded variants of each kind
and all kinds at once; a hypothesis property draws phrases and free combinations of the
generators (and shrinks a failure to its smallest variant).
"""

from __future__ import annotations

import json
import random
import unicodedata
import zlib
from collections.abc import Callable, Sequence
from importlib import resources
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from groundwire.guards.hedge import HedgeDetector
from groundwire.guards.hedge.lexicon import PATTERNS
from groundwire.guards.hedge.split import _splits
from groundwire.topics.vocab import HedgeAction, HedgeCategory

try:  # Python 3.11+: the regex parser is private but stable enough for a test
    import re._constants as sre_c
    import re._parser as sre_parse
except ImportError:  # pragma: no cover
    import sre_constants as sre_c  # type: ignore[no-redef]
    import sre_parse  # type: ignore[no-redef]

T = TypeVar("T")

# --- the lexicon's phrases -------------------------------------------------------------


def _alternatives(item: tuple[Any, Any]) -> list[str]:
    """Strings one regex item can match (a representative per character class)."""
    op, av = item
    if op is sre_c.LITERAL:
        return [chr(av)]
    if op in (sre_c.NOT_LITERAL, sre_c.ANY):
        return ["x"]
    if op is sre_c.IN:
        for kind, value in av:
            if kind is sre_c.LITERAL:
                return [chr(value)]
            if kind is sre_c.RANGE:
                return [chr(value[0])]
            if kind is sre_c.CATEGORY:
                return [_category(value)]
        return ["x"]
    if op is sre_c.CATEGORY:
        return [_category(av)]
    if op is sre_c.BRANCH:
        return [s for branch in av[1] for s in _expand(branch)]
    if op is sre_c.SUBPATTERN:
        return _expand(av[-1])
    if op in (sre_c.MAX_REPEAT, sre_c.MIN_REPEAT):
        low, _high, sub = av
        once = _expand(sub)
        return ["", *once] if low == 0 else [s * low for s in once]
    if op in (sre_c.AT, sre_c.ASSERT, sre_c.ASSERT_NOT):
        return [""]
    raise AssertionError(f"regex construct {op} not expected in the lexicon")


def _category(value: Any) -> str:
    return {sre_c.CATEGORY_DIGIT: "5", sre_c.CATEGORY_SPACE: " "}.get(value, "x")


def _expand(items: Any) -> list[str]:
    """A covering set, not the product: every alternative of every part appears in at
    least one string (the product of all optional parts would be millions)."""
    parts = [_alternatives(i) for i in items]
    n = max((len(p) for p in parts), default=1)
    return ["".join(p[i % len(p)] for p in parts) for i in range(n)]


def _lexicon_phrases() -> list[str]:
    phrases: dict[str, None] = {}
    for pattern in PATTERNS:
        for text in _expand(sre_parse.parse(pattern.regex.pattern)):
            phrase = " ".join(text.split())
            if phrase:
                phrases[phrase] = None
    return list(phrases)


PHRASES = _lexicon_phrases()
# The phrases of the notes that only close a claim, after a comma or a dash ("...,
# unverified.", "... - pending confirmation"): read in that place.
TRAILING = frozenset(
    " ".join(text.split())
    for pattern in PATTERNS
    if pattern.regex.pattern.startswith("(?:(?<=, )")
    for text in _expand(sre_parse.parse(pattern.regex.pattern))
)
TRAILING_FRAME = "The cache is rebuilt every night, {}."
FRAMES = ("{} the cache is rebuilt every night.", "Note: {} the queue drains before 6.")
DETECTOR = HedgeDetector()
# word -> the ways `guards/hedge/split.py` reads it back from pieces (session 10)
SPLITS: dict[str, list[tuple[str, ...]]] = {}
for _head, _rests in _splits().items():
    for _rest in _rests:
        _pieces = tuple(p.decode() for p in (_head, *_rest))
        SPLITS.setdefault("".join(_pieces), []).append(_pieces)
for _cuts in SPLITS.values():
    _cuts.sort()

# --- the generators -------------------------------------------------------------------

SPACES = [" ", "  ", "\t", "\n", "\r\n", " \t ", "\u00a0", "\u2009", "\u202f", "\u3000", "\u2002"]
INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u200e", "\u202e"]
INVISIBLE += ["\u2066", "\u2069", "\u180e", "\ufe0f", "\U000e0041"]
MARKUP = [
    ("**", "**"),
    ("*", "*"),
    ("_", "_"),
    ("__", "__"),
    ("`", "`"),
    ("~~", "~~"),
    ("<b>", "</b>"),
    ("<em>", "</em>"),
    ('<span class="x">', "</span>"),
    ("<code>", "</code>"),
]
APOSTROPHES = ["\u2019", "\u02bc", "\u2032", "\uff07", "\u00b4"]


def _homoglyphs() -> dict[str, list[str]]:
    """ASCII letter -> non-ASCII letters of the same case that Unicode's confusables data
    gives that letter as prototype ("I" has the prototype "l"). Letters whose NFKC form
    is another ASCII letter are left out: NFKC comes first and is authoritative."""
    data = json.loads(
        resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8")
    )
    table: dict[str, list[str]] = {}
    for letter in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ":
        prototype = "l" if letter == "I" else letter
        case = unicodedata.category(letter)
        found = []
        for entry in data.get(prototype, []):
            char = entry["c"]
            if len(char) != 1 or char.isascii() or unicodedata.category(char) != case:
                continue
            nfkc = unicodedata.normalize("NFKC", char)
            if nfkc.isascii() and nfkc.lower() != letter.lower():
                continue
            found.append(char)
        if found:
            table[letter] = found
    return table


HOMOGLYPHS = _homoglyphs()


class Chooser:
    """What the generators need: seeded `random` for the sweep, hypothesis for the property."""

    def __init__(self, choice: Callable[[Sequence[Any]], Any], chance: Callable[[float], bool]):
        self.choice = choice
        self.chance = chance


def _random_chooser(seed: int) -> Chooser:
    rng = random.Random(seed)
    return Chooser(rng.choice, lambda p: rng.random() < p)


def _case(word: str, c: Chooser) -> str:
    style = c.choice(["upper", "lower", "title", "swap", "mixed"])
    if style == "upper":
        return word.upper()
    if style == "lower":
        return word.lower()
    if style == "title":
        return word.title()
    if style == "swap":
        return word.swapcase()
    return "".join(ch.upper() if c.chance(0.5) else ch.lower() for ch in word)


def _confusable(word: str, c: Chooser) -> str:
    out = []
    for ch in word:
        if ch in HOMOGLYPHS and c.chance(0.5):
            out.append(c.choice(HOMOGLYPHS[ch]))
        elif ch == "'" and c.chance(0.7):
            out.append(c.choice(APOSTROPHES))
        else:
            out.append(ch)
    return "".join(out)


def _invisible(word: str, c: Chooser) -> str:
    if len(word) < 2:
        if not c.chance(0.3):
            return word
        char = c.choice(INVISIBLE)
        return word + ("\u200b" if char == "\u202e" else char)  # (see below)
    at = c.choice(range(1, len(word)))
    char = c.choice(INVISIBLE)
    if char == "\u202e" and not (word[at - 1].isalnum() and word[at].isalnum()):
        # Session 14: a right-to-left override is drawn, not invisible; only inside a word
        # of letters and digits does the stored order decide (`detector._OVERRIDE_BETWEEN_
        # WORDS`). After a mark ("perhaps ~\u202e.55 the cache ...") it shows "perhaps"
        # with no number after it, a stricter reading that counts (test_disguise_reading_
        # order: "Perhaps ~\u202e5 si ti" shows "Perhaps ~it is 5").
        char = "\u200b"
    return word[:at] + char + word[at:]


def _markup(word: str, c: Chooser) -> str:
    left, right = c.choice(MARKUP)
    return f"{left}{word}{right}"


# Digits for the letters they look like (the usual substitutions, not the detector's map).
LEET = {"o": "0", "i": "1", "l": "1", "e": "3", "a": "4", "s": "5", "t": "7", "b": "8", "g": "9"}


def _digits(word: str, c: Chooser) -> str:
    """One or two letters of a word as digits, as the detector reads them back: in a
    word of three characters or more that keeps two letters, "1" for one of "i" and "l"
    only (a "1" is read one way per word), never after a hyphen (a compound's parts are
    words of their own). The detector reads a word back only into a lexicon word, so not
    the stand-ins for an open word class ("xly": `_alternatives`)."""
    if "-" in word or word.lower().startswith("x") or any(ch.isdigit() for ch in word):
        return word  # nor in a stand-in for an open word class, nor in a number ("5ish")
    for _ in range(c.choice([1, 2])):
        spots = [i for i, ch in enumerate(word) if ch.lower() in LEET]
        if "1" in word:
            spots = [i for i in spots if LEET[word[i].lower()] != "1"]
        if len(word) < 3 or not spots or sum(ch.isalpha() for ch in word) <= 2:
            return word
        at = c.choice(spots)
        word = word[:at] + LEET[word[at].lower()] + word[at + 1 :]
    return word


def _spelled(word: str, c: Chooser) -> str:
    """A word of three letters or more spelled out: "t h i n k", "t.h.i.n.k", "t-h-i-n-k".
    Not the stand-ins for an open word class ("x", "xly", "xed": `_alternatives`): spaced
    out next to other spaced words, an arbitrary word's end cannot be told, and the
    detector rebuilds only lexicon words from a spaced run."""
    if len(word) < 3 or not word.isalpha() or word.lower().startswith("x"):
        return word  # a number with a suffix ("5ish") is not a word spelled out
    return c.choice([" ", ".", "-"]).join(word)


# Symbols for the letters they look like (session 10).
SYMBOLS = {"a": "@", "s": "$", "i": "!", "l": "|"}


def _symbols(word: str, c: Chooser) -> str:
    """One letter of a word as a symbol ("m@ybe", "th!nk", "po$sibly"), as the detector
    reads them back: inside a word of three letters or more that keeps two letters, or
    first only for "@" and "$"; not in words with digits, apostrophes or hyphens, nor in
    the stand-ins for an open word class."""
    if len(word) < 3 or not word.isalpha() or word.lower().startswith("x"):
        return word
    spots = [
        i
        for i, ch in enumerate(word)
        if ch.lower() in SYMBOLS and (i > 0 or SYMBOLS[ch.lower()] in "@$")
    ]
    if not spots:
        return word
    at = c.choice(spots)
    return word[:at] + SYMBOLS[word[at].lower()] + word[at + 1 :]


def _split(word: str, c: Chooser) -> str:
    """A hedge word that `guards/hedge/split.py` reads back, cut into two or three pieces
    by spaces as that module allows ("th ink", "pro bab ly"); other words unchanged."""
    if not word.isascii() or not word.isalpha():
        return word
    cuts = SPLITS.get(word.lower())
    if not cuts:
        return word
    out, at = [], 0
    for piece in c.choice(cuts):
        out.append(word[at : at + len(piece)])
        at += len(piece)
    return " ".join(out)


WORD_GENERATORS: dict[str, Callable[[str, Chooser], str]] = {
    "case": _case,
    "digits": _digits,
    "spelled": _spelled,
    "confusable": _confusable,
    "invisible": _invisible,
    "markup": _markup,
    "symbols": _symbols,
    "split": _split,
}


KINDS = [*WORD_GENERATORS, "whitespace"]


def variant(phrase: str, c: Chooser, kinds: Sequence[str]) -> str:
    """The phrase with the chosen kinds of disguise applied to some of its words and to
    the whitespace between them."""
    words = phrase.split(" ")
    out = []
    # Case first: a lookalike is chosen for the letter as it is then written (the upper
    # case of a lookalike of "s" is not, in the data, a lookalike of "S").
    ordered = [k for k in WORD_GENERATORS if k in kinds]
    # A spaced-out word next to a one-letter word takes it in ("m a n y x"): the stand-in
    # "x" for an open word class would then hide the real word's boundaries.
    if "x" in words:
        ordered = [k for k in ordered if k != "spelled"]
    # Symbols and digits in one word are read back together, but a cut word's pieces are
    # looked up as written: a word is cut only when nothing else bent it.
    if "split" in ordered:
        ordered = ["split", *[k for k in ordered if k != "split"]]
    for word in words:
        for kind in ordered:
            if " " in word:
                break  # cut into pieces: nothing more on it
            if c.chance(0.6):
                word = WORD_GENERATORS[kind](word, c)
        out.append(word)
    if "whitespace" in kinds:
        seps = [c.choice(SPACES) for _ in range(len(out) - 1)]
        text = "".join(w + s for w, s in zip(out, [*seps, ""], strict=True))
    else:
        text = " ".join(out)
    if "markup" in kinds and c.chance(0.2):
        text = _markup(text, c)  # around the whole phrase too
    return text


def outcome(text: str) -> tuple[HedgeAction, HedgeCategory | None]:
    report = DETECTOR.analyze(text)
    return report.action, report.category


def _embed(frame: str, phrase: str, sep: str = " ") -> str:
    before, after = frame.split("{}")
    return before.rstrip(" ") + (sep if before else "") + phrase + sep + after.lstrip(" ")


# --- the tests ------------------------------------------------------------------------


def test_the_phrases_are_the_lexicons_and_nearly_all_of_them_hedge() -> None:
    assert len(PHRASES) > 500
    plain = [
        outcome((TRAILING_FRAME if p in TRAILING else FRAMES[0]).format(p))[0] for p in PHRASES
    ]
    flagged = sum(a is not HedgeAction.NONE for a in plain)
    # What does not flag is "or two" without a quantity before it (by design).
    assert flagged >= len(PHRASES) - 20, flagged


def test_the_generators_do_disguise() -> None:
    c = _random_chooser(0)
    assert any(ch in HOMOGLYPHS for ch in "aeiocpxy")
    assert HOMOGLYPHS["a"] and HOMOGLYPHS["I"], "Cyrillic/Greek lookalikes are in the data"
    samples = {variant("i don't know", c, KINDS) for _ in range(50)}
    assert len(samples) > 40
    assert any(not s.isascii() for s in samples)


@pytest.mark.parametrize("kinds", [[k] for k in KINDS] + [KINDS], ids=[*KINDS, "all"])
def test_every_phrase_survives_each_kind_of_disguise(kinds: list[str]) -> None:
    failures = []
    for i, phrase in enumerate(PHRASES):
        c = _random_chooser(zlib.crc32(f"{i}:{kinds}".encode()))
        frame = FRAMES[i % len(FRAMES)]
        expected = outcome(_embed(frame, phrase))
        for _ in range(4):
            disguised = variant(phrase, c, kinds)
            sep = c.choice(SPACES) if "whitespace" in kinds else " "
            got = outcome(_embed(frame, disguised, sep))
            if got != expected:
                failures.append((phrase, disguised, expected, got))
    assert not failures, failures[:10]


@st.composite
def _disguised(draw: st.DrawFn) -> tuple[str, str, str]:
    phrase = draw(st.sampled_from(PHRASES))
    frame = draw(st.sampled_from(FRAMES))
    kinds = draw(st.lists(st.sampled_from(KINDS), min_size=1, max_size=len(KINDS), unique=True))

    def choice(options: Sequence[T]) -> T:
        return draw(st.sampled_from(list(options)))

    def chance(p: float) -> bool:
        return draw(st.booleans())

    c = Chooser(choice, chance)
    sep = c.choice(SPACES) if "whitespace" in kinds else " "
    return phrase, frame, _embed(frame, variant(phrase, c, kinds), sep)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_disguised())
def test_a_disguised_phrase_gets_the_plain_phrases_outcome(case: tuple[str, str, str]) -> None:
    phrase, frame, disguised = case
    assert outcome(disguised) == outcome(_embed(frame, phrase)), disguised


def test_an_override_inside_a_word_does_not_recategorise_it() -> None:
    # found by the property above: drawn, "may\u202ebe 5 ..." shows a bare "may" (a
    # technical hedge) where the text as written is an approximation; what is shown may
    # make a claim stricter, never merely other
    plain = outcome("maybe 5 the cache is rebuilt every night.")
    assert outcome("may\u202ebe 5 the cache is rebuilt every night.") == plain
    # control: an override that hides a stricter hedge still brings it out
    assert outcome("\u202ekniht I the cache is rebuilt every night.") == outcome(
        "I think the cache is rebuilt every night."
    )
