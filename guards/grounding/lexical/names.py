"""A name the claim puts where the source puts another name: "Marco is the CTO" against
"Dana became CTO in March after the reorg".

The claim's name is in no source turn, so the other rules read it as an added specific
(PARTIAL, "a project name the source never gave"), and the swapped-specific rule of
`features._conflicts` needs the two names between the same neighbours, which a changed
verb ("is" / "became") or word order ("The CTO is Marco") defeats. A changed name is a
contradiction (docs/grounding.md §Verdicts), so `swapped_names` reads it as one when:

* the claim word is a **name**: written with a capital and then lower case (an all-capital
  word is an acronym, an organisation or a title, not a person), not a function word, and
  either inside a sentence, or opening one (where every word has a capital) and then
  not a common word: not a lower-case lemma of WordNet (`data/lexicon.txt`, built by
  scripts/build_lexicon.py; proper nouns are the lemmas WordNet writes with a capital)
  unless the claim or the source also writes it with a capital inside a sentence. So
  "Marco is the CTO" has a name, "Budget is $5M" and "Yesterday the CTO resigned" do not;
  a name that is also a common word ("Bill", "Grace") is read as one inside a sentence,
  where the text writes it so elsewhere, or where it opens a sentence as a bare subject
  (`_subject`: "Grace is the CTO", "Christian approved it"; not "Grace periods are ...",
  "Mark the date", "Security reviewed it", "Hometown is Porto"). A title's full stop
  ("Mr. Johnston", `_TITLES`) opens no sentence;
* the source never uses it as the whole word (in any case, possessive or not: a word of
  the same stem is no use, "Daniela" is not "Daniel", `stem_only_names`), it is not the
  source's name written differently (`spelling.same_name_in`: "Wallstreet", "NY",
  "Anette" / "Annette") and it is not the memory's owner (`known_names`);
* the rest of its clause (its other content words) is held, `ALIGNED` of it and at least
  one word, by a source sentence that names someone else: a name (as above, or a speaker
  of the transcript) that the claim does not use;
* each name is **linked** to those shared words: at most `MAX_GAP` words lie between
  the name and the nearest shared word, no sentence mark and no conjunction ("Dana and
  the CTO met" joins two people), and every content word in between is a word of the
  other side or a linking verb or role modifier (`LINKING`: "became", "appointed", "our
  new"). "Dana emailed the CTO" does not give Dana the role ("emailed" is neither);
* the two are possessive alike ("Marco's team" / "Dana's team"; "Dana's CTO" is not Dana).

A name absent from the source with no such competitor stays what it was (an added
specific), and a claim that adds a surname to the source's first name ("Dana Kim became
CTO" / "Dana became CTO") has no competitor: "Dana" is the claim's own.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from importlib import resources

from groundwire.guards.grounding.lexical.antonyms import _DETACH
from groundwire.guards.grounding.lexical.evidence import Sentence
from groundwire.guards.grounding.lexical.name_roles import after_apposition, passive_with_agent
from groundwire.guards.grounding.lexical.opening_names import irregular_verb_form, possessive_opener
from groundwire.guards.grounding.lexical.spelling import same_name_in
from groundwire.guards.grounding.lexical.text import (
    CALENDAR,
    CONJUNCTIONS,
    STOPWORDS,
    ClaimWords,
    capitals,
    clause_ids,
    stem,
    word_set,
)

__all__ = ["LINKING", "common_word", "opens_sentence", "stem_only_names", "swapped_names"]

# Share of the rest of the claim clause a source sentence must hold (as `features.ALIGNED`).
ALIGNED = 0.6
# Words that may stand between a name and the words it is linked to.
MAX_GAP = 4
# Verbs that give a name a role or keep it in one, and the modifiers of a current role;
# a closed class: "Dana became CTO", "Dana was appointed CTO", "Dana, our new CTO".
# "former", "previous", "ex" are not here: a former holder does not compete.
LINKING = frozenset(
    map(
        stem,
        word_set(
            """become became becomes becoming remain remains remained stay stays stayed serve
            serves served act acts acted named appointed elected promoted hired new current
            acting interim"""
        ),
    )
)
_BREAK = re.compile(r"[.;!?]")
# a copula or the "by" of a passive: what it links reads both ways
_VIA = word_set("is are was were be been being am by")
# English function words WordNet (nouns, verbs, adjectives, adverbs) leaves out and
# `text.STOPWORDS` does not list: conjunctions, prepositions, pronouns, interjections. A
# closed class: "Although the CTO ..." opens with no name.
_FUNCTION = word_set(
    """although because whether unless since whereas whilst though until till upon among
    amongst without within during toward towards against beside besides per via despite
    whichever whoever whomever whenever wherever however everyone everybody anyone anybody
    someone somebody everything itself yourselves hey oops"""
)
_OPENERS = frozenset(".!?:\"'(")
# Titles written before a name with a full stop ("Mr. Johnston", "Dr. Patel"): that stop
# ends no sentence, and the title itself is no name. A closed class.
_TITLES = word_set("mr mrs ms mx dr prof rev")
# What follows a sentence's subject and never a bare common noun opening one: a verb
# that agrees with a singular subject (a modal, a copula or "has"/"does" in its
# singular form, `_FINITE`), a linking verb (`LINKING`: "became"), or a past tense in
# "-ed" ("approved"). "Grace is the CTO", "Tom became CTO", "Christian approved it"
# have one; "Grace periods are 30 days", "Mark the date", "Bill the client" do not.
_FINITE = word_set("is was has does will would can could should shall must might")
# The endings of English abstract nouns, which open a sentence bare as subjects
# ("Security reviewed the contract", "Funding was approved") and make almost no given
# name: of Faker's given names of 11 locales that are WordNet lemmas too, 4 of 300 end so
# ("Lance", "Clarence", "Aisling", "Ascension"; bench/measure_initial_names.py).
_ABSTRACT = (
    "ity",
    "ion",
    "ment",
    "ness",
    "ance",
    "ence",
    "ing",
    "ship",
    "hood",
    "ism",
    "ure",
    "age",
)


@functools.cache
def _lexicon() -> frozenset[str]:
    """The lower-case lemmas of WordNet and their irregular forms (`data/lexicon.txt`)."""
    path = resources.files("groundwire.guards.grounding").joinpath("data/lexicon.txt")
    return frozenset(w for w in path.read_text("utf-8").splitlines() if not w.startswith("#"))


# WordNet undoes a bare "-es" for verbs only ("goes", "fixes"), and English writes one
# only after these endings; the lexicon has no parts of speech, so the spelling decides:
# "Frances" is no form of "franc".
_BARE_ES = ("s", "x", "z", "ch", "sh", "o")


@functools.lru_cache(maxsize=16_384)
def common_word(low: str) -> bool:
    """Whether `low` (lower case) is a common English word: a lower-case WordNet lemma,
    an irregular form of one, or one with a regular ending undone (WordNet's detachment
    rules: "budgets", "approved"; a bare "-es" only where English writes one,
    `_BARE_ES`); a function word counts as common too."""
    if low in STOPWORDS or low in _FUNCTION or low in CONJUNCTIONS:
        return True
    lexicon = _lexicon()
    if low in lexicon:
        return True
    for suffix, repl in _DETACH:
        if (
            len(low) > len(suffix) + 1
            and low.endswith(suffix)
            and low[: -len(suffix)] + repl in lexicon
            and (suffix != "es" or repl or low[:-2].endswith(_BARE_ES))
        ):
            return True
    return False


def _base(low: str) -> str:
    """The word without a possessive "'s"."""
    return low[:-2] if low.endswith("'s") else low


def _in_source(base: str, src_lows: set[str] | frozenset[str]) -> bool:
    """Whether the source uses the word `base` (lower case, no "'s"), possessive or not."""
    return base in src_lows or base + "'s" in src_lows


def _name_shaped(raw: str) -> bool:
    """A capital, then lower case (an apostrophe for the possessive): "Marco", "Dana's",
    "McKenzie"; not "CTO", "AWS", "2024"."""
    letters = raw[:-2] if raw.endswith(("'s", "'S")) else raw
    return (
        len(letters) > 1
        and letters.isalpha()
        and letters[0].isupper()
        and not letters.isupper()
        and letters.lower() not in STOPWORDS
        and letters.lower() not in _FUNCTION
        and letters.lower() not in CALENDAR
        and letters.lower() not in _TITLES
    )


def _opens(text: str, start: int) -> bool:
    """Whether the word starting at `start` opens a sentence (nothing but blanks before
    it, or a sentence mark, colon, quote or parenthesis: as `features._entities`)."""
    j = start - 1
    while j >= 0 and text[j].isspace():
        j -= 1
    if j < 0:
        return True
    if text[j] == ".":  # "Mr. Johnston": the stop of a title ends no sentence
        k = j
        while k > 0 and text[k - 1].isalpha():
            k -= 1
        if text[k:j].lower() in _TITLES and (k == 0 or not text[k - 1].isalnum()):
            return False
    return text[j] in _OPENERS


opens_sentence = _opens  # for `features._entities`: one reading of a sentence start


def _subject(at: int, raws: Sequence[str], spans: Sequence[tuple[int, int]], text: str) -> bool:
    """Whether the capitalised word at `at`, opening a sentence, is a singular subject
    with no determiner: the next word, right after it (blanks only between), is a verb
    that agrees with it (`_FINITE`, `LINKING`, or a common word's "-ed" past). A common
    noun opens a sentence so only in headline style; a name does so all the time:
    "Grace is the CTO" / "Grace periods are 30 days". A copula followed by a name or a
    number is a memory's label and its value ("Hometown is Porto", `labels.py`), not a
    person. An apposition set off by commas may stand between ("Grace, the CTO,
    approved it": `name_roles.after_apposition`)."""
    k = after_apposition(at, raws, spans, text)
    if k is None:
        k = at + 1
        if k >= len(raws) or text[spans[at][1] : spans[k][0]].strip():
            return False
    if raws[at].lower().endswith(_ABSTRACT):
        return False
    return _verb_at(k, raws)


def _by_syntax(at: int, raws: Sequence[str], spans: Sequence[tuple[int, int]], text: str) -> bool:
    """Whether the syntax reads the capitalised word at `at` as a name: a bare subject
    (`_subject`) or a possessive opening a sentence with no determiner
    (`opening_names.possessive_opener`: "Ana's laptop")."""
    return _subject(at, raws, spans, text) or possessive_opener(at, raws, spans, text, _ABSTRACT)


def _rival_by_syntax(s: Sentence, raw: str) -> bool:
    """Whether some place of the source sentence `s` where it writes `raw` (possessive
    or not) is read as a name by syntax (`_by_syntax`)."""
    base = _base(raw.lower())
    offsets = s.word_spans()
    return any(
        _base(s.lows[j]) == base and _by_syntax(j, s.raws, offsets, s.text)
        for j in capitals(s.raws)
    )


def _verb_at(k: int, raws: Sequence[str]) -> bool:
    """Whether the word at `k` is a verb agreeing with a singular subject before it
    (`_subject`)."""
    nxt = raws[k]
    if not nxt.isalpha() or not nxt.islower():
        return False
    if nxt in _VIA and k + 1 < len(raws) and not raws[k + 1][:1].islower():
        return False  # "Hometown is Porto", "Budget is $5M": a label and its value
    return (
        nxt in _FINITE
        or stem(nxt) in LINKING
        or (nxt.endswith("ed") and len(nxt) > 4 and common_word(nxt))
        or irregular_verb_form(nxt)  # "Ana wrote" (`opening_names.py`, session 16b)
    )


def _acts(at: int, raws: Sequence[str], spans: Sequence[tuple[int, int]], text: str) -> bool:
    """Whether the name at `at` is the subject of an active verb right after it, or after
    its apposition ("Dana, the CFO, reported costs"), not of a passive ("Dana was hired
    by ...")."""
    k = after_apposition(at, raws, spans, text)
    if k is None:
        k = at + 1
        if k >= len(raws) or text[spans[at][1] : spans[k][0]].strip():
            return False
    return _verb_at(k, raws) and not passive_with_agent(at, raws, spans, text)


def _is_name(raw: str, opens: bool, capitalised_inside: set[str]) -> bool:
    if not _name_shaped(raw):
        return False
    base = _base(raw.lower())
    return not opens or base in capitalised_inside or not common_word(base)


def _run(at: int, raws: Sequence[str], spans: Sequence[tuple[int, int]], text: str) -> range:
    """The positions of the name at `at` with the name-shaped words written right beside
    it ("Priya Nair", "Marvel Cinematic Universe"): one name of several words."""
    lo = hi = at
    while (
        lo > 0 and _name_shaped(raws[lo - 1]) and not text[spans[lo - 1][1] : spans[lo][0]].strip()
    ):
        lo -= 1
    while (
        hi + 1 < len(raws)
        and _name_shaped(raws[hi + 1])
        and not text[spans[hi][1] : spans[hi + 1][0]].strip()
    ):
        hi += 1
    return range(lo, hi + 1)


def _links(
    run: range,
    lows: Sequence[str],
    stems: Sequence[str],
    content: Sequence[bool],
    spans: Sequence[tuple[int, int]],
    text: str,
    held: set[str],
    allowed: set[str] | frozenset[str],
) -> list[tuple[int, bool]]:
    """How the name at the positions `run` reaches a word whose stem is in `held` over a
    short gap of allowed words (see the module docstring): (direction, +1 or -1, and
    whether the gap holds a copula, a linking verb or "by"), for each direction that
    reaches one. A comma is crossed only by a name set off by commas (an apposition:
    "Our new VP of Sales, Ingrid, starts"), not by one that ends a phrase ("... in 18th
    century Japan, comic books")."""
    n = len(lows)

    def gap(a: int, b: int) -> str:  # the text between words a and b (a < b)
        return text[spans[a][1] : spans[b][0]]

    first, last = run[0], run[-1]
    set_off = (first == 0 or "," in gap(first - 1, first) or _opens(text, spans[first][0])) and (
        last == n - 1
        or "," in gap(last, last + 1)
        or _BREAK.search(gap(last, last + 1)) is not None
    )
    found: list[tuple[int, bool]] = []
    for step, start in ((1, last), (-1, first)):
        k = start + step
        via = False
        while 0 <= k < n and abs(k - start) <= MAX_GAP + 1:
            between = gap(k - 1, k) if step == 1 else gap(k, k + 1)
            if _BREAK.search(between) or ("," in between and not set_off):
                break
            if content[k] and stems[k] in held:
                found.append((step, via))
                break
            if lows[k] in CONJUNCTIONS or (
                content[k] and stems[k] not in allowed and stems[k] not in LINKING
            ):
                break
            via = via or lows[k] in _VIA or stems[k] in LINKING
            k += step
    return found


def _aligned(claim: list[tuple[int, bool]], source: list[tuple[int, bool]]) -> bool:
    """Whether the two names stand in the same place: on the same side of the shared
    words, or either reaches them through a copula, a linking verb or "by", which read
    both ways ("The CTO is Marco" / "Dana became CTO"; "reviewed by Fernanda" / "Tomasz
    reviewed"). "denomination of Christianity" and "Protestant denomination" are not."""
    return any(dc == ds or vc or vs for dc, vc in claim for ds, vs in source)


def stem_only_names(
    words: ClaimWords,
    text: str,
    src_lows: set[str] | frozenset[str],
    src_stems: set[str] | frozenset[str],
    known_names: set[str],
) -> list[int]:
    """Positions of the claim's names that the source has only by stem: a name, read as
    `swapped_names` reads one (`_is_name`; not an acronym's plural, "APIs"), that the
    source never writes as the whole word (any case, possessive or not) though it has a
    word of the same stem. The stem truncates to six letters and strips endings, so
    "Daniela" ~ "Daniel", "Christina" ~ "Christine" and "Hans" ~ "Han": for a name that
    is another person, and `features.analyze` reads these words as absent from the
    source (coverage, the unsupported-name signal, and the swapped-name rule). A plural
    or a demonym in "-n" is no exception: the "-s" of a name is as often a family name
    of its own ("Williams", "Roberts"), and "-n" makes given names ("Julia" / "Julian");
    the derivations in `_DERIVED` are ("Vietnamese" / "Vietnam")."""
    raws, lows, stems, spans = words.raws, words.lows, words.stems, words.spans
    # the cheap tests first: most claims use their names as the source does
    loose = [
        i
        for i in capitals(raws)
        if lows[i] not in src_lows
        and stems[i] in src_stems
        and _name_shaped(raws[i])
        and not _in_source(_base(lows[i]), src_lows)
        and _base(lows[i]) not in known_names
    ]
    if not loose:
        return []
    inside = {_base(lows[i]) for i in capitals(raws) if i and not _opens(text, spans[i][0])}
    return [
        i
        for i in loose
        if not (raws[i].endswith("s") and raws[i][:-1].isupper())  # "APIs", "CTOs"
        and not _derived(_base(lows[i]), src_lows)
        and (
            _is_name(raws[i], _opens(text, spans[i][0]), inside)
            or (_subject(i, raws, spans, text) and _only_names(stems[i], src_lows))
        )
    ]


def _only_names(st: str, src_lows: set[str] | frozenset[str]) -> bool:
    """Whether every source word of the stem `st` is no common word: the source has that
    stem only as a name, so a bare subject of the claim with it is another name
    ("Christian is the product owner" / "Christina is ..."), where one with a common
    word of it is that word ("Design is done" / "the designs are done")."""
    kin = [low for low in src_lows if stem(low) == st]
    return bool(kin) and not any(common_word(_base(low)) for low in kin)


# Endings that make an adjective or an abstract noun of a name and (almost) never
# another name: of Faker's given and family names (bench/measure_name_slips.py), 2
# pairs differ by "-ese"
# ("Anneli" / "Anneliese") and none by the others, where "-s" makes 304 pairs ("Adam" /
# "Adams"), "-n" 213 ("Aida" / "Aidan"), "-an" 60, "-ian" 17 ("Emil" / "Emilian").
_DERIVED = ("ese", "ity", "ism", "ist")


def _derived(base: str, src_lows: set[str] | frozenset[str]) -> bool:
    """Whether `base` and a source word are a name and its derivation ("Vietnamese" /
    "Vietnam", "Christianity" / "Christian"), either way round: the same name's word."""
    for ending in _DERIVED:
        if base.endswith(ending) and _in_source(base[: -len(ending)], src_lows):
            return True
        if _in_source(base + ending, src_lows):
            return True
    return False


def swapped_names(
    words: ClaimWords,
    text: str,
    content: Sequence[bool],
    sentences: Sequence[Sentence],
    shared: Sequence[set[str] | frozenset[str]],
    known_names: set[str],
    src_lows: set[str],
    src_stems: set[str],
    speakers: dict[str, set[str]],
    respelled: Callable[[str], bool] | None = None,
) -> list[tuple[str, str]]:
    """(claim name, source name) pairs: a name the source never uses, put where a source
    sentence puts another name (see the module docstring). `content` marks the claim's
    content words, `shared` the claim stems each sentence holds. `respelled(raw)` tells
    whether the sentences write the name `raw` another way (`same_name_in` finds it); the
    verifier passes `spelling.may_name`, which answers the same from an index of the
    evidence built once, instead of a pass over every source word per claim name."""
    raws, lows, stems, spans = words.raws, words.lows, words.stems, words.spans
    # the cheap tests first: set lookups, then the shape; most claims stop here
    unheard = [
        i
        for i in capitals(raws)
        if lows[i] not in src_lows
        and stems[i] not in src_stems
        and not _in_source(_base(lows[i]), src_lows)
        and _base(lows[i]) not in known_names
        and lows[i] not in known_names
        and _name_shaped(raws[i])
    ]
    if not unheard:
        return []
    inside = {_base(lows[i]) for i in capitals(raws) if i and not _opens(text, spans[i][0])}
    absent = [
        i
        for i in unheard
        if (
            _is_name(raws[i], _opens(text, spans[i][0]), inside) or _by_syntax(i, raws, spans, text)
        )
        and not _part_of_known(i, words, text, src_lows, sentences)
        and not (  # the source's name, respelled
            respelled(raws[i]) if respelled else same_name_in(raws[i], sentences) is not None
        )
    ]
    if not absent:
        return []
    claim_bases = {_base(low) for low in lows}
    claim_stems = {st for st, c in zip(stems, content, strict=True) if c}
    clause = clause_ids(text, spans, lows)
    absent_stems = {stems[i] for i in absent}
    out: list[tuple[str, str]] = []
    told: set[int] = set()  # the words of the names already reported
    for i in absent:
        if i in told:
            continue  # "Marco Kim": one name, one report
        # a name set off before its apposition is the subject of the clause after it
        # ("Grace, the CTO, approved the budget": the commas cut no clause of hers)
        after = after_apposition(i, raws, spans, text)
        mine = {clause[i]} if after is None else {clause[k] for k in range(i, after + 1)}
        rest = {
            stems[k]
            for k in range(len(lows))
            if clause[k] in mine and content[k] and stems[k] not in absent_stems
        }
        if not rest:
            continue
        possessive = lows[i].endswith("'s")
        run = _run(i, raws, spans, text)
        # "Revenue was reported by the CFO": the patient, no agent's rival
        patient = passive_with_agent(run[-1], raws, spans, text)
        own = {_base(lows[k]) for k in run}
        for s, hit in zip(sentences, shared, strict=True):
            held = set(hit & rest)
            if not held or len(held) < ALIGNED * len(rest):
                continue
            links = _links(run, lows, stems, content, spans, text, held, s.stems)
            if not links:
                continue
            other = _competitor(
                s, held, links, (claim_bases, own), claim_stems, possessive, speakers, sentences,
                patient,
            )  # fmt: skip
            if other is not None:
                if (
                    common_word(_base(lows[i]))
                    and common_word(_base(other.lower()))
                    and not (_by_syntax(run[-1], raws, spans, text) and _rival_by_syntax(s, other))
                ):  # two common words ("Paper", "Book"): a title's, likely, unless the
                    continue  # syntax reads both as names (`opening_names.py`)
                out.append((raws[i][:-2] if possessive else raws[i], other))
                told.update(run)
                break
    return out


def _part_of_known(
    i: int, words: ClaimWords, text: str, src_lows: set[str], sentences: Sequence[Sentence]
) -> bool:
    """Whether the claim's name at `i` stands next to a name the source uses ("Bob
    Marley", "Dana Kim", "Jordan Belfort" where the source says "Marley", "Dana",
    "Jordan"): another part of that person's name, an added detail, unless the source
    puts a different name in its place beside that word ("Marco Kim" against "Dana Kim")."""
    raws, lows, spans = words.raws, words.lows, words.spans
    for k in (i - 1, i + 1):
        if not 0 <= k < len(raws) or not _name_shaped(raws[k]):
            continue
        lo, hi = sorted((spans[i], spans[k]))
        if text[lo[1] : hi[0]].strip() or not _in_source(_base(lows[k]), src_lows):
            continue
        side = i - k  # where the claim's name stands beside the known one
        for s in sentences:
            for j, low in enumerate(s.lows):
                o = j + side
                if (
                    _base(low) == _base(lows[k])
                    and 0 <= o < len(s.raws)
                    and _name_shaped(s.raws[o])
                    and _base(s.lows[o]) not in map(_base, lows)
                ):
                    return False
        return True
    return False


def _competitor(
    s: Sentence,
    held: set[str],
    links: list[tuple[int, bool]],
    bases: tuple[set[str], set[str]],
    claim_stems: set[str],
    possessive: bool,
    speakers: dict[str, set[str]],
    sentences: Sequence[Sentence],
    patient: bool = False,
) -> str | None:
    """The first name of `s` the claim does not use, possessive as the claim's is, and
    linked to the shared words `held` in the place the claim's name is (`links`, its
    links, `_aligned`); None when there is none. `bases`: the claim's words, and those
    of the claim's name (its run). A source name written beside a word of the claim is
    part of a name the claim uses ("Cinematic" in "Marvel Cinematic Universe" against
    "the Marvel universe"), unless the claim's own name stands beside that word too
    ("Dana Kim" against "Marco Kim"). With `patient` (the claim's name is the subject of
    a passive whose agent is named, `name_roles.passive_with_agent`) a source name that
    acts ("Dana, the CFO, reported costs") is in another place."""
    claim_bases, own = bases
    raws, lows = s.raws, s.lows
    offsets: Sequence[tuple[int, int]] | None = None
    for j in capitals(raws):
        raw, low = raws[j], lows[j]
        if _base(low) in claim_bases or low.endswith("'s") != possessive:
            continue
        if offsets is None:
            offsets = s.word_spans()
        if not (
            _base(low) in speakers
            or _source_name(raw, s, offsets[j][0], sentences)
            or (_name_shaped(raw) and _by_syntax(j, raws, offsets, s.text))
        ):
            continue
        run = _run(j, raws, offsets, s.text)
        if patient and _acts(run[-1], raws, offsets, s.text):
            continue  # the agent, where the claim's name is the patient
        beside = {_base(lows[k]) for k in run} & claim_bases
        if not beside <= own:
            continue
        theirs = _links(run, lows, s.word_stems, s.content, offsets, s.text, held, claim_stems)
        if _aligned(links, theirs):
            return raw[:-2] if possessive else raw
    return None


def _source_name(raw: str, s: Sentence, start: int, sentences: Sequence[Sentence]) -> bool:
    """Whether a capitalised source word is a name: inside a sentence, or opening one and
    not a common word unless some source sentence writes it with a capital inside."""
    if not _name_shaped(raw):
        return False
    if not _opens(s.text, start):
        return True
    base = _base(raw.lower())
    if not common_word(base):
        return True
    for other in sentences:
        if base not in map(_base, other.lows):
            continue
        at = other.word_spans()
        for k in capitals(other.raws):
            if _base(other.lows[k]) == base and not _opens(other.text, at[k][0]):
                return True
    return False
