"""Bibliographic references in a claim: footnote markers, author-year citations and
standard numbers (docs/guards.md §Citations, "phantom citations").

A claim that points at a document ("... [1].", "(Smith et al., 2021)", "per RFC 9999",
"ISO 27001:2013 §4.2") asserts that a document says it. None of these can be checked by
the citation verifier (nothing is fetched: no network, no SSRF surface), so the only
evidence for the reference is the claim's own source turns or a cited artifact's text.
A reference none of them contains is a phantom citation, like a phantom file or field
(`guards/artifacts.py`): the policy never approves the claim (it goes to review).

Shapes, read so that numbers in brackets that are no citation stay out:

* footnote markers: one number of 1-3 digits in square brackets ("[1]", "[12]") after
  prose: at the end of a word followed by a space or sentence punctuation ("deploy [1]",
  "deploy.[1]"), never glued to a name ("array[1]", an index) and never a list of numbers
  ("[0, 1]", a literal);
* author-year: a capitalised surname, optionally "et al." or "and/& Other", and a year
  1900-2099 in parentheses: "(Smith et al., 2021)", "(Smith and Jones 2021)",
  "Smith et al. (2021)";
* standards: RFC, ISO (also ISO/IEC), IEC, IEEE, NIST SP, DIN, ECMA with their
  number ("RFC 9999", "ISO/IEC 27001:2013", "NIST SP 800-53"), and a section sign
  after one ("§4.2") is part of it.

A reference is found in a source when the source names the same document: a footnote
marker as written; author-year by the surname and year both occurring; a standard by its
body and number with any spacing or hyphen ("RFC9999", "RFC-9999", "ISO/IEC 27001" for
"ISO 27001"; an edition year the
claim adds is a number the grounding verifier already checks).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from groundwire.guards.grounding.lexical.names import common_word
from groundwire.guards.grounding.lexical.text import STOPWORDS, word_set

__all__ = ["MAX_CHECKED", "MAX_REFS", "bibliographic_references", "phantom_bibrefs"]

MAX_REFS = 10
# References looked up in the evidence per claim (`phantom_bibrefs`).
MAX_CHECKED = 40

_FOOTNOTE = re.compile(r"(?<![\w\]\[(=,])(?:(?<=[\w.,;:!?)\"'])|(?<=[\w.,;:!?)\"'] ))\[(\d{1,3})\]")
_FOOTNOTE_AFTER = re.compile(r"(?:\s|$|[.,;:!?)\[])")
_SURNAME = r"[A-Z][a-z]+(?:[-'][A-Z]?[a-z]+)?"
_AUTHOR_YEAR = re.compile(
    r"\((" + _SURNAME + r")(?:\s+et\s+al\.?|\s+(?:and|&)\s+" + _SURNAME + r")?,?\s+"
    r"((?:19|20)\d\d)[a-z]?\)"
    r"|(?<![\w.])(" + _SURNAME + r")(?:\s+et\s+al\.?|\s+(?:and|&)\s+" + _SURNAME + r")\s+"
    r"\(((?:19|20)\d\d)[a-z]?\)"
)
_STANDARD = re.compile(
    r"(?<![\w/-])(RFC|ISO(?:/IEC)?|IEC|IEEE(?:\s+Std)?|NIST\s+SP|DIN|ECMA)"
    r"[\s-]?(\d{2,6}(?:[-.]\d{1,4})*)(?::((?:19|20)\d\d))?(?:\s?§\s?\d+(?:\.\d+)*)?(?![\w])"
)

# The bodies' names `_STANDARD` starts with (case-sensitive, as the pattern is): a text
# holding none of them has no standard, and the pattern, which opens with a look-behind
# the engine tries at every character, is not run over it (most claims).
_STANDARD_TAGS = ("RFC", "ISO", "IEC", "IEEE", "NIST", "DIN", "ECMA")


# What may stand right before a standard used as a modifier of a noun ("stored in ISO 8601
# format", "the RFC 3339 timestamps"): a determiner or a preposition of place or manner
# (English closed classes), or a content word (a verb: "we follow RFC 3339 timestamps").
_MODIFIED_AFTER = word_set("a an the this these those its their our in on with of for into from")
# Words that cite what follows them ("per RFC 9999 tokens expire", "see RFC 9999 errata",
# "according to RFC 9999": the "to" is no modifier position either), and conjunctions
# that open a clause whose subject the standard then is ("because RFC 9999 requires it").
_CITING = word_set(
    """per see cf citing cites cited according quoting quotes quoted because since as
    while unless although though whereas if when where that which and or but so"""
)
_WORD_BEFORE = re.compile(r"([A-Za-z]+)[ \t]+$")
_WORD_AFTER = re.compile(r"[ \t]+([a-z][a-z-]*)\b")


def _names_a_format(text: str, m: re.Match[str]) -> bool:
    """Whether the standard `m` is used as a modifier of a noun: the name of a format, an
    encoding or a profile the claim's data follows ("dates are stored in ISO 8601
    format", "we follow RFC 3339 timestamps"), not a document cited as the source of a
    statement. It is one when it has no section and no edition ("ISO 27001:2013 §4.2"
    points into a document), a lower-case content word follows it in the same clause
    ("format", "timestamps"; not "says", "which", a comma or the sentence's end), and
    it does not open its clause ("RFC 9999 requires ...": the standard is who says it):
    right before it stands a determiner, a preposition (`_MODIFIED_AFTER`) or a content
    word that cites nothing (`_CITING`: "per", "see", "according to")."""
    if m.group(3) is not None or "§" in m.group(0):
        return False
    after = _WORD_AFTER.match(text, m.end())
    if after is None or after.group(1) in STOPWORDS or _adverb(after.group(1)):
        return False  # "follows IEEE Std 802.11 closely": nothing the standard modifies
    before = _WORD_BEFORE.search(text, max(0, m.start() - 40), m.start())
    if before is None:
        return False
    prev = before.group(1).lower()
    if prev in _CITING:
        return False
    return prev in _MODIFIED_AFTER or prev not in STOPWORDS


def _adverb(low: str) -> bool:
    """An adverb made from an adjective with "-ly" ("closely", "strictly"), read from
    WordNet's lemmas: the word less "-ly" (or "-ily" back to "-y") is a common word. Nouns
    in "-ly" ("family", "supply", "anomaly") do not leave one."""
    if len(low) < 5 or not low.endswith("ly"):
        return False
    return common_word(low[:-2]) or (low.endswith("ily") and common_word(low[:-3] + "y"))


def _footnotes(text: str) -> Iterable[tuple[int, str, str]]:
    for m in _FOOTNOTE.finditer(text):
        if _FOOTNOTE_AFTER.match(text, m.end()) is None:
            continue
        yield m.start(), "footnote", m.group(0)


def _has_upper(text: str) -> bool:
    """Whether a character of `text` is upper case (`str.isupper`). An ASCII text (a flag
    CPython keeps) has one exactly when lower-casing changes it, which is one pass in C;
    many claims are all lower case, where a test per character walked the whole text.
    Outside ASCII, lower-casing also changes title-case letters: tested per character."""
    if text.isascii():
        return text.lower() != text
    return any(c.isupper() for c in text)


def bibliographic_references(text: str) -> list[tuple[str, str, str]]:
    """(kind, as written, key) of each reference in `text`, in order, without repeats.
    The key is what a source must contain (lower case, spacing normalised)."""
    upper = _has_upper(text)
    if not ("[" in text or "(" in text or upper):
        return []
    found: list[tuple[int, str, str, str]] = []
    if "[" in text:
        found.extend((at, kind, name, name) for at, kind, name in _footnotes(text))
    if "(" in text:
        for m in _AUTHOR_YEAR.finditer(text):
            surname = m.group(1) or m.group(3)
            year = m.group(2) or m.group(4)
            found.append((m.start(), "author_year", m.group(0), f"{surname.lower()} {year}"))
    # none (the tags are in capitals, so none in a text without one): `_STANDARD` cannot match
    if upper and any(map(text.__contains__, _STANDARD_TAGS)):
        for m in _STANDARD.finditer(text):
            if _names_a_format(text, m):
                continue  # "stored in ISO 8601 format": the standard's name, no cited source
            body = m.group(1).lower().split("/")[0].split()[0]  # "iso/iec" -> "iso"
            found.append((m.start(), "standard", m.group(0), f"{body} {m.group(2)}"))
    seen: set[str] = set()
    out: list[tuple[str, str, str]] = []
    for _, kind, name, key in sorted(found):
        if key not in seen:
            seen.add(key)
            out.append((kind, name, key))
    return out


def _in_sources(kind: str, key: str, plain: str) -> bool:
    if kind == "footnote":
        return key in plain
    if kind == "author_year":
        surname, year = key.rsplit(" ", 1)
        return re.search(rf"\b{re.escape(surname)}\b", plain) is not None and year in plain
    body, number = key.split(" ", 1)
    return (
        re.search(rf"\b{body}\b(?:/iec)?[\s-]*(?:std[\s-]*)?{re.escape(number)}", plain) is not None
    )


def phantom_bibrefs(text: str, sources: Iterable[str]) -> list[str]:
    """References in `text` (as written) that none of `sources` contains (at most
    `MAX_REFS`). Each check searches the whole evidence, so at most `MAX_CHECKED`
    references are looked up; any beyond them count as not found, so that a claim cannot
    hide a phantom behind thousands of genuine ones (and goes to review, which it earns)."""
    refs = bibliographic_references(text)
    if not refs:
        return []
    plain = " ".join(s.lower() for s in sources)
    out = [name for kind, name, key in refs[:MAX_CHECKED] if not _in_sources(kind, key, plain)]
    out += [name for _, name, _ in refs[MAX_CHECKED:]]
    return out[:MAX_REFS]
