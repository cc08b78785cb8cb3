"""Citation detection: find what a claim cites as its evidence (docs/spec.md §Citations).

Detection only says "this looks like a citation"; models fabricate plausible ADR numbers,
hashes and URLs, so nothing here is trusted until `verifier.py` has checked it exists.

Filtering, as docs/spec.md §Citations asks: URLs are removed before looking for commit
hashes (a hash inside a URL path is part of the URL, not a second citation); colour codes
(#abc123, #aabbccdd) are neither commits nor issues; a commit candidate must contain a
letter a-f (an all-digit run is far more often a number than a hash) and a digit (so
English words spelt in hex letters such as "defaced" are not hashes); UUIDs and
0x-literals are removed too because their hex groups are not commits.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from groundwire.topics.vocab import CitationType

MAX_SCAN_CHARS = 20_000
MAX_CITATIONS = 32
MAX_URL_CHARS = 2_048


class Citation(NamedTuple):
    """One detected citation. `value` is normalised: ADR-<n>, lowercase hash, URL, #<n>.

    A NamedTuple (immutable, hashable, positional like before): a frozen dataclass's
    __init__ sets each field through object.__setattr__ and was measured 2x slower."""

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


# All patterns run on an ASCII-lower-cased copy (same offsets) and start with a literal:
# a leading \b or look-behind stops the regex engine from skipping ahead, which was
# measured several times slower. Left boundaries are checked in Python (`_starts_word`).
_URL = re.compile(r"https?://[^\s<>\"'`]+")
_URL_TRAILING = ".,;:!?)]}'\""
# "ADR-7", "ADR 7", "ADR#7", "ADR #7", "ADR: 7", "ADR no. 7", "ADR number 7", "ADRs 7"
_ADR_NUMBER = r"[-_\s:]{0,2}(?:#|no\.\s?|number\s)?(\d{1,6})\b"
_ADR = re.compile(r"adrs?" + _ADR_NUMBER)
# ... and the name written out ("architecture decision record 7", "decision record #7")
_ADR_WORDS = re.compile(r"decision record" + _ADR_NUMBER)
# The same with the letters spelled apart ("A.D.R.-7", "A D R 7"): a model's or a
# producer's way around the pattern above, with the same meaning to a reader.
_ADR_SPELLED = re.compile(r"a(?:\. ?| )d(?:\. ?| )r\.?[-_\s]?(\d{1,6})\b")
_ISSUE = re.compile(r"#(\d{1,9})(?![\w-])")
_GH_ISSUE = re.compile(r"gh-(\d{1,9})\b")
_COLOUR = re.compile(r"#(?:[0-9a-f]{8}|[0-9a-f]{6}|[0-9a-f]{3,4})(?!\w)")
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?!\w)")
_HEX_LITERAL = re.compile(r"0x[0-9a-f]+")
_COMMIT = re.compile(r"[0-9a-f]{7,40}(?![\w-])")
_HAS_LETTER = re.compile(r"[a-f]")
_HAS_DIGIT = re.compile(r"\d")
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
# Hex digits -> "x" (and "x" itself away): a 7-long run of "x" means a possible hash.
_HEX_MARK = bytes.maketrans(b"0123456789abcdefx", b"xxxxxxxxxxxxxxxx.")


def _starts_word(text: str, start: int, also: str = "") -> bool:
    """True if `start` is not inside a word (nor preceded by one of `also`)."""
    if start == 0:
        return True
    before = text[start - 1]
    return not (before.isalnum() or before == "_" or before in also)


def _blank(text: str, spans: list[tuple[int, int]]) -> str:
    """Replace spans with spaces, keeping offsets valid for later matches."""
    for start, end in sorted(spans):
        text = text[:start] + " " * (end - start) + text[end:]
    return text


def _clean_url(raw: str) -> str:
    url = raw.rstrip(_URL_TRAILING)
    # Keep a closing parenthesis that balances one inside the URL (wiki-style links).
    if raw[len(url) : len(url) + 1] == ")" and url.count("(") > url.count(")"):
        url += ")"
    return url


def detect(text: str) -> list[Citation]:
    """All citations in `text`, in order of appearance (bounded scan and count).

    Each pattern runs only when a cheap substring test says it could match, because
    most claims cite nothing and this runs on every claim."""
    text = text[:MAX_SCAN_CHARS]
    lower = text.lower()
    if len(lower) != len(text):  # a few non-ASCII letters change length when lowered
        lower = text.translate(_ASCII_LOWER)
    found: list[Citation] = []
    if "://" in lower:
        removed: list[tuple[int, int]] = []
        for m in _URL.finditer(lower):
            if not _starts_word(lower, m.start()):
                continue
            url = _clean_url(text[m.start() : m.end()])
            removed.append((m.start(), m.end()))
            if len(url) <= MAX_URL_CHARS and len(url.split("://", 1)[1]) > 0:
                found.append(Citation(CitationType.URL, url, m.start(), m.start() + len(url)))
        lower = _blank(lower, removed)
    adr_patterns = [_ADR] if "adr" in lower else []
    if ("d." in lower or " d " in lower) and _ADR_SPELLED.search(lower):
        adr_patterns.append(_ADR_SPELLED)
    if "decision record" in lower:
        adr_patterns.append(_ADR_WORDS)
    adr_spans: list[tuple[int, int]] = []
    for pattern in adr_patterns:
        for m in pattern.finditer(lower):
            if _starts_word(lower, m.start()):
                start = m.start() - 1 if lower[m.start() - 1 : m.start()] == "[" else m.start()
                end = m.end() + 1 if lower[m.end() : m.end() + 1] == "]" else m.end()
                found.append(Citation(CitationType.ADR, f"ADR-{m.group(1)}", start, end))
                adr_spans.append((start, end))
    if adr_spans:
        lower = _blank(lower, adr_spans)  # "ADR #7" is not also issue 7
    colours: list[tuple[int, int]] = []
    if "#" in lower:
        colours = [(m.start(), m.end()) for m in _COLOUR.finditer(lower)]
        # Both patterns begin at a '#' and a colour holds no other, so an issue lies in
        # a colour only if both start at the same '#': a lookup, not a scan of every
        # colour per issue (quadratic: "#abc #1 " x 2,000 took 0.2 s a claim).
        colour_ends = dict(colours)
        for m in _ISSUE.finditer(lower):
            if not _starts_word(lower, m.start(), also="&/"):
                continue
            if colour_ends.get(m.start(), m.start()) - m.start() in (7, 9):
                continue  # "#123456" is a colour code, not issue 123456
            found.append(Citation(CitationType.ISSUE, f"#{int(m.group(1))}", m.start(), m.end()))
    if "gh-" in lower:
        for m in _GH_ISSUE.finditer(lower):
            if _starts_word(lower, m.start()):
                number = int(m.group(1))
                found.append(Citation(CitationType.ISSUE, f"#{number}", m.start(), m.end()))
    marked = lower.encode("utf-8", "surrogatepass").translate(_HEX_MARK)
    first_run = marked.find(b"xxxxxxx")
    if first_run != -1:
        blanks = list(colours)
        if "-" in lower:
            blanks += [(m.start(), m.end()) for m in _UUID.finditer(lower)]
        if "0x" in lower:
            blanks += [(m.start(), m.end()) for m in _HEX_LITERAL.finditer(lower)]
        hex_free = _blank(lower, blanks) if blanks else lower
        # No hash can start before the first run of 7 hex characters (blanking only
        # removes runs), so the scan starts there: the pattern has no literal prefix and
        # would otherwise be tried at every a-f letter of the claim. Byte offsets equal
        # character offsets only for ASCII text.
        start = first_run if len(marked) == len(lower) else 0
        for m in _COMMIT.finditer(hex_free, start):
            value = m.group(0)
            if (
                _starts_word(hex_free, m.start(), also="#-")
                and _HAS_LETTER.search(value)
                and _HAS_DIGIT.search(value)
            ):
                found.append(Citation(CitationType.COMMIT, value, m.start(), m.end()))
    found.sort(key=lambda c: c.start)
    return found[:MAX_CITATIONS]
