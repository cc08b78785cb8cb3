"""Dates written with the month's name, read as one value beside the digit forms
(`units._dates`: "2024-03-05", "03/05/2024").

A sloppy or hostile writer restates a date in another form ("March 5, 2024" for the
source's "2024-03-05") or changes it in passing ("March 6, 2024"). Word overlap reads
"March" and "6" as two unsupported words of many, `partial` and approved, and the
swapped-specific rule needs the two numbers between the same neighbours, which another
form does not give. Read as (year, month, day), a date in any of these forms matches the
source's date in any other, and one that matches none of the source's dates where a
sentence sharing words with the claim states one is a changed date (`units.date_swaps`).

Forms: month day year ("March 5, 2024", "Mar. 5th 2024") and day month year ("5 March
2024", "5th of March, 2024"), the month written out or in its usual abbreviation; and a
month of a year ("March 2023", "in March of 2023"), read as each of its days, so it
agrees with any date in that month and contradicts a source date in another. A date
without its year ("March 5") is not read: which year it means is the context's.
"""

from __future__ import annotations

import re

__all__ = ["written_dates"]

_MONTHS = {
    "jan": 1,
    "feb": 2,
    "mar": 3,
    "apr": 4,
    "may": 5,
    "jun": 6,
    "jul": 7,
    "aug": 8,
    "sep": 9,
    "oct": 10,
    "nov": 11,
    "dec": 12,
}
_MONTH = (
    r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_DAY = r"([0-9]{1,2})(?:st|nd|rd|th)?"
_YEAR = r"([0-9]{4})(?![0-9])"
_MDY = re.compile(rf"\b{_MONTH}\s+{_DAY},?\s+{_YEAR}", re.IGNORECASE)
_DMY = re.compile(rf"(?<![0-9]){_DAY}\s+(?:of\s+)?{_MONTH},?\s+{_YEAR}", re.IGNORECASE)
# a month of a year ("March 2023", "in March of 2023"): every day of it is a reading
_MY = re.compile(rf"\b{_MONTH},?\s+(?:of\s+)?{_YEAR}", re.IGNORECASE)


def written_dates(text: str) -> list[tuple[str, set[tuple[int, int, int]]]]:
    """Each date of `text` written with its month's name, as written, with its (year,
    month, day) readings (one; every day of the month for a month of a year); a day no
    month has (0, 32) is no date."""
    out: list[tuple[str, set[tuple[int, int, int]]]] = []
    if text.isascii() and not _may_name_a_month(text.lower()):
        return out  # every pattern reads a month's name (most texts with a year have none)
    taken: list[tuple[int, int]] = []
    for pattern, month_at, day_at in ((_MDY, 1, 2), (_DMY, 2, 1)):
        for m in pattern.finditer(text):
            month = _MONTHS[m.group(month_at)[:3].lower()]
            day, year = int(m.group(day_at)), int(m.group(3))
            if 1 <= day <= 31:
                out.append((m.group(0), {(year, month, day)}))
                taken.append(m.span())
    for m in _MY.finditer(text):
        if any(a < m.end() and m.start() < b for a, b in taken):
            continue  # the month and year of a full date ("5 March 2024")
        month, year = _MONTHS[m.group(1)[:3].lower()], int(m.group(2))
        out.append((m.group(0), {(year, month, day) for day in range(1, 32)}))
    return out


def _may_name_a_month(low: str) -> bool:
    """Whether the lower-cased ASCII text holds the first three letters of a month's name,
    which each pattern's case-blind match of a month starts with: twelve substring
    searches (~2.6 us on a sentence of 120 characters) where the three patterns take ~16
    us. Only for ASCII text: a case-blind match may read a letter outside ASCII as one
    inside it ("\u017f" as "s")."""
    return any(prefix in low for prefix in _MONTHS)
