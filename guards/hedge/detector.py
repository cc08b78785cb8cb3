"""Hedge detection: is the claim's author speculating, and how strongly? (seed 000)

Five categories, two actions. The speaker's own speculation, admitted uncertainty and
suggestions say "nobody checked this", so they block. Technical hedges ("may", "usually")
and approximations ("roughly 5") are legitimate qualifications of engineering facts, so
they only send the claim to review.

The word lists follow the linguistics of hedging (epistemic modals, epistemic
adverbs/verbs, first-person propositional-attitude verbs, approximators of quantity), not
any dataset. Three false-positive filters come from the seed: "May 2024" is a month, not a
modal; a negated modal ("couldn't", "could not") usually asserts, it does not hedge; and
"should be 5" describes an expected value. Nothing cancels a hedge: "I think X,
definitely" still blocks (bypass prevention), because certainty adverbs are never read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from groundwire.guards.config import HedgeConfig
from groundwire.topics.records import HedgeReport
from groundwire.topics.vocab import HedgeAction, HedgeCategory

ACTION_OF: dict[HedgeCategory, HedgeAction] = {
    HedgeCategory.PERSONAL_SPECULATION: HedgeAction.BLOCK,
    HedgeCategory.ADMITTED_UNCERTAINTY: HedgeAction.BLOCK,
    HedgeCategory.SUGGESTION: HedgeAction.BLOCK,
    HedgeCategory.TECHNICAL_HEDGE: HedgeAction.REVIEW,
    HedgeCategory.APPROXIMATION: HedgeAction.REVIEW,
}

# Each pattern comes with the words one of which it cannot match without ("" = always
# try). A claim's word set is computed once; a pattern whose trigger words are all absent is
# never run, so most claims pay for a set intersection, not for ~40 regex scans. Patterns
# start with a literal (never \b: the regex engine then cannot skip ahead to the first
# letter, measured ~10x slower); `hits` checks the left word boundary in Python instead.
_ATTITUDE_WORDS = "think guess believe assume suppose suspect reckon imagine presume bet"
_ATTITUDE = "(?:" + _ATTITUDE_WORDS.replace(" ", "|") + ")"
Spec = tuple[str, str]
_PERSONAL: tuple[Spec, ...] = (
    # First-person propositional-attitude verbs: the speaker reports a belief, not a fact.
    (
        _ATTITUDE_WORDS,
        r"i(?: \w+ly| do| don't| do not| did| didn't| really| kind of| sort of| just|'d| would|"
        r" even| also| still| sometimes)?"
        rf" {_ATTITUDE}\b",
    ),
    (
        "guessing assuming thinking supposing betting speculating",
        r"i(?:'m| am| was) (?:guessing|assuming|thinking|supposing|betting|speculating)\b",
    ),
    (
        "think guess assume suspect reckon",
        r"we(?: \w+ly| do| really| kind of| sort of| just)?"
        r" (?:think|guess|assume|suspect|reckon)\b",
    ),
    ("feel", r"i feel (?:like|that)\b"),
    # Informal subject drop at the start of a sentence ("Guess it's just me", "Suppose
    # so"): still the writer's attitude. Not "think"/"believe", whose sentence-initial
    # uses are imperatives ("Think about it", "Believe me"); not "Guess what".
    ("guess suppose reckon", r"(?:^|(?<=[.!?] ))(?:guess|suppose|reckon)\b(?! what\b)"),
    (
        "thought guessed assumed imagined",
        r"i(?:'d| would) have (?:thought|guessed|assumed|imagined)\b",
    ),
    # "X leads me to believe Y": the writer's own inference, stated as such.
    ("believe think suspect", r"(?:leads?|led) me to (?:believe|think|suspect)\b"),
    # "pretty sure" is a commitment short of certainty; "quite sure" (British: fully) is not.
    (
        "sure certain confident",
        r"(?:i'm|i am|we're|we are) (?:pretty|fairly|reasonably|almost|mostly) "
        r"(?:sure|certain|confident)\b",
    ),
    (
        "guess hunch gut impression sense feeling",
        r"my (?:guess|hunch|gut feeling|gut|impression|sense|feeling) (?:is|was|says)\b",
    ),
    ("feeling hunch impression sense", r"i have (?:a|the) (?:feeling|hunch|impression|sense)\b"),
    ("guess wager imagine", r"i'd (?:guess|wager|imagine)\b"),
    # "I doubt that X" is the speaker's disbelief; "no doubt" / "without a doubt" assert
    # and never match, because the pattern needs the first-person subject.
    ("doubt", r"i(?: \w+ly| do| really)? doubt\b"),
    # Bare "maybe"/"perhaps": the seed lists "maybe" as strong speculation.
    # ... except before a quantity ("maybe 15k"), where it approximates a number (below).
    ("maybe perhaps", r"(?:maybe|perhaps)\b(?! [~$€£]?\d)"),
)
_ADMITTED: tuple[Spec, ...] = (
    (
        "know remember recall",
        r"i (?:don't|do not|didn't|did not) (?:really |actually )?(?:know|remember|recall)\b",
    ),
    (
        "sure certain positive convinced",
        r"(?:not|never) (?:entirely |completely |totally |really |quite |100% )?"
        r"(?:sure|certain|positive|convinced)\b",
    ),
    ("unsure", r"unsure\b"),
    ("uncertain", r"(?:i'm|i am|we're|we are|it's|it is|it remains) (?:still )?uncertain\b"),
    ("uncertain", r"uncertain (?:whether|if|about|how|what|why|when|where|who)\b"),
    (
        "wrong mistaken misremembering",
        r"i (?:could|might|may) (?:be|have been) (?:wrong|mistaken|misremembering)\b",
    ),
    (
        "idea clue",
        r"(?:no|not much of an?) (?:idea|clue) (?:whether|if|what|why|how|where|when|who)\b",
    ),
    ("remember recall", r"i (?:can't|cannot|can not) (?:remember|recall)\b"),
    ("correctly right", r"if i (?:recall|remember|understand) (?:correctly|right)\b"),
    ("iirc afaik afaict", r"(?:iirc|afaik|afaict)\b"),
    ("know tell remember", r"as far as i (?:know|can tell|remember)\b"),
    ("knows", r"who knows\b"),
    ("say tell", r"hard to (?:say|tell)\b"),
    ("wonder", r"i wonder\b"),
    ("mistaken", r"if i'm not mistaken\b"),
    ("unclear clear", r"(?:unclear|not clear) (?:whether|if)\b"),
)
_SUGGESTION: tuple[Spec, ...] = (
    (
        "maybe perhaps possibly",
        r"(?:maybe|perhaps|possibly) (?:we|you|i|they|someone|one) (?:should|could|might|can|"
        r"ought|try|need|want)\b",
    ),
    (
        "could might",
        r"(?:we|you) (?:could|might) (?:try|consider|want to|think about|look into|switch)\b",
    ),
    ("why", r"why (?:don't|not) (?:we|you)\b"),
    ("about", r"(?:how|what) about (?:we|using|trying|switching)\b"),
    ("what", r"what if we\b"),
    ("let", r"let's (?:try|consider|experiment)\b"),
    (
        "worth idea better wise",
        r"it (?:might|may|could|would) be (?:worth|a good idea|better to|wise)\b",
    ),
)
# Epistemic modals and adverbs/verbs of appearance and likelihood. "could" and "should"
# skip their negated forms ("couldn't" is already one token after normalisation); "may"
# is checked against the month reading afterwards.
_FREQUENCY_WORDS = "typically usually often generally normally"
_TECHNICAL: tuple[Spec, ...] = (
    ("may might mightn", r"(?:may|might|mightn't)\b"),
    # "could not only X" negates "only", not the modal: still a hedge.
    ("could should", r"(?:could|should)\b(?! not\b(?! only\b)| never\b)"),
    (
        "probably possibly potentially presumably apparently seemingly supposedly conceivably "
        "arguably likely unlikely",
        r"(?:probably|possibly|potentially|presumably|apparently|seemingly|supposedly|"
        r"conceivably|arguably|likely|unlikely)\b",
    ),
    ("seem seems seemed seeming seemingly", r"seem(?:s|ed|ing|ingly)?\b"),
    ("appear appears appeared", r"appear(?:s|ed)? (?:to|that|as if|as though|\w+ly)\b"),
    (_FREQUENCY_WORDS, r"(?:typically|usually|often|generally|normally)\b"),
    ("tend tends", r"tends? to\b"),
    # Hearsay evidentials: the writer passes on a claim without vouching for it.
    ("allegedly reportedly purportedly", r"(?:allegedly|reportedly|purportedly)\b"),
    ("doubtful", r"doubtful (?:that|whether|if)\b"),
    ("appear", r"would appear\b"),
    # Evidential appearance with a clause ("looks as if it leaks"); "looks like X" is
    # mostly a visual comparison ("looks like a toy"), so it is not listed.
    ("looks sounds", r"(?:looks|sounds) as (?:if|though)\b"),
    ("theory", r"in theory\b"),
    # Impersonal likelihood: "it is possible that", "the possibility that", "chances are".
    # Root "possible" ("as fast as possible", "made possible") has no "that" clause.
    ("possible possibility", r"(?:possible|possibility) that\b"),
    ("chances", r"chances are\b"),
    # Epistemic "must" of inference: only the perfect ("must have been", "must've gone");
    # "must be set" / "must have 3 GB" are obligations or requirements.
    ("must", r"must(?:'ve| have) (?:been|\w+(?:ed|en|wn))\b"),
    # Generic counter-expectation ("you'd think it would fit"): the writer hedges what
    # the reader would infer.
    # (two literal-first patterns: a leading alternation was measured ~8x slower)
    ("think", r"you(?:'d| would) think\b"),
    ("think", r"one(?:'d| would) think\b"),
    # Attributed belief ("many people think X", "some believe X"): the claim reports an
    # opinion held by unnamed others, not a fact; worth a reviewer's look, not a block.
    # "think about / of / through" is deliberation, not belief.
    (
        "think believe suspect suppose",
        r"(?:people|many|some|most|others|everyone|everybody|they|fans|critics)"
        r"(?: \w+)? (?:think|believe|suspect|suppose)\b"
        r"(?! (?:about|of|through|twice|ahead|back)\b)",
    ),
    ("cases", r"in most cases\b"),
)
_FREQUENCY = re.compile(r"^(?:typically|usually|often|generally|normally|tends? to|in most cases)$")
_APPROXIMATION: tuple[Spec, ...] = (
    ("approximately roughly circa", r"(?:approximately|roughly|circa)\b"),
    ("give", r"give or take\b"),
    ("ballpark", r"ballpark\b"),
    (
        # "up to 10" is a bound, not an approximation, so it is not listed.
        "around about nearly almost close some",
        r"(?:around|about|nearly|almost|close to|some) [~$€£]?\d[\d.,]*",
    ),
    ("~ ≈", r"[~≈]\s?\d[\d.,]*"),
    ("ish", r"\d+(?:\.\d+)?-?ish\b"),
    ("maybe perhaps", r"(?:maybe|perhaps) [~$€£]?\d[\d.,/]*"),
    ("so", r"or so\b"),
)
# Triggers that are characters or word endings rather than words: checked as substrings.
_SUBSTRING_TRIGGERS = frozenset({"~", "≈", "ish"})


@dataclass(frozen=True, slots=True)
class _Pattern:
    category: HedgeCategory
    words: frozenset[str]
    substrings: tuple[str, ...]
    regex: re.Pattern[str]
    # Which post-match filter applies (decided once here, not per match):
    # _CHECK_NONE, _CHECK_MODAL ("may" month / "should" value or advice),
    # _CHECK_FREQUENCY (config switch), _CHECK_BELIEVE ("I believe it.").
    check: int = 0


_CHECK_NONE, _CHECK_MODAL, _CHECK_FREQUENCY, _CHECK_BELIEVE = range(4)


def _check_for(category: HedgeCategory, regex: str) -> int:
    if category is HedgeCategory.TECHNICAL_HEDGE:
        if regex.startswith(("may", "should", "unlikely")):
            return _CHECK_MODAL
        if regex.startswith(("typically", "usually", "often", "generally", "normally")):
            return _CHECK_FREQUENCY
        if regex.startswith(("tend", "in most cases")):
            return _CHECK_FREQUENCY
    if category is HedgeCategory.PERSONAL_SPECULATION and "believe" in regex:
        return _CHECK_BELIEVE
    return _CHECK_NONE


_PLAIN_ALTERNATIVES = frozenset("abcdefghijklmnopqrstuvwxyz' |")


def _split_alternation(triggers: str, regex: str) -> list[tuple[str, str]]:
    """ "(?:may|might)\\b" -> [("may", "may\\b"), ("might", "might\\b")].

    A regex that starts with an alternation has no literal prefix, so Python's engine
    tries it at every position (~2 us on a 30-word claim); each literal-first piece is
    found by a fast substring scan (~0.3 us), and only the pieces whose own word occurs
    in the claim run at all. Applied only to a leading group of plain words that is
    not quantified; a piece whose first word is not a trigger keeps all the triggers."""
    if not regex.startswith("(?:"):
        return [(triggers, regex)]
    close = regex.find(")")
    inner, rest = regex[3:close], regex[close + 1 :]
    if not set(inner) <= _PLAIN_ALTERNATIVES or rest[:1] in ("?", "*", "+", "{"):
        return [(triggers, regex)]
    own = set(triggers.split())
    pieces = []
    for alt in inner.split("|"):
        first = alt.replace("'", " ").split()[0]
        pieces.append((first if first in own else triggers, alt + rest))
    return pieces


_PATTERNS: tuple[_Pattern, ...] = tuple(
    _Pattern(
        category,
        frozenset(w for w in words.split() if w not in _SUBSTRING_TRIGGERS),
        tuple(w for w in words.split() if w in _SUBSTRING_TRIGGERS),
        re.compile(piece),
        _check_for(category, piece),
    )
    for category, specs in (
        (HedgeCategory.SUGGESTION, _SUGGESTION),
        (HedgeCategory.ADMITTED_UNCERTAINTY, _ADMITTED),
        (HedgeCategory.PERSONAL_SPECULATION, _PERSONAL),
        (HedgeCategory.TECHNICAL_HEDGE, _TECHNICAL),
        (HedgeCategory.APPROXIMATION, _APPROXIMATION),
    )
    for triggers, regex in specs
    for words, piece in _split_alternation(triggers, regex)
)
_CATEGORY_ORDER = {c: i for i, c in enumerate(dict.fromkeys(p.category for p in _PATTERNS))}
# trigger word -> indices of the patterns it enables (one set intersection per claim).
_BY_WORD: dict[str, tuple[int, ...]] = {}
for _i, _p in enumerate(_PATTERNS):
    for _w in _p.words:
        _BY_WORD[_w] = (*_BY_WORD.get(_w, ()), _i)
_BY_SUBSTRING: tuple[tuple[str, tuple[int, ...]], ...] = tuple(
    (sub, tuple(i for i, p in enumerate(_PATTERNS) if sub in p.substrings))
    for sub in sorted(_SUBSTRING_TRIGGERS)
)
_BY_BYTES = {w.encode(): v for w, v in _BY_WORD.items()}
_BY_WORDSET: dict[frozenset[bytes], tuple[int, ...]] = {}
_ALL_WORDS = frozenset(_BY_BYTES)


def _numeric_ish(lower: str) -> bool:
    """ "5ish" / "5-ish" somewhere? ("publishes" is not; the digit-first regex is costly)."""
    at = lower.find("ish")
    while at > 0:
        before = lower[at - 1]
        if before.isdigit() or (before == "-" and at > 1 and lower[at - 2].isdigit()):
            return True
        at = lower.find("ish", at + 3)
    return False


def _tokens(lower: str) -> list[bytes]:
    """The claim's words as bytes (bytes.translate/split measured twice as fast as str's).

    A list, not a set: the only consumers are frozenset.intersection/isdisjoint, which
    take any iterable, and building a set of ~35 words costs more than they save."""
    return lower.encode("utf-8", "surrogatepass").translate(_TO_SPACE_BYTES).split()


def _candidates(lower: str, tokens: Iterable[bytes] | None = None) -> Sequence[int]:
    """Indices of the patterns whose trigger words or substrings occur in `lower`."""
    if tokens is None:
        tokens = _tokens(lower)
    words = _ALL_WORDS.intersection(tokens)
    if "~" in lower or "\u2248" in lower or "ish" in lower:
        chosen: set[int] = set()
        for word in words:
            chosen.update(_BY_BYTES[word])
        for sub, indices in _BY_SUBSTRING:
            if sub in lower and (sub != "ish" or _numeric_ish(lower)):
                chosen.update(indices)
        return sorted(chosen)
    # Few distinct trigger-word sets occur in practice ({"may"}, {"about", "so"}, …):
    # memoise their sorted pattern lists instead of rebuilding them per claim.
    found = _BY_WORDSET.get(words)
    if found is None:
        found = tuple(sorted({i for word in words for i in _BY_BYTES[word]}))
        if len(_BY_WORDSET) >= 4096:
            _BY_WORDSET.clear()
        _BY_WORDSET[words] = found
    return found


# Punctuation (apostrophes too: "let's" -> let, s) becomes space for the word-set check.
_PUNCT = "'!\"#$%&()*+,./:;<=>?@[\\]^_`{|}-"
_TO_SPACE_BYTES = bytes.maketrans(_PUNCT.encode(), b" " * len(_PUNCT))

# Normalisation: typographic apostrophes (incl. the cp1252 byte seen in scraped text) and
# tokenised clitics ("could n't", "I 'm") become plain contractions before matching.
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\x92": "'", "`": "'"})
_SPLIT_NEGATION = re.compile(r"\s+n'?t\b")
# "didn?t", "I?m": a typographic apostrophe lost to a wrong code page became "?".
_LOST_APOSTROPHE = re.compile(r"(?<=[A-Za-z])\?(?=(?:t|s|m|d|re|ve|ll)\b)")
# Apostrophe-less contractions the patterns care about (no English word collides, except
# rare "cant"/"wont", which are harmless here).
_BARE_CONTRACTION = re.compile(
    r"\b(?:[Dd]ont|[Dd]idnt|[Dd]oesnt|[Cc]ant|[Cc]ouldnt|[Ss]houldnt|[Ww]ouldnt|[Ii]snt|"
    r"[Ww]asnt|[Aa]rent|[Mm]ightnt|I[Mm]|im)\b"
)
_SPLIT_CLITIC = re.compile(r"\s+'(m|d|s|re|ve|ll)\b")
_MONTH_AFTER = re.compile(r",?\s+(?:\d{1,2}(?:st|nd|rd|th)?\b|\d{4}\b)")
_SENTENCE_START = re.compile(r"(?:^|[.!?:;]\s*|\n\s*)[\"'(\[]*\s*$")
# Words that mean the text needs the second normalisation pass (found via the word set).
_BARE_WORDS = frozenset(
    b"dont didnt doesnt cant couldnt shouldnt wouldnt isnt wasnt arent mightnt im nt".split()
)
_WATCHED = _ALL_WORDS | _BARE_WORDS
# The comparative clause is elliptical ("as it should.", "as it should be,"); with a full
# predicate ("as it should be faster") "as" is causal and "should" may well be epistemic.
_ELLIPSIS_AFTER = re.compile(r"(?:\s+be)?\s*(?:[.,;:!?)\"]|$)")
_NORM_COMPARISON_BEFORE = re.compile(r"\b(?:[Aa]s|[Ll]ike) \w+(?: \w+ly)? $")
_DETERMINER_BEFORE = re.compile(r"\b(?:[Tt]he|[Aa]n?|[Tt]his|[Tt]hat) $")
_ADDRESSEE_BEFORE = re.compile(r"(?:\b[Yy]ou|\b[Oo]ne)\s+$")
_BELIEVE_OBJECT = re.compile(r"\s+(?:it|you|him|her|them|me|this|that)\s*(?:[.!?,;)\"]|$)")
_SHOULD_NUMERIC = re.compile(r"\s+(?:be|equal|return|read|show|contain|have)\s+[~$€£-]?\d")


class HedgeHit(NamedTuple):
    """One hedge found. A NamedTuple: built per match on the hot path, and a frozen
    dataclass's __init__ (object.__setattr__ per field) was measured ~4x slower."""

    category: HedgeCategory
    text: str
    start: int


def _normalise(text: str) -> str:
    """Same length is not required: matching is done on this normalised form only.

    Informal and scraped text spells contractions many ways ("don’t", "don?t" from a lost
    encoding, "dont", "do nt", "do n't"); the patterns are written for "don't" only, so
    every spelling is mapped to it first, or a first-person hedge would slip through.
    Apostrophe-less forms ("dont") are handled in `HedgeDetector.hits`, where the word set
    tells for free whether there are any (the regex costs ~10 us on every claim)."""
    if "`" in text or (
        not text.isascii() and ("\u2019" in text or "\u2018" in text or "\x92" in text)
    ):
        text = text.translate(_APOSTROPHES)
    if "?" in text and _LOST_APOSTROPHE.search(text):
        text = _LOST_APOSTROPHE.sub("'", text)
    if "'" in text and (" n't" in text or " '" in text):
        text = _SPLIT_NEGATION.sub("n't", text)
        text = _SPLIT_CLITIC.sub(r"'\1", text)
    return text


def _normalise_bare(text: str) -> str:
    """Second pass, only when the word set holds "nt" or an apostrophe-less contraction."""
    return _BARE_CONTRACTION.sub(_add_apostrophe, _SPLIT_NEGATION.sub("n't", text))


def _add_apostrophe(m: re.Match[str]) -> str:
    word = m.group(0)
    return word[:-1] + "'m" if word[-1] in "mM" else word[:-2] + "n't"


def _is_month(original: str, start: int) -> bool:
    """ "May" as a month: capitalised mid-sentence, or followed by a day or a year."""
    if _MONTH_AFTER.match(original, start + 3):
        return True
    if original[start] != "M":
        return False
    return not _SENTENCE_START.search(original[max(0, start - 8) : start])


def _hit_order(hit: HedgeHit) -> tuple[int, int]:
    return _CATEGORY_ORDER[hit.category], hit.start


def _filtered(hit: str, norm: str, start: int, end: int) -> bool:
    """Seed filters plus the root (non-epistemic) readings the word lists cannot see."""
    word = hit.lower()
    if word == "may":
        return _is_month(norm, start)
    if word == "should":
        # "should be 5" states an expected value; "you should buy it" / "one should" is
        # advice to the reader (deontic); "as it should (be)" / "like he should" compares
        # with what is proper (deontic norm). None of them doubts a fact.
        return (
            bool(_SHOULD_NUMERIC.match(norm, end))
            or bool(_ADDRESSEE_BEFORE.search(norm, max(0, start - 5), start))
            or (
                bool(_ELLIPSIS_AFTER.match(norm, end))
                and bool(_NORM_COMPARISON_BEFORE.search(norm, max(0, start - 30), start))
            )
        )
    if word == "unlikely":
        # Attributive "an unlikely hero / the unlikely pair": surprising, not improbable.
        return bool(_DETERMINER_BEFORE.search(norm, max(0, start - 6), start))
    return False


def _filtered_personal(hit: str, norm: str, end: int) -> bool:
    """ "I believe it." / "I believe you": credence in a statement or a person already
    made, not a hedge on a proposition (that needs a clause: "I believe it is 5")."""
    return hit.lower().endswith("believe") and bool(_BELIEVE_OBJECT.match(norm, end))


class HedgeDetector:
    """Finds hedges; `analyze` returns the wire-level HedgeReport."""

    def __init__(self, cfg: HedgeConfig | None = None) -> None:
        self._cfg = cfg or HedgeConfig()

    def hits(self, text: str) -> list[HedgeHit]:
        """Every hedge found, block categories first (bounded: only `max_chars` are read)."""
        norm = _normalise(text[: self._cfg.max_chars])
        lower = norm.lower()
        # One hashing pass over the claim's words: trigger words and the contraction
        # spellings that need the second normalisation pass, together.
        words = _WATCHED.intersection(_tokens(lower))
        if not _BARE_WORDS.isdisjoint(words):
            norm = _normalise_bare(norm)
            lower = norm.lower()
            words = _WATCHED.intersection(_tokens(lower))
        found: list[HedgeHit] = []
        skip_frequency = not self._cfg.frequency_adverbs_review
        for index in _candidates(lower, words):
            pat = _PATTERNS[index]
            check = pat.check
            for m in pat.regex.finditer(lower):
                start = m.start()
                if start and lower[start - 1].isalnum():
                    continue  # inside a word ("dismay" is not "may")
                end = m.end()
                phrase = norm[start:end].strip()
                if check:
                    if check == _CHECK_MODAL:
                        if _filtered(phrase, norm, start, end):
                            continue
                    elif check == _CHECK_FREQUENCY:
                        if skip_frequency:
                            continue
                    elif _filtered_personal(phrase, norm, end):
                        continue
                found.append(HedgeHit(pat.category, phrase, start))
        if len(found) > 1:
            found.sort(key=_hit_order)
        return found

    def analyze(self, text: str) -> HedgeReport:
        """The wire-level report: decisive action/category and the distinct hedge words."""
        if not self._cfg.enabled:
            return HedgeReport()
        found = self.hits(text)
        if not found:
            return HedgeReport(action=_NONE)
        # `hits` sorts block categories first, so the first hit decides; a block category
        # is never outweighed by assertion markers elsewhere in the text.
        decisive = found[0].category
        if len(found) == 1:
            words = [found[0].text]
        else:
            words = list(dict.fromkeys(h.text for h in found))[: self._cfg.max_words]
        return HedgeReport(
            action=_ACTION_VALUE[decisive], category=_CATEGORY_VALUE[decisive], words=words
        )


# Plain strings for the report: enum `.value` goes through a descriptor on every access.
_NONE = HedgeAction.NONE.value
_ACTION_VALUE = {c: a.value for c, a in ACTION_OF.items()}
_CATEGORY_VALUE = {c: c.value for c in HedgeCategory}


_DEFAULT = HedgeDetector()


def analyze(text: str, cfg: HedgeConfig | None = None) -> HedgeReport:
    """Module-level convenience: one detector per config is cheap, the patterns are global."""
    return _DEFAULT.analyze(text) if cfg is None else HedgeDetector(cfg).analyze(text)
