"""A common word swapped in place: the claim says "sales" where the source says "payments".

Word overlap reads "Priya leads the sales team" against "Priya leads the payments team
since March" as three words of four found, a partial grounding at worst, and the claim
passes; yet it changes the fact. The swapped-specific rule (`features._conflicts`) reads
only numbers and names in such a slot, the antonym rule (`polarity.py`) only opposites.
This rule reads the common words in between:

* **the slot.** A content word of the claim that the source never uses (neither the word
  nor its stem) stands between two words, and a source sentence has, between the same two
  words (compared by stem: "team" / "teams", "API" / "api"), one other content word that
  the claim never uses ("the *sales* team" / "the *payments* team", "a *red* car" / "a
  *blue* car", "the *checkout* API" / "the *search* API"). The word after the slot must be
  a content word both have (a head noun or its object: what the two words qualify), so a
  verb before a function word ("leads the" / "manages the") is not read: a verb reworded
  is a paraphrase more often than a changed fact. A word only added ("the busy sales
  team" / "the sales team") or only dropped has no counterpart between the same two words.
* **a verb's object** (session 13, `_object_anchor`): a word that ends its clause or
  stands before a function word other than a determiner, right after a lower-case content
  word both have (the verb) or a determiner after one ("Priya teaches *history*", "plays
  the *violin* in"), against the source's word after the same verb that ends its clause
  too or stands before the same function word. Objects are reworded freely, so such a
  pair is read only as two kinds of one genus (`kinds.kin`: "history" / "chemistry" are
  disciplines, "tea" / "coffee" beverages; "bug" / "error" are not read).
* **the same thing.** The pair is no contradiction when the two words are one thing:
  one of them is among the words WordNet defines the other with (`labels.gloss_stems`:
  the definitions of its first senses, its synonyms and its direct hypernyms; "large" /
  "big", "car" / "vehicle", "buy" / "purchase") unless they are sister kinds of one genus
  (`kinds.sisters`: WordNet defines "green" with "yellow" and "yellow" with "green",
  both chromatic colours), they share a stem or one's stem begins
  the other's (derived forms: "pay" / "payment"), or they are one word spelled two ways
  ("colour" / "color", "grey" / "gray", a typo of a chat: one edit apart, five letters or
  more, or two edits apart at eight or more).

Names and numbers are left to their own rules (`names.py`, `features._conflicts`,
`units.py`), and a pair another rule already reported is not reported twice. A found
pair is a contradiction (NOT_SUPPORTED), as an antonym in the slot is; the report says
"'sales' where the source says 'payments'".
"""

from __future__ import annotations

from collections.abc import Sequence, Set

from groundwire.guards.grounding.lexical.evidence import Sentence, evidence_for
from groundwire.guards.grounding.lexical.kinds import kin, sisters
from groundwire.guards.grounding.lexical.labels import gloss_stems
from groundwire.guards.grounding.lexical.polarity import ALIGN
from groundwire.guards.grounding.lexical.text import (
    ClaimWords,
    claim_words,
    clause_ids,
    fold_disguises,
    number_value,
    word_set,
)
from groundwire.topics.records import SourceTurn

__all__ = ["claim_slot_swaps", "is_acronym", "same_thing", "slot_swaps"]

# Pairs read per claim at most: a real claim swaps one or two words.
MAX_SWAPS = 4
# The most steps one claim's slots take (a source sentence read for a slot, and each of
# its words when it aligns): a claim at the size limits of "the <word> team" copies
# against a source of thousands of sentences holding "team" read every sentence once
# per slot (1.2-1.5 s per call). Past it the slots left are not read; no claim of the
# dev file comes near it (`roles.MAX_STEPS`, `found_order.MAX_SENTENCE_PAIRS` alike).
MAX_STEPS = 400_000
# What may stand right before the slot: a determiner or a preposition (closed classes of
# English), so the slot holds a modifier or a noun ("the *sales* team", "with *easy*
# lyrics"), not a verb ("I *love* dogs" / "I *like* dogs", "to *visit* Paris" / "to
# *see* Paris": a verb reworded is a paraphrase more often than a changed fact), or
# another content word both have ("a big *red* car") unless it is an adverb in -ly, which
# qualifies a verb ("she accidentally *injures* Anna").
_BEFORE = word_set(
    """a an the this that these those my your his her its our their some any each every
    another no of in on at for with from by about into onto over under"""
)


# The determiners that may stand between a verb and its object ("plays *the* violin").
_DETERMINERS = word_set("a an the this that these those my your his her its our their")


def _edits(a: str, b: str) -> int:
    """Levenshtein distance with a transposition counting one (optimal string alignment)."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[-1]


def _spelled_alike(a: str, b: str) -> bool:
    """One word spelled two ways: one edit apart at five letters or more ("colour" /
    "color", "recieve" / "receive"), two at eight or more; "grey" / "gray" (a vowel
    changed in a four-letter word with the same ends) too. Shorter words one edit apart
    are other words ("car" / "cat", "red" / "bed")."""
    shorter = min(len(a), len(b))
    if abs(len(a) - len(b)) > 2:
        return False
    d = _edits(a, b)
    if d <= 1 and shorter >= 5:
        return True
    if d <= 2 and shorter >= 8:
        return True
    return (
        d == 1
        and len(a) == len(b) == 4
        and a[0] == b[0]
        and a[-1] == b[-1]
        and all(x == y or (x in "aeiou" and y in "aeiou") for x, y in zip(a, b, strict=True))
    )


_VERB_ENDINGS: tuple[tuple[str, str], ...] = (("ing", ""), ("ing", "e"), ("ed", ""), ("ed", "e"))


# `_defined` of the words read before (session 18): the same word is asked for by many
# claims (`_slots` asks for every content word a source lacks, ~3 a claim on the dev
# data, and the rival tests again for the source's words), and its answer depends on
# the word alone (WordNet's fixed table and the endings below), so a dict look-up
# replaces the `gloss_stems` cache call and the four ending tests. Bounded: emptied when
# it reaches `_DEFINED_MAX` words. The sets are frozen, so no caller can change one.
_DEFINED: dict[str, frozenset[str]] = {}
_DEFINED_MAX = 16_384


def _defined(low: str) -> frozenset[str]:
    """`_read_defined(low)`, kept per word (see `_DEFINED`)."""
    found = _DEFINED.get(low)
    if found is None:
        found = _read_defined(low)
        if len(_DEFINED) >= _DEFINED_MAX:
            _DEFINED.clear()
        _DEFINED[low] = found
    return found


def _read_defined(low: str) -> frozenset[str]:
    """The WordNet definition stems of a word (`labels.gloss_stems`, which undoes plural
    and comparative endings) and of its base form without "-ing" / "-ed" ("billing":
    "bill"); empty when WordNet's common words do not define it. Both, not the first
    found (session 15b): a participle is an adjective of its own and a form of its verb,
    and "dispersed" the adjective (spread out) is not defined with "scattered", while
    "disperse" the verb is."""
    found = gloss_stems(low)
    for suffix, base in _VERB_ENDINGS:
        if low.endswith(suffix) and len(low) > len(suffix) + 2:
            more = gloss_stems(low[: -len(suffix)] + base)
            if more:
                return found | more
    return found


def same_thing(a_low: str, a_stem: str, b_low: str, b_stem: str) -> bool:
    """Whether two words (lower case, with their stems) name one thing, so one in the
    other's place changes no fact: WordNet defines one with the other, they are forms of
    one word, or one word spelled two ways (module docstring)."""
    if a_stem == b_stem:
        return True
    short, long_ = sorted((a_stem, b_stem), key=len)
    if len(short) >= 3 and long_.startswith(short):
        return True  # "pay" / "payment", "drive" / "driver"
    if sisters(a_low, b_low):
        return False  # "green" / "yellow": two kinds of one genus (`kinds.py`)
    if b_stem in _defined(a_low) or a_stem in _defined(b_low):
        return True
    return _spelled_alike(a_low, b_low)


def _same(a_low: str, a_stem: str, b_low: str, b_stem: str) -> bool:
    return a_low == b_low or a_stem == b_stem


def slot_swaps(
    words: ClaimWords,
    content: Sequence[bool],
    clause: Sequence[int],
    sentences: Sequence[Sentence],
    src_lows: Set[str],
    src_stems: Set[str],
    said: Set[str] = frozenset(),
) -> list[tuple[str, str]]:
    """(claim word, source word) for each common word of the claim swapped in place for
    another of the source (module docstring). `content`: whether each claim word is a
    content word and not a known name; `clause`: the clause number of each claim word
    (`text.clause_ids`); `said`: claim words another rule already reported."""
    slots = _slots(words, content, src_lows, src_stems, said, clause)
    if not slots:
        return []  # most claims: no word the source lacks in a slot's place
    raws, lows, stems = words.raws, words.lows, words.stems
    claim_lows, claim_stems = set(lows), set(stems)
    n = len(raws)
    uniq = {st for st, c in zip(stems, content, strict=True) if c}
    # each clause's content stems, built once (a slot's "rest" is its clause's less its
    # own stem); the source sentences by the claim stems they hold, so a slot reads only
    # the sentences holding the stem after it; each sentence's claim stems, read once
    clause_stems: dict[int, set[str]] = {}
    for k in range(n):
        if content[k]:
            clause_stems.setdefault(clause[k], set()).add(stems[k])
    holding: dict[str, list[int]] = {}
    hits: list[frozenset[str]] = []
    for idx, s in enumerate(sentences):
        hit = frozenset(uniq.intersection(s.stems))
        hits.append(hit)
        for stem in hit:
            holding.setdefault(stem, []).append(idx)
    budget = MAX_STEPS
    decided: dict[tuple[str, str, bool], bool] = {}
    out: list[tuple[str, str]] = []
    for i, anchor, ends, defined in slots:
        low, st, nxt = lows[i], stems[i], i + 1
        p_low, p_stem = lows[i - 1], stems[i - 1]
        if anchor is None:
            n_low, n_stem, key = lows[nxt], stems[nxt], stems[nxt]
        else:  # the verb anchors it; what follows must be alike (below)
            n_low = "" if ends else lows[nxt]
            n_stem, key = n_low, stems[anchor]
        # the rest of the claim's clause: a source sentence must hold `ALIGN` of it
        whole = clause_stems[clause[i]]
        own = 1 if st in whole else 0  # the slot's own stem is not in the rest
        rest_size = len(whole) - own
        found: tuple[str, str] | None = None
        for idx in holding.get(key, ()):
            budget -= 1
            if budget < 0:
                return out  # bounded work per claim (`MAX_STEPS`)
            hit = hits[idx]
            if len(hit) < 2:
                continue  # the head alone does not align the sentence with the claim
            shared = len(whole.intersection(hit)) - (1 if own and st in hit else 0)
            if shared < ALIGN * rest_size:
                continue  # the sentence says something else about the head
            s = sentences[idx]
            s_lows, s_stems, s_content = s.lows, s.word_stems, s.content
            budget -= len(s_lows)
            last = len(s_lows) - 1
            for j in range(1, last + (anchor is not None)):
                if not s_content[j] or s_lows[j] in claim_lows or s_stems[j] in claim_stems:
                    continue
                if anchor is None:
                    if not _same(s_lows[j + 1], s_stems[j + 1], n_low, n_stem):
                        continue
                elif not _ends_alike(s, j, n_low):
                    continue
                if not _same(s_lows[j - 1], s_stems[j - 1], p_low, p_stem):
                    continue
                if anchor == i - 2 and not _same(
                    s_lows[j - 2], s_stems[j - 2], lows[anchor], stems[anchor]
                ):
                    continue  # "plays the *violin*": the verb before the determiner too
                other = s_lows[j]
                if not defined:  # a word WordNet does not define: read against an acronym
                    if not (
                        _acronym_rival(low, s.raws[j])
                        or (
                            s.raws[j][:1].islower()
                            and not _defined(other)
                            and _acronym_rival(other, raws[i])
                        )
                    ):
                        continue  # an acronym of the claim's against such a word, too
                    found = (raws[i], s.raws[j])
                    break
                if s.raws[j][:1].isupper():
                    continue  # a name of the source's: its own rules read names
                pair = (low, other, anchor is not None)
                rival = decided.get(pair)
                if rival is None:  # each pair of words judged once per call
                    rival = decided[pair] = _rivals(low, st, other, s_stems[j], pair[2])
                if not rival:
                    continue
                found = (raws[i], s.raws[j])
                break
            if found is not None:
                break
        if found is not None:
            out.append(found)
            if len(out) >= MAX_SWAPS:
                break
    return out


# the prepositions of `_BEFORE`: an undefined word after one may end its clause (above)
_PREPOSITIONS = word_set("of in on at for with from by about into onto over under")


def _slots(
    words: ClaimWords,
    content: Sequence[bool],
    src_lows: Set[str],
    src_stems: Set[str],
    said: Set[str],
    clause: Sequence[int] | None,
) -> list[tuple[int, int | None, bool, bool]]:
    """(position, anchor, ends, defined) of each claim word that may be a slot (module
    docstring): a common content word the source lacks, not reported yet, that WordNet
    defines (`defined`; one it does not define is a slot only as a modifier, read against
    a source acronym alone: `_acronym_rival`), either
    between a determiner, preposition or shared modifier and a content word both have, or
    the object of a verb both have (`_object_anchor`; `anchor` its verb's position, `ends`
    whether it ends its clause). Each test reads only the claim, the source's word sets
    and WordNet, so `claim_slot_swaps` makes them before the claim's clauses are split
    (`clause` None: whether a word ends its clause is not known yet, so both readings are
    tried and the list is a superset) and `slot_swaps` before the source's sentences are
    indexed: most claims have no such word."""
    raws, lows, stems, numbers = words.raws, words.lows, words.stems, words.numbers
    n = len(raws)
    out: list[tuple[int, int | None, bool, bool]] = []
    for i in range(1, n):
        if not content[i] or raws[i] in said:
            continue
        low, st = lows[i], stems[i]
        if low in src_lows or st in src_stems or numbers[i] is not None:
            continue
        if not low.isalpha() or (raws[i][:1].isupper() and not is_acronym(raws[i])):
            continue  # a name (`names.py`), or a token of digits and signs
        nxt = i + 1
        defined = bool(_defined(low)) and not raws[i][:1].isupper()
        shared_modifier = content[i - 1] and stems[i - 1] in src_stems
        # a shared word in -ly before a word WordNet defines is read as an adverb of a
        # verb in the slot ("accidentally *injures*"); an acronym or an undefined word is
        # read only as a modifier (below), so a shared "nightly" / "weekly" before it is
        # the adjective it qualifies the head with ("nightly *RDS* backups"; session 15)
        shared_before = shared_modifier and (not lows[i - 1].endswith("ly") or not defined)
        if clause is None:  # not split yet: read as ending its clause and as not ending it
            readings = (True,) if nxt == n else (True, False)
        else:
            readings = (nxt == n or clause[nxt] != clause[i],)
        for ends in readings:
            if (
                not defined
                and ends
                and i >= 2
                and lows[i - 1] in _PREPOSITIONS
                and content[i - 2]
                and stems[i - 2] in src_stems
            ):
                # session 15: an acronym or an undefined word ending its clause after a
                # preposition and a content word both have ("runs on *kubernetes*" /
                # "runs on *ECS*"): read against a source acronym in the same place,
                # the word before the preposition its anchor
                out.append((i, i - 2, True, False))
                break
            anchor = _object_anchor(i, ends, shared_before, raws, lows, stems, content, src_stems)
            if anchor is not None:
                pass  # the object of a verb both have ("teaches *history*")
            elif ends or not content[nxt] or stems[nxt] not in src_stems:
                continue  # the slot qualifies a content word both have
            elif lows[i - 1] not in _BEFORE and not shared_before:
                continue  # no determiner, preposition or shared modifier before it: a
                # verb, maybe; an adverb in -ly before it qualifies a verb
            if defined:
                out.append((i, anchor, ends, True))
            elif anchor is None:
                # a word WordNet does not define is read against a source acronym only,
                # as a modifier ("*email* alerts"), not as a verb's object
                out.append((i, anchor, ends, False))
            else:
                continue  # not defined, read as an object: try it as a modifier
            break
    return out


def is_acronym(raw: str) -> bool:
    """Two to five ASCII capitals ("SMS", "CRM"), as a claim or source writes an
    acronym."""
    return 2 <= len(raw) <= 5 and raw.isascii() and raw.isalpha() and raw.isupper()


def _acronym_rival(low: str, other_raw: str) -> bool:
    """Whether a source acronym ("SMS", two to five capitals) in the modifier slot of a
    claim word WordNet does not define ("email") is its rival: two names of kinds of the
    head ("*email* alerts" / "*SMS* alerts", "*webhook* alerts" / "*SMS* alerts"), both
    technical words the common-word table lacks. A claim word that could be one of the
    words the acronym stands for (its first letter is one of the acronym's: "*message*
    alerts" / "*SMS* alerts") is not read, nor an acronym WordNet defines (read as a word
    by `_rivals`), nor a word WordNet defines in the claim ("*text* alerts", "*urgent*
    alerts": the plain word for the acronym, or a quality added, more often than a rival
    kind; `_slots` does not read them against an acronym). Read both ways: an acronym of
    the claim's in the slot of such a word of the source ("*SMS* alerts" / "*email*
    alerts") is its rival too."""
    return (
        is_acronym(other_raw)
        and low[:1].upper() not in other_raw
        and not _defined(other_raw.lower())
    )


def _rivals(low: str, st: str, other: str, other_stem: str, as_object: bool) -> bool:
    """Whether the source's word `other` in the claim word's place is a rival of it: a
    word (no number, no digits or signs) WordNet defines (else whether it differs is
    unknown), not the same thing (`same_thing`), and for a verb's object two kinds of one
    genus (`kinds.kin`)."""
    if number_value(other) is not None or not other.isalpha():
        return False
    if not _defined(other):
        return False
    if same_thing(low, st, other, other_stem):
        return False
    return not as_object or kin(low, other)


def _object_anchor(
    i: int,
    ends: bool,
    shared_before: bool,
    raws: Sequence[str],
    lows: Sequence[str],
    stems: Sequence[str],
    content: Sequence[bool],
    src_stems: Set[str],
) -> int | None:
    """The position of the verb whose object the word `i` is, when the slot is read as an
    object: the word ends its clause or a function word other than a determiner follows
    it ("teaches *history*", "teaches *history* at the school"), and right before it
    stands a content word both have (the verb: "teaches") or a determiner after one
    ("plays the *violin*"), not capitalised (a name before the word is its subject). A
    noun's modifier is read with its head (`slot_swaps`); the verb itself is not read
    (a verb reworded is a paraphrase more often than a changed fact)."""
    if not ends and (content[i + 1] or lows[i + 1] in _DETERMINERS):
        return None  # a content word follows: the slot modifies it, read as before; a
        # determiner follows: the slot is a verb ("Priya *leads* the team")
    if shared_before:
        anchor = i - 1
    elif (
        i >= 2
        and lows[i - 1] in _DETERMINERS
        and content[i - 2]
        and stems[i - 2] in src_stems
        and not lows[i - 2].endswith("ly")
    ):
        anchor = i - 2
    else:
        return None
    if raws[anchor][:1].isupper():
        return None  # a name before it is a subject, the slot its verb ("Priya *leads*")
    return anchor


def _ends_alike(s: Sentence, j: int, n_low: str) -> bool:
    """Whether the source word `j` of `s` is placed as the claim's object is: at the end
    of its clause when the claim's is (`n_low` empty), else before the same word."""
    if not n_low:
        return j == len(s.lows) - 1 or s.clause_of()[j + 1] != s.clause_of()[j]
    return j + 1 < len(s.lows) and s.lows[j + 1] == n_low


def claim_slot_swaps(
    claim_text: str,
    turns: Sequence[SourceTurn],
    known_names: Set[str],
    said: Set[str] = frozenset(),
) -> list[tuple[str, str]]:
    """`slot_swaps` of a claim against its turns, read as `features.analyze` reads them
    (the claim's disguises folded, known names not content words). The verifier calls it
    after the analysis, so the fitted score's signals are the ones it was fitted on."""
    words_text = fold_disguises(claim_text)
    words = claim_words(words_text)
    if len(words.raws) < 3:
        return []
    ev = evidence_for(turns)
    content = [
        c and low not in known_names for c, low in zip(words.content, words.lows, strict=True)
    ]
    if not _slots(words, content, ev.lows, ev.stems, said, None):
        return []  # nothing to read: the clauses are not split
    clause = clause_ids(words_text, words.spans, words.lows)
    return slot_swaps(words, content, clause, ev.sentences, ev.lows, ev.stems, said)
