"""Inline citation markers in an answer's text, and what they resolve to
(docs/spec.md §Read-time faithfulness, "Citations inside answers").

A marker is a bracket after a claim: `[source:2]` (the second source of the context, as a
grounded prompt numbers them), `[2]`, `[mem_X]` (a source id), `[a1b2c3d4]` (a stable
hash: a prefix of at least 8 hex digits of the SHA-256 of a source's text), several in
one bracket (`[source:1, source:3]`) and line numbers with them (`[source:2 L10-L12]`,
`[mem_X, lines 3-5]`, `[mem_X#L3]`). A bracket is a citation when one of its parts has
the shape of a reference (a `source:N` or a number, a known id, a hash, or an id-like
token with a digit, `_`, `:`, `#` or `/`); "[sic]" or "[citation needed]" are prose, and
`[text](url)` is a link. A reference that names no source of the context is a *phantom*.

Pure and bounded: at most `max_markers` markers are read, each bracket at most 200
characters.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass

from groundwire.topics.answers import ContextSource

__all__ = ["MIN_HASH_HEX", "Marker", "Ref", "find_markers", "resolve", "source_hash"]

MIN_HASH_HEX = 8
_BRACKET = re.compile(r"\[([^\[\]\n]{1,200})\](?!\()")
_PART_SPLIT = re.compile(r"\s*[,;]\s*|\s+(?=(?:source|src)\s*[:#]?\s*\d)", re.IGNORECASE)
_INDEX = re.compile(r"^(?:(?:source|src|ref|doc|s)\s*[:#]?\s*)?(\d{1,4})$", re.IGNORECASE)
_HEX = re.compile(r"^(?:h:|hash:|#)?([0-9a-fA-F]{8,64})$")
_LINES = re.compile(
    r"(?:#|\s|^)(?:L|lines?\s*|ll?\.\s*)(\d{1,7})(?:\s*[-–]\s*L?(\d{1,7}))?$", re.IGNORECASE
)
_ID_LIKE = re.compile(r"^[\w.:#/@-]{1,128}$")
_ID_MARK = re.compile(r"[\d_:#/]")


@dataclass(frozen=True, slots=True)
class Ref:
    """One reference inside a marker, as written, with the lines it names (1-based)."""

    text: str
    lines: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class Marker:
    """A citation bracket: where it is in the answer and what it refers to."""

    start: int
    end: int
    refs: tuple[Ref, ...]


def source_hash(text: str) -> str:
    """A source's stable hash: SHA-256 of its text (UTF-8), lower-case hex."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _lines(part: str) -> tuple[str, tuple[int, int] | None]:
    found = _LINES.search(part)
    if found is None:
        return part, None
    first = int(found.group(1))
    last = int(found.group(2)) if found.group(2) else first
    return part[: found.start()].strip(), (first, last)


def _is_ref(part: str, ids: frozenset[str]) -> bool:
    if part in ids or _INDEX.match(part) or _HEX.match(part):
        return True
    return bool(_ID_LIKE.match(part) and _ID_MARK.search(part))


def find_markers(text: str, ids: frozenset[str], max_markers: int = 256) -> list[Marker]:
    """The citation markers of `text`, in order (`ids`: the context's source ids)."""
    out: list[Marker] = []
    if "[" not in text:
        return out
    for match in _BRACKET.finditer(text):
        inner = match.group(1).strip()
        # an id may itself hold "," or ";"
        parts = [inner] if inner in ids else [p for p in _PART_SPLIT.split(inner) if p]
        refs: list[Ref] = []
        pending_lines: tuple[int, int] | None = None
        for part in parts:
            ref, lines = (part, None) if part in ids else _lines(part)
            if not ref:  # "lines 3-5" on its own: belongs to the reference before it
                pending_lines = lines
                if refs and lines is not None and refs[-1].lines is None:
                    refs[-1] = Ref(refs[-1].text, lines)
                continue
            if _is_ref(ref, ids):
                refs.append(Ref(ref, lines))
        if not refs:
            continue
        if pending_lines is not None and refs[-1].lines is None:
            refs[-1] = Ref(refs[-1].text, pending_lines)
        out.append(Marker(match.start(), match.end(), tuple(refs)))
        if len(out) >= max_markers:
            break
    return out


def resolve(
    ref: str, context: Sequence[ContextSource], hashes: Sequence[str] | None = None
) -> str | None:
    """The id of the context source `ref` names, or None (a phantom).

    In this order: an exact id; `source:N` / `N`, the N-th source counted from 1; a hash
    prefix of at least 8 hex digits matching exactly one source (`hashes`: each source's
    `source_hash`, computed by the caller once per answer)."""
    for source in context:
        if source.id == ref:
            return source.id
    index = _INDEX.match(ref)
    if index is not None:
        n = int(index.group(1))
        return context[n - 1].id if 1 <= n <= len(context) else None
    hexed = _HEX.match(ref)
    if hexed is not None:
        prefix = hexed.group(1).lower()
        digests = hashes if hashes is not None else [source_hash(s.text) for s in context]
        hits = {s.id for s, h in zip(context, digests, strict=True) if h.startswith(prefix)}
        if len(hits) == 1:
            return hits.pop()
    return None
