"""Tokens, exact Jaccard, MinHash signatures and LSH band keys for near-duplicate detection.

Everything here is pure and deterministic so the in-memory and the Redis index (and the
brute-force evaluation) see exactly the same numbers:

* `tokenize` is `set(text.lower().split())` of the claim's canonical text
  (`guards/canonical.py`: NFKC, invisible characters removed, lookalike letters folded,
  markup stripped; so a zero-width space or a Cyrillic "е" does not make a copy of a
  memory new), casefolded, with punctuation stripped from both ends of each token, so
  "storage." and "storage" are the same word (docs/spec.md §Near-duplicates). Inner
  punctuation is kept ("ADR-003", "v1.2").
* Each token is hashed once to 32 bits (datasketch's `sha1_hash32`); the index stores and
  compares these hashed sets. Jaccard on hashed sets equals Jaccard on the words unless
  two distinct words of the same pair collide in 32 bits (about 1e-7 per pair for
  sentence-length texts), which the evaluation measures against brute force on words.
* Signatures are datasketch's "affine32" MinHash (MurmurHash3 finalizer, then
  `a*h + b mod 2^32` with the permutation parameters datasketch draws for the seed,
  drawn the same way here), computed for a whole batch with one numpy expression; a
  unit test pins them to `datasketch.MinHash`, which the package does not import at
  run time.
* LSH bands are hashed to 8-byte keys. Bands only nominate candidates; the decision is
  always the exact Jaccard of the hashed sets, so LSH can cost recall (a missed
  candidate) but never precision.
* A few words change what a sentence says however many others it shares: a negation
  ("not", "never", "doesn't") and a number ("5432", "three", "weekly"). `marks` picks
  them out of a claim; a near-duplicate whose differing words include one is a *variant*
  of the memory (docs/dedup.md §Variants), not a copy of it. The memory's side of the
  difference is known by hash: its record keeps its own marks' hashes (records from
  before session 10 do not: there only negations count, `NEGATION_HASHES`).
* Names are marks too (session 11): a word written with a capital inside a sentence
  ("Alice", "Frankfurt", "AWS", "March"; `name_words`). A word that opens a sentence
  has a capital whatever it is ("Please", "Deploys"), so there it counts only where the
  memory has another word in its place. A word for the opposite also changes a fact
  ("enabled" / "disabled"): `contrasts` gives the claim's opening names and its words
  with WordNet antonyms, each with its antonyms' forms inflected like it
  (`antonym_forms`: "disabled" -> "enabled"), a variant when the memory has one of them
  (the claim never does). Both are known on the claim's side as words, so they work
  against every record, old ones included; a record written since session 11 keeps its
  names among its marks, so a claim that replaces one is a variant even when the
  claim's own word has no capital ("alice" / "bob" in chat).
* Word order is kept where it costs nothing: a memory's hashed words are stored in the
  order they first occur (`ordered_tokens`), so a claim that has the memory's words with
  two roles swapped round a third word ("Bob reports to Alice" / "Alice reports to Bob")
  is a variant too (`order_words`, `reversed_roles`); a list's items read in another
  order are not (`order_breaks`: commas, "and", "or" separate the pieces of a list, and a
  role swap needs two reversed words in one piece).
* A word put in the place of another changes a fact when the other is its rival in a
  closed class (session 12: a unit, "30 seconds" / "30 minutes"; a month or weekday in
  lower case; a verb's particle, "turned on" / "turned off": `class_forms`, sent as
  forms as antonyms are), or when it stands right before a content word the memory
  has, in the place of the memory's own word before it ("the checkout API" / "the search
  API": `replaced_in_place`, from the claim's words in order and the record's ordered
  hashes).
* One negation written two ways ("cannot" / "can't" / "can not", "does not" / "doesn't")
  is no change: the claim sends its negations' other spellings (`negation_spellings`),
  so both sides' negations are compared as spellings of one thing, against records of
  every version.
"""

from __future__ import annotations

import functools
import hashlib
import math
import string
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from itertools import accumulate, chain, compress, filterfalse, pairwise
from operator import itemgetter

import numpy as np
import numpy.typing as npt

from groundwire.guards.canonical import canonical
from groundwire.guards.grounding.lexical.antonyms import antonym_lemmas, lemmas
from groundwire.guards.grounding.lexical.text import (
    DEGREE,
    MONTH_NAMES,
    NEGATIONS,
    NUMBER_WORDS,
    STOPWORDS,
    SYMMETRIC_RELATIONS,
    WEEKDAY_NAMES,
)

# ASCII punctuation plus the typographic quotes and dashes that word processors and LLMs emit.
_STRIP = string.punctuation + "\u2018\u2019\u201c\u201d\u2013\u2014\u2026\u00ab\u00bb\u00bf\u00a1"
_EMPTY_SIG = np.uint32(0xFFFFFFFF)
_U64 = np.uint64
_MIX1 = _U64(0xBF58476D1CE4E5B9)
_MIX2 = _U64(0x94D049BB133111EB)
_GOLDEN = _U64(0x9E3779B97F4A7C15)
# tokens per signature chunk: 8192 x 128 x 4 bytes = 4 MiB, a 500-claim batch in one or two
# chunks (measured faster than 1024-4096 on the dev corpus, with the num_perm x tokens layout)
_CHUNK = 8192


def tokenize(text: str) -> frozenset[str]:
    """The word set Jaccard is computed on (see module docstring for the normalisation)."""
    return frozenset(ordered_tokens(text))


def ordered_tokens(text: str) -> tuple[str, ...]:
    """`tokenize`'s words in the order they first occur in the text: the index stores a
    memory's hashed words in this order, so the order of its words can be compared with a
    claim's (`order_words`) without keeping its text."""
    text = canonical(text)  # plain ASCII comes back as it is, after one byte scan
    words = dict.fromkeys(w.strip(_STRIP) for w in text.casefold().split())
    words.pop("", None)
    return tuple(words)


# Negations as the tokenizer leaves them, also without the apostrophe chat drops ("dont").
_NEGATION_TOKENS = frozenset(NEGATIONS | {w.replace("'", "") for w in NEGATIONS if "'" in w}) - {
    "nt"
}
_MARK_WORDS = _NEGATION_TOKENS | frozenset(NUMBER_WORDS)
_DIGITS = frozenset("0123456789")


# Relations that read both ways ("met", "and", "with"; `roles.py`) and function words are
# neither roles nor relations.
_NOT_ROLES = STOPWORDS | SYMMETRIC_RELATIONS
# Words that are no names when written with a capital: function words ("The", "We")
# and the marks, which count as marks.
_NOT_NAMES = STOPWORDS | _MARK_WORDS
MAX_ORDER = 32  # content words compared in order (bounds the check's work)
MAX_RECORD_MARKS = 255  # marks a record keeps (one count byte in the Redis record)


def order_words(tokens: Sequence[str]) -> list[str]:
    """The claim's content words in order, for the role-swap check (docs/dedup.md
    §Variants): "Bob reports to Alice" against the memory "Alice reports to Bob" has every
    word of it, so only the order tells. Empty when fewer than three content words."""
    found = [w for w in tokens if w not in _NOT_ROLES][:MAX_ORDER]
    return found if len(found) >= 3 else []


# In a claim's content words in order (`order_breaks`), the place of a list separator (a
# comma, "and", "or") and of a sentence end. A word whose hash is 0 or 1 reads as one (a
# missed role swap in one word of 2^31, never a false variant).
PIECE_BREAK = 0
SENTENCE_BREAK = 1
_LIST_WORDS = frozenset(("and", "or"))
_SENTENCE_MARKS = (".", "!", "?", ":", ";")


_BREAKS = (",", ".")


def order_breaks(text: str) -> list[str]:
    """`order_words` of the text with "," where a comma, "and" or "or" separates two of
    them and "." where a sentence ends: the pieces a list's items are ("Postgres, Redis
    and Kafka"), so a list read in another order is no role swap (`reversed_roles`)."""
    raws = canonical(text).casefold().split()
    return _breaks(raws, [w.strip(_STRIP) for w in raws])


def _breaks(raws: Sequence[str], lows: Sequence[str]) -> list[str]:
    out: list[str] = []
    seen: set[str] = set()
    count = 0
    for raw, word in zip(raws, lows, strict=True):
        if word in _LIST_WORDS:
            if out and out[-1] not in _BREAKS:
                out.append(",")
            continue
        if word and word not in seen and word not in _NOT_ROLES:
            if count == MAX_ORDER:
                break  # the check reads no further
            seen.add(word)
            out.append(word)
            count += 1
        if not out or raw[-1].isalnum():  # most words end in a letter: no break
            continue
        end = raw.rstrip(_CLOSERS)
        if end.endswith(_SENTENCE_MARKS):
            if out[-1] == ",":
                out[-1] = "."
            elif out[-1] != ".":
                out.append(".")
        elif end.endswith(",") and out[-1] not in _BREAKS:
            out.append(",")
    while out and out[-1] in _BREAKS:
        out.pop()
    return out if count >= 3 else []


def reversed_roles(order: Sequence[int], positions: dict[int, int]) -> bool:
    """Three content words of the claim (`order`: their hashes in the claim's order,
    `PIECE_BREAK` between the pieces of a list, `SENTENCE_BREAK` between sentences) stand
    in the reverse order in the other text (`positions`: hash -> place of its first
    occurrence): "Alice reports Bob" against "Bob reports Alice", the roles on either
    side of the relation exchanged. A phrase moved to the front or the end keeps the
    relation between its two roles and reverses no three words. The items of one list
    read in another order ("Kafka, Postgres and Redis") reverse words of three pieces of
    one sentence, each item in its own order, which is no role: three reversed words
    count when two are in one piece or they are not all in one sentence. A decreasing
    run of three places, O(n^2) on at most `MAX_ORDER` words."""
    q: list[int] = []
    pieces: list[int] = []
    sentences: list[int] = []
    piece = sentence = 0
    for h in order:
        if h in (PIECE_BREAK, SENTENCE_BREAK):
            piece += 1
            sentence += h == SENTENCE_BREAK
            continue
        p = positions.get(h)
        if p is not None:
            q.append(p)
            pieces.append(piece)
            sentences.append(sentence)
    n = len(q)
    for j in range(1, n - 1):
        mid, pj, sj = q[j], pieces[j], sentences[j]
        before = good = False
        for i in range(j):
            if q[i] > mid:
                before = True
                if pieces[i] == pj or sentences[i] != sj:
                    good = True
                    break
        if not before:
            continue
        for k in range(j + 1, n):
            if q[k] < mid and (good or pieces[k] == pj or sentences[k] != sj):
                return True
    return False


def marks(words: frozenset[str]) -> list[str]:
    """The words of a claim that a near-duplicate must not differ in: negations and
    numbers (any token with a digit, and number words)."""
    # the words that are not all letters (a C-level pass; few are), then those with a digit
    found = [w for w in filterfalse(str.isalpha, words) if not _DIGITS.isdisjoint(w)]
    if not _MARK_WORDS.isdisjoint(words):
        found += words & _MARK_WORDS
    return found


# A negation spelled as one word with its auxiliary ("can't", "cannot", "cant", "won't")
# says what the auxiliary and "not" say as two words: token -> that auxiliary.
_AUX_STEMS = {"ca": "can", "wo": "will", "sha": "shall"}


def _negation_aux(word: str) -> str | None:
    if word == "cannot":
        return "can"
    if word.endswith("n't"):
        stem = word[:-3]
    elif word.endswith("nt") and word[:-2] + "n't" in _NEGATION_TOKENS:
        stem = word[:-2]
    else:
        return None
    return _AUX_STEMS.get(stem, stem) or None


NEGATION_AUX: dict[str, str] = {
    w: aux for w in sorted(_NEGATION_TOKENS) if (aux := _negation_aux(w)) is not None
}
# auxiliary -> its one-word negations ("can" -> "can't", "cannot", "cant")
_ONE_WORD: dict[str, tuple[str, ...]] = {}
for _w, _aux in NEGATION_AUX.items():
    _ONE_WORD[_aux] = (*_ONE_WORD.get(_aux, ()), _w)


Spelling = tuple[str, tuple[str, ...], tuple[str, ...]]


def negation_spellings(text: str, words: frozenset[str]) -> list[Spelling]:
    """The other spellings of the claim's negations, as (negation, one-word spellings,
    auxiliaries): "can't" -> ("cannot", "cant"), ("can",): a memory that writes the same
    negation another way ("can not", "cannot") has not changed it (docs/dedup.md
    §Variants). An auxiliary stands for the two-word spelling, that word and "not" both in
    the memory. A "not" after an auxiliary in the claim ("do not") has that auxiliary's
    one-word negations ("don't", "dont"). Empty for a claim without a negation (most)."""
    if _NEGATION_TOKENS.isdisjoint(words):
        return []
    return _spellings([w.strip(_STRIP) for w in canonical(text).casefold().split()], words)


def _spellings(lows: Sequence[str], words: frozenset[str]) -> list[Spelling]:
    negs = words & _NEGATION_TOKENS
    if not negs:
        return []
    befores: dict[str, None] = {}
    if "not" in negs:
        pairs = pairwise(lows)
        befores = dict.fromkeys(a for a, b in pairs if b == "not" and a in _ONE_WORD)
    out: list[Spelling] = []
    for neg in sorted(negs):
        aux = NEGATION_AUX.get(neg)
        if aux is not None:
            singles = tuple(w for w in _ONE_WORD[aux] if w != neg)
            out.append((neg, singles, (aux,)))
        elif neg == "not" and befores:
            out.append((neg, tuple(chain.from_iterable(_ONE_WORD[a] for a in befores)), ()))
    return out


ClaimParts = tuple[tuple[str, ...], list[str], list[str], list[str], list[Spelling]]


def claim_parts(text: str) -> ClaimParts:
    """`claim_words`, `order_breaks` and `negation_spellings` of the text from one
    canonical pass (the index's per-claim work).

    What each word contributes (its case-folded form, whether it is a content word, a
    list word or ends a sentence or a list item, whether it can be a name) does not
    depend on the claim, so it is read once per distinct word and kept (`_word_info`, a
    bounded table), and the claim's pass only combines those answers: the same results
    as `claim_words`, `_breaks` and `_names` read word by word (a unit test holds them
    equal), at about half the CPU, since most of a claim's words were seen before."""
    text = canonical(text)
    raws = text.split()
    try:  # a KeyError when a word is new (indexing is cheaper than `get` and a None scan)
        done = list(map(_WORD_INFO.__getitem__, raws))
    except KeyError:
        done = _fill_infos(raws)
    lows = list(map(_LOW, done))
    found = dict.fromkeys(lows)
    found.pop("", None)
    words = tuple(found)
    names, openers = _infos_names(done) if any(map(_NAME, done)) else ([], [])
    spells = [] if _NEGATION_TOKENS.isdisjoint(found) else _spellings(lows, frozenset(words))
    return words, names, openers, _infos_breaks(done), spells


# A word's reading, the same in every claim: (case-folded and stripped, what it does in
# `_breaks` (bits below), its name when it can be one (`_names`) or "", whether the word
# after it starts a sentence)
_WordInfo = tuple[str, int, str, bool]
_LOW = itemgetter(0)
_NAME = itemgetter(2)
_WORD_INFO: dict[str, _WordInfo] = {}
_WORD_INFO_MAX = 1 << 17  # words kept (emptied when full, as `_HASH_CACHE` is)
_WORD_INFO_LEN = 48  # longer words are read each time, never kept (bounds the table's bytes)
# `_breaks`' reading of one word, as bits: a list word ("and"), a content word, a word
# that ends a sentence, a word that ends a list item (a comma)
_LIST, _CONTENT, _ENDS_SENTENCE, _ENDS_ITEM = 1, 2, 4, 8


def _word_info(raw: str) -> _WordInfo:
    """One whitespace-separated word's reading (`_WordInfo`), as `_breaks` and `_names`
    read it."""
    low_raw = raw.casefold()
    low = low_raw.strip(_STRIP)
    kind = 0
    if low in _LIST_WORDS:
        kind = _LIST
    elif low and low not in _NOT_ROLES:
        kind = _CONTENT
    if not low_raw[-1].isalnum():
        end = low_raw.rstrip(_CLOSERS)
        if end.endswith(_SENTENCE_MARKS):
            kind |= _ENDS_SENTENCE
        elif end.endswith(","):
            kind |= _ENDS_ITEM
    name = ""
    if not raw[0].islower():
        word = raw.strip(_STRIP)
        if word[:1].isupper():
            folded = word.casefold()
            if folded not in _NOT_NAMES and _DIGITS.isdisjoint(folded):
                name = folded
    starts_next = raw.rstrip(_CLOSERS).endswith(_SENTENCE_ENDS) or not raw.strip(_STRIP)
    return low, kind, name, starts_next


def _fill_infos(raws: Sequence[str]) -> list[_WordInfo]:
    """The words' readings, the new ones read and kept (short words only)."""
    if len(_WORD_INFO) >= _WORD_INFO_MAX:
        _WORD_INFO.clear()
    infos: list[_WordInfo] = []
    for raw in raws:
        info = _WORD_INFO.get(raw)
        if info is None:
            info = _word_info(raw)
            if len(raw) <= _WORD_INFO_LEN:
                _WORD_INFO[raw] = info
        infos.append(info)
    return infos


def _infos_names(infos: Sequence[_WordInfo]) -> tuple[list[str], list[str]]:
    """`_names` from the words' readings."""
    inside: dict[str, None] = {}
    first: dict[str, None] = {}
    for i in compress(range(len(infos)), map(_NAME, infos)):
        start = not i or infos[i - 1][3]
        (first if start else inside)[infos[i][2]] = None
    return list(inside), [w for w in first if w not in inside]


def _infos_breaks(infos: Sequence[_WordInfo]) -> list[str]:
    """`_breaks` from the words' readings (the same steps, each word's tests read from
    its bits instead of made again)."""
    out: list[str] = []
    seen: set[str] = set()
    count = 0
    for word, kind, _, _ in infos:
        if kind & _LIST:
            if out and out[-1] not in _BREAKS:
                out.append(",")
            continue
        if kind & _CONTENT and word not in seen:
            if count == MAX_ORDER:
                break  # the check reads no further
            seen.add(word)
            out.append(word)
            count += 1
        if kind < _ENDS_SENTENCE or not out:  # most words end in a letter: no break
            continue
        if kind & _ENDS_SENTENCE:
            if out[-1] == ",":
                out[-1] = "."
            elif out[-1] != ".":
                out.append(".")
        elif out[-1] not in _BREAKS:
            out.append(",")
    while out and out[-1] in _BREAKS:
        out.pop()
    return out if count >= 3 else []


def claim_words(text: str) -> tuple[tuple[str, ...], list[str], list[str]]:
    """`ordered_tokens` of the text and its names (`name_words`: inside a sentence, at
    the start of one), from one canonical pass."""
    text = canonical(text)
    words = dict.fromkeys(w.strip(_STRIP) for w in text.casefold().split())  # ordered_tokens
    words.pop("", None)
    names, openers = _names(text.split())
    return tuple(words), names, openers


def name_words(text: str) -> tuple[list[str], list[str]]:
    """The claim's names: its words written with a capital letter ("Alice", "Redis",
    "AWS", "January"), case-folded, in order, without function words ("The", "We"),
    negations and numbers (marks already); (inside a sentence, first of a sentence).

    Inside a sentence a capital marks a name, and a name is a mark like a number: a
    near-duplicate that adds or changes one is a variant. At the start of a sentence
    every word has a capital ("Please", "Deploys"), so such a word counts only where the
    memory has another word in its place (`contrasts`): a word added before a copy of a
    memory leaves it a copy."""
    return _names(canonical(text).split())


# A word after one of these ends (closing quotes and brackets stripped first) starts a
# sentence, a heading's text or a list item.
_SENTENCE_ENDS = (".", "!", "?", ":", ";")
_CLOSERS = "\"')]}\u2019\u201d\u00bb"


def _names(raws: Sequence[str]) -> tuple[list[str], list[str]]:
    inside: dict[str, None] = {}
    first: dict[str, None] = {}
    # the few words that do not begin with a lower-case letter (most words do)
    candidates = [i for i, raw in enumerate(raws) if not raw[0].islower()]
    for i in candidates:
        word = raws[i].strip(_STRIP)
        if not word[:1].isupper():
            continue
        low = word.casefold()
        if low in _NOT_NAMES or not _DIGITS.isdisjoint(low):
            continue
        # a word starts a sentence after an end mark, or after a bullet or dash
        before = raws[i - 1] if i else ""
        ended = before.rstrip(_CLOSERS).endswith(_SENTENCE_ENDS)
        start = not i or ended or not before.strip(_STRIP)
        (first if start else inside)[low] = None
    return list(inside), [w for w in first if w not in inside]


# Inflections a word can have on its lemma, longest first: how a word was made from its
# lemma tells how to make the antonym's form ("enabled" from "enable": "disabled").
_ENDINGS = ("ing", "est", "ed", "er", "s")
_VOWELS = frozenset("aeiou")
MAX_ANTONYM_FORMS = 24  # per word: bounds what a claim sends (good -> bad, evil, ill, ...)


@functools.lru_cache(maxsize=65_536)
def antonym_forms(word: str) -> tuple[str, ...]:
    """The forms a memory would use in `word`'s place to say the opposite: WordNet
    antonyms of the word's lemmas (`antonyms.antonym_lemmas`, head synsets only),
    inflected as the word is on its lemma ("disabled" -> "enabled", "dislikes" ->
    "likes", "stopped" -> "started"). Function words have none ("on" / "off", "in" /
    "out" are prepositions far more often than opposites), degree words do ("more" /
    "less"). At most `MAX_ANTONYM_FORMS`."""
    if word in STOPWORDS and word not in DEGREE:
        return ()
    found: dict[str, None] = {}
    for lemma in lemmas(word):
        ending = "" if word == lemma else next((e for e in _ENDINGS if word.endswith(e)), "")
        for other in antonym_lemmas(lemma):
            found[_inflect(other, ending)] = None
            if ending in _DOUBLING and _short_closed(other):
                found[other + other[-1] + ending] = None  # stop -> stopped
    found.pop(word, None)
    return tuple(found)[:MAX_ANTONYM_FORMS]


_DOUBLING = frozenset(("ing", "ed", "er", "est"))


def _short_closed(lemma: str) -> bool:
    """Consonant, one vowel, consonant at the end ("stop", "plan"): English may double the
    last letter before an ending that starts with a vowel."""
    return (
        len(lemma) >= 3
        and lemma[-1] not in _VOWELS
        and lemma[-1] not in "wxy"
        and lemma[-2] in _VOWELS
        and lemma[-3] not in _VOWELS
    )


def _inflect(lemma: str, ending: str) -> str:
    """English's regular spelling of `lemma` + `ending` (one of `_ENDINGS` or "")."""
    if not ending:
        return lemma
    y_after_consonant = lemma.endswith("y") and len(lemma) > 1 and lemma[-2] not in _VOWELS
    if ending == "s":
        if lemma.endswith(("s", "x", "z", "ch", "sh")):
            return lemma + "es"
        return lemma[:-1] + "ies" if y_after_consonant else lemma + "s"
    if ending == "ing":
        silent_e = lemma.endswith("e") and not lemma.endswith("ee")
        return lemma[:-1] + "ing" if silent_e else lemma + "ing"
    # ed, er, est
    if lemma.endswith("e"):
        return lemma + ending[1:]
    return lemma[:-1] + "i" + ending if y_after_consonant else lemma + ending


# Closed classes whose members exclude one another in one slot: "30 seconds" and "30
# minutes" are two facts, as "in june" and "in july" are (a capital makes a month a name
# already; chat writes it without one), or "turned on" and "turned off". Each class is a
# tuple of groups, a group the spellings of one value; a word's rivals are the other
# groups' words. "may" (a modal), "sun" and "sat" are left out: too often something else.
_CLASSES: tuple[tuple[tuple[str, ...], ...], ...] = (
    (
        ("millisecond", "milliseconds", "ms", "msec"),
        ("second", "seconds", "sec", "secs"),
        ("minute", "minutes", "min", "mins"),
        ("hour", "hours", "hr", "hrs"),
        ("day", "days"),
        ("week", "weeks"),
        ("month", "months"),
        ("year", "years", "yr", "yrs"),
    ),
    (
        ("byte", "bytes"),
        ("kb", "kib", "kilobyte", "kilobytes"),
        ("mb", "mib", "megabyte", "megabytes"),
        ("gb", "gib", "gigabyte", "gigabytes"),
        ("tb", "tib", "terabyte", "terabytes"),
        ("pb", "pib", "petabyte", "petabytes"),
    ),
    (
        ("mm", "millimeter", "millimeters", "millimetre", "millimetres"),
        ("cm", "centimeter", "centimeters", "centimetre", "centimetres"),
        ("meter", "meters", "metre", "metres"),
        ("km", "kilometer", "kilometers", "kilometre", "kilometres"),
        ("mile", "miles"),
        ("foot", "feet", "ft"),
        ("inch", "inches"),
    ),
    (
        ("mg", "milligram", "milligrams"),
        ("gram", "grams"),
        ("kg", "kilogram", "kilograms", "kilo", "kilos"),
        ("pound", "pounds", "lb", "lbs"),
        ("ounce", "ounces", "oz"),
    ),
    tuple((m,) for m in MONTH_NAMES if m != "may"),  # "may" is mostly the modal
    tuple((d,) for d in WEEKDAY_NAMES),
    (("on",), ("off",)),
    (("up",), ("down",)),
    (("in",), ("out",)),
)
_RIVALS: dict[str, tuple[str, ...]] = {
    word: tuple(w for other in groups if other is not group for w in other)
    for groups in _CLASSES
    for group in groups
    for word in group
}
MAX_CONTRAST_FORMS = 32  # per word, antonyms' forms and rivals together


def class_forms(word: str) -> tuple[str, ...]:
    """The word's rivals in a closed class (`_CLASSES`): the words a memory would have in
    its place to say another unit, month, weekday or particle ("minutes" -> "seconds",
    "hours", ...; "off" -> "on"); () for a word in no class."""
    return _RIVALS.get(word, ())


@functools.lru_cache(maxsize=65_536)
def contrast_forms(word: str) -> tuple[str, ...]:
    """What a memory would have in the word's place to state another fact: its
    antonyms' forms (`antonym_forms`) and its rivals in a closed class (`class_forms`),
    at most `MAX_CONTRAST_FORMS`."""
    rivals = class_forms(word)
    opposite = antonym_forms(word)
    if not rivals:
        return opposite
    return tuple(dict.fromkeys(rivals + opposite))[:MAX_CONTRAST_FORMS]


def replaced_in_place(
    order: Sequence[int],
    positions: dict[int, int],
    tokens: Sequence[int] | npt.NDArray[np.uint32],
    query: frozenset[int],
) -> bool:
    """A content word of the claim that the memory lacks stands right before one of the
    claim's content words (`order`: their hashes in the claim's order, breaks between
    list pieces and sentences) that the memory has, where the memory has, right before
    that word, a word the claim lacks (`positions`: hash -> place in `tokens`, the
    memory's hashes in the order they first occur): one word in the place of another
    before the same noun, "the search API" for "the checkout API", "the billing indexer"
    for "the search indexer". A word only added ("the very heavy load") or only dropped
    ("the replica" for "the read replica") leaves a word the claim has, or none, in that
    place; a reworded verb before "that the ..." leaves "the" there. A word that first
    occurs earlier in the memory is not seen here (its place is its first one). `query`
    is the claim's hashes with its negations' other spellings ("can't" for "cannot")."""
    prev: int | None = None
    for h in order:
        if h in (PIECE_BREAK, SENTENCE_BREAK):
            prev = None
            continue
        if prev is not None and prev not in positions:
            p = positions.get(h)
            if p is not None and p > 0 and tokens[p - 1] not in query:
                return True
        prev = h
    return False


def contrasts(tokens: Sequence[str], openers: Sequence[str]) -> list[tuple[str, tuple[str, ...]]]:
    """What the claim may have put in the place of a memory's word to change a fact,
    as (word, forms): a name that opens a sentence with no forms (a variant when the
    memory lacks it and has a word the claim lacks), and a word with the forms of its
    antonyms and its rivals in a closed class (`contrast_forms`; a variant when the
    memory has one of them that the claim does not use itself: "internal" replaced by
    "external", even in a text that says "external" elsewhere too). At most `MAX_ORDER`
    words with forms and `MAX_RECORD_MARKS` names."""
    out: list[tuple[str, tuple[str, ...]]] = [(n, ()) for n in openers[:MAX_RECORD_MARKS]]
    with_forms = [(w, f) for w, f in zip(tokens, map(contrast_forms, tokens), strict=True) if f]
    out.extend(with_forms[:MAX_ORDER])
    return out


_Contrast = tuple[int, tuple[int, ...]]
# word -> (its hash, its antonyms' forms' hashes), or () for a word without antonyms
_CONTRAST_CACHE: dict[str, _Contrast | tuple[()]] = {}


def contrast_hashes(
    tokens: Sequence[str], openers: Sequence[str]
) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """`contrasts` as the index sends them: (word hash, form hashes), a word's entry
    computed once per process (a bounded dict read with one C-level `map`)."""
    try:  # a KeyError when a word is new (cheaper than `get` and a scan for None)
        found = list(map(_CONTRAST_CACHE.__getitem__, tokens))
    except KeyError:
        if len(_CONTRAST_CACHE) >= _HASH_CACHE_MAX:
            _CONTRAST_CACHE.clear()
        for word in tokens:
            if word not in _CONTRAST_CACHE:
                forms = contrast_forms(word)
                _CONTRAST_CACHE[word] = (
                    (token_hash(word), tuple(map(token_hash, forms))) if forms else ()
                )
        found = list(map(_CONTRAST_CACHE.__getitem__, tokens))
    out: list[_Contrast] = [(token_hash(n), ()) for n in openers[:MAX_RECORD_MARKS]]
    out.extend([f for f in found if f][:MAX_ORDER])
    return tuple(out)


def jaccard(a: frozenset[str] | set[str], b: frozenset[str] | set[str]) -> float:
    """|A ∩ B| / |A ∪ B|, 0.0 when both are empty (spec: Near-duplicates)."""
    union = len(a | b)
    return len(a & b) / union if union else 0.0


def sha1_hash32(data: bytes) -> int:
    """The first four bytes of SHA-1, little-endian: datasketch's `sha1_hash32`."""
    return int.from_bytes(hashlib.sha1(data).digest()[:4], "little")


def affine32_permutations(num_perm: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The parameters (a odd, b) of the `a*h + b mod 2^32` permutations that
    `datasketch.MinHash(num_perm, seed, scheme="affine32")` draws, from numpy's legacy
    `RandomState`, whose streams numpy keeps stable across releases.

    Drawn here instead of read from datasketch: the band keys stored in Redis depend on
    them, so a library upgrade must never move them (an index built before would stop
    matching without an error), and importing datasketch pulls in scipy, about a third
    of a second at every process start. A unit test pins them to datasketch and to the
    values existing indexes were built with."""
    gen = np.random.RandomState(seed)
    a = gen.randint(0, 1 << 31, num_perm, dtype=np.uint32) * np.uint32(2) + np.uint32(1)
    b = gen.randint(0, 1 << 32, num_perm, dtype=np.uint32)
    return a, b


_HASH_CACHE: dict[str, int] = {}
_HASH_CACHE_MAX = 1 << 18


def token_hash(token: str) -> int:
    """32-bit hash of one token (datasketch's sha1_hash32), cached: common words recur.

    A plain dict, emptied when full, is cheaper per hit than functools.lru_cache and the
    hit rate barely suffers on word distributions.
    """
    h = _HASH_CACHE.get(token)
    if h is None:
        if len(_HASH_CACHE) >= _HASH_CACHE_MAX:
            _HASH_CACHE.clear()
        h = _HASH_CACHE[token] = sha1_hash32(token.encode("utf-8"))
    return h


# The negations' hashes: the only marks recognisable in a stored memory's hashed words.
NEGATION_HASHES: frozenset[int] = frozenset(
    sha1_hash32(w.encode("utf-8")) for w in sorted(_NEGATION_TOKENS)
)


# "not": a two-word negation ("can not") needs it in the memory with its auxiliary.
NOT_HASH: int = sha1_hash32(b"not")

# (negation hash, one-word spellings' hashes, auxiliaries' hashes): `Item.spellings`
Spellings = tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...]


def spelling_hashes(spellings: Sequence[Spelling]) -> Spellings:
    """`negation_spellings` as the index sends them (hashes)."""
    return tuple(
        (token_hash(neg), tuple(map(token_hash, singles)), tuple(map(token_hash, auxes)))
        for neg, singles, auxes in spellings
    )


def spelled_cover(spellings: Spellings) -> frozenset[int]:
    """The memory's negation hashes the claim's negations spell another way: a memory's
    "cannot" is no negation the claim lacks when the claim says "can't"; its "not" none
    when the claim says "don't" (the two-word spelling)."""
    out: set[int] = set()
    for _, singles, auxes in spellings:
        out.update(singles)
        if auxes:
            out.add(NOT_HASH)
    return frozenset(out)


def spelled_in(neg: int, spellings: Spellings, other: frozenset[int]) -> bool:
    """The memory (`other`) has the claim's negation `neg` in another spelling: a one-word
    one, or an auxiliary and "not" (records keep no adjacency: both words anywhere)."""
    for h, singles, auxes in spellings:
        if h == neg:
            return any(s in other for s in singles) or (
                NOT_HASH in other and any(a in other for a in auxes)
            )
    return False


def clear_token_cache() -> None:
    _HASH_CACHE.clear()
    _ORDER_CACHE.clear()
    _ORDER_CACHE.update(_ORDER_BREAKS)


# `order_hashes`' table: the two break marks, then words -> `token_hash`
_ORDER_BREAKS = {",": PIECE_BREAK, ".": SENTENCE_BREAK}
_ORDER_CACHE: dict[str, int] = dict(_ORDER_BREAKS)


def order_hashes(breaks: Sequence[str]) -> tuple[int, ...]:
    """The hashes of `order_breaks`' words in order, `PIECE_BREAK` for "," and
    `SENTENCE_BREAK` for "." (the role-swap check's input): one C-level pass over a
    table of the two marks and the words seen before (a KeyError when a word is new)."""
    try:
        return tuple(map(_ORDER_CACHE.__getitem__, breaks))
    except KeyError:
        if len(_ORDER_CACHE) >= _HASH_CACHE_MAX:
            _ORDER_CACHE.clear()
            _ORDER_CACHE.update(_ORDER_BREAKS)
        for w in breaks:
            if w not in _ORDER_CACHE:
                _ORDER_CACHE[w] = token_hash(w)
        return tuple(map(_ORDER_CACHE.__getitem__, breaks))


def hash_tokens(tokens: frozenset[str] | tuple[str, ...]) -> np.ndarray:
    """Unique 32-bit token hashes: the compact set the index stores per memory."""
    return hash_token_sets([tokens])[0]


def _hashes(tokens: Collection[str]) -> list[int]:
    """`token_hash` of each token: one C-level pass over the cache when every token is in
    it (a KeyError otherwise, rare once the cache is warm)."""
    try:
        return list(map(_HASH_CACHE.__getitem__, tokens))
    except KeyError:
        return list(map(token_hash, tokens))


def hash_token_sets(
    token_sets: Sequence[frozenset[str] | tuple[str, ...]],
) -> list[np.ndarray]:
    """`hash_tokens` for many sets, built as views of one array (numpy calls per batch)."""
    # in the order given (`ordered_tokens`: first occurrence), duplicates of a hash dropped
    lists = [dict.fromkeys(_hashes(s)) for s in token_sets]
    lengths = [len(x) for x in lists]
    flat = np.fromiter(chain.from_iterable(lists), dtype=np.uint32, count=sum(lengths))
    bounds = np.cumsum(lengths).tolist()
    return [flat[end - n : end] for n, end in zip(lengths, bounds, strict=True)]


def hashed_jaccard(a: np.ndarray, b: np.ndarray) -> tuple[int, int]:
    """(intersection, union) of two sorted unique hash arrays."""
    inter = int(np.intersect1d(a, b, assume_unique=True).size)
    return inter, int(a.size + b.size - inter)


def _fmix32(h: npt.NDArray[np.uint32]) -> npt.NDArray[np.uint32]:
    """MurmurHash3's 32-bit finalizer, as datasketch pre-mixes inputs in its affine32 scheme."""
    h = h ^ (h >> np.uint32(16))
    h = h * np.uint32(0x85EBCA6B)
    h = h ^ (h >> np.uint32(13))
    h = h * np.uint32(0xC2B2AE35)
    return h ^ (h >> np.uint32(16))


def _mix64(h: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """splitmix64 finalizer: spreads band contents over all 64 bits of the band key."""
    h = (h ^ (h >> _U64(30))) * _MIX1
    h = (h ^ (h >> _U64(27))) * _MIX2
    return h ^ (h >> _U64(31))


def miss_probability(similarity: float, bands: int, rows: int) -> float:
    """P(a pair at this Jaccard shares no band) = (1 - s^r)^b."""
    return (1.0 - similarity**rows) ** bands


def choose_bands(threshold: float, num_perm: int, max_miss: float) -> tuple[int, int]:
    """Pick (bands, rows) for a decision threshold.

    Among layouts with `bands * rows <= num_perm` whose miss probability at the threshold
    is at most `max_miss`, take the one that nominates the fewest unrelated memories
    (lowest candidate probability at Jaccard 0.5), then the fewest bands (Redis memory).
    Pairs above the threshold are missed even less often, since s^r grows with s.
    """
    best: tuple[float, int, int] | None = None
    t = min(max(threshold, 1e-6), 1.0)
    for rows in range(1, num_perm + 1):
        hit = t**rows
        if hit >= 1.0:
            bands = 1
        elif 1.0 - hit >= 1.0:  # s^r underflows: this layout can never nominate anything
            continue
        else:
            bands = max(1, math.ceil(math.log(max_miss) / math.log(1.0 - hit)))
        if bands * rows > num_perm:
            continue
        waste = 1.0 - miss_probability(0.5, bands, rows)
        key = (waste, bands, rows)
        if best is None or key < best:
            best = key
    if best is None:  # threshold too low for this num_perm: spend every permutation
        return num_perm, 1
    return best[1], best[2]


@dataclass(frozen=True, slots=True)
class Fingerprint:
    """What the index needs of one text: its hashed word set and its LSH band keys."""

    tokens: np.ndarray  # unique uint32 token hashes, in the text's order when it was given
    band_keys: np.ndarray  # uint64, one per band

    def bands_blob(self) -> bytes:
        return self.band_keys.astype(">u8").tobytes()


class MinHasher:
    """Batch MinHash + banding with datasketch's permutations, computed once per process."""

    def __init__(self, num_perm: int, bands: int, rows: int, seed: int = 1) -> None:
        if bands * rows > num_perm:
            raise ValueError(f"bands*rows = {bands * rows} exceeds num_perm = {num_perm}")
        a, b = affine32_permutations(num_perm, seed)
        self.num_perm = num_perm
        self.bands = bands
        self.rows = rows
        self._a = a
        self._b = b
        self._a_col = self._a[:, None]
        self._b_col = self._b[:, None]
        self._band_seeds = (np.arange(1, bands + 1, dtype=np.uint64) * _GOLDEN).astype(np.uint64)

    def signatures(self, token_sets: Sequence[np.ndarray]) -> np.ndarray:
        """(n, num_perm) uint32 MinHash signatures; an empty set gets the all-max signature."""
        n = len(token_sets)
        out = np.full((n, self.num_perm), _EMPTY_SIG, dtype=np.uint32)
        # chunk bounds in plain ints: numpy scalar indexing per text cost more than the math
        lengths = [t.size for t in token_sets]
        nonempty = [i for i, size in enumerate(lengths) if size]
        # chunks of about _CHUNK tokens bound the (num_perm x tokens) matrix
        begin = 0
        while begin < len(nonempty):
            end, rows = begin, 0
            while end < len(nonempty) and (rows == 0 or rows + lengths[nonempty[end]] <= _CHUNK):
                rows += lengths[nonempty[end]]
                end += 1
            part = nonempty[begin:end]
            flat = np.concatenate([token_sets[i] for i in part]).astype(np.uint32, copy=False)
            # (num_perm, tokens): one permutation per row, so the reduction below runs
            # along contiguous memory (about twice as fast as tokens x num_perm)
            phv = np.multiply(self._a_col, _fmix32(flat)[None, :])  # wraps: mod 2^32
            np.add(phv, self._b_col, out=phv)
            starts = [0, *accumulate(lengths[i] for i in part[:-1])]
            out[part] = np.minimum.reduceat(phv, starts, axis=1).T
            begin = end
        return out

    def band_keys(self, signatures: np.ndarray) -> np.ndarray:
        """(n, bands) uint64 keys; equal keys mean the two signatures agree on that band."""
        n = signatures.shape[0]
        sig = signatures[:, : self.bands * self.rows].reshape(n, self.bands, self.rows)
        sig = sig.astype(np.uint64)
        h = np.broadcast_to(self._band_seeds, (n, self.bands)).copy()
        for j in range(self.rows):
            h = _mix64((h ^ sig[:, :, j]) * _GOLDEN)
        return h

    def fingerprints(self, token_sets: Sequence[np.ndarray]) -> list[Fingerprint]:
        keys = self.band_keys(self.signatures(token_sets))
        return [Fingerprint(tokens=t, band_keys=keys[i]) for i, t in enumerate(token_sets)]
