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

import bisect
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
_ADR_NUMBER = r"[-_\s:]{0,3}(?:#|no\.\s?|number\s)?(\d{1,6})\b"  # "ADR - 7" too
_ADR = re.compile(r"adrs?" + _ADR_NUMBER)
# ... and the name written out ("architecture decision record 7", "decision record #7")
_ADR_WORDS = re.compile(r"decision record" + _ADR_NUMBER)
# The same with the letters spelled apart ("A.D.R.-7", "A D R 7"): a model's or a
# producer's way around the pattern above, with the same meaning to a reader.
_ADR_SPELLED = re.compile(r"a(?:\. ?| )d(?:\. ?| )r\.?\s?[-_:#]?\s?(\d{1,6})\b")
_ISSUE = re.compile(r"#(\d{1,9})(?![\w-])")
_GH_ISSUE = re.compile(r"gh\s?-\s?(\d{1,9})\b")  # "GH-42", "GH - 42"
# "issue # 42", "bug # 42": a space after "#" is a citation only after a word that names
# an issue (a lone "# 42" is a markdown heading or a list number).
_ISSUE_SPACED = re.compile(r"(?:issue|bug|ticket|pr)\s?#\s(\d{1,9})(?![\w-])")
# A URL written so that it cannot be followed, as threat reports write them: "hxxps://",
# "example[.]com", "https[:]//" ("defanged"); and a scheme spelled apart ("h t t p s://")
# or with a fullwidth colon or slashes ("https：//"). A claim that cites such a link cites
# the link: it is read back (`_refang`) and verified like any other.
# The cheap test (`_defanged`): substrings, and a scheme spelled apart right before a "://".
_SPACED_SCHEME_END = re.compile(
    r"h[\s._-]+t[\s._-]*t[\s._-]*p(?:[\s._-]*s)?[\s._-]*$", re.IGNORECASE
)
_DEFANGED = re.compile(
    r"(?i)(?<![a-z])h[\s._-]*(?:tt|xx|t[\s._-]+t)[\s._-]*p(?:[\s._-]*s)?[\s._-]*"
    r"(?:\[:\]|[:\uff1a])[/\uff0f][/\uff0f]"
    r"|(?<=[a-z0-9])(?:\[\.\]|\(\.\)|\{\.\})(?=[a-z0-9])"
)
# A link without a scheme that names a web host ("www.example.com/x"); read as https.
_WWW = re.compile(r"www\.[a-z0-9-]+(?:\.[a-z0-9-]+)+(?:[/?#][^\s<>\"'`]*)?")
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


def _refang_one(m: re.Match[str]) -> str:
    match = m.group(0)
    if match[0] in "[({":
        return "."
    secure = "s" in match.lower().replace("\uff1a", ":").split(":")[0].lstrip("h")
    return "https://" if secure else "http://"


def _defanged(text: str) -> bool:
    """Whether `text` may hold a defanged or spelled-apart link: substring tests, and
    the few characters before each "://" (~0.3 us a claim; a regex over the whole text,
    which would start with an alternation, was measured ~2 us)."""
    if (
        "[." in text
        or "[:" in text
        or "(.)" in text
        or "{.}" in text
        or "\uff1a" in text
        or "\uff0f" in text
        or (("xx" in text or "XX" in text) and "hxxp" in text.lower())
    ):
        return True
    at = text.find("://")
    while at != -1:
        if _SPACED_SCHEME_END.search(text, max(0, at - 24), at):
            return True
        at = text.find("://", at + 3)
    return False


def _refang(text: str) -> tuple[str, list[tuple[int, int]]]:
    """`text` with defanged or spelled-apart URL schemes and dots written plainly
    ("hxxps://example[.]com" -> "https://example.com"), and where each change ends
    (its end in the new text, and how much longer the original was up to there), for
    `_original_offset`. `text` itself and [] when it has none."""
    if not _defanged(text):
        return text, []
    parts: list[str] = []
    shifts: list[tuple[int, int]] = []
    at = new_len = shift = 0
    for m in _DEFANGED.finditer(text):
        plain = _refang_one(m)
        if plain == m.group(0):
            continue  # a plain "https://"
        parts += (text[at : m.start()], plain)
        new_len += m.start() - at + len(plain)
        shift += len(m.group(0)) - len(plain)
        shifts.append((new_len, shift))
        at = m.end()
    if not parts:
        return text, []
    parts.append(text[at:])
    return "".join(parts), shifts


def _original_offset(pos: int, shifts: list[tuple[int, int]]) -> int:
    """An offset into the read-back text as an offset into the text as written."""
    i = bisect.bisect_right(shifts, (pos, 1 << 62)) - 1
    return pos + shifts[i][1] if i >= 0 else pos


def detect(text: str) -> list[Citation]:
    """All citations in `text`, in order of appearance (bounded scan and count).

    Each pattern runs only when a cheap substring test says it could match, because
    most claims cite nothing and this runs on every claim. Defanged links are read back
    first (`_refang`); offsets are into `text` as given."""
    text = text[:MAX_SCAN_CHARS]
    if _defanged(text):
        plain, shifts = _refang(text)
        if shifts:
            return [
                c._replace(
                    start=_original_offset(c.start, shifts), end=_original_offset(c.end, shifts)
                )
                for c in _detect(plain)
            ]
    return _detect(text)


def _detect(text: str) -> list[Citation]:
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
    if "www." in lower:
        hosts: list[tuple[int, int]] = []
        for m in _WWW.finditer(lower):
            if _starts_word(lower, m.start(), also="./@"):
                url = _clean_url(text[m.start() : m.end()])
                if len(url) <= MAX_URL_CHARS:
                    end = m.start() + len(url)
                    found.append(Citation(CitationType.URL, "https://" + url, m.start(), end))
                    hosts.append((m.start(), m.end()))
        lower = _blank(lower, hosts)
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
    if "# " in lower and _ISSUE_SPACED.search(lower):
        for m in _ISSUE_SPACED.finditer(lower):
            if _starts_word(lower, m.start()):
                number = int(m.group(1))
                found.append(Citation(CitationType.ISSUE, f"#{number}", m.start(), m.end()))
    if "gh" in lower and "-" in lower:
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
