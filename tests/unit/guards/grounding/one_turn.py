"""One claim read against a source of a single turn, as the rule tests build it.

Most lexical-rule tests state a claim and one source passage; their fixture is the same
claim envelope each time (the ids and the claim's own `source` play no part in the
rules), so it is written once here rather than once per rule file.
"""

from __future__ import annotations

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding.lexical import LexicalVerifier
from groundwire.guards.protocols import GroundingRequest
from groundwire.topics.records import Claim, GroundingReport, SourceTurn


def one_turn(text: str, speaker: str | None) -> list[SourceTurn]:
    """The source as one turn of `speaker` ("user", "document", ...; None: unsaid)."""
    return [SourceTurn(id="t1", text=text, source=speaker)]


def verify_one_turn(
    claim: str, text: str, speaker: str | None, cfg: GroundingConfig | None = None
) -> GroundingReport:
    """The lexical verifier's report on `claim` against `text` as one turn of `speaker`."""
    turns = one_turn(text, speaker)
    c = Claim(claim_id="c1", tenant_id="t1", content=claim, source="chat", source_turns=turns)
    return LexicalVerifier(cfg or GroundingConfig()).verify_one(GroundingRequest(c, turns))
