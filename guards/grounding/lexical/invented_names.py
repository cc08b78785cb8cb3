"""A name a conversation never uses, in a claim about that conversation.

docs/spec.md reads a name the source never gave as a detail that *sharpens* a core the
source states ("partial": the user said "by end of April", the claim says "April 30").
That reading fits a source that speaks about its subject in its own words and leaves a
detail open. A `Name: text` transcript of two speakers or more is different: it names
every participant in its speaker marks and every person, place, work or organisation its
speakers talk about. A claim about such a conversation that names one the conversation
never uses (not its speakers, not its lines, not respelled: `spelling.may_name`) has not
sharpened a detail, it has put someone or something into the conversation that was not
there: "Anette suggests Madonna" where she suggested Marco Mengoni, "a welcome party for
Donald" where the party is for Branwell, "they watch Blade Runner" where it was
Metropolis. Such a claim is `not_supported`.

Weekday and month names are left to the value rules (`changed_values.py`): a summary
may resolve the chat's "tomorrow" or "this weekend" to a day the chat never writes,
which invents nobody. Numbers are not names and are read by their own rules, and a name
written as an identifier with a number ("Per ADR-3") is a reference the claim cites,
which the citation guard reads.

The names come from the features' reading (`Analysis.missing_entities`: capitalised
claim words the source never uses, known names and respellings already removed), so
the rule adds one set test per name and reads the turns only through the cached
evidence (its speakers).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from groundwire.guards.grounding.lexical.changed_values import MONTHS, WEEKDAYS
from groundwire.guards.grounding.lexical.evidence import evidence_for
from groundwire.topics.records import SourceTurn

__all__ = ["MIN_SPEAKERS", "invented_names"]

# A transcript: at least this many distinct speakers in `Name: text` lines.
MIN_SPEAKERS = 2
# A word written as an identifier: a number right after it ("ADR-3", "RFC 2119").
_IDENTIFIER = re.compile(r"\b([A-Za-z][\w']*)[-\s]?\d")


def invented_names(
    missing_entities: Sequence[str], turns: Sequence[SourceTurn], claim_text: str = ""
) -> list[str]:
    """The names of `missing_entities` (the claim's capitalised words the source never
    uses) that put someone or something into a transcript of `MIN_SPEAKERS` speakers or
    more; [] for any other source. Weekday and month names are left out, and so is a
    name written as an identifier with a number in `claim_text` ("Per ADR-3", "RFC
    2119"): a reference the claim cites (the citation guard reads those), not someone
    in the conversation."""
    if not missing_entities:
        return []
    if len(evidence_for(turns).speakers) < MIN_SPEAKERS:
        return []
    # the words written as identifiers, found in one pass over the claim
    cited = set(_IDENTIFIER.findall(claim_text)) if claim_text else set()
    out: list[str] = []
    for name in missing_entities:
        low = name.lower()
        if low in WEEKDAYS or low in MONTHS or name in out or name in cited:
            continue
        out.append(name)
    return out
