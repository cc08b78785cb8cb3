"""A direction the source gives one subject, told of the other: "Errors went up" against
"Latency went up and errors went down" (session 18, the open write-path holes).

The particle rule (`polarity._particle_pairs`) pairs a claim's "up" with the source's
"down" only where a *content* word stands beside both ("turned *off*" / "turned *on*"):
a function word alone is no phrase ("started off his" / "embarked on his"). A direction
told with a light verb ("went", "is", "goes", "came") has no content word beside its
particle, so "Errors went up" against that source found no pair; every word of it is in
the source ("Latency went *up*"), so overlap made it partial (approved), though the
source says errors went *down*. The verbs of a single word ("rose" / "fell",
"increased" / "decreased") are WordNet antonyms and already caught.

The reading (`crossed_directions`): the claim's particle of direction ("up" / "down",
"on" / "off") right after a verb that is a function word, with the claim's subject (its
content words before that verb); a source clause (`Sentence.clause_of`) that holds the
same verb word before the opposite particle ("on" / "off" only where no noun phrase
follows the claim's: "is on the server" is a preposition), every subject word of the
claim before it, and not the claim's particle. The claim then says of its subject the direction the
source gives another: a contradiction (`not_supported`), as "Errors rose" against
"Latency rose and errors fell" already is.
"""

from __future__ import annotations

from collections.abc import Sequence

from groundwire.guards.grounding.lexical.evidence import evidence_for
from groundwire.guards.grounding.lexical.text import claim_words, word_set
from groundwire.topics.records import SourceTurn

__all__ = ["crossed_directions"]

# particles of direction and their opposites (the closed pairs of `polarity.py`'s
# particle rule that tell a change's direction after a verb)
_OPPOSITE = {"up": "down", "down": "up", "on": "off", "off": "on"}
_PARTICLES = frozenset(_OPPOSITE)
# "on" / "off" tell a state only where no noun phrase follows ("the lights are on")
_STATES = frozenset(("on", "off"))
_HEADS = word_set("a an the my your his her its our their this that these those")


def crossed_directions(claim_text: str, turns: Sequence[SourceTurn]) -> list[tuple[str, str]]:
    """(claim phrase, source phrase) where the claim gives its subject the direction a
    source clause gives it the opposite of (module docstring)."""
    words = claim_words(claim_text)
    lows = words.lows
    if _PARTICLES.isdisjoint(lows):  # the cheap test first
        return []
    ev = evidence_for(turns)
    out: list[tuple[str, str]] = []
    for i, low in enumerate(lows):
        other = _OPPOSITE.get(low)
        if other is None or i < 2 or other not in ev.lows or words.content[i - 1]:
            continue
        if low in _STATES and i + 1 < len(lows) and (words.content[i + 1] or lows[i + 1] in _HEADS):
            continue  # "is on the server", "went on a trip": a preposition, not a state
        verb = lows[i - 1]
        subject = {words.stems[k] for k in range(i - 1) if words.content[k]}
        if not subject:
            continue
        for s in ev.sentences:
            s_lows = s.lows
            if not subject <= s.stems or other not in s_lows:
                continue
            j = 0
            while True:
                try:
                    j = s_lows.index(other, j + 1)  # never the first word: a verb before
                except ValueError:
                    break
                if s_lows[j - 1] != verb:
                    continue
                clause_of = s.clause_of()
                mine = [k for k in range(j) if clause_of[k] == clause_of[j]]
                if not subject <= {s.word_stems[k] for k in mine if s.content[k]}:
                    continue
                if any(
                    s_lows[k] == low and clause_of[k] == clause_of[j] for k in range(len(s_lows))
                ):
                    continue  # the source says both of it
                said = " ".join(s.raws[k] for k in (*mine, j))
                out.append((" ".join(words.raws[: i + 1]), said))
                return out
    return out
