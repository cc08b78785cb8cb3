"""ADR citations: does a configured directory hold the cited decision record?

Tools name ADR files differently (ADR-003-title.md, adr_3.md, 0003-title.md: zero padding
and prefix vary), so the number is read from the file name; the directory scan is bounded
so a huge directory cannot stall a check. The file's text (bounded) comes back with the
verdict, for the check that the record says what the claim says.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path

from groundwire.guards.citations.cache import CitationVerdict

__all__ = ["verify_adr"]

_ADR_FILE = re.compile(
    r"^(?:adr[-_ ]?)?0*(\d{1,6})(?:[-_ .][^/]*)?\.(?:md|markdown|rst|txt|adoc)$", re.IGNORECASE
)
_MAX_ADR_ENTRIES = 20_000


def verify_adr(number: int, dirs: Sequence[Path], max_text: int = 0) -> CitationVerdict:
    """An ADR exists when a configured directory holds a file named for its number
    (ADR-003-title.md, adr_3.md, 0003-title.md: zero padding and prefix vary by tool).

    With `max_text`, the verdict also carries the file's first `max_text` characters, so
    the claim can be checked against what the decision record says."""
    for directory in dirs:
        if not directory.is_dir():
            continue
        for i, entry in enumerate(os.scandir(directory)):
            if i >= _MAX_ADR_ENTRIES:
                break
            m = _ADR_FILE.match(entry.name)
            if m and int(m.group(1)) == number and entry.is_file():
                return CitationVerdict(
                    True, f"ADR file exists: {entry.name}", text=_read(entry.path, max_text)
                )
    return CitationVerdict(False, "ADR not found")


def _read(path: str, max_text: int) -> str | None:
    """The first `max_text` characters of a file (UTF-8, undecodable bytes replaced)."""
    if max_text <= 0:
        return None
    try:
        with open(path, "rb") as fh:
            raw = fh.read(max_text * 4)  # at most 4 bytes per character
    except OSError:
        return None  # it exists; its text is simply not available to check against
    return raw.decode("utf-8", "replace")[:max_text]
