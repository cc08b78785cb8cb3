"""Two ways of writing a scale that `magnitudes` did not read: "1.5k" and "fifteen
hundred".

* **"1.5k"**: "10k" is one word and reads as 10000 (`text.number_value`), but a decimal
  point makes the tokenizer cut the letter off ("1.5", "k"), and a "k" standing apart is
  no scale (`magnitudes` leaves "5 k" alone: a variable, a grade, Kelvin). So "The service
  handles 1.5k requests per second" against the source's "1,500 requests" read as 1.5,
  a number the source contradicts. A "k" (or "K") written onto the digits, with nothing
  between (`glued_thousands`), is the thousands letter of "10k".
* **"fifteen hundred"**: "hundred" was no scale word (a number of its own, 100), so the
  source's "fifteen hundred requests" was the numbers 15 and 100, and the claim's
  "1,500" contradicted "fifteen". A "hundred" right after a number word or digits below
  100 (a whole number from 2 to 99, with no number word before it), with one space
  between (`hundreds_of`: "fifteen hundred", "twelve hundred", "5 hundred"), multiplies
  it. "a hundred", "one hundred" and "100" are read as before, and so is
  "twenty-five hundred" (cut into "twenty", "five": reading "five hundred" would be 500).

Every other number keeps its reading: the scale is only read as `magnitudes` reads
"million", so a different value ("1.5k" against "150", "fifteen hundred" against
"1,600") is left as it was and caught as before.
"""

from __future__ import annotations

from collections.abc import Sequence

from groundwire.guards.grounding.lexical.text import number_value

__all__ = ["glued_thousands", "hundreds_of"]


def glued_thousands(lows: Sequence[str], spans: Sequence[tuple[int, int]], i: int) -> bool:
    """Whether the number at `i` (digits with a decimal point) has a "k" written onto it."""
    return (
        i + 1 < len(lows)
        and lows[i + 1] == "k"
        and spans[i][1] == spans[i + 1][0]
        and lows[i][-1:].isdigit()
    )


def hundreds_of(
    lows: Sequence[str], spans: Sequence[tuple[int, int]], text: str, i: int, size: float
) -> bool:
    """Whether "hundred" follows the number at `i` (worth `size`) as its scale ("fifteen
    hundred"): one space between, a whole number from 2 to 99, no number before it
    ("twenty-five hundred" is cut into "twenty", "five": not read)."""
    if i + 1 >= len(lows) or lows[i + 1] != "hundred":
        return False
    if text[spans[i][1] : spans[i + 1][0]] != " ":
        return False
    if not (2 <= size < 100 and size == int(size)):
        return False
    return i == 0 or number_value(lows[i - 1]) is None
