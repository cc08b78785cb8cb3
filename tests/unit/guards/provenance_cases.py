"""The one question the provenance tests ask of a source text: is it still evidence?

Shared by the tests of model-output signatures, disguised labels and session 14's
signatures, which differ only in the texts they ask about."""

from __future__ import annotations

from groundwire.guards.config import ProvenanceConfig
from groundwire.guards.provenance import check_provenance
from groundwire.topics.records import Claim


def eligible(text: str, fact: str) -> bool:
    """Whether a corpus turn `text` may ground an ai_synthesis claim stating `fact`
    (default provenance settings): False when it reads as model output."""
    claim = Claim(
        claim_id="c1",
        tenant_id="t",
        content=fact,
        source="ai_synthesis",
        source_turns=[{"id": "t1", "text": text, "source": "corpus"}],
    )
    return check_provenance(claim, ProvenanceConfig()).eligible_turn_ids == ["t1"]
