"""Citation detection: find what a claim cites as its evidence (seed 000, step 1).

Detection only says "this looks like a citation"; models fabricate plausible ADR numbers,
hashes and URLs, so nothing here is trusted until `citation_verify` has checked it exists.

Smart filtering, as the seed asks: URLs are removed before looking for commit hashes (a
hash inside a URL path is part of the URL, not a second citation); colour codes (#abc123,
#aabbccdd) are neither commits nor issues; a commit candidate must contain a letter a-f
(an all-digit run is far more often a number than a hash) and a digit (so English words
spelt in hex letters such as "defaced" are not hashes); UUIDs and 0x-literals are removed
too because their hex groups are not commits.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

MAX_SCAN_CHARS = 20_000
MAX_CITATIONS = 32
MAX_URL_CHARS = 2_048


class CitationType(StrEnum):
    ADR = "adr"
    COMMIT = "commit"
    URL = "url"
    ISSUE = "issue"


@dataclass(frozen=True, slots=True)
class Citation:
    """One detected citation. `value` is normalised: ADR-<n>, lowercase hash, URL, #<n>."""

    type: CitationType
    value: str
    start: int
    end: int

    @property
    def number(self) -> int | None:
        """The ADR or issue number, for verifiers."""
        if self.type in (CitationType.ADR, CitationType.ISSUE):
            return int(re.sub(r"\D", "", self.value))
        return None


_URL = re.compile(r"\bhttps?://[^\s<>\"'`]+", re.IGNORECASE)
_URL_TRAILING = ".,;:!?)]}'\""
_ADR = re.compile(r"\[?\bADR[-_\s]?(\d{1,6})\b\]?", re.IGNORECASE)
_ISSUE = re.compile(r"(?<![\w&/])#(\d{1,9})\b(?![a-f\d])|\bGH-(\d{1,9})\b", re.IGNORECASE)
_COLOUR = re.compile(r"#(?:[0-9a-f]{8}|[0-9a-f]{6}|[0-9a-f]{3,4})\b", re.IGNORECASE)
_UUID = re.compile(
    r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b", re.IGNORECASE
)
_HEX_LITERAL = re.compile(r"\b0x[0-9a-f]+\b", re.IGNORECASE)
_COMMIT = re.compile(r"(?<![#\w-])([0-9a-f]{7,40})\b(?!-)", re.IGNORECASE)
_HAS_LETTER = re.compile(r"[a-f]", re.IGNORECASE)
_HAS_DIGIT = re.compile(r"\d")


def _blank(text: str, spans: list[tuple[int, int]]) -> str:
    """Replace spans with spaces, keeping offsets valid for later matches."""
    chars = list(text)
    for start, end in spans:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


def _clean_url(raw: str) -> str:
    url = raw.rstrip(_URL_TRAILING)
    # Keep a closing parenthesis that balances one inside the URL (wiki-style links).
    if raw[len(url) : len(url) + 1] == ")" and url.count("(") > url.count(")"):
        url += ")"
    return url


def detect(text: str) -> list[Citation]:
    """All citations in `text`, in order of appearance (bounded scan and count)."""
    text = text[:MAX_SCAN_CHARS]
    found: list[Citation] = []
    removed: list[tuple[int, int]] = []
    for m in _URL.finditer(text):
        url = _clean_url(m.group(0))
        removed.append((m.start(), m.end()))
        if len(url) <= MAX_URL_CHARS and "://" in url and len(url.split("://", 1)[1]) > 0:
            found.append(Citation(CitationType.URL, url, m.start(), m.start() + len(url)))
    rest = _blank(text, removed)
    for m in _ADR.finditer(rest):
        found.append(Citation(CitationType.ADR, f"ADR-{m.group(1)}", m.start(), m.end()))
    colours = [(m.start(), m.end()) for m in _COLOUR.finditer(rest)]
    for m in _ISSUE.finditer(rest):
        if any(s <= m.start() < e and e - s in (7, 9) for s, e in colours):
            continue  # "#123456" is a colour code, not issue 123456
        number = m.group(1) or m.group(2)
        found.append(Citation(CitationType.ISSUE, f"#{int(number)}", m.start(), m.end()))
    hex_free = _blank(
        rest,
        colours
        + [(m.start(), m.end()) for m in _UUID.finditer(rest)]
        + [(m.start(), m.end()) for m in _HEX_LITERAL.finditer(rest)],
    )
    for m in _COMMIT.finditer(hex_free):
        value = m.group(1)
        if _HAS_LETTER.search(value) and _HAS_DIGIT.search(value):
            found.append(Citation(CitationType.COMMIT, value.lower(), m.start(), m.end()))
    found.sort(key=lambda c: c.start)
    return found[:MAX_CITATIONS]
