"""A memory written as "Label: value" ("Age: 34", "Hometown: Porto", "Job is nurse"): the
label names the attribute of the owner's that the value fills, and a turn states the
value without naming the attribute ("I'm 34", "I grew up in Porto", "I work as a nurse").

Word overlap counts the label as an unsupported word, so every such memory looked half
invented, true or not. The label is the name of a slot, not a fact of its own: it is
grounded when the speaker states the value of themself in a construction that fills
that slot. Read here as (`explained_labels`): a sentence of the user's turns holds every
content word of the value in one clause whose subject is the speaker ("I", "I'm",
"we", ..., or "my <X>" where X is the label in other words: "My job is nurse" for
"Occupation: nurse"), that clause is asserted (no negation, no question, hedge, wish or
plan: `assertion.sentence_moods`), "with" does not introduce the value ("I work with a
nurse" names a colleague), and its wording fits the attribute, one of

* "be" in the present and the value, at most a prepositional phrase after it: a bare
  predication of the speaker ("I'm 34", "I'm a nurse at St Mary's", "I'm Priya") states
  the speaker's value of whatever the label names ("I was a nurse" is no current job,
  "I'm 34 minutes late" no bare 34);
* a word of the clause other than the value, not the head of a noun phrase ("a *day*
  off": a thing named, not the wording), linked to the label by WordNet, either way: the
  label's entry has the word ("hometown: the town where you *grew* up" for "I grew up in
  Porto"; "birthday: the date on which a person was *born*"; "job: ... *work* ...") or
  the word's entry has the label ("old: having lived ... or attained a specific *age*"
  for "I'm 34 years old"; "work: be *employed*" for "Employer: Acme"; "husband", whose
  genus is *spouse*). An entry is the words of the definitions of a lemma's first two
  SemCor-tagged senses, their synonyms and their direct hypernyms: `data/glosses.tsv`,
  built by scripts/build_glosses.py from WordNet 3.1; nothing is written by hand.

A bare answer of the user's ("34.") to the other speaker's question about the user just
before it ("How old are you?") fills the label when the question's wording does
(`_answers`): the answer takes the question's predicate, and its "you" is the speaker.

Without a colon ("Name is Priya") the first words are a label only when WordNet has them
as common words (`data/glosses.tsv` has no proper names): "Dana is vegetarian" is about
Dana, and the user's "I'm vegetarian" does not ground it.

The value itself is never excused: "Age: 43" against "I'm 34" still lacks 43, "Hometown:
Lisbon" against "I grew up in Porto" still lacks Lisbon. A clause that fills the label so
for someone else ("My son was born on May 3", "My sister is 34", "He was born on May 3")
names who (`explained_labels`' third item), and the claim contradicts the source; not
"My boss is Dana" for "Manager: Dana": a name after "my <X> is" says who X is, and X may
be the label in words WordNet does not link.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from importlib import resources

from groundwire.guards.grounding.lexical.assertion import sentence_moods
from groundwire.guards.grounding.lexical.evidence import Sentence
from groundwire.guards.grounding.lexical.label_events import (
    ahead,
    bare_after,
    between_subject,
    result_wording,
    time_tail,
)
from groundwire.guards.grounding.lexical.text import (
    NEGATIONS,
    STOPWORDS,
    ClaimWords,
    has_implicative,
    stem,
    word_set,
)

__all__ = ["explained_labels", "gloss_stems", "label_parts"]

# the speaker as a clause's subject
_SPEAKER = word_set("i i'm im i've i'd i'll we we're we've we'd we'll")
# "be" with the speaker: "I'm 34", "I am a nurse", "I was born ..."
# present tense only: "I was a nurse" is no current job
_BE = word_set("i'm im am we're are is he's she's they're")
# "been" after these is the present perfect, a state that still holds ("I've been a nurse
# for ten years"); after "had"/"I'd" it is over
_HAVE = word_set("i've we've they've have has he's she's")
_COPULA = word_set("is was")
# someone other than the speaker: "my <someone>" (`_POSSESSIVE` before a content word),
# or a third person as the subject ("He was born on May 3")
_POSSESSIVE = word_set("my our")
_THIRD = word_set("he she they he's she's they're")
_DETERMINERS = word_set("a an the")
_YOU = word_set("you you're you've")
# a word after one of these heads a noun phrase ("a *day* off", "my *party*"): a thing the
# clause names, not the wording of the attribute ("I *grew* up", "I *work* as")
_NOUN_AFTER = _DETERMINERS | word_set("my your his her our their this that these those")
# what may follow a bare predication's value: "I'm a nurse at St Mary's"
_PREPOSITIONS = word_set("at in on for from with since of near by to")
# WordNet's detachment rules for nouns and adjectives (morph.c): a candidate lemma counts
# only when the table has it
_DETACH: tuple[tuple[str, str], ...] = (
    *(("s", ""), ("ses", "s"), ("xes", "x"), ("ches", "ch"), ("shes", "sh"), ("men", "man")),
    *(("ies", "y"), ("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
)
# ... and for verbs, read only for a turn's words ("moved" -> "move": its entry has
# "residence" and "location"): the table's lemmas are base forms, and a turn tells events
# in the past. Not "-ing": "I'm moving to Porto" is under way or planned, no state yet
_DETACH_VERB: tuple[tuple[str, str], ...] = (
    *(("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", "")),
)
# British spellings the table (American, as WordNet) writes otherwise: "favourite",
# "colour", "centre"
_SPELLINGS: tuple[tuple[str, str], ...] = (("our", "or"), ("tre", "ter"))


@functools.cache
def _table() -> dict[str, str]:
    """lemma -> the words of its definitions, as text (split when first looked up)."""
    path = resources.files("groundwire.guards.grounding").joinpath("data/glosses.tsv")
    _header, body = path.read_text("utf-8").split("\n\n", 1)
    return dict(line.split("\t", 1) for line in body.splitlines())


@functools.lru_cache(maxsize=4_096)
def gloss_stems(low: str) -> frozenset[str]:
    """The stems of the content words of the WordNet definitions of `low` (a lower-case
    word, reduced to a noun or adjective lemma the table knows), empty when none."""
    table = _table()
    if low not in table:  # "favourite": the table's "favorite"
        low = next(
            (low.replace(a, b) for a, b in _SPELLINGS if a in low and low.replace(a, b) in table),
            low,
        )
    found = [low] if low in table else []
    found += [
        low[: -len(suffix)] + base
        for suffix, base in _DETACH
        if low.endswith(suffix) and low[: -len(suffix)] + base in table
    ]
    return frozenset(stem(w) for lemma in found for w in table[lemma].split() if w not in STOPWORDS)


def label_parts(words: ClaimWords, text: str, known: set[str] | frozenset[str]) -> range | None:
    """The positions of the label of a claim written "Label: value" or "Label is value"
    (one or two words, after the owner's possessive if it names one: "User's manager:
    Dana"), None for any other claim or one with no content word after the label."""
    lows, spans = words.lows, words.spans
    start = 0
    if lows and lows[0] == "the" and len(lows) > 1 and lows[1] in known:
        start = 2
    elif lows and lows[0] in known:
        start = 1
    if start and not lows[start - 1].endswith("'s"):
        return None  # "User prefers ...": a verb follows the owner, not a label
    for k in (1, 2):
        end = start + k
        if end >= len(lows) or not words.content[end - 1] or not lows[end - 1].isalpha():
            return None
        colon = ":" in text[spans[end - 1][1] : spans[end][0]]
        if colon or lows[end] in _COPULA:
            value = end if colon else end + 1
            if any(words.content[value:]):
                return range(start, end)
            return None
    return None


def explained_labels(
    words: ClaimWords,
    text: str,
    sentences: Sequence[Sentence],
    known: set[str] | frozenset[str],
    src_stems: set[str] | frozenset[str],
) -> tuple[frozenset[str], int, str | None]:
    """(the stems of the claim's label words the source lacks, the index of the first
    sentence that fills the label with the claim's value in wording that fits it, as the
    speaker's: module docstring; None for the third item) or, where no sentence does and
    one fills it so for someone else ("My son was born on May 3" for "Birthday: May 3"),
    (empty, -1, who: "My son", "He"). (empty, -1, None) for a claim that is no "Label:
    value", whose label the source has, or that no sentence fills."""
    label = label_parts(words, text, known)
    if label is None:
        return frozenset(), -1, None
    lows, stems, content = words.lows, words.stems, words.content
    missing = [i for i in label if stems[i] not in src_stems]
    if not missing:
        return frozenset(), -1, None
    copula = lows[label.stop] in _COPULA
    if copula and not all(gloss_stems(lows[i]) for i in label):
        return frozenset(), -1, None  # "Dana is vegetarian": a name, not an attribute
    after = label.stop + copula
    value = {stems[i] for i in range(after, len(lows)) if content[i] and lows[i] not in known}
    if not value:
        return frozenset(), -1, None
    other = None
    asked: list[Sentence] = []  # the sentences of the turn before the current one
    turn: object = None
    before: list[Sentence] = []
    for k, s in enumerate(sentences):
        if s.turn is not turn:
            asked, before, turn = before, [], s.turn
        before.append(s)
        if s.turn.source == "user" and value <= s.stems:
            who = _fills(s, value, lows, missing)
            if who == "" or (who is None and _answers(s, value, asked, lows, missing)):
                return frozenset(stems[i] for i in missing), k, None
            other = other or who
    return frozenset(), -1, other


def _answers(
    s: Sentence,
    value: set[str],
    asked: Sequence[Sentence],
    claim_lows: Sequence[str],
    missing: list[int],
) -> bool:
    """Whether `s` is a bare answer (no content word but the value's, no negation: "34",
    "Porto, mostly") to the other speaker's question about the user, the turn just before
    it, whose wording fits the label ("How old are you?" for "Age: 34": "old" is linked
    to age; "Where did you grow up?" for "Hometown: Porto"): the answer takes the
    question's predicate, and its "you" is the speaker. Not where the question asks of
    "your <X>" with X no wording of the label ("How old is your son?")."""
    if not asked or asked[0].turn.source == "user" or not NEGATIONS.isdisjoint(s.lows):
        return False
    if any(s.content[j] and s.word_stems[j] not in value for j in range(len(s.lows))):
        return False
    question = asked[-1]
    if "?" not in question.text[question.start : question.end]:
        return False
    lows = question.lows
    yours = [lows[j + 1] for j in range(len(lows) - 1) if lows[j] == "your"]
    if any(not all(_linked(claim_lows[i], [w]) for i in missing) for w in yours):
        return False  # "How old is your son?": asked of someone else
    if _YOU.isdisjoint(lows) and not yours:
        return False
    wording = [
        low
        for j, low in enumerate(question.lows)
        if question.content[j] and not (j and question.lows[j - 1] in _NOUN_AFTER)
    ]
    return all(_linked(claim_lows[i], wording) for i in missing)


def _fills(
    s: Sentence, value: set[str], claim_lows: Sequence[str], missing: list[int]
) -> str | None:
    """Whom one clause of `s` holding the whole value, asserted, words as the missing
    label words' attribute (module docstring): "" for the speaker (a first-person
    subject), "my <someone>" or a third person ("My son", "He") for someone else; None
    where no clause does."""
    clause_of = s.clause_of()
    holding = {clause_of[j] for j, st in enumerate(s.word_stems) if s.content[j] and st in value}
    value_lows = sorted(
        {s.lows[j] for j, st in enumerate(s.word_stems) if s.content[j] and st in value}
    )
    moods = sentence_moods(s)
    found = None
    for clause in sorted(holding):
        at = s.clause_positions(clause)
        lows = [s.lows[j] for j in at]
        if not value <= {s.word_stems[j] for j in at if s.content[j]}:
            continue
        if not NEGATIONS.isdisjoint(lows) or has_implicative(lows) or any(j in moods for j in at):
            continue
        if ahead(lows):
            continue  # "I'm moving to Porto next year": a state still to come
        if _accompanies(s, at, value):
            continue  # "I work with a nurse": the value is someone beside the subject
        extra = [j for j in at if s.content[j] and s.word_stems[j] not in value]
        mine = [j for j in extra if j and s.lows[j - 1] in _POSSESSIVE]
        # "my job" for "Occupation: nurse" is the owner's own attribute; "my son" someone
        # ("my husband" for "Spouse: Dana"; not "my husband's sister": a chain of owners)
        own = [
            j
            for j in mine
            if not s.lows[j].endswith("'s")
            and all(_linked(claim_lows[i], [s.lows[j]]) for i in missing)
        ]
        others = [j for j in mine if j not in own]
        be = _bare(s, at, value)
        if be is not None:  # "I'm 34", "My sister is 34": the subject is next to "be"
            subject = between_subject(s.lows, at, be)  # "I just turned 34"
            lows = [s.lows[j] for j in at if j in (be, subject)]
        wording = [s.lows[j] for j in extra if not (j and s.lows[j - 1] in _NOUN_AFTER)]
        wording += result_wording([s.lows[j] for j in at])  # "moved" -> "live"
        if be is None and not _worded(claim_lows, missing, wording, value_lows):
            continue
        if not _SPEAKER.isdisjoint(lows) or own:
            return ""
        if others and be is not None and _named(s, at, value):
            continue  # "My boss is Dana" for "Manager: Dana": who Dana is, not whose
        if others:
            found = found or f"{s.raws[others[0] - 1]} {s.raws[others[0]]}"
        elif not _THIRD.isdisjoint(lows):
            found = found or next(s.raws[j] for j in at if s.lows[j] in _THIRD)
    return found


def _worded(
    claim_lows: Sequence[str], missing: list[int], wording: Sequence[str], value: Sequence[str]
) -> bool:
    """Whether the clause's wording fits every missing label word: each is linked to a
    word of it (`_linked`), or, when another label word is, it names the value's own
    class ("food" in "Favourite food: sushi" for "I love sushi": "favourite" is linked to
    "love", and WordNet has sushi a dish, a dish food; `_classifies`)."""
    linked = [i for i in missing if _linked(claim_lows[i], wording)]
    if not linked:
        return False
    return all(i in linked or _classifies(claim_lows[i], value) for i in missing)


def _named(s: Sentence, at: Sequence[int], value: set[str]) -> bool:
    """Whether the clause writes every word of the value capitalised (a name): "my <X> is
    <Name>" says who X is, and X may be the label's relation in other words ("my boss"
    for "Manager"), so it is no evidence of someone else's."""
    return all(s.raws[j][:1].isupper() for j in at if s.content[j] and s.word_stems[j] in value)


def _accompanies(s: Sentence, at: Sequence[int], value: set[str]) -> bool:
    """Whether "with" introduces the value in the clause ("I work with a nurse", "I grew
    up with Porto fans"): a companion of the subject's, not the attribute's value."""
    lows = s.lows
    for j in at:
        if s.content[j] and s.word_stems[j] in value:
            k = j - 1
            while k >= at[0] and (lows[k] in _NOUN_AFTER or not s.content[k]) and lows[k] != "with":
                k -= 1
            return k >= at[0] and lows[k] == "with"
    return False


def _bare(s: Sentence, at: Sequence[int], value: set[str]) -> int | None:
    """Whether the clause predicates the value of its subject with "be" and nothing else:
    "I'm 34", "I am a nurse", "I'm a nurse at St Mary's", "I've been a nurse for ten
    years" (a preposition may follow the value; "I'm 34 minutes late" is no bare "34"):
    the position of "be", else None."""
    lows, stems, content = s.lows, s.word_stems, s.content
    for n, j in enumerate(at):
        perfect = lows[j] == "been" and n > 0 and lows[at[n - 1]] in _HAVE
        # "I turned 34", "I became a nurse": the state the change results in
        following = lows[at[n + 1]] if n + 1 < len(at) else None
        result = bare_after(lows[j], following)
        if lows[j] not in _BE and not perfect and not result:  # "I've been a nurse": still one
            continue
        k = n + 1
        while k < len(at) and lows[at[k]] in _DETERMINERS:
            k += 1
        seen: set[str] = set()
        while k < len(at) and (stems[at[k]] in value or not content[at[k]]):
            if lows[at[k]] in _PREPOSITIONS:
                break
            seen.add(stems[at[k]])
            k += 1
        rest = [lows[at[m]] for m in range(k, len(at))]
        # a preposition's phrase or a time adverbial may close it ("I turned 34 last week")
        if value <= seen and (not rest or rest[0] in _PREPOSITIONS or time_tail(rest)):
            return j
    return None


def _linked(label: str, words: Sequence[str]) -> bool:
    """Whether a WordNet definition links the label to one of the turn's words, either
    way (a turn's verb read at its base form too: "moved" is "move")."""
    own = gloss_stems(label)
    target = stem(label)
    return any(
        stem(w) in own or target in gloss_stems(w) or target in _verb_gloss(w) for w in words
    )


@functools.lru_cache(maxsize=4_096)
def _verb_gloss(low: str) -> frozenset[str]:
    """The gloss stems of the verb lemmas of `low` by WordNet's detachment rules for
    verbs (morph.c): "moved" -> "move", "loves" -> "love"; empty when none is in the table."""
    table = _table()
    out: frozenset[str] = frozenset()
    for suffix, base in _DETACH_VERB:
        lemma = low[: -len(suffix)] + base
        if low.endswith(suffix) and lemma != low and lemma in table:
            out |= gloss_stems(lemma)
    return out


def _classifies(category: str, value: Sequence[str]) -> bool:
    """Whether the label word `category` names a class the value belongs to by WordNet,
    within two steps of its entry ("food" for "sushi": sushi -> *dish* -> *food*;
    "colour" for "blue"): in "Favourite food: sushi" the category is the slot's name and
    the value's own kind, so a turn that names the value ("I love sushi") need not name it.
    A value the table does not have (a proper name) is classified by nothing."""
    target = stem(category)
    table = _table()
    for low in value:
        first = gloss_stems(low)
        if target in first:
            return True
        words = table.get(low, "").split()
        if any(target in gloss_stems(w) for w in words if w not in STOPWORDS):
            return True
    return False
