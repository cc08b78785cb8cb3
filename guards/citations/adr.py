"""ADR citations: does a configured directory hold the cited decision record?

Tools name ADR files differently (ADR-003-title.md, adr_3.md, 0003-title.md: zero padding
and prefix vary), so the number is read from the file name; the directory scan is bounded
so a huge directory cannot stall a check.
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


def verify_adr(number: int, dirs: Sequence[Path]) -> CitationVerdict:
    """An ADR exists when a configured directory holds a file named for its number
    (ADR-003-title.md, adr_3.md, 0003-title.md: zero padding and prefix vary by tool)."""
    for directory in dirs:
        if not directory.is_dir():
            continue
        for i, entry in enumerate(os.scandir(directory)):
            if i >= _MAX_ADR_ENTRIES:
                break
            m = _ADR_FILE.match(entry.name)
            if m and int(m.group(1)) == number and entry.is_file():
                return CitationVerdict(True, f"ADR file exists: {entry.name}")
    return CitationVerdict(False, "ADR not found")
