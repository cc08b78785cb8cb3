"""The lexical verifier's signals: what one claim has, and lacks, against its evidence.

Coverage of content words alone (the reference baseline) misses the hallucinations
docs/spec.md §Grounding describes, so `analyze` combines several cheap signals (their
order and names are the model's contract, `model.FEATURES`):

* content-word coverage, over all evidence and over the best single sentence (a long
  source covers many words by chance; support usually sits in one sentence),
* coverage of content-word bigrams and the longest copied run (phrasing kept intact),
* numbers and quantities in the claim that the source never states,
* named entities (capitalised words) the source never mentions,
* negation present on one side and not the other in the best-matching sentence,
* antonyms in the same slot and negation flips between aligned clauses (`polarity`),
* first/second-person statements and questions that the (third-person) source cannot
  ground, and a claim about a named speaker whose own lines do not carry it.

It also finds the evidence spans that explain a verdict, and the swapped specifics (a
different number or name in the slot the source fills) that make a claim contradict its
source rather than extend it.
"""

from __future__ import annotations

import itertools
import math
import operator
import re
from collections.abc import Sequence, Set
from dataclasses import dataclass, field

from groundwire.guards.grounding.lexical.adjective_heads import (
    COPULAS,
    head_of_source_satellite,
)
from groundwire.guards.grounding.lexical.assertion import unasserted
from groundwire.guards.grounding.lexical.causatives import MARKERS as CAUSE_MARKERS
from groundwire.guards.grounding.lexical.causatives import caused_words
from groundwire.guards.grounding.lexical.cessation import ceased
from groundwire.guards.grounding.lexical.change_targets import swapped_targets
from groundwire.guards.grounding.lexical.changed_values import (
    MONTHS,
    WEEKDAYS,
    changed_amounts,
    changed_days,
)
from groundwire.guards.grounding.lexical.collective_owner import (
    COLLECTIVE_OWNER_WORDS,
    collective_owner_found,
)
from groundwire.guards.grounding.lexical.converse_comparisons import converse_words
from groundwire.guards.grounding.lexical.counts import listed_counts
from groundwire.guards.grounding.lexical.crossing import crossed_clauses
from groundwire.guards.grounding.lexical.durations import changed_durations
from groundwire.guards.grounding.lexical.evidence import ClaimClauses, Sentence, evidence_for
from groundwire.guards.grounding.lexical.exceptions_dropped import UNIVERSALS, dropped_exceptions
from groundwire.guards.grounding.lexical.factor_phrases import restated_factor_words
from groundwire.guards.grounding.lexical.factor_verbs import MARKS as FACTOR_MARKS
from groundwire.guards.grounding.lexical.factor_verbs import changed_factors
from groundwire.guards.grounding.lexical.findings import Findings
from groundwire.guards.grounding.lexical.first_person_source import first_person_unheld
from groundwire.guards.grounding.lexical.found_order import swapped_arguments_of_found
from groundwire.guards.grounding.lexical.function_verbs import (
    FUNCTION_VERBS,
    function_verbs_found,
)
from groundwire.guards.grounding.lexical.labels import explained_labels
from groundwire.guards.grounding.lexical.listed_names import swapped_in_lists
from groundwire.guards.grounding.lexical.magnitudes import as_the_sources
from groundwire.guards.grounding.lexical.names import (
    opens_sentence,
    stem_only_names,
    swapped_names,
)
from groundwire.guards.grounding.lexical.negation_agreement import denied_denial_only
from groundwire.guards.grounding.lexical.numerals import read_numerals
from groundwire.guards.grounding.lexical.opposite_bounds import opposite_bounds
from groundwire.guards.grounding.lexical.owner import (
    owner_elsewhere,
    owner_swaps,
    owner_unheard,
    subjectless_owner,
)
from groundwire.guards.grounding.lexical.person import first_person_in
from groundwire.guards.grounding.lexical.phrasal_synonyms import (
    candidates_in as phrasal_candidates,
)
from groundwire.guards.grounding.lexical.phrasal_synonyms import phrasal_synonym_in_source
from groundwire.guards.grounding.lexical.polarity import check_polarity
from groundwire.guards.grounding.lexical.prefixed_antonyms import non_flips
from groundwire.guards.grounding.lexical.privatives import PRIVATIVES, privative_flips
from groundwire.guards.grounding.lexical.pronoun_roles import PRONOUNS as _PRONOUNS
from groundwire.guards.grounding.lexical.pronoun_roles import pronoun_roles
from groundwire.guards.grounding.lexical.restated_frequencies import (
    FREQUENCY_CUES,
    restated_frequency_words,
)
from groundwire.guards.grounding.lexical.roles import (
    many_for_only_one,
    only_one_of_many,
    reversed_direction,
    swapped_arguments,
    swapped_roles,
)
from groundwire.guards.grounding.lexical.short_forms import (
    initials_in_source,
    numeronym_in_source,
)
from groundwire.guards.grounding.lexical.spelled_acronyms import as_source_acronyms
from groundwire.guards.grounding.lexical.spelling import as_source_names, may_name
from groundwire.guards.grounding.lexical.synonyms import synonym_in_source
from groundwire.guards.grounding.lexical.text import (
    DECADES,
    NEGATIONS_BUT_NO,
    SECOND_PERSON,
    STOPWORDS,
    WORD,
    ClaimWords,
    capitals,
    claim_words,
    fold_disguises,
    has_implicative,
    in_decade,
    number_in,
    number_value,
    parts_of,
    same_number,
)
from groundwire.guards.grounding.lexical.time_direction import MARKS as TIME_MARKS
from groundwire.guards.grounding.lexical.time_direction import turned_times
from groundwire.guards.grounding.lexical.transcript import renamed_participants
from groundwire.guards.grounding.lexical.units import (
    bound_swaps,
    counts_one,
    date_swaps,
    unit_swaps,
)
from groundwire.topics.records import EvidenceSpan, SourceTurn

__all__ = ["Analysis", "analyze"]

# Share of the claim's other content words a sentence must hold for a name or number the
# source uses elsewhere to count as swapped in it (`_conflicts`, with `aligned_swaps`).
ALIGNED = 0.6
# a numeronym ("k8s", "i18n") has digits: the gate of `numeronym_in_source` (a set test
# over the claim's characters in C, cheaper than a regex scan of the claim)
_DIGITS = frozenset("0123456789")
_CLAUSE_SPLIT = re.compile(r"[.;!?]|,\s*(?:and|but|while|so)\b|\bwhile\b")
_STEMS_OF = operator.attrgetter("stems")
_FIRST = operator.itemgetter(0)


@dataclass(slots=True)
class Analysis:
    """Signals for one claim against its evidence, plus what explains them."""

    features: dict[str, float]
    spans: list[EvidenceSpan]
    missing_words: list[str]
    missing_numbers: list[str]
    missing_entities: list[str]
    negation_flip: bool
    # (claim word, source word) pairs where the claim puts a different number or name,
    # or an antonym, in the slot the source fills: a contradiction, not an extrapolation.
    conflicts: list[tuple[str, str]] = field(default_factory=list)
    # source clauses the claim states with the opposite polarity (negation added/dropped)
    polarity_flips: list[str] = field(default_factory=list)
    # (source clause, mood) the claim states as fact where the source asks, imagines,
    # denies or hedges it (`assertion.unasserted`)
    unasserted: list[tuple[str, str]] = field(default_factory=list)
    # of `polarity_flips`, the sentences that name a value of the claim only as what
    # changed ("moved from Tuesday to Thursday")
    superseded: list[str] = field(default_factory=list)
    # of `conflicts`, the (claim name, source name) pairs where the claim names someone
    # the source never mentions in the role the source gives another (`names.py`)
    names_swapped: list[tuple[str, str]] = field(default_factory=list)
    # whether `conflicts` already holds the common words swapped in place (read once by
    # the verdict; the learned verifier decides twice on one analysis)
    slot_swaps_read: bool = False
    # the verdict rules' score-free outcome (`findings.py`), once a verdict has read them
    findings: Findings | None = None


def _entities(words: ClaimWords, text: str) -> list[int]:
    """Positions of the capitalised words that are not sentence-initial: a cheap
    named-entity proxy."""
    found: list[int] = []
    lows, spans, raws = words.lows, words.spans, words.raws
    # the capitalised words; the first word is sentence-initial
    for i in capitals(raws):
        # "May" the month, not the modal; "US" the country, not "us" (`text._compute_parts`)
        if i == 0 or (lows[i] in STOPWORDS and not words.content[i]):
            continue
        # after a sentence mark, colon, quote or parenthesis; not a title's full stop
        # ("Mr. Johnston" names Johnston inside the sentence, `names.opens_sentence`)
        if opens_sentence(text, spans[i][0]):
            continue
        found.append(i)
    return found


def analyze(
    claim_text: str,
    turns: Sequence[SourceTurn],
    known_names: set[str],
    aligned_swaps: bool = False,
) -> Analysis:
    """Compute the verifier's signals. Pure function; the unit tests drive it directly.

    `aligned_swaps`: also count as swapped a name or number the source uses elsewhere
    when a sentence holding most of the rest of the claim puts another one in its slot
    (`_conflicts`); for a cited artifact (a decision record names the option it chose
    and the ones it rejected), not for conversations, where it costs more than it finds."""
    claim_text = fold_disguises(claim_text)  # same offsets: read as its words show
    cw = claim_words(claim_text)
    ev = evidence_for(turns)
    # A name matches the source only as the whole word: one the source has only by stem
    # ("Daniela" / "Daniel") gets a stem no source word has, so every signal below reads
    # it as absent (`names.stem_only_names`); "#" is in no stem.
    loose = [
        i
        for i in stem_only_names(cw, claim_text, ev.lows, ev.stems, known_names)
        if not may_name(cw.raws[i], ev)  # "Cincinnatti": the source's
    ]
    if loose:
        own = list(cw.stems)
        for i in loose:
            own[i] = "#" + cw.lows[i].removesuffix("'s")
        cw = cw._replace(stems=tuple(own))
    spelled = as_source_acronyms(cw, ev)  # "New York City" / "NYC" (`spelled_acronyms.py`)
    # the words that spell a source acronym: no list's odd item either (session 17)
    spelled_out = (
        frozenset(w for w, a, b in zip(cw.lows, cw.stems, spelled.stems, strict=True) if a != b)
        if spelled is not cw
        else frozenset()
    )
    cw = spelled
    if not DECADES.isdisjoint(cw.numbers):
        cw = _decades_as_the_sources(cw, ev.stems, ev.numbers)
    if any(
        v is not None and (low not in ev.lows or not number_in(v, ev.numbers))
        for v, low in zip(cw.numbers, cw.lows, strict=True)
    ):  # a number the source does not write so: "$5,000,000" / "$5 million"
        cw = as_the_sources(cw, claim_text, ev.sentences)
    craws, clows, cstems, cnums = cw.raws, cw.lows, cw.stems, cw.numbers
    # whether each claim word is a content word (and not a known name)
    cmask: Sequence[bool] = cw.content
    if known_names:
        cmask = [c and low not in known_names for c, low in zip(cmask, clows, strict=True)]
    sentences = ev.sentences
    src_stems = ev.stems
    src_lows = ev.lows
    src_numbers = ev.numbers
    src_bigrams = ev.bigrams
    src_first = ev.first

    stems = list(itertools.compress(cstems, cmask))
    n = len(stems)
    found = list(map(src_stems.__contains__, stems))
    # the capitalised words the source never uses, and of those the ones that are a
    # name of the source written differently ("Japana", "NY"; `spelling.same_name_in`):
    # found, not added
    unnamed = [
        i
        for i in _entities(cw, claim_text)
        if clows[i] not in known_names and clows[i] not in src_lows and cstems[i] not in src_stems
    ]
    respelled = {i for i in unnamed if may_name(craws[i], ev)}
    # "BP" where the source says "blood pressure": initials of common words standing
    # where the phrase stands (`short_forms.py`, session 18)
    if unnamed:
        respelled.update(
            i
            for i in unnamed
            if i not in respelled and initials_in_source(craws, clows, cstems, i, sentences)
        )
    if respelled:
        at = itertools.compress(range(len(cmask)), cmask)
        found = [ok or i in respelled for ok, i in zip(found, at, strict=True)]
    if not all(found):
        # a noun the source names by its synonym ("attorney" / "lawyer"): found, not added
        # (`synonyms.py`, session 16)
        at = itertools.compress(range(len(cmask)), cmask)
        found = [
            ok or synonym_in_source(craws[i], clows[i], ev) for ok, i in zip(found, at, strict=True)
        ]
    # "cancelled" where the source says "called off": a phrasal verb of the same sense
    # (`phrasal_synonyms.py`, session 18)
    phrasals = phrasal_candidates(clows, ev.lows) if not all(found) else frozenset()
    if phrasals:
        at = itertools.compress(range(len(cmask)), cmask)
        found = [
            ok or (clows[i] in phrasals and phrasal_synonym_in_source(i, clows, ev))
            for ok, i in zip(found, at, strict=True)
        ]
    # "The team uses AWS" from the user's "We use AWS": the group the user speaks for is
    # found, not added; the slot rules still read it as a word the source does not write
    # (`collective_owner.py`, session 18)
    if (
        not all(found)
        and not COLLECTIVE_OWNER_WORDS.isdisjoint(clows)
        and collective_owner_found(clows, cstems, cmask, sentences)
    ):
        at = itertools.compress(range(len(cmask)), cmask)
        found = [ok or clows[i] in COLLECTIVE_OWNER_WORDS for ok, i in zip(found, at, strict=True)]
    # "small" where the source says "tiny": the head of the source's satellite
    # (`adjective_heads.py`, session 18)
    if not all(found) and not COPULAS.isdisjoint(clows):
        at = itertools.compress(range(len(cmask)), cmask)
        found = [
            ok
            or (clows[i - 1] in COPULAS and head_of_source_satellite(clows, cstems, i, sentences))
            for ok, i in zip(found, at, strict=True)
        ]
    # "k8s" where the source says "Kubernetes" (`short_forms.py`, session 18)
    if not all(found) and not _DIGITS.isdisjoint(claim_text):
        at = itertools.compress(range(len(cmask)), cmask)
        found = [
            ok
            or (
                len(clows[i]) < 6
                and not _DIGITS.isdisjoint(clows[i])
                and numeronym_in_source(clows, cstems, i, sentences)
            )
            for ok, i in zip(found, at, strict=True)
        ]
    # "The user likes jazz" from the user's "I like jazz": the verb the source writes as
    # a stopword (`function_verbs.py`, session 18)
    if not all(found) and not FUNCTION_VERBS.isdisjoint(itertools.compress(cstems, cmask)):
        verbs = function_verbs_found(clows, cstems, sentences)
        if verbs:
            at = itertools.compress(range(len(cmask)), cmask)
            found = [ok or i in verbs for ok, i in zip(found, at, strict=True)]
    # "fell by half" where the source says "halved": the factor is the source's
    # (`factor_phrases.py`, session 17)
    restated: set[int] = set()
    if not FACTOR_MARKS.isdisjoint(clows) or "fold" in claim_text:
        restated = restated_factor_words(clows, cstems, cmask, sentences)
        if restated:
            at = itertools.compress(range(len(cmask)), cmask)
            found = [ok or i in restated for ok, i in zip(found, at, strict=True)]
    # "every year" where the source says "annually": the period is the source's
    # (`restated_frequencies.py`, session 18)
    if not all(found) and not FREQUENCY_CUES.isdisjoint(clows):
        periodic = restated_frequency_words(clows, cstems, cmask, sentences)
        if periodic:
            at = itertools.compress(range(len(cmask)), cmask)
            found = [ok or i in periodic for ok, i in zip(found, at, strict=True)]
            restated = restated | periodic
    # "Age: 34" from the user's "I'm 34": the label names the slot the value fills, and
    # counts as found in the sentence that fills it (`labels.py`)
    granted, filling, other = explained_labels(cw, claim_text, sentences, known_names, src_stems)
    if granted:
        found = [ok or st in granted for ok, st in zip(found, stems, strict=True)]
    coverage = sum(found) / n if n else 1.0
    best: Sentence | None = None
    best_cov = 0.0
    sizes: list[int] = []
    top = 0
    uniq = set(stems)
    # claim stems found in each sentence: for the best sentence and for the spans
    shared = list(map(uniq.intersection, map(_STEMS_OF, sentences))) if uniq else []
    if granted:
        shared[filling] = shared[filling] | granted
    if uniq:
        # the first sentence with the most claim stems (none when no sentence has any)
        sizes = list(map(len, shared))
        top = max(sizes, default=0)
        if top:
            best, best_cov = sentences[sizes.index(top)], top / len(uniq)
    bigrams = list(itertools.pairwise(stems))
    bigram_cov = sum(map(src_bigrams.__contains__, bigrams)) / len(bigrams) if bigrams else coverage
    longest = _longest_run(stems, ev.positions) / n if n else 1.0

    missing_numbers = [
        raw
        for raw, low, num in zip(craws, clows, cnums, strict=True)  # num: number_value(low)
        if num is not None
        and not number_in(num, src_numbers)
        # the same word is the same number, but for "60s": a decade, or an age after a
        # possessive ("in her 60s"; `text.read_decades`)
        and (low not in src_lows or low[-1] == "s")
    ]
    if restated and missing_numbers:  # "half" of "fell by half" / "halved"
        told = {craws[i] for i in restated}
        missing_numbers = [raw for raw in missing_numbers if raw not in told]
    listed: list[tuple[str, str]] = []
    if missing_numbers:  # a count the source states as a list ("A, B and C"): one it
        # contradicts; one it agrees with is read as before (the score's number features
        # were fitted with it missing, and the core of the claim still rescues it)
        listed = listed_counts(cw, missing_numbers, sentences, shared)[1]
    missing_entities = [craws[i] for i in unnamed if i not in respelled]
    # A leading "no"/"not really" answers the other speaker; it negates no stated fact.
    claim_neg = not NEGATIONS_BUT_NO.isdisjoint(clows[1:])
    best_neg = best is not None and best.negated
    negation_flip = best is not None and claim_neg != best_neg
    if negation_flip and best is not None:
        # a negative implicative denies like a negation word: "was unable to delete" is
        # "could not delete", "failed to start" is "did not start" (`text.IMPLICATIVES`);
        # it only cancels a mismatch here, the polarity rules read it on their own
        negation_flip = (claim_neg or has_implicative(clows)) != (
            best_neg or has_implicative(best.lows)
        )
    if claim_neg and not ev.negated:
        negation_flip = not any(has_implicative(s.lows) for s in ev.sentences)
    clauses = ClaimClauses(cw, claim_text, cmask)
    polarity = check_polarity(cw, claim_text, ev, shared, known_names, cmask, clauses)
    if polarity.agreements and not polarity.flips:
        negation_flip = False  # the negation is undone by an antonym: "not disabled"/"enabled"
    if negation_flip and not claim_neg and best is not None and denied_denial_only(best, clows):
        negation_flip = False  # "We have funding" / "We have never lacked funding" (session 17)
    # "the US" is no "us": a word in capitals the lexicon has in lower case (`person`)
    first = first_person_in(craws, clows) and (
        not src_first or first_person_unheld(cw, claim_text, ev)  # whose "I" (session 14)
    )
    second = not SECOND_PERSON.isdisjoint(clows)
    question = claim_text.rstrip().endswith("?")
    speaker_mismatch = _speaker_mismatch(claim_text, ev.speakers)
    if "user" in claim_text.lower() and owner_unheard(cw, known_names, turns):
        speaker_mismatch = 1.0  # "the user ..." where no turn of the user's speaks of it
    implied, unheard = subjectless_owner(cw, claim_text, known_names, turns)
    if unheard:
        speaker_mismatch = 1.0  # "Prefers dark mode" where no turn of the user's speaks of it
    elif owner_elsewhere(cw, known_names, turns, implied, (sentences, shared, uniq)):
        speaker_mismatch = 1.0  # "the user ..." where only a document says it, of others

    missing_words = [
        raw for raw, ok in zip(itertools.compress(craws, cmask), found, strict=True) if not ok
    ]
    features = {
        "coverage": coverage,
        "best_sentence_coverage": best_cov,
        "bigram_coverage": bigram_cov,
        "longest_run": longest,
        "novel_words_log": math.log1p(len(missing_words)),
        "unsupported_numbers": float(min(len(missing_numbers), 3)),
        "unsupported_entities": float(min(len(missing_entities), 3)),
        "negation_mismatch": float(negation_flip),
        "first_person": float(first),
        "second_person": float(second),
        "question": float(question),
        "speaker_mismatch": speaker_mismatch,
        "claim_len_log": math.log1p(n),
        # Long sources cover many words by chance: let the model shift with length.
        "source_len_log": math.log1p(ev.seq_len),
        "coverage_x_source_len": coverage * math.log1p(ev.seq_len),
        "exact_coverage": (
            sum(map(src_lows.__contains__, itertools.compress(clows, cmask))) / n if n else 1.0
        ),
    }
    spans = _evidence_spans(uniq, sentences, shared)
    conflicts = _conflicts(
        cw,
        claim_text,
        sentences,
        missing_numbers,
        missing_entities,
        (shared, uniq) if aligned_swaps else None,
    )
    conflicts += polarity.antonyms
    conflicts += listed
    conflicts += ceased(cw, sentences)  # "has stopped approving" / "approves"
    names_swapped: list[tuple[str, str]] = []
    if uniq:  # a name the source never uses, where a source sentence puts another one
        said = {c for c, _ in conflicts}
        names_swapped = [
            pair
            for pair in swapped_names(
                cw,
                claim_text,
                cmask,
                sentences,
                shared,
                known_names,
                src_lows,
                src_stems,
                ev.speakers,
                lambda raw: may_name(raw, ev),
            )
            if pair[0] not in said
        ]
        conflicts += names_swapped
        if len(ev.speakers) >= 2:  # a transcript's participant renamed (`transcript.py`)
            said = {c for c, _ in conflicts}
            renamed = [
                pair
                for pair in renamed_participants(
                    cw, claim_text, cmask, sentences, src_lows, src_stems, ev.speakers, known_names
                )
                if pair[0] not in said
            ]
            names_swapped += renamed
            conflicts += renamed
        if "," in claim_text or "and" in clows or "or" in clows:  # a list's swapped member
            said = {c for c, _ in conflicts}
            listed_swaps = [
                pair
                for pair in swapped_in_lists(
                    cw.raws,
                    clows,
                    cw.spans,
                    claim_text,
                    sentences,
                    src_lows,
                    known_names,
                    lambda raw: raw.lower() in spelled_out or may_name(raw, ev),
                )
                if said.isdisjoint(pair[0].split())  # one report a name
            ]
            names_swapped += listed_swaps
            conflicts += listed_swaps
    if len(uniq) >= 3:
        conflicts += swapped_roles(cw, cw.content, sentences, shared, src_stems)
        if len(uniq) in map(len, shared):  # a sentence with every claim word: the order
            for pair in swapped_arguments(cw, cw.content, sentences, shared, uniq):
                if pair not in conflicts:
                    conflicts.append(pair)
        else:  # several sentences, none held whole by one source sentence: each alone
            for pair in swapped_arguments_of_found(
                cw, claim_text, cw.content, sentences, shared, src_stems
            ):
                if pair not in conflicts:
                    conflicts.append(pair)
    if "from" in clows:
        # a name the source writes another way read as the source's ("JS" / "JavaScript")
        named = as_source_names(cw, sorted(respelled), sentences)
        conflicts += reversed_direction(named, cw.content, sentences, shared)
    if "only" in clows:
        conflicts += only_one_of_many(cw, cw.content, sentences, shared)
    elif "and" in clows:
        conflicts += many_for_only_one(cw, cw.content, sentences, shared)
    if known_names or implied is not None:  # the owner, where the source says "my sister"
        conflicts += owner_swaps(cw, known_names, sentences, shared, uniq, implied)
    if other is not None:  # "Birthday: May 3" where "My son was born on May 3"
        conflicts.append(("(the user)", other))
    if any(cnums):  # a number: read with its unit, and a date as one value
        conflicts += unit_swaps(cw, claim_text, sentences, shared, src_numbers)
        said = {c.split()[0] for c, _ in conflicts}  # a value another rule already reads
        conflicts += [
            pair
            for pair in changed_amounts(cw, claim_text, sentences, shared, src_numbers)
            if pair[0].split()[0] not in said
        ]
        conflicts += date_swaps(claim_text, sentences, shared)
        if "to" in clows or "by" in clows:  # "grew to 14" / "grew by 14" (session 17)
            said = {c.split()[0] for c, _ in conflicts}
            conflicts += [
                pair
                for pair in swapped_targets(clows, cstems, cnums, sentences)
                if pair[0].split()[1] not in said
            ]
        conflicts += bound_swaps(cw, sentences, shared)
        # "more than 500" where the source says "nearly 500" (session 17)
        said = {c for c, _ in conflicts}
        conflicts += [p for p in opposite_bounds(cw, sentences, shared) if p[0] not in said]
        # a length of time changed across units or against "an hour" (`durations.py`)
        said = {c.split()[0] for c, _ in conflicts}
        conflicts += [
            pair
            for pair in changed_durations(cw, claim_text, sentences, shared, src_numbers)
            if pair[0].split()[0] not in said
        ]
    elif counts_one(clows):  # "an hour": one of a unit
        conflicts += unit_swaps(cw, claim_text, sentences, shared, src_numbers)
    # "two years ago" where the source says "in two years" (`time_direction.py`)
    if not TIME_MARKS.isdisjoint(clows) and not TIME_MARKS.isdisjoint(src_lows):
        conflicts += turned_times(clows, sentences, shared)
    # "halved" where the source says "doubled" (`factor_verbs.py`)
    if not FACTOR_MARKS.isdisjoint(clows) or "fold" in claim_text:
        conflicts += changed_factors(clows, sentences, shared)
    # "non-blocking" where the source says "blocking" (`prefixed_antonyms.py`)
    if "non" in clows or "non" in src_lows:
        conflicts += non_flips(clows, sentences, shared)
    if not WEEKDAYS.isdisjoint(clows) or not MONTHS.isdisjoint(clows):
        said = {c for c, _ in conflicts}
        conflicts += [p for p in changed_days(cw, sentences, shared, src_lows) if p[0] not in said]
    if not PRIVATIVES.isdisjoint(src_lows) or "far" in src_lows:  # "lacks IPv6", "far from"
        conflicts += privative_flips(clows, cstems, cmask, sentences)
    if not UNIVERSALS.isdisjoint(clows):  # "All endpoints" / "All ... except /health"
        conflicts += dropped_exceptions(clows, cstems, cmask, sentences)
    if top >= 2:  # some sentence holds two claim stems: a clause of two may be crossed
        conflicts += crossed_clauses(cw, clauses, sentences, shared, sizes, uniq)
    if not _PRONOUNS.isdisjoint(clows):  # "We owe Acme" / "Acme owes us" (session 17)
        conflicts += pronoun_roles(clows, cstems, cw.content, sentences, src_lows)
    if conflicts and "than" in clows:  # "B uses more than A" / "A uses less than B"
        turned = converse_words(clows, cstems, cw.content, sentences)
        if turned:
            conflicts = [pair for pair in conflicts if pair[0].lower() not in turned]
            names_swapped = [pair for pair in names_swapped if pair[0].lower() not in turned]
    if conflicts and not CAUSE_MARKERS.isdisjoint(src_lows):  # "The cache doubled X" /
        # "X doubled thanks to the cache" (`causatives.py`)
        caused = caused_words(clows, cstems, cmask, sentences)
        if caused:
            conflicts = [pair for pair in conflicts if pair[0].lower() not in caused]
    features["conflicts"] = float(min(len(conflicts), 2))
    return Analysis(
        features,
        spans,
        missing_words,
        missing_numbers,
        missing_entities,
        negation_flip,
        conflicts,
        polarity.flips,
        unasserted(cw, claim_text, ev, shared, clauses),
        polarity.superseded,
        names_swapped,
    )


# The most source sentences `_conflicts` reads for one claim (each candidate sentence of
# each specific): a claim at the size limits of thousands of distinct numbers between the
# same neighbours read every source sentence once per number (seconds). Past it the
# specifics left are not read; no claim of the dev file comes near it.
MAX_SPECIFIC_READS = 100_000


def _conflicts(
    words: ClaimWords,
    claim_text: str,
    sentences: Sequence[Sentence],
    missing_numbers: Sequence[str],
    missing_entities: Sequence[str],
    aligned: tuple[Sequence[set[str] | frozenset[str]], set[str]] | None = None,
) -> list[tuple[str, str]]:
    """Swapped specifics: the claim's number/name sits between the same neighbours as a
    different number/name in the source ("has 5 engineers" vs "has 3 engineers").

    An added specific with no counterpart ("April 30" where the source says "end of
    April") is an extrapolation (PARTIAL); a replaced one contradicts the source. With
    `aligned` (the claim stems each sentence holds, and the claim's stems), a name or
    number the source uses elsewhere is swapped too when a sentence holding `ALIGNED` of
    the rest of the claim puts another one in its slot ("we use Pixeltable for memory
    storage" against "We use PostgreSQL for memory storage. Pixeltable was rejected.").
    """
    wanted = set(missing_numbers) | set(missing_entities)
    present: set[str] = set()
    craws, clows, cstems = words.raws, words.lows, words.stems
    if aligned is not None:
        names = {craws[i] for i in _entities(words, claim_text)}
        present = {
            raw
            for raw, low in zip(craws, clows, strict=True)
            if raw not in wanted and (raw in names or number_value(low) is not None)
        }
    if not wanted and not present:
        return []
    claim_lows = set(clows)
    out: list[tuple[str, str]] = []
    # a word read before between the same neighbours: (its pair or None, the candidate it
    # was found in), from a full scan. A claim at the size limits repeating one specific
    # otherwise reads every source sentence once per copy (seconds); replaying the scan's
    # outcome gives what the scan gives (after a pair of the same word only the first
    # candidate is read, so only a pair found in it is added again).
    read: dict[tuple[object, ...], tuple[tuple[str, str] | None, int]] = {}
    reads = MAX_SPECIFIC_READS
    for i, text in enumerate(craws):
        if text not in wanted and text not in present:
            continue
        clow, stemmed = clows[i], cstems[i]
        key = (
            text,
            clow,
            stemmed,
            words.numbers[i],
            clows[i - 1] if i > 0 else None,
            clows[i + 1] if i + 1 < len(clows) else None,
            clows[i - 2] if i > 1 else None,
            text in present,
        )
        just_found = bool(out) and out[-1][0] == text
        if key in read:
            pair, at = read[key]
            if pair is not None and (at == 0 or not just_found):
                out.append(pair)
            continue
        candidates: Sequence[Sentence] = sentences
        value = words.numbers[i]  # as the claim reads it ("in her 60s": an age)
        if text in present:  # only the sentences aligned with the rest of the claim
            assert aligned is not None
            shared, claim_stems = aligned
            rest = len(claim_stems - {stemmed})
            reads -= len(sentences)
            candidates = [
                s
                for s, hit in zip(sentences, shared, strict=True)
                if clow not in s.lows and len(hit - {stemmed}) >= max(2, ALIGNED * rest)
            ]
        is_num = value is not None
        prev = clows[i - 1] if i > 0 else None
        nxt = clows[i + 1] if i + 1 < len(clows) else None
        # a decade takes its article ("in the 1970s" against "in 1962"): the word before
        # the article is its neighbour too
        prev2 = clows[i - 2] if is_num and prev == "the" and i > 1 else None
        found: tuple[tuple[str, str] | None, int] = (None, -1)
        for at, s in enumerate(candidates):
            reads -= 1
            if reads < 0:
                return out  # bounded work per claim (`MAX_SPECIFIC_READS`)
            st = s.lows
            # a word of the sentence can only match with one of the claim word's neighbours
            if prev in st or nxt in st or (prev2 is not None and prev2 in st):
                raws = s.raws
                # the sentence's numbers as read in it ("once a week", "a pair of")
                values = read_numerals(raws, st, tuple(map(number_value, st))) if is_num else ()
                for j, low in enumerate(st):
                    if low in claim_lows:
                        continue
                    other = values[j] if is_num else None
                    same_kind = (
                        (
                            other is not None
                            and not same_number(other, value)
                            and not in_decade(other, value)
                            and not in_decade(value, other)
                        )
                        if is_num
                        else (raws[j][:1].isupper() and low not in STOPWORDS and j > 0)
                    )
                    if not same_kind:
                        continue
                    if (
                        (prev is not None and j > 0 and st[j - 1] == prev)
                        or (nxt is not None and j + 1 < len(st) and st[j + 1] == nxt)
                        or (prev2 is not None and value in DECADES and j > 0 and st[j - 1] == prev2)
                    ):
                        out.append((text, raws[j]))
                        found = (out[-1], at)
                        break
            if out and out[-1][0] == text:
                break
        if not just_found:  # a full scan: its outcome holds for the same key
            read[key] = found
    return out


def _decades_as_the_sources(
    cw: ClaimWords, src_stems: Set[str], src_numbers: Set[str]
) -> ClaimWords:
    """The claim with each decade the source writes otherwise given the source's stem.

    A decade word's stem is its decade value (`text.word_parts`: "60s", "60's" and
    "sixties" share "'60s"), but "the 60s" and "the 1960s" are one decade written with
    and without its century (`text.same_number`): the claim word takes the source's stem,
    so the overlap, the sentence it matches and the runs of words read it as found, as
    they read "the sixties" against "the 60s"."""
    stems = list(cw.stems)
    for i, value in enumerate(cw.numbers):
        if value is None or value != stems[i] or value in src_stems:
            continue  # no decade (or an age: "her 60s"), or the source's own spelling
        for other in sorted(src_numbers & src_stems):
            if other != value and same_number(value, other):
                stems[i] = other
                break
    return cw._replace(stems=tuple(stems))


# Positions `_longest_run`'s direct reading may visit (the sum over the claim's words of
# the source positions of each); past it the same answer comes from a suffix automaton,
# linear in the claim and the source (docs/grounding.md "Bounded work per claim").
MAX_RUN_POSITIONS = 200_000


def _longest_run(stems: Sequence[str], positions: dict[str, tuple[int, ...]]) -> int:
    """Longest run of consecutive claim content words that also appears consecutively in
    the source's content-stem sequence, given as stem -> positions in that sequence.

    The direct reading extends, for each claim word, the run ending at every source
    position of it: cheap when words are rare, but a word repeated through claim and
    source makes it claim x source. Past `MAX_RUN_POSITIONS` such steps the longest common
    run is read off a suffix automaton of the source instead (the same number)."""
    # the positions the direct reading would visit, summed by C-level passes (session 17:
    # a generator step per claim word cost more than the sum)
    visits = sum(map(len, map(positions.get, stems, itertools.repeat((), len(stems)))))
    if visits > MAX_RUN_POSITIONS:
        return _longest_run_automaton(stems, positions)
    return _longest_run_direct(stems, positions)


def _longest_run_automaton(stems: Sequence[str], positions: dict[str, tuple[int, ...]]) -> int:
    """`_longest_run` by a suffix automaton of the source sequence (rebuilt from
    `positions`, which covers every index): O(claim + source) dict steps."""
    size = sum(map(len, positions.values()))
    seq: list[str] = [""] * size
    for st, at in positions.items():
        for j in at:
            seq[j] = st
    # states: transitions, suffix link, length of the longest string in the state
    nxt: list[dict[str, int]] = [{}]
    link = [-1]
    length = [0]
    last = 0
    for ch in seq:
        cur = len(nxt)
        nxt.append({})
        link.append(0)
        length.append(length[last] + 1)
        p = last
        while p != -1 and ch not in nxt[p]:
            nxt[p][ch] = cur
            p = link[p]
        if p != -1:
            q = nxt[p][ch]
            if length[p] + 1 == length[q]:
                link[cur] = q
            else:
                clone = len(nxt)
                nxt.append(dict(nxt[q]))
                link.append(link[q])
                length.append(length[p] + 1)
                while p != -1 and nxt[p].get(ch) == q:
                    nxt[p][ch] = clone
                    p = link[p]
                link[q] = link[cur] = clone
        last = cur
    best = run = state = 0
    for s in stems:
        if s not in positions:  # not in the source: no run goes through it
            state = run = 0
            continue
        while s not in nxt[state]:  # the source holds s: the root has a transition
            state = link[state]
            run = length[state]
        state = nxt[state][s]
        run += 1
        if run > best:
            best = run
    return best


def _longest_run_direct(stems: Sequence[str], positions: dict[str, tuple[int, ...]]) -> int:
    """`_longest_run` by extending the runs at each source position of each claim word."""
    best = 0
    prev: dict[int, int] = {}
    for s in stems:
        at = positions.get(s)
        if not at:
            prev = {}
            continue
        if len(at) == 1:  # most stems occur once: no comprehension, no max
            j = at[0]
            top = prev.get(j - 1, 0) + 1
            prev = {j: top}
        else:
            get = prev.get
            cur = {j: get(j - 1, 0) + 1 for j in at}
            top = max(cur.values())
            prev = cur
        if top > best:
            best = top
    return best


def _speaker_mismatch(claim_text: str, speakers: dict[str, set[str]]) -> float:
    """Share of claim clauses that name a speaker whose own lines do not carry the clause.

    "Anna will bring the cake" is not grounded by "Bob: I'll bring the cake": the words are
    all in the source, but said by someone else about someone else.
    """
    if len(speakers) < 2:
        return 0.0
    clauses = [c for c in _CLAUSE_SPLIT.split(claim_text) if c]
    checked = mismatched = 0
    for clause in clauses:
        raws = WORD.findall(clause)  # the clause's words, without building tokens
        named: list[str] = []
        words: set[str] = set()
        for raw, (low, st, content, _) in zip(raws, parts_of(raws), strict=True):
            if low in speakers:
                if raw[:1].isupper():
                    named.append(low)
            elif content:
                words.add(st)
        if not named or len(words) < 2:
            continue
        checked += 1
        own = len(words & speakers[named[0]])
        others = max(len(words & said) for who, said in speakers.items() if who != named[0])
        if own + 1 < others:
            mismatched += 1
    return mismatched / checked if checked else 0.0


# `EvidenceSpan(**fields)` without pydantic's Python `__init__` (`_evidence_spans`)
_SPAN = EvidenceSpan.__pydantic_validator__.validate_python


def _evidence_spans(
    stems: set[str],
    sentences: Sequence[Sentence],
    shared: Sequence[set[str] | frozenset[str]] | None = None,
) -> list[EvidenceSpan]:
    """Exact substrings of the turns that carry claim words: per sentence, the stretch
    from the first to the last matched content word, best sentences first (at most 3).

    `shared`, when given, is `stems & s.stems` for each sentence (already computed)."""
    # s.stems holds the stems of s's content words, so the stems hit in s are
    # s.stems & stems; the hit tokens themselves are needed for the (at most 6) best.
    if not stems:
        return []
    if shared is None:
        shared = [stems & s.stems for s in sentences]
    scored: list[tuple[int, Sentence, set[str] | frozenset[str]]] = []
    for s, hit in zip(sentences, shared, strict=True):
        if hit:
            scored.append((len(hit), s, hit))
    scored.sort(key=_FIRST, reverse=True)  # stable: equal counts keep sentence order
    spans: list[EvidenceSpan] = []
    covered: set[str] = set()
    for count, s, hit in scored[:6]:
        new = hit - covered
        if not new or (spans and count < 2):
            continue
        # the first and last matched content word, located by index among the words
        word_stems, content = s.word_stems, s.content
        j = 0
        while not (content[j] and word_stems[j] in stems):
            j += 1
        k = len(word_stems) - 1
        while not (content[k] and word_stems[k] in stems):
            k -= 1
        offsets = s.word_spans()
        start, end = offsets[j][0], offsets[k][1]
        # made by the model's validator from a dict (session 18): the same validation as
        # `EvidenceSpan(**fields)` without pydantic's Python `__init__`
        spans.append(
            _SPAN(
                {"turn_id": s.turn.id, "start": start, "end": end, "text": s.turn.text[start:end]}
            )
        )
        covered |= new
        if len(spans) == 3:
            break
    return spans
