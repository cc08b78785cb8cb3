"""What grounding reads of a claim that cites a verified artifact: the claim without the
citation's own text.

"We chose Postgres for the billing service (see ADR-003)" against a conversation that
says "We chose Postgres for the billing service" was blocked as not supported: the
lexical verifier counted "ADR" and "003" as a name and a number no source turn has. A
citation is the claim's reference, not a fact it states: whether it exists is the
citation check's, whether its artifact says the claim is the artifact check's
(docs/guards.md §Citations, the policy's rules 10 and 11). So the words of a citation
(with a word pointing to it: "see", "per", "cf.")
that was checked and **found** (`verified` true) are left out of what grounding reads;
a citation nobody could find (false) or nobody checked (none: verification off, no
repository configured) stays in the text, where the source's silence about it still
counts against the claim ("see ADR-017", a made-up commit or URL), so turning
verification off never lets an invented reference through. DOIs, arXiv ids and other
references the detector does not know are never citations here: their words stay.
"""

from __future__ import annotations

from groundwire.guards.citations.detect import detect
from groundwire.topics.records import CitationReport, Claim

__all__ = ["without_verified_citations"]

# the words that point to a reference right before it ("see ADR-003", "per #42", "cf.
# ADR-7"): part of the citation, no content of the claim's. A closed class.
_LEAD_INS = frozenset(("see", "per", "cf", "cf.", "ref", "ref.", "via"))


def _lead_in(text: str, start: int) -> int:
    """Where the citation starting at `start` begins with its lead-in word, if any."""
    k = start
    while k > 0 and text[k - 1] == " ":
        k -= 1
    j = k
    while j > 0 and (text[j - 1].isalpha() or text[j - 1] == "."):
        j -= 1
    return j if j < k and text[j:k].lower() in _LEAD_INS else start


def without_verified_citations(claim: Claim, citations: list[CitationReport]) -> Claim | None:
    """The claim with the text of each verified citation blanked (spaces, so offsets
    stay), or None when it cites nothing verified."""
    found = {(c.type, c.value) for c in citations if c.verified is True}
    if not found:
        return None
    text = claim.content
    spans = [(c.start, c.end) for c in detect(text) if (c.type, c.value) in found]
    if not spans:
        return None
    chars = list(text)
    for start, end in spans:
        start = _lead_in(text, start)
        chars[start:end] = " " * (end - start)
    return claim.model_copy(update={"content": "".join(chars)})
