"""A claim that spells out the source's acronym in words: "The office is in New York
City" where the source says "NYC", "runs on Google Cloud" where it says "GCP" (session
16).

`spelling.same_name_in` reads a claim's acronym as the source's words ("NY" / "New
York"), one claim word at a time. The other way round it cannot: each of "New", "York",
"City" alone is no spelling of "NYC", so each was a name the source never gives, and,
where the source has "NYC", a name swapped for it: a contradiction, the faithful claim
blocked.

`as_source_acronyms` reads a run of two to four consecutive capitalised claim words the
source never uses as the source's acronym when the run's initials are the acronym's
letters ("New York City" / "NYC"), or all of them but a last one ("Google Cloud" /
"GCP": the generic last word of a product's or body's name, "Platform", "Service",
"Authority", is the one a writer drops), where the run stands where the acronym stands:
the word right before the run is one the source writes right before the acronym, or the
word right after it one the source writes after ("in New York City" / "in NYC"; "The
bundle was written by John Smith" is no spelling of "The JS bundle"). An acronym the
claim writes itself is not read. The run's words then carry the acronym's stem, so
every signal reads them as the source's name. A run of one word is never read (a
capitalised word whose initial is an acronym's first letter is no spelling of it), and
the acronym must be written in capitals in the source (two to four letters, the shape
`spelling` reads).
"""

from __future__ import annotations

import itertools
import operator

from groundwire.guards.grounding.lexical.evidence import Evidence
from groundwire.guards.grounding.lexical.text import ClaimWords, capitals

__all__ = ["as_source_acronyms"]

_LONGEST = 4  # words in a run (and letters in an acronym)


def _source_acronyms(ev: Evidence) -> dict[str, tuple[str, set[str], set[str]]]:
    """Lower-case acronym -> (its stem, the words right before it, the words right after
    it), for each word of two to four capitals in the source ("" at a sentence's edge)."""
    out: dict[str, tuple[str, set[str], set[str]]] = {}
    for s in ev.sentences:
        lows, raws = s.lows, s.raws
        # only the words in capitals are looked at in Python: their positions by C-level
        # passes (session 17), in order, so the sets fill as the loop over every word did
        for k in itertools.compress(itertools.count(), map(str.isupper, raws)):
            raw = raws[k]
            if 2 <= len(raw) <= _LONGEST and raw.isalpha():
                _, before, after = out.setdefault(lows[k], (s.word_stems[k], set(), set()))
                before.add(lows[k - 1] if k else "")
                after.add(lows[k + 1] if k + 1 < len(lows) else "")
    return out


def as_source_acronyms(words: ClaimWords, ev: Evidence) -> ClaimWords:
    """The claim's words with each run of capitalised words that spells out a source
    acronym (module docstring) given that acronym's stem; unchanged when there is none."""
    caps = [i for i in capitals(words.raws) if words.lows[i] not in ev.lows]
    # only a run of two or more consecutive capitalised words is read (session 17: the
    # source's acronyms are looked for only then; without one nothing below changes)
    if len(caps) < 2 or 1 not in map(operator.sub, caps[1:], caps):
        return words
    # an acronym the claim writes itself is not what its other words spell
    acronyms = {a: f for a, f in _source_acronyms(ev).items() if a not in words.lows}
    if not acronyms:
        return words
    lows = words.lows
    stems = list(words.stems)
    changed = False
    k = 0
    while k < len(caps):
        # the longest run of consecutive capitalised words from caps[k]
        j = k
        while j + 1 < len(caps) and caps[j + 1] == caps[j] + 1 and j - k + 1 < _LONGEST:
            j += 1
        run = caps[k : j + 1]
        k = j + 1
        if len(run) < 2:
            continue
        letters = "".join(lows[i][0] for i in run)
        found = acronyms.get(letters)
        if found is None:  # all the initials but the last word's
            found = next(
                (
                    f
                    for a, f in acronyms.items()
                    if len(a) == len(letters) + 1 and a.startswith(letters)
                ),
                None,
            )
        if found is None:
            continue
        stem, before, after = found
        # where the acronym stands: the same word before or after the run
        prev = lows[run[0] - 1] if run[0] else ""
        nxt = lows[run[-1] + 1] if run[-1] + 1 < len(lows) else ""
        if prev in before or nxt in after:
            for i in run:
                stems[i] = stem
            changed = True
    return words._replace(stems=tuple(stems)) if changed else words
