"""Evaluations a claim adds: an opinion the source never gives, stated as part of the claim.

A model that restates a source often adds a judgement of its own: "it's an amazing film"
from a plot summary, "that's cute" after a fact, "The vendor's support is terrible" from a
neutral ticket. The words the claim shares with the source make such a claim look
grounded, but the judgement is the claim's and nobody in the source made it.

The evaluative words are `data/evaluative.tsv` (scripts/build_evaluative.py): the words
of the VADER lexicon whose human-rated valence is clear and which are mainly adjectives
in WordNet, each with its WordNet synonyms. A word of it in a claim is an *added
evaluation* when

* it is a content word of an asserted clause: not a function word ("well", "pretty",
  "like"), not in a question, not inside quotation marks (a quoted opinion is someone's
  words), not negated in its clause ("not bad", "isn't great": a negated judgement is
  weaker, left to the other checks), not under a modal ("cats can be cool"), not after
  a verb of saying or judging in its sentence ("they agree that it is impressive"),
* it is no reply to the other speaker ("true", "agreed", "okay"; "Yeah, that's cool."),
  no feeling of a person ("Sam is unsure", and a second predicate of the same person:
  "Alex is interested and eager"), no person's preference ("their favorite places") and
  no part of a name ("the Great Barrier Reef"),
* the source has neither the word (by stem) nor one of its WordNet synonyms that is an
  evaluative word of the same sign (`judging_synonyms.py`: "great" is also "old" and
  "big", which judge nothing), and
* no source sentence about the same thing (sharing a content stem with the word's
  clause) has an evaluative word of the same sign: the source's own judgement in other
  words ("great" where the claim says "excellent"). A source word the claim repeats
  itself is no such judgement: the claim restates it with the fact and adds its own
  ("storms so strong that they can be heard ... It's amazing", session 16).

Evaluative nouns (`data/evaluative_nouns.tsv`: "disaster", "triumph", "success", derived
the same way through WordNet's links to the adjectives) count only as a predicate: "The
launch was a disaster" judges, "the disaster relief fund" names a thing.

A comment frame ("It's interesting that ...") and an interjection set off on its own
("Cool, ...") stay the speaker's evaluation: BEGIN and FaithDial label them so on the fit
half (docs/grounding.md, Session 12).

The verifier (`verifier.py`) caps a claim with an added evaluation at PARTIAL, and makes
it NOT_SUPPORTED when the evaluation is what the claim asserts (`judges_only`): its
clause says nothing else ("that's cute", "the ending sounds weird"), or it stands in the
predicate ("the launch was a huge success", "She did an amazing job") rather than as a
modifier opening the clause's noun phrase ("The amazing film premiered in 2017"); its
PARTIAL rewrite drops the word ("The film premiered in 2017").
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import cast

from groundwire.guards.grounding.lexical.evidence import evidence_for
from groundwire.guards.grounding.lexical.judging_synonyms import judging_synonyms
from groundwire.guards.grounding.lexical.labels import label_parts
from groundwire.guards.grounding.lexical.names import common_word
from groundwire.guards.grounding.lexical.text import (
    NEGATIONS,
    STOPWORDS,
    ClaimWords,
    claim_words,
    clause_ids,
    stem,
    word_set,
)
from groundwire.topics.records import SourceTurn

__all__ = ["Added", "added_evaluations", "evaluative_nouns", "evaluative_words", "judges_only"]

# Words that answer the other speaker (assent, agreement, acknowledgement) rather than
# judge what the claim is about: "Yes that is true", "Agreed.", "Okay, ...". VADER rates
# them as positive because of how they read in social media posts.
REPLY_WORDS = word_set("true agreed sure ok okay fine right correct alright")
# Verbs that link a subject to how it seems; in a clause that judges they carry no content
# of their own ("the ending sounds weird", "it looks great").
_LINKING = word_set(
    """sound sounds sounded seem seems seemed look looks looked feel feels felt
    become becomes became remain remains remained"""
)
_QUOTES = frozenset('"“”')
# A clause that opens its sentence with one of these and judges reacts to what the other
# speaker just said ("That's cool", "that is interesting", "That's too bad"): a reply in
# the conversation, not a statement about the subject.
_BACK = word_set("that this that's")
# A modal before the word states a possibility, not a judgement ("cats can be cool").
_MODALS = word_set("can could may might would should must")
_COPULAS = word_set("is are was were be been being am 's 're 'm s re m")
_DETERMINERS = word_set("the a an his her their my your our its this these those")
# Possessives of a person: "their favorite destinations", "my best friend" say whose
# preference it is, which the speaker checks read, as they read "User loves sushi".
_POSSESSIVES = word_set("my your his her their our")
# Verbs that report someone's view: "they agree that the album is impressive" says what
# they think, an attributed judgement like a quoted one.
_REPORTING = word_set(
    """agree agrees agreed say says said think thinks thought find finds found believe
    believes believed consider considers considered claim claims claimed call calls
    called describe describes described mention mentions mentioned according conclude
    concludes concluded concur concurs concurred decide decides decided feel feels felt
    note notes noted remark remarks remarked argue argues argued insist insists insisted
    admit admits admitted rate rates rated judge judges judged"""
)
# What may stand before an evaluative word that modifies the noun opening its clause
# ("the excellent support team resolved it"): determiners and degree words.
_NOUN_PHRASE_OPENERS = word_set(
    "the a an this that these those some any its very so really quite pretty most more"
)
# Who may feel: a clause whose subject is a person says how that person feels or is
# ("Sam is unsure", "she was happy"), which the other checks read; an evaluation judges a
# thing ("the ending sounds weird", "the launch was a huge success").
_PERSONS = word_set("i i'm he she we they you he's she's we're they're you're")
# What joins a second predicate to the first one's subject: "Alex is interested and eager".
_COORDINATORS = word_set("and or but yet nor")
# What makes the noun after "a"/"an" an exclamation about something (English closed
# class): "What a disaster the launch was!", "It was such a triumph" judge as "The launch
# was a disaster" does, with or without the copula.
_EXCLAMATIVES = word_set("what such")
# What may stand between a copula's indefinite article and an evaluative noun: "was a
# complete disaster", "was an absolute triumph" (at most this many words).
_NOUN_MODIFIERS = 2
# The most evaluative words of one claim read: each is read against its clause, its
# sentence and the source's sentences, so a claim at the size limits made of one such word
# repeated (thousands of them in one clause) cost seconds to tens of seconds. The first
# ones decide: no claim of the dev file has half as many.
MAX_EVALUATIONS = 64


@dataclass(frozen=True, slots=True)
class Added:
    """One added evaluation: the word as written, its valence, and whether it is what its
    clause asserts (`judges_only`)."""

    word: str
    valence: float
    judges_only: bool


@functools.cache
def evaluative_words() -> dict[str, tuple[float, frozenset[str]]]:
    """word -> (valence, WordNet synonyms that judge alike), from the package's data file:
    a synonym of another sense that judges nothing ("great" / "old") is left out
    (`judging_synonyms`)."""
    return judging_synonyms(_read_table("data/evaluative.tsv"), evaluative_nouns())


@functools.cache
def evaluative_nouns() -> dict[str, tuple[float, frozenset[str]]]:
    """noun -> (valence, its evaluative adjectives and WordNet synonyms): "disaster",
    "triumph", "success" (scripts/build_evaluative.py). Read only as a predicate, see
    `_predicate_noun`."""
    return _read_table("data/evaluative_nouns.tsv")


def _read_table(name: str) -> dict[str, tuple[float, frozenset[str]]]:
    text = resources.files("groundwire.guards.grounding").joinpath(name)
    out: dict[str, tuple[float, frozenset[str]]] = {}
    for line in text.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        word, valence, synonyms = line.split("\t")
        out[word] = (float(valence), frozenset(filter(None, synonyms.split(","))))
    return out


def _judged_near(
    turns: Sequence[SourceTurn], about: frozenset[str], positive: bool, restated: frozenset[str]
) -> bool:
    """Whether a source sentence that speaks of what the claim's clause speaks of (shares a
    content stem with `about`) has an evaluative word of the same sign: the source's own
    judgement, in other words ("great" where the claim says "excellent").

    A source word whose stem the claim uses itself (`restated`) does not count: the claim
    repeats that word as part of the fact it restates, so its other evaluative word is not
    the same judgement in other words but one more ("storms so strong that they can be
    heard on a radio. It's amazing.": "strong" is the source's, "amazing" the claim's)."""
    table = evaluative_words()
    for s in evidence_for(turns).sentences:
        if about.isdisjoint(s.stems):
            continue
        for low, word_stem, content in zip(s.lows, s.word_stems, s.content, strict=True):
            if (
                content
                and low in table
                and low not in REPLY_WORDS
                and (table[low][0] > 0) == positive
                and word_stem not in restated
            ):
                return True
    return False


def _in_quotes(text: str, at: int) -> bool:
    """Whether offset `at` is inside a quotation ("..." or “...”) of the claim."""
    return sum(c in _QUOTES for c in text[:at]) % 2 == 1


def added_evaluations(claim: str, turns: Sequence[SourceTurn]) -> list[Added]:
    """The evaluations the claim adds to the source (see the module's docstring)."""
    table = evaluative_words()
    nouns = evaluative_nouns()
    words = claim_words(claim)
    if table.keys().isdisjoint(words.lows) and nouns.keys().isdisjoint(words.lows):
        return []  # no evaluative word at all: two set tests, no loop (session 17)
    hits = [
        k
        for k, low in enumerate(words.lows)
        if words.content[k]
        and (low in table or (low in nouns and _predicate_noun(words, claim, k)))
    ]
    if not hits:
        return []
    hits = hits[:MAX_EVALUATIONS]
    label = label_parts(words, claim, frozenset())
    if (
        label is not None
        and ":" in claim[words.spans[label.stop - 1][1] : words.spans[label.stop][0]]
    ):
        hits = [k for k in hits if k not in label]  # "Favorite food: sushi": a field's name
        if not hits:
            return []
    stems = evidence_for(turns).stems
    names = _source_names(turns)
    clause = clause_ids(claim, words.spans, words.lows)
    everything = frozenset(
        words.stems[j]
        for j in range(len(words.lows))
        if words.content[j] and words.lows[j] not in table
    )
    restated = frozenset(words.stems)  # what the claim says itself (`_judged_near`)
    out: list[Added] = []
    judged: dict[tuple[frozenset[str], bool], bool] = {}  # `_judged_near`, read once each
    for k in hits:
        low = words.lows[k]
        if low in REPLY_WORDS or _in_quotes(claim, words.spans[k][0]):
            continue
        if words.raws[k][:1].isupper() and not _opens_sentence(words, claim, k):
            continue  # part of a name: "the Great Barrier Reef", "Best Buy"
        valence, synonyms = table.get(low) or nouns[low]
        if words.stems[k] in stems or any(stem(s) in stems for s in synonyms):
            continue
        same = [j for j in range(len(words.lows)) if clause[j] == clause[k]]
        about = frozenset(
            words.stems[j] for j in same if words.content[j] and words.lows[j] not in table
        )
        key = (about or everything, valence > 0)
        if key not in judged:
            judged[key] = _judged_near(turns, *key, restated)
        if judged[key]:
            continue  # the source judges it too, in its own words
        before = [j for j in same if j < k]
        if any(words.lows[j] in NEGATIONS for j in before):
            continue  # "not bad", "isn't great"
        if any(words.lows[j] in _MODALS for j in before):
            continue  # "cats can be cool": a possibility, not a judgement stated as fact
        if before and words.lows[before[0]] in _BACK and _opens_sentence(words, claim, before[0]):
            continue  # "That's cool": a reply to the other speaker
        if _feeling(claim, words, before, k, names) or _shared_feeling(
            claim, words, clause, before, k, names
        ):
            continue  # "Sam is unsure", "Alex is interested and eager": how a person feels
        prev = words.lows[k - 1] if k else ""
        if prev in _POSSESSIVES or (prev.endswith("'s") and prev not in STOPWORDS):
            continue  # "their favorite places": whose preference it is
        if any(words.lows[j] in _REPORTING for j in _sentence_before(claim, words.spans, k)):
            continue  # "they agree that it is impressive": someone's view, reported
        if (
            k + 1 < len(words.lows)
            and words.lows[k + 1] in _DETERMINERS
            and not _punct_between(claim, words.spans[k][1], words.spans[k + 1][0])
            and not (low in nouns and _exclaimed(words, k))  # "What a mess the launch was"
        ):  # "Cool, the film ...": set off, no verb
            continue  # a verb: "and alert his friends", "free the slaves"
        end = words.spans[same[-1]][1]
        rest = claim[end:].lstrip(" \"”'")
        sentence_end = next((c for c in rest if c in ".!?"), "")
        if sentence_end == "?" or (not rest and claim.rstrip().endswith("?")):
            continue  # asked, not asserted
        others = [
            j
            for j in same
            if j != k
            and words.content[j]
            and words.lows[j] not in _LINKING
            and words.lows[j] not in table
        ]
        modifier = all(words.lows[j] in _NOUN_PHRASE_OPENERS for j in before)
        judges = low not in table or len(others) <= 1 or not modifier  # a noun: a predicate
        out.append(Added(words.raws[k], valence, judges))
    return out


def _predicate_noun(words: ClaimWords, text: str, k: int) -> bool:
    """Whether the noun `k` is what a copula says its subject is, with an indefinite
    article and at most `_NOUN_MODIFIERS` words between ("The launch was a disaster", "the
    talk was an absolute triumph"), or what an exclamation calls it ("What a disaster the
    launch was", "such a triumph": `_EXCLAMATIVES`), and no noun after it ("a disaster
    movie" names a kind of film). Elsewhere such a noun names a thing rather than judging one ("the
    disaster relief fund", "success rates")."""
    if (
        k + 1 < len(words.lows)
        and words.content[k + 1]
        and not _punct_between(text, words.spans[k][1], words.spans[k + 1][0])
    ):
        return False
    for j in range(k - 1, max(-1, k - 2 - _NOUN_MODIFIERS), -1):
        if words.lows[j] in ("a", "an"):
            if j == 0:
                return False
            link = words.lows[j - 1]
            if link in _EXCLAMATIVES:
                return True  # "What a disaster (the launch was)!", "such a triumph"
            return link in _COPULAS or link in _LINKING or link.endswith(("'s", "'re"))
        if words.lows[j] in _DETERMINERS or words.lows[j] in _COPULAS:
            return False
    return False


def _exclaimed(words: ClaimWords, k: int) -> bool:
    """Whether the noun `k` follows "what a"/"such a" (`_EXCLAMATIVES`) with at most
    `_NOUN_MODIFIERS` words between: the subject it judges may follow it ("What a
    disaster the launch was"), where a determiner after any other evaluative word marks a
    verb."""
    for j in range(k - 1, max(0, k - 2 - _NOUN_MODIFIERS), -1):
        if words.lows[j] in ("a", "an"):
            return words.lows[j - 1] in _EXCLAMATIVES
    return False


def _punct_between(text: str, start: int, end: int) -> bool:
    """Whether punctuation separates two words (offsets of the gap between them)."""
    return any(c in ",;:.!?()" for c in text[start:end])


def _shared_feeling(
    claim: str,
    words: ClaimWords,
    clause: Sequence[int],
    before: Sequence[int],
    k: int,
    names: frozenset[str],
) -> bool:
    """Whether the evaluative word `k` is a second predicate of the previous clause's
    person ("Alex is interested and eager", "she was tired but happy"): its own clause
    opens with a coordinator and has no subject, and the previous clause says how a person
    is (`_feeling`). "Alex is interested and the film is weird" judges the film."""
    if not before or words.lows[before[0]] not in _COORDINATORS:
        return False
    if not all(words.lows[j] in STOPWORDS or words.lows[j].endswith("ly") for j in before):
        return False
    prev = [j for j in range(k) if clause[j] == clause[k] - 1]
    subject = next(
        (
            j
            for j in prev
            if words.lows[j] not in STOPWORDS or _person(words.raws[j], words.lows[j], names)
        ),
        None,
    )
    if subject is None:
        return False
    first = next(
        (
            j
            for j in prev
            if j > subject
            and words.content[j]
            and words.lows[j] not in _COPULAS
            and words.lows[j] not in _LINKING
            and not words.lows[j].endswith("ly")
        ),
        None,
    )
    if first is None:
        return False
    return _feeling(claim, words, [j for j in prev if j < first], first, names)


def _opens_sentence(words: ClaimWords, text: str, k: int) -> bool:
    """Whether word `k` is the first of its sentence but for interjections and other
    function words ("Yeah, that's cool")."""
    return all(words.lows[j] in STOPWORDS for j in _sentence_before(text, words.spans, k))


def _feeling(
    claim: str, words: ClaimWords, before: Sequence[int], k: int, names: frozenset[str]
) -> bool:
    """Whether the evaluative word `k` is said of a person through a copula or a linking
    verb, with nothing but function words between ("Sam is unsure", "she was so happy",
    "they seem pleased"); "She did an amazing job" is a judgement of a job. The person
    must be the clause's first content word (its subject): "The pasta at Luigi's was
    delicious" judges the pasta."""
    for at, j in enumerate(before):
        if not _person(words.raws[j], words.lows[j], names):
            if words.lows[j] in STOPWORDS:
                continue
            return False  # the subject is no person: "The pasta at Luigi's was ..."
        between = [words.lows[i] for i in before[at + 1 :]]
        # a contraction written apart ("she 's terrified") is no word of its own
        gap = claim[words.spans[j][1] : words.spans[k][0]]
        return (
            (any(w in _COPULAS or w in _LINKING for w in between) or "'" in gap)
            and all(
                w in _COPULAS or w in _LINKING or w in STOPWORDS or w.endswith("ly")
                for w in between
            )
            and words.lows[k - 1] not in _DETERMINERS
        )
    return False


def _sentence_before(text: str, spans: Sequence[tuple[int, int]], k: int) -> range:
    """The positions of the words before `k` in its sentence."""
    j = k
    while j > 0 and not any(c in ".!?" for c in text[spans[j - 1][1] : spans[j][0]]):
        j -= 1
    return range(j, k)


def _person(raw: str, low: str, names: frozenset[str]) -> bool:
    """A personal pronoun, or a name: a capitalised word that is no common word, or that
    the source writes capitalised inside a sentence ("Ana" is a common word in WordNet)."""
    if low in _PERSONS:
        return True
    return raw[:1].isupper() and (not common_word(low) or low in names)


# where `_source_names` keeps its answer in `Evidence.derived`
_NAMES_KEY = "opinion.source_names"


def _source_names(turns: Sequence[SourceTurn]) -> frozenset[str]:
    """The lower-case forms of the words the source capitalises after a sentence's first.
    Read once per evidence (every word of every sentence) and kept with it, in
    `Evidence.derived`: the claims of a conversation read the same turns."""
    ev = evidence_for(turns)
    memo = ev.derived
    if memo is None:
        memo = ev.derived = {}
    got = memo.get(_NAMES_KEY)
    if got is None:
        got = memo[_NAMES_KEY] = frozenset(
            low
            for s in ev.sentences
            for raw, low in zip(s.raws[1:], s.lows[1:], strict=True)
            if raw[:1].isupper()
        )
    return cast("frozenset[str]", got)


def judges_only(added: Sequence[Added]) -> bool:
    """Whether one of the added evaluations is what its clause asserts."""
    return any(a.judges_only for a in added)
