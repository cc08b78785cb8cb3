"""Contractions spelled one way before the hedge patterns see the text.

Informal and scraped text spells contractions many ways ("don’t", "don?t" from a lost
encoding, "dont", "do nt", "do n't"); the patterns are written for "don't" only, so every
spelling is mapped to it first, or a first-person hedge ("I dont know") would slip
through. Matching is done on the normalized form only, so it need not keep the length of
the original.

Two passes: `normalize` (typographic and lost apostrophes, split clitics) runs on every
claim and is cheap when there is nothing to fix; `normalize_bare` (apostrophe-less
contractions, a regex that costs ~10 us) runs only when the claim's word set holds one of
`BARE_WORDS`, which the detector learns for free from the set it builds anyway.
"""

from __future__ import annotations

import re

__all__ = ["BARE_WORDS", "BELIEF_WORDS", "close_gap", "normalize", "normalize_bare"]

# Typographic apostrophes (incl. the cp1252 byte seen in scraped text) become plain ones.
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\x92": "'", "`": "'"})
# Tokenized clitics ("could n't", "I 'm") become plain contractions.
_SPLIT_NEGATION = re.compile(r"\s+n'?t\b")
_SPLIT_CLITIC = re.compile(r"\s+'(m|d|s|re|ve|ll)\b")
# "didn?t", "I?m": a typographic apostrophe lost to a wrong code page became "?".
_LOST_APOSTROPHE = re.compile(r"(?<=[A-Za-z])\?(?=(?:t|s|m|d|re|ve|ll)\b)")
# Apostrophe-less contractions the patterns care about (no English word collides, except
# rare "cant"/"wont", which are harmless here).
_BARE_CONTRACTION = re.compile(
    r"\b(?:[Dd]ont|[Dd]idnt|[Dd]oesnt|[Cc]ant|[Cc]ouldnt|[Ss]houldnt|[Ww]ouldnt|[Ii]snt|"
    r"[Ww]asnt|[Aa]rent|[Mm]ightnt|I[Mm]|im)\b"
)
# "I" run into a verb of belief ("Ithink", "I-think", "i_guess"): still "I think".
_BELIEF = "think|guess|believe|suppose|reckon|suspect|assume|feel"
_FUSED_I = re.compile(rf"\b[Ii][-_]?((?i:{_BELIEF}))\b")  # "Ithink", "IThink"
_CUT_I = re.compile(rf"\b[Ii][-_]({_BELIEF})\b")
# "I" and a verb of belief with punctuation or a filler between them: "I... think",
# "I -- think", "I, uh, think", 'I "think"', "I (think)", "I|think", "I/think". A single
# "." is not read through: "Part I. Think about it" ends a sentence.
# Pictographs too ("I 🤔 think"), repeated "!" / "?" ("I!!! think"; a single one ends a
# sentence), a tilde ("I ~think~"), and a lower-case "l" standing for "I" ("l think": no
# English word is a lone "l").
_GAP = (
    r"(?:\.{2,}|\u2026|-{1,3}|[!?]{2,}|[\u2013\u2014,|/\"'(\[*~]|\b(?:uh|um|er|erm|hmm)\b"
    r"|[\u2600-\u27bf\U0001f000-\U0001faff\ufe0f\u200d])"
)
_I_GAP = re.compile(rf"\b([Ii])(?:\s*{_GAP})+\s*((?i:{_BELIEF}))\b")
_L_FOR_I = re.compile(rf"(?<![\w'])l(?=(?:\s*{_GAP})*\s+(?i:{_BELIEF})\b)")
# The verbs of belief as the detector's word set holds them (bytes): `close_gap` is
# tried only when one of them is in the claim.
BELIEF_WORDS = frozenset(verb.encode() for verb in _BELIEF.split("|"))
# Words that mean the text needs the second pass (found via the word set, as bytes).
BARE_WORDS = frozenset(
    b"dont didnt doesnt cant couldnt shouldnt wouldnt isnt wasnt arent mightnt im nt".split()
    + [f"i{verb}".encode() for verb in _BELIEF.split("|")]
)


def normalize(text: str) -> str:
    """First pass: typographic and lost apostrophes, split clitics ("could n't").

    Apostrophe-less forms ("dont") are handled by `normalize_bare`, run by
    `HedgeDetector.hits` only when the word set tells there are any."""
    if "`" in text or (
        not text.isascii() and ("\u2019" in text or "\u2018" in text or "\x92" in text)
    ):
        text = text.translate(_APOSTROPHES)
    if "?" in text and _LOST_APOSTROPHE.search(text):
        text = _LOST_APOSTROPHE.sub("'", text)
    if "'" in text and (" n't" in text or " '" in text):
        text = _SPLIT_NEGATION.sub("n't", text)
        text = _SPLIT_CLITIC.sub(r"'\1", text)
    # `_CUT_I` needs an "I" right before the mark: four substring tests (C-level) instead
    # of the pattern, which starts with `\b` and so is tried at every position of every
    # claim with a hyphen (session 18)
    if ("i-" in text or "I-" in text or "i_" in text or "I_" in text) and _CUT_I.search(text):
        text = _CUT_I.sub(r"I \1", text)
    return text


def normalize_bare(text: str) -> str:
    """Second pass, only when the word set holds "nt", an apostrophe-less contraction or
    "I" run into a verb of belief ("Ithink")."""
    text = _FUSED_I.sub(r"I \1", text)
    return _BARE_CONTRACTION.sub(_add_apostrophe, _SPLIT_NEGATION.sub("n't", text))


def close_gap(text: str, *, lone_l: bool = True) -> str:
    """ "I" and a verb of belief written apart by punctuation, a filler or a pictograph
    ("I... think", "I, uh, think", 'I "think"', "I 🤔 think") as "I <verb>", and a lone
    "l" before such a verb as "I" ("l think"; `lone_l`: the claim has a word "l"). The
    detector runs it only when the claim holds such a verb (`BELIEF_WORDS`) and a word
    "i" or "l": the two patterns start with a character class and cost ~1 us a claim."""
    if lone_l:
        text = _L_FOR_I.sub("I", text)
    return _I_GAP.sub(r"\1 \2", text)


def _add_apostrophe(m: re.Match[str]) -> str:
    word = m.group(0)
    return word[:-1] + "'m" if word[-1] in "mM" else word[:-2] + "n't"
