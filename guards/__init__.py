"""groundwire.guards: the write-time guards, pure Python (no Kafka, no service needed).

Public names: the configuration (`GuardsConfig`) and the assembly from it
(`GuardServices`, `build_validator`, `build_citation_verifier`, `build_grounder`); the
stateless half (`screen`, `screen_batch`, `check_provenance`), the stateful half
(`Validator`, `Grounder`) and the one decision function (`determine_tier`,
`PolicyDecision`); and the seams a replacement implements (`CitationVerifier`,
`GroundingVerifier` + `GroundingRequest`, `DedupIndex` + `DedupRequest` / `DedupResult`).
The detectors have packages of their own (`hedge`, `citations`, `dedup`, `grounding`), and
`testing` has doubles for code that embeds the guards.

The names are loaded on first use (PEP 562): importing one detector, say
`groundwire.guards.hedge`, does not load the dedup index and its numeric libraries.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

# name -> the module that defines it; the TYPE_CHECKING imports below say the same for
# type checkers (tests/unit/test_facade.py keeps the two in step).
_EXPORTS = {
    "GuardsConfig": "groundwire.guards.config",
    "GuardServices": "groundwire.guards.factory",
    "build_validator": "groundwire.guards.factory",
    "build_citation_verifier": "groundwire.guards.factory",
    "build_grounder": "groundwire.guards.factory",
    "screen": "groundwire.guards.screening",
    "screen_batch": "groundwire.guards.screening",
    "check_provenance": "groundwire.guards.provenance",
    "Validator": "groundwire.guards.validator",
    "Grounder": "groundwire.guards.grounder",
    "determine_tier": "groundwire.guards.policy",
    "PolicyDecision": "groundwire.guards.policy",
    "CitationVerifier": "groundwire.guards.citations.verifier",
    "GroundingVerifier": "groundwire.guards.protocols",
    "GroundingRequest": "groundwire.guards.protocols",
    "DedupIndex": "groundwire.guards.protocols",
    "DedupRequest": "groundwire.guards.protocols",
    "DedupResult": "groundwire.guards.protocols",
}

if TYPE_CHECKING:
    from groundwire.guards.citations.verifier import CitationVerifier
    from groundwire.guards.config import GuardsConfig
    from groundwire.guards.factory import (
        GuardServices,
        build_citation_verifier,
        build_grounder,
        build_validator,
    )
    from groundwire.guards.grounder import Grounder
    from groundwire.guards.policy import PolicyDecision, determine_tier
    from groundwire.guards.protocols import (
        DedupIndex,
        DedupRequest,
        DedupResult,
        GroundingRequest,
        GroundingVerifier,
    )
    from groundwire.guards.provenance import check_provenance
    from groundwire.guards.screening import screen, screen_batch
    from groundwire.guards.validator import Validator

__all__ = [
    "CitationVerifier",
    "DedupIndex",
    "DedupRequest",
    "DedupResult",
    "Grounder",
    "GroundingRequest",
    "GroundingVerifier",
    "GuardServices",
    "GuardsConfig",
    "PolicyDecision",
    "Validator",
    "build_citation_verifier",
    "build_grounder",
    "build_validator",
    "check_provenance",
    "determine_tier",
    "screen",
    "screen_batch",
]


def __getattr__(name: str) -> object:
    module = _EXPORTS.get(name)
    if module is None:
        # Also how `from groundwire.guards import hedge` falls through to the subpackage.
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value: object = getattr(import_module(module), name)
    globals()[name] = value  # later lookups find it without calling this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})
