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
"Authority", is the one a writer drops). The run's words then carry the acronym's stem,
so every signal reads them as the source's name. A run of one word is never read (a
capitalised word whose initial is an acronym's first letter is no spelling of it), and
the acronym must be written in capitals in the source (two to four letters, the shape
`spelling` reads).
"""

from __future__ import annotations

from groundwire.guards.grounding.lexical.evidence import Evidence
from groundwire.guards.grounding.lexical.text import ClaimWords, capitals

__all__ = ["as_source_acronyms"]

_LONGEST = 4  # words in a run (and letters in an acronym)


def _source_acronyms(ev: Evidence) -> dict[str, str]:
    """Lower-case acronym -> its stem, for each word of two to four capitals in the
    source."""
    out: dict[str, str] = {}
    for s in ev.sentences:
        for k, raw in enumerate(s.raws):
            if 2 <= len(raw) <= _LONGEST and raw.isupper() and raw.isalpha():
                out[s.lows[k]] = s.word_stems[k]
    return out


def as_source_acronyms(words: ClaimWords, ev: Evidence) -> ClaimWords:
    """The claim's words with each run of capitalised words that spells out a source
    acronym (module docstring) given that acronym's stem; unchanged when there is none."""
    caps = [i for i in capitals(words.raws) if words.lows[i] not in ev.lows]
    if len(caps) < 2:
        return words
    acronyms = _source_acronyms(ev)
    if not acronyms:
        return words
    stems = list(words.stems)
    changed = False
    k = 0
    while k < len(caps):
        # the longest run of consecutive capitalised words from caps[k]
        j = k
        while j + 1 < len(caps) and caps[j + 1] == caps[j] + 1 and j - k + 1 < _LONGEST:
            j += 1
        run = caps[k : j + 1]
        letters = "".join(words.lows[i][0] for i in run)
        if len(run) >= 2:
            stem = acronyms.get(letters)
            if stem is None:  # all the initials but the last word's
                stem = next(
                    (
                        s
                        for a, s in acronyms.items()
                        if len(a) == len(letters) + 1 and a.startswith(letters)
                    ),
                    None,
                )
            if stem is not None:
                for i in run:
                    stems[i] = stem
                changed = True
        k = j + 1
    return words._replace(stems=tuple(stems)) if changed else words
