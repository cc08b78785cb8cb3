"""The speaker's own conjecture: a claim put as what its speaker thinks or guesses.

"I think that the average game has only 11 minutes of gameplay", "i believe is called the
wolf of wall street", "I think 1966": the words may all be the source's, but the claim
states the speaker's belief, not the source's fact, and a belief is not what the source
attests. The hedge guard (`guards/hedge`) already names this category,
`personal_speculation` (first-person verbs of believing and guessing, "I'm pretty
sure", "my guess is"), and the routing step blocks such a claim; the grounding verdict now
says the same thing, for the read path and the evaluation, which see no hedge report.

Only that category: the knowledge-sharing frames ("I heard that", "I know", "did you
know"), which FaithDial labels faithful and BEGIN not (docs/grounding.md, Session 12),
are other categories or none, and admitted uncertainty ("Not sure but X") is labelled
faithful by FaithDial as often as not. A conjecture the source itself voices (the same
hedge words in a source turn: "I think the deadline is Friday" from a user who said so)
is the source's, and is left to the other checks. And only a conjecture that frames the
claim, opening it: a hedge inside ("..., i guess he is the one who persuaded him") bears
on its own clause, and FaithDial labels such responses faithful (two on the fit half).
The verifier (`verifier.py`) makes such a claim NOT_SUPPORTED and names the words.
"""

from __future__ import annotations

from collections.abc import Sequence

from groundwire.guards.hedge.detector import analyze as analyze_hedges
from groundwire.topics.records import SourceTurn
from groundwire.topics.vocab import HedgeCategory

_FIRST_PERSON = frozenset({"i", "i'm", "i'd", "we", "we're", "my", "me"})
_EDGE = ".,;:!?\"'()"


def own_conjecture(claim_text: str, turns: Sequence[SourceTurn]) -> list[str]:
    """The claim's first-person words of speculation ("I think", "I believe", "my guess
    is") when the source does not voice the same hedge; empty otherwise.

    Only a hedge that names its speaker: "maybe" or "probably" qualify the proposition, as
    "may" and "might" do (the hedge guard's other categories, labelled either way), while
    "I think" states whose belief the claim is."""
    opening = claim_text.lower().replace("\u2019", "'").split(None, 6)[:6]
    if _FIRST_PERSON.isdisjoint(w.strip(_EDGE) for w in opening):
        return []  # no speaker named where a framing conjecture would stand: skip the scan
    report = analyze_hedges(claim_text)
    if report.category is not HedgeCategory.PERSONAL_SPECULATION or not report.words:
        return []
    decisive = report.words[0].lower()
    if _FIRST_PERSON.isdisjoint(decisive.replace("’", "'").split()):
        return []
    if not claim_text.lstrip().lower().startswith(decisive):
        return []  # a hedge inside the claim bears on its own clause, not on the claim
    source = " ".join(t.text.lower() for t in turns)
    return [] if decisive in source else [report.words[0]]
