"""Hedge words spelled so that a word pattern cannot see them.

The canonical text (`guards/canonical.py`) undoes what a reader does not see: invisible
characters, lookalike letters, markup. Two disguises stay visible and still read as the
word to a person, so they were a way past every hedge pattern:

* **letter by letter**: "p r o b a b l y", "p.r.o.b.a.b.l.y", "P-e-r-h-a-p-s",
  "I t h i n k" (spaced out, the letters of several words run together);
* **digits for letters**: "pr0bably", "m4ybe", "poss1bly", "d0n't kn0w".

Three more keep the word whole but bent:

* **stretched**: "maaaybe", "perrrhaps", "probablyyy" (a letter three times or more);
* **cut**: "prob-ably", "may.be", "per*haps" (pieces that join into a lexicon word);
* **misspelled** by one letter: "probaly", "possibily", "perhap", "mayb", "prehaps" (one
  letter left out, added, changed or two swapped, in a hedge adverb of the lexicon; the
  word keeps the adverb's first letter and its last two, or is the adverb without its
  last letter, so "possible" and "probable" stay what they are).

`respell` turns all of them back into words before the patterns run. A run of single
characters inside one word ("p.r.o.b", "l-e-a-d") is that word; a spaced run is split into
the lexicon words it spells ("i t h i n k" -> "i think") or left alone when it spells none
(where its words end cannot be told); a word of letters and digits becomes the lexicon
word it spells with its digits read as letters ("pr0bably" -> "probably") or stays as
written. So versions ("v1.2.3"), "MP3", "3rd", "b2b" or a list "a b c" never change, and
initials ("J.R.R.") become one word that no pattern reads. `needs_respelling` is the
cheap test the detector runs on every claim.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Sequence
from typing import NamedTuple

from groundwire.guards.hedge import dialect
from groundwire.guards.hedge.fronting import needs_unfronting, unfront
from groundwire.guards.hedge.lexicon import PATTERNS, TRIGGER_WORDS, byte_words

__all__ = ["TYPO_TARGETS", "lexicon", "needs_respelling", "respell"]

# At least three single letters or digits in a row with one separator, the same each
# time: ".", "-" or "_" inside a word ("p.r.o.b", "P-e-r"), or a space ("p r o b", which
# may run several words together). Three, so that "a I" or "A.I." is never a spelled
# word. The punctuated runs are joined first; a spaced run neither starts at the end of
# one nor takes in the first letter of one ("t h e y c-a-n").
_PUNCTUATED = re.compile(
    r"(?<![A-Za-z0-9'])[A-Za-z0-9]([.\-_]{1,3})[A-Za-z0-9](?:\1[A-Za-z0-9])+(?![A-Za-z0-9])"
)
_SPACED = re.compile(
    r"(?<![A-Za-z0-9'])(?<![A-Za-z0-9][.\-_])[A-Za-z0-9]"
    r"(?: [A-Za-z0-9](?![.\-_@$!|][A-Za-z0-9])){2,}(?![A-Za-z0-9])"
)
# Session 10: runs whose separator is "/" or "|", or ".", "-", "/", "|" and a space
# ("p/r/o/b/a/b/l/y", "p. r. o. b. a. b. l. y"): joined only into the lexicon words they
# spell, as a spaced run is ("J. R. R." and "a/b/c" stay as written). Session 13: any one
# punctuation mark or symbol, the same each time, with or without a space after it
# ("p+r+o+b", "p~r~o~b", "p=r=o=b", "p•r•o•b", "p, r, o, b"; "1+2+3" and "a, b, c" spell
# no lexicon word and stay).
_MARKED = re.compile(
    r"(?<![A-Za-z0-9'])[A-Za-z0-9]([^\w\s'] ?)[A-Za-z0-9](?:\1[A-Za-z0-9])+(?![A-Za-z0-9])"
)
# Symbols for letters, inside a word ("m@ybe", "th!nk", "po$$ibly", "prob4b|y"): the
# cheap test (a symbol after a letter or digit and before another or a symbol), the
# words, and what each symbol reads as ("|" is tried as "l" and as "i").
# (or "@" / "$" first, before two letters: "@llegedly", "$upposedly"; or "@", "$", "|"
# last, after two letters or a letter and an apostrophe: "perhap$", "let'$")
_SYMBOL_HINT = re.compile(
    r"[@$!|](?:(?<=[a-z0-9'][@$!|])(?=[a-z0-9@$!|])|(?<![a-z0-9])(?<=[@$])(?=[a-z]{2})"
    r"|(?<=[a-z][a-z'][@$|])(?![a-z0-9]))"
)
_SYMBOLIC = re.compile(r"(?<![A-Za-z0-9'@$!|])[A-Za-z0-9'@$!|]*[A-Za-z0-9'@$|](?![A-Za-z0-9'@$|])")
_SYMBOL_LETTERS = str.maketrans({"@": "a", "$": "s", "!": "i"})
_ALNUM = re.compile(r"[A-Za-z0-9]")
# A digit with a letter or an apostrophe before or after it ("don'7", "1've"): the
# cheap test for `_MIXED`. It starts with the digit class, so the engine skips to the next
# digit instead of trying every position (`[a-z][0-9]|[0-9][a-z]` was measured 4x slower).
_MIXED_HINT = re.compile(r"[0-9](?:(?<=[a-z'][0-9])|[a-z'])")
# A word (apostrophes inside) of letters and digits with at least one of each.
_MIXED = re.compile(r"(?<![A-Za-z0-9'])(?=[0-9']*[A-Za-z])(?=[A-Za-z']*[0-9])[A-Za-z0-9']{2,}")
# The digits that stand for letters; "1" is an "i" or an "l" (`_ONE`), and both are tried.
_LEET = {"0": "o", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "9": "g"}
_ONE = ("i", "l")
_CLITICS = frozenset(("s", "d", "ll", "ve", "re", "m", "t"))
_MAX_ONES = 3  # beyond this many "1"s in a word, the readings are not all tried
_MIN_MIXED = 3  # shorter words of letters and digits are names and units, not disguises
_MAX_WORD = 24  # no lexicon word is longer: bounds the segmentation
_MAX_RUN = 200  # a longer run of single characters is not a spelled word (nor cheap)
_THREE_SINGLES = b"\x01\x01\x01"


@functools.lru_cache(maxsize=1)
def _lexicon() -> frozenset[str]:
    """Every word the hedge patterns are written with (their trigger words included);
    built on the first claim that needs it."""
    words: set[str] = {"i", "a", *(w.decode() for w in TRIGGER_WORDS)}
    for pattern in PATTERNS:
        # the regex's literal words: letters not right after a backslash ("\b", "\w")
        source = pattern.regex.pattern
        words.update(re.findall(r"(?<![\\a-z'])[a-z][a-z']+", source))
        words.update(re.findall(r"(?<![\\a-z'])([a-z][a-z']+)s\?", source))  # "leads?"
        words.update(pattern.words)
    return frozenset(w.strip("'") for w in words)


# The hedge adverbs whose one-letter misspellings are read as them.
_TYPO_TARGETS = (
    *("probably", "possibly", "perhaps", "maybe", "presumably", "apparently", "supposedly"),
    *("allegedly", "reportedly", "seemingly", "conceivably", "potentially"),
    # Session 10: the attitude verbs of five letters or more whose one-letter misspellings
    # keeping the first and last two letters are no English word ("belive", "beleive",
    # "supose", "asume", "suspct", "gues"); not "think" ("thank", "thing" are words), not
    # "reckon" ("recon").
    *("believe", "suppose", "assume", "suspect", "guess"),
)
# Session 14: the words whose eye-dialect spellings are read back (`dialect.py`): the
# targets above and the attitude verbs and adjectives they leave out ("think", "reckon",
# "likely", "unsure"), whose respellings by sound are no English words either.
_SOUND_TARGETS = tuple(dict.fromkeys((*_TYPO_TARGETS, "think", "reckon", "likely", "unsure")))
# Public names for `split.py`, which reads words cut in two back into the same words.
TYPO_TARGETS = _TYPO_TARGETS
lexicon = _lexicon
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
# a letter three times in a row; letters on both sides of ".", "-", "*", "_" or "·"
_STRETCH_HINT = re.compile(r"([a-z])\1\1")
_A, _Z = ord("a"), ord("z")


def _tripled(lower: str) -> bool:
    """Whether `_STRETCH_HINT` finds a letter three times in a row in `lower` (session 16).

    The pattern tries a match at every lower-case letter (~19,000 instructions for a
    100-character claim); for an ASCII text the same answer comes from C-level integer
    and bytes operations: XOR-ing the text's bytes with themselves shifted by one leaves a
    zero byte wherever a character equals the one before, so two zero bytes in a row at
    `k` are three equal characters ending at `k + 1`, a triple of `_STRETCH_HINT` when
    that character is a lower-case ASCII letter (the only characters its class holds).
    Other text: the regex."""
    if not lower.isascii():
        return _STRETCH_HINT.search(lower) is not None
    n = len(lower)
    if n < 3:
        return False
    raw = lower.encode()
    value = int.from_bytes(raw, "big")
    # byte k of `same` (k >= 1) is zero where raw[k] == raw[k - 1]; byte 0 is raw[0]
    same = (value ^ (value >> 8)).to_bytes(n, "big")
    at = same.find(b"\0\0")
    while at >= 0:
        if _A <= raw[at] <= _Z:  # raw[at - 1] == raw[at] == raw[at + 1] (or a NUL at 0)
            return True
        at = same.find(b"\0\0", at + 1)
    return False


_STRETCHED = re.compile(r"(?<![A-Za-z])[A-Za-z]*([A-Za-z])\1\1[A-Za-z]*(?![A-Za-z])")
# (written to start with the mark class, so the engine skips ahead to the next mark)
# (a run of up to three marks too: "per--haps", "prob__ably")
_CUT_HINT = re.compile(r"[-.*_\u00b7](?<=[a-z].)(?=[-.*_\u00b7]{0,2}[a-z])")
# `_MIXED_HINT` or `_CUT_HINT`, in one pass (both start with a character class)
_MARK_HINT = re.compile(
    r"[-.*_\u00b70-9](?:(?<=[a-z][-.*_\u00b7])(?=[-.*_\u00b7]{0,2}[a-z])|(?<=[a-z'][0-9])"
    r"|(?<=[0-9])[a-z'])"
)
_CUT = re.compile(r"(?<![A-Za-z0-9])[A-Za-z]+(?:[-.*_\u00b7]{1,3}[A-Za-z]+)+(?![A-Za-z0-9])")
_CUT_MARKS = str.maketrans("", "", "-.*_\u00b7")
_CUT_SPLIT = re.compile(r"[-.*_\u00b7]+")
_RUN = re.compile(r"([A-Za-z])\1{2,}")
_MAX_RUNS = 3  # a word with more stretched runs is read with each run as one letter


def _near(word: str) -> set[str]:
    """Every string one edit from `word` (a letter left out, added, changed, or two
    neighbours swapped)."""
    out: set[str] = set()
    n = len(word)
    for i in range(n + 1):
        out.update(word[:i] + c + word[i:] for c in _LETTERS)
        if i < n:
            out.add(word[:i] + word[i + 1 :])
            out.update(word[:i] + c + word[i + 1 :] for c in _LETTERS)
        if i < n - 1:
            out.add(word[:i] + word[i + 1] + word[i] + word[i + 2 :])
    return out


@functools.lru_cache(maxsize=1)
def _typos() -> dict[bytes, str]:
    """Misspelling (as bytes, what `lexicon.byte_words` yields) -> the adverb it stands
    for: one edit away, the same first letter and last two letters (or the adverb without
    its last letter), and no lexicon word itself."""
    vocabulary = _lexicon()
    out: dict[bytes, str] = {}
    for target in _TYPO_TARGETS:
        for near in _near(target):
            keeps = near[:1] == target[:1] and (near[-2:] == target[-2:] or near == target[:-1])
            if keeps and near != target and near not in vocabulary and len(near) >= 4:
                out[near.encode()] = target
    return out


# Session 13: eye-dialect spellings, a contraction apostrophe for letters left out inside
# a hedge word of `_TYPO_TARGETS` ("prob'ly", "poss'bly", "s'pose", "p'haps"). An elided
# form keeps the word's start and its last two letters or more, so its tail is never a
# clitic ("'s", "'ll", "'ve", ...); one that two targets share is left as written.
_ELISION = re.compile(r"(?<![A-Za-z'])[A-Za-z]+'[A-Za-z]{2,}(?![A-Za-z'])")
_MIN_ELIDED_TAIL = 2


@functools.lru_cache(maxsize=1)
def _elisions() -> dict[str, str]:
    """Elided form ("prob'ly") -> the hedge word it stands for ("probably"): every
    contiguous run of letters of a target replaced by one apostrophe, keeping at least
    its first letter and its last two, and no clitic as the tail."""
    out: dict[str, str] = {}
    shared: set[str] = set()
    for target in _TYPO_TARGETS:
        n = len(target)
        for cut in range(1, n - _MIN_ELIDED_TAIL):
            for resume in range(cut + 1, n - _MIN_ELIDED_TAIL + 1):
                tail = target[resume:]
                if tail in _CLITICS:
                    continue
                form = f"{target[:cut]}'{tail}"
                if out.get(form, target) != target:
                    shared.add(form)
                out[form] = target
    for form in shared:
        del out[form]
    return out


def _elided(lower: str) -> list[str]:
    """The eye-dialect hedge spellings in `lower` (each word with an apostrophe inside
    is looked up once: linear in the text)."""
    if "'" not in lower:
        return []
    table = _elisions()
    return [m.group(0) for m in _ELISION.finditer(lower) if m.group(0) in table]


def _three_singles(words: Sequence[bytes]) -> bool:
    """Three one-character words in a row (a spelled run), by one C-level search."""
    try:
        lengths = bytes(map(len, words))
    except ValueError:  # a word of 256 bytes or more
        lengths = bytes(min(len(w), 255) for w in words)
    return _THREE_SINGLES in lengths


class _Disguises(NamedTuple):
    """Which disguises a text may hold (`_disguises`): each pass of `respell` runs only
    when its own test says so."""

    runs: bool  # three one-character words in a row: a spelled word
    mixed: bool  # a digit next to a letter: "pr0bably"
    symbols: bool  # a symbol for a letter: "m@ybe"
    stretched: bool
    cut: bool
    misspelled: list[bytes]
    elided: list[str]
    sounded: dict[str, str]  # eye dialect ("mebbe") -> the hedge word (`dialect.py`)


def _sounded(words: Sequence[bytes], lower: str = "") -> dict[str, str]:
    """The claim's words that are a hedge word respelled by sound (`dialect.py`), with
    the word each stands for; {} after one set test for nearly every claim."""
    if not dialect.candidates(words, _SOUND_TARGETS, lower):
        return {}
    lexicon = _lexicon()
    out: dict[str, str] = {}
    for word in {w.decode() for w in words}:
        target = dialect.reading(word, _SOUND_TARGETS, lexicon)
        if target is not None:
            out[word] = target
    return out


def _has_symbol(lower: str) -> bool:
    """A symbol standing for a letter: four substring tests first (the regex, which
    starts with a character class, is tried at every character)."""
    return ("@" in lower or "$" in lower or "!" in lower or "|" in lower) and (
        _SYMBOL_HINT.search(lower) is not None
    )


def _disguises(lower: str, words: Sequence[bytes]) -> _Disguises:
    """Which disguises `lower` may hold: spelled runs, digit- or symbol-spelled words,
    stretched words, cut words, and the misspelled hedge words among `words`."""
    typos = _typos()
    return _Disguises(
        runs=_three_singles(words),
        mixed=_MIXED_HINT.search(lower) is not None,
        symbols=_has_symbol(lower),
        stretched=_STRETCH_HINT.search(lower) is not None,
        cut=_CUT_HINT.search(lower) is not None,
        misspelled=[] if typos.keys().isdisjoint(words) else [w for w in words if w in typos],
        elided=_elided(lower),
        sounded=_sounded(words, lower),
    )


def needs_respelling(lower: str, words: Sequence[bytes]) -> bool:
    """Whether `lower` (the lower-cased text) may hold a spelled-out, digit-spelled,
    stretched, cut or misspelled hedge word. `words`: its words as `lexicon.byte_words`
    gives them (split at spaces and punctuation), which the detector has anyway: a
    spelled run is three one-character words in a row. Runs on every claim: the digit
    and the mark tests are one regex pass (`_MARK_HINT`), the rest set operations."""
    return (
        _three_singles(words)
        or _MARK_HINT.search(lower) is not None
        or not _typos().keys().isdisjoint(words)
        or _tripled(lower)
        or _has_symbol(lower)
        or bool(_elided(lower))
        or bool(_sounded(words, lower))
        or needs_unfronting(lower)
    )


def respell(text: str) -> str:
    """`text` with hedge words spelled letter by letter or with digits, stretched, cut or
    misspelled made plain words (see the module docstring); text with none of these
    comes back as it was. Each pass runs only when its cheap test says it may apply."""
    lower = text.lower()
    found = _disguises(lower, byte_words(lower))
    vocabulary = _lexicon()
    # symbols first: "s o u r c e s c|aim" is a spelled word, then "claim"
    if found.symbols:
        text = _SYMBOLIC.sub(functools.partial(_unsymbol, vocabulary), text)
    if found.runs:
        text = _join_runs(_PUNCTUATED, text, vocabulary, whole=True)
        text = _join_runs(_SPACED, text, vocabulary, whole=False)
        text = _join_runs(_MARKED, text, vocabulary, whole=False)
    if found.runs or found.mixed:
        text = _MIXED.sub(functools.partial(_unleet, vocabulary), text)
    if found.stretched:
        text = _STRETCHED.sub(functools.partial(_unstretch, vocabulary), text)
    if found.cut:
        text = _CUT.sub(functools.partial(_uncut, vocabulary), text)
    misspelled = found.misspelled
    if misspelled:
        typos = _typos()
        words = "|".join(sorted({w.decode() for w in misspelled}))
        pattern = re.compile(rf"(?<![A-Za-z])(?:{words})(?![A-Za-z])", re.IGNORECASE)
        text = pattern.sub(functools.partial(_untypo, typos), text)
    if found.elided:
        table = _elisions()
        text = _ELISION.sub(lambda m: table.get(m.group(0).lower(), m.group(0)), text)
    if found.sounded:
        sounded = found.sounded
        words = "|".join(sorted(sounded))
        pattern = re.compile(rf"(?<![A-Za-z0-9'])(?:{words})(?![A-Za-z0-9'])", re.IGNORECASE)
        text = pattern.sub(functools.partial(_unsound, sounded), text)
    if needs_unfronting(lower):  # "I fink we ...": `fronting.py` (session 15)
        text = unfront(text)
    return text


# Where a sentence starts: the text's start, or after ".", "!" or "?" (and any closing
# quote or bracket) and a space, with opening quotes or brackets before the word.
_SENTENCE_START = re.compile(r"(?:^|[.!?][\"')\]]*\s+)[\"'(\[]*$")
# the word right before a match, across a space (a title's full stop allowed: "Dr. Mabe")
_PREVIOUS_WORD = re.compile(r"([A-Za-z][\w'-]*)\.?\s+$")
# titles written before a name (a closed class of English)
_TITLES = frozenset(("dr", "mr", "mrs", "ms", "mx", "prof", "sir", "dame", "rev", "fr", "st"))
# right after the word, a clause starts: a pronoun that is only ever a subject (after a
# comma too), or a determiner opening the clause's subject ("Mr. Mayb the cache runs")
_SUBJECT_NEXT = re.compile(
    r"(?:,?\s+(?:I|we|they|he|she)|\s+(?:the|our|my|their|this|these|those))\b", re.IGNORECASE
)


def _written_as_name(m: re.Match[str]) -> bool:
    """Whether the matched word is written as a name: capitalised (not all capitals),
    inside a sentence, right after another capitalised word, a title or a given name
    ("Ms Mabey", "Tom Mabe"). Capitals alone are not enough: "The cache is Probaly
    Redis" would pass a hedge by writing it with a capital, so a lone capitalised word
    ("said Mabe") is still read as the hedge it spells. At a sentence's start ("Mebbe we
    ...") or in capitals ("MEBBE") it is the word too. Shared by the one-edit
    misspellings (`_untypo`) and eye dialect (`_unsound`), so a name one letter from a
    hedge word is read alike by both."""
    word = m.group(0)
    if not word[:1].isupper() or word.isupper():
        return False
    text = m.string
    # session 15: a clause of its own right after it ("Dr. Mabe we use Redis", "Mr. Mayb
    # the cache runs on Redis"): the word is an adverb before that clause's subject; a
    # name there would be the subject itself, or set off by a comma
    if _SUBJECT_NEXT.match(text, m.end()) is not None:
        return False
    prev = _PREVIOUS_WORD.search(text, max(0, m.start() - 40), m.start())
    # session 15: after a title ("Dr. Mabe"), whose full stop is no sentence's end
    if prev is not None and prev.group(1).lower() in _TITLES:
        return True
    before = text[max(0, m.start() - 8) : m.start()]
    if _SENTENCE_START.search(before) is not None:
        return False
    return prev is not None and prev.group(1)[:1].isupper() and not prev.group(1).isupper()


def _untypo(typos: dict[bytes, str], m: re.Match[str]) -> str:
    """A one-edit misspelling of a hedge adverb as the adverb, except when it is written
    as a name ("Tom Mabe": `_written_as_name`)."""
    word = m.group(0)
    return word if _written_as_name(m) else typos[word.lower().encode()]


def _unsound(sounded: dict[str, str], m: re.Match[str]) -> str:
    """An eye-dialect word as the hedge word it stands for, except a capitalised one
    inside a sentence: that is a name ("Mr Mabey", "Mabe"), read as written. At a
    sentence's start ("Mebbe we ...") or in capitals ("MEBBE") it is still the word."""
    word = m.group(0)
    return word if _written_as_name(m) else sounded[word.lower()]


def _unstretch(vocabulary: frozenset[str], m: re.Match[str]) -> str:
    """A word with a letter three times or more: the lexicon word it makes with each such
    run cut to one or two letters, else the word as written ("Zzz", "brrr")."""
    word = m.group(0)
    runs = list(_RUN.finditer(word))
    if len(runs) > _MAX_RUNS:
        return word
    for lengths in itertools.product((1, 2), repeat=len(runs)):
        parts: list[str] = []
        at = 0
        for run, keep in zip(runs, lengths, strict=True):
            parts += (word[at : run.start()], run.group(1) * keep)
            at = run.end()
        parts.append(word[at:])
        option = "".join(parts)
        if option.lower() in vocabulary:
            return option
    return word


def _uncut(vocabulary: frozenset[str], m: re.Match[str]) -> str:
    """Pieces joined by marks: the lexicon word they make together ("prob-ably"), else
    as written ("on-call", "e.g"). Pieces that are lexicon words themselves stay apart
    ("to-do" is not "todo") unless they make a hedge adverb ("may.be")."""
    written = m.group(0)
    joined = written.translate(_CUT_MARKS)
    low = joined.lower()
    if low not in vocabulary:
        return written
    pieces = _CUT_SPLIT.split(written.lower())
    if low not in _TYPO_TARGETS and all(p in vocabulary for p in pieces):
        return written
    return joined


def _spellings(chars: str) -> list[str]:
    """`chars` with each digit read as the letter it stands for, each letter in its case:
    every "i"/"l" choice for a "1" (all of them up to `_MAX_ONES` "1"s, else "i")."""
    options = [""]
    ones = _ONE if chars.count("1") <= _MAX_ONES else _ONE[:1]
    for c in chars:
        choices = ones if c == "1" else (_LEET.get(c, c),)
        options = [o + x for o in options for x in choices]
    return options


def _segment(letters: str, vocabulary: frozenset[str]) -> list[str] | None:
    """`letters` as the fewest words of `vocabulary`, or None when it is not made of them."""
    n = len(letters)
    best: list[list[str] | None] = [[]] + [None] * n
    for end in range(1, n + 1):
        for start in range(max(0, end - _MAX_WORD), end):
            head = best[start]
            if head is None or letters[start:end] not in vocabulary:
                continue
            current = best[end]
            if current is None or len(head) + 1 < len(current):
                best[end] = [*head, letters[start:end]]
    return best[n]


def _words(letters: str, vocabulary: frozenset[str]) -> list[str] | None:
    """`letters` split into the fewest lexicon words (in their case, "ish" kept on the
    word before it: "seventeenish"), or None when they are not made of them."""
    parts = _segment(letters.lower(), vocabulary)
    if parts is None:
        return None
    words: list[str] = []
    k = 0
    for part in parts:
        word = letters[k : k + len(part)]
        k += len(part)
        if part == "ish" and words:
            words[-1] += word
        else:
            words.append(word)
    return words


def _is_lexicon_word(word: str, vocabulary: frozenset[str]) -> bool:
    """A lexicon word, also with a clitic ("must've", "you'd") or "ish" ("fifteenish")."""
    if word in vocabulary:
        return True
    head, apostrophe, tail = word.partition("'")
    if apostrophe:
        return head in vocabulary and tail in _CLITICS
    return word.endswith("ish") and word[:-3] in vocabulary


def _lexicon_words(chars: str, vocabulary: frozenset[str], *, whole: bool) -> str:
    """The lexicon word (`whole`) or words that `chars` spell, reading their digits as
    letters; "" when they spell none."""
    if whole:
        return next((o for o in _spellings(chars) if _is_lexicon_word(o.lower(), vocabulary)), "")
    # the reading in the fewest words: "a 1 m 0 s t" is "almost", not "a i most"
    best: list[str] | None = None
    for option in _spellings(chars):
        words = _words(option, vocabulary)
        if words and (best is None or len(words) < len(best)):
            best = words
    return " ".join(best) if best else ""


def _join_runs(runs: re.Pattern[str], text: str, vocabulary: frozenset[str], *, whole: bool) -> str:
    """Each run of single characters in `text` joined: a run inside one word (`whole`:
    "l-e-a-d", "U.S.A") into that word whatever it is (its digits read as letters only
    when that makes a lexicon word), a spaced run into the lexicon words it spells ("i t
    h i n k" -> "i think"), or left as written when it is not made of them (where its
    words end is unknown). A run of digits alone ("1.2.3") is a number and stays."""
    out: list[str] = []
    at = 0
    for m in runs.finditer(text):
        run = m.group(0)
        chars = "".join(_ALNUM.findall(run))
        if len(run) > _MAX_RUN or chars.isdigit():
            continue
        end = m.end()
        if whole:
            word = _lexicon_words(chars, vocabulary, whole=True) or chars
        else:
            word = _lexicon_words(chars, vocabulary, whole=False)
            if not word and chars[-1].isdigit():
                # a number after a spelled word ("a b o u t 5") is not one of its letters
                word = _lexicon_words(chars[:-1], vocabulary, whole=False)
                end -= 1 + (len(m.group(1)) if runs.groups else 1)
            if not word:
                continue
        out += (text[at : m.start()], word)
        at = end
    if not out:
        return text
    out.append(text[at:])
    return "".join(out)


def _unleet(vocabulary: frozenset[str], m: re.Match[str]) -> str:
    """A word of letters and digits: the lexicon word it spells with its digits read as
    letters, else the word as written ("3rd", "MP3", "RAV4", "70mph"). Words of fewer
    than three characters or two letters, and words with a digit that stands for no
    letter, are never read ("M3", "3d", "b2b")."""
    word = m.group(0)
    if len(word) < _MIN_MIXED or sum(c.isalpha() for c in word) < 2:
        return word
    if any(c.isdigit() and c != "1" and c not in _LEET for c in word):
        return word
    return _lexicon_words(word, vocabulary, whole=True) or word


def _unsymbol(vocabulary: frozenset[str], m: re.Match[str]) -> str:
    """A word with symbols for letters ("m@ybe", "th!nk", "po$$ibly", "prob4b|y"): the
    lexicon word it spells with "@" as "a", "$" as "s", "!" as "i", "|" as "l" or "i"
    (and its digits read as letters), else the word as written ("a@b", "US$5")."""
    word = m.group(0)
    if not any(c in "@$!|" for c in word) or sum(c.isalpha() for c in word) < 2:
        return word
    base = word.translate(_SYMBOL_LETTERS)
    for reading in (base.replace("|", "l"), base.replace("|", "i")):
        found = _lexicon_words(reading, vocabulary, whole=True)
        if found:
            return found
    # An adverb is an open class: the lexicon holds "appears <adverb>" as a slot, not as
    # words, so "c|ear|y" is no lexicon word and stayed as written while "clearly" flags.
    # A "|" read as "l" that makes a letters-only "-ly" word is that adverb.
    adverb = base.replace("|", "l")
    if adverb.endswith("ly") and adverb.isalpha():
        return adverb
    return word
