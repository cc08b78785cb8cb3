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
from dataclasses import dataclass
from enum import StrEnum

from groundwire.guards.config import HedgeConfig
from groundwire.topics.records import HedgeReport


class HedgeAction(StrEnum):
    BLOCK = "block"
    REVIEW = "review"
    NONE = "none"


class HedgeCategory(StrEnum):
    PERSONAL_SPECULATION = "personal_speculation"
    ADMITTED_UNCERTAINTY = "admitted_uncertainty"
    SUGGESTION = "suggestion"
    TECHNICAL_HEDGE = "technical_hedge"
    APPROXIMATION = "approximation"


ACTION_OF: dict[HedgeCategory, HedgeAction] = {
    HedgeCategory.PERSONAL_SPECULATION: HedgeAction.BLOCK,
    HedgeCategory.ADMITTED_UNCERTAINTY: HedgeAction.BLOCK,
    HedgeCategory.SUGGESTION: HedgeAction.BLOCK,
    HedgeCategory.TECHNICAL_HEDGE: HedgeAction.REVIEW,
    HedgeCategory.APPROXIMATION: HedgeAction.REVIEW,
}

# First-person propositional-attitude verbs: the speaker reports a belief, not a fact.
_ATTITUDE = r"(?:think|guess|believe|assume|suppose|suspect|reckon|imagine|presume|bet)"
_PERSONAL = (
    r"\bi(?: \w+ly| do| don't| do not| did| didn't| really| kind of| sort of| just|'d| would)?"
    rf" {_ATTITUDE}\b",
    r"\bi(?:'m| am| was) (?:guessing|assuming|thinking|supposing|betting|speculating)\b",
    r"\bwe(?: \w+ly| do| really| kind of| sort of| just)? (?:think|guess|assume|suspect|reckon)\b",
    r"\bi feel (?:like|that)\b",
    r"\bmy (?:guess|hunch|gut feeling|gut|impression|sense|feeling) (?:is|was|says)\b",
    r"\bi have (?:a|the) (?:feeling|hunch|impression|sense)\b",
    r"\bi'd (?:guess|wager|imagine)\b",
    # Bare "maybe"/"perhaps": the seed lists "maybe" as strong speculation.
    r"\b(?:maybe|perhaps)\b",
)
_ADMITTED = (
    r"\bi (?:don't|do not|didn't|did not) (?:really |actually )?(?:know|remember|recall)\b",
    r"\b(?:not|never) (?:entirely |completely |totally |really |quite |100% )?"
    r"(?:sure|certain|positive|convinced)\b",
    r"\bunsure\b",
    r"\b(?:i'm|i am|we're|we are|it's|it is|it remains) (?:still )?uncertain\b",
    r"\buncertain (?:whether|if|about|how|what|why|when|where|who)\b",
    r"\bi (?:could|might|may) (?:be|have been) (?:wrong|mistaken|misremembering)\b",
    r"\b(?:no|not much of an?) (?:idea|clue) (?:whether|if|what|why|how|where|when|who)\b",
    r"\bi (?:can't|cannot|can not) (?:remember|recall)\b",
    r"\bif i (?:recall|remember|understand) (?:correctly|right)\b",
    r"\b(?:iirc|afaik|afaict)\b",
    r"\bas far as i (?:know|can tell|remember)\b",
    r"\bwho knows\b",
    r"\bhard to (?:say|tell)\b",
    r"\bi wonder\b",
)
_SUGGESTION = (
    r"\b(?:maybe|perhaps|possibly) (?:we|you|i|they|someone|one) (?:should|could|might|can|"
    r"ought|try|need|want)\b",
    r"\b(?:we|you) (?:could|might) (?:try|consider|want to|think about|look into|switch)\b",
    r"\bwhy (?:don't|not) (?:we|you)\b",
    r"\b(?:how|what) about (?:we|using|trying|switching)\b",
    r"\bwhat if we\b",
    r"\blet's (?:try|consider|experiment)\b",
    r"\bit (?:might|may|could|would) be (?:worth|a good idea|better to|wise)\b",
)
# Epistemic modals and adverbs/verbs of appearance and likelihood. "could", "would" and
# "should" skip their negated forms ("couldn't" is already one token after normalisation);
# "may" is checked against the month reading afterwards.
_TECHNICAL = (
    r"\b(?:may|might|mightn't)\b",
    r"\b(?:could|should)\b(?! not\b| never\b)",
    r"\b(?:probably|possibly|potentially|presumably|apparently|seemingly|supposedly|"
    r"conceivably|arguably|likely|unlikely)\b",
    r"\b(?:seems?|seemed|seeming|seemingly)\b",
    r"\b(?:appears?|appeared) (?:to|that|as if|as though|\w+ly)\b",
    r"\b(?:typically|usually|often|generally|normally|tends? to|in most cases)\b",
)
_FREQUENCY = re.compile(r"^(?:typically|usually|often|generally|normally|tends? to|in most cases)$")
_APPROXIMATION = (
    r"\b(?:approximately|roughly|circa|give or take|ballpark)\b",
    r"\b(?:around|about|nearly|almost|close to|some|up to) [~$€£]?\d[\d.,]*",
    r"(?:^|\s)[~≈]\s?\d[\d.,]*",
    r"\b\d+(?:\.\d+)?-?ish\b",
    r"\bor so\b",
)

_CATEGORY_PATTERNS: tuple[tuple[HedgeCategory, re.Pattern[str]], ...] = tuple(
    (cat, re.compile("|".join(f"(?:{p})" for p in pats)))
    for cat, pats in (
        (HedgeCategory.SUGGESTION, _SUGGESTION),
        (HedgeCategory.ADMITTED_UNCERTAINTY, _ADMITTED),
        (HedgeCategory.PERSONAL_SPECULATION, _PERSONAL),
        (HedgeCategory.TECHNICAL_HEDGE, _TECHNICAL),
        (HedgeCategory.APPROXIMATION, _APPROXIMATION),
    )
)

# Normalisation: typographic apostrophes (incl. the cp1252 byte seen in scraped text) and
# tokenised clitics ("could n't", "I 'm") become plain contractions before matching.
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\x92": "'", "`": "'"})
_SPLIT_NEGATION = re.compile(r"\s+n't\b")
_SPLIT_CLITIC = re.compile(r"\s+'(m|d|s|re|ve|ll)\b")
_MONTH_AFTER = re.compile(r",?\s+(?:\d{1,2}(?:st|nd|rd|th)?\b|\d{4}\b)")
_SENTENCE_START = re.compile(r"(?:^|[.!?:;]\s*|\n\s*)[\"'(\[]*\s*$")
_SHOULD_NUMERIC = re.compile(r"\s+(?:be|equal|return|read|show|contain|have)\s+[~$€£-]?\d")


@dataclass(frozen=True, slots=True)
class HedgeHit:
    category: HedgeCategory
    text: str
    start: int


def _normalise(text: str) -> str:
    """Same length is not required: matching is done on this normalised form only."""
    text = text.translate(_APOSTROPHES)
    text = _SPLIT_NEGATION.sub("n't", text)
    return _SPLIT_CLITIC.sub(r"'\1", text)


def _is_month(original: str, start: int) -> bool:
    """ "May" as a month: capitalised mid-sentence, or followed by a day or a year."""
    if _MONTH_AFTER.match(original, start + 3):
        return True
    if original[start] != "M":
        return False
    return not _SENTENCE_START.search(original[max(0, start - 8) : start])


def _filtered(hit: str, norm: str, start: int, end: int) -> bool:
    word = hit.lower()
    if word == "may":
        return _is_month(norm, start)
    return word == "should" and bool(_SHOULD_NUMERIC.match(norm, end))


class HedgeDetector:
    """Finds hedges; `analyze` returns the wire-level HedgeReport."""

    def __init__(self, cfg: HedgeConfig | None = None) -> None:
        self._cfg = cfg or HedgeConfig()

    def hits(self, text: str) -> list[HedgeHit]:
        """Every hedge found, block categories first (bounded: only `max_chars` are read)."""
        norm = _normalise(text[: self._cfg.max_chars])
        lower = norm.lower()
        found: list[HedgeHit] = []
        for category, pattern in _CATEGORY_PATTERNS:
            for m in pattern.finditer(lower):
                phrase = norm[m.start() : m.end()].strip()
                if category is HedgeCategory.TECHNICAL_HEDGE:
                    if _filtered(phrase, norm, m.start(), m.end()):
                        continue
                    if not self._cfg.frequency_adverbs_review and _FREQUENCY.match(phrase.lower()):
                        continue
                found.append(HedgeHit(category, phrase, m.start()))
        return found

    def analyze(self, text: str) -> HedgeReport:
        if not self._cfg.enabled:
            return HedgeReport()
        found = self.hits(text)
        if not found:
            return HedgeReport(action=HedgeAction.NONE.value)
        # Categories were searched in severity order, so the first hit decides; a block
        # category is never outweighed by assertion markers elsewhere in the text.
        decisive = min(found, key=lambda h: (ACTION_OF[h.category] is not HedgeAction.BLOCK,))
        words: list[str] = []
        for hit in found:
            if hit.text not in words:
                words.append(hit.text)
        return HedgeReport(
            action=ACTION_OF[decisive.category].value,
            category=decisive.category.value,
            words=words[: self._cfg.max_words],
        )


_DEFAULT = HedgeDetector()


def analyze(text: str, cfg: HedgeConfig | None = None) -> HedgeReport:
    """Module-level convenience: one detector per config is cheap, the patterns are global."""
    return _DEFAULT.analyze(text) if cfg is None else HedgeDetector(cfg).analyze(text)
