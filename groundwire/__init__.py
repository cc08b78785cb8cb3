"""groundwire: screens AI memory claims before they reach a long-term store.

The names below are what a Python user needs to validate claims in-process, without
Kafka (the README's "Use it as a library" section shows them at work):

* the wire records: `Claim` and its `SourceTurn`s in, one `RoutedResult` per claim out
  (`ScreenedClaim` between the two stages), with the vocabulary `Source`, `Tier` and
  `ReasonCode`;
* the assembly: `GuardsConfig`, `GuardServices`, `build_validator`,
  `build_citation_verifier`;
* the work: `Validator` (`validate_batch`, `decide_batch`) and `screen_batch`.

They are loaded on first use (PEP 562), so `import groundwire` alone, or importing a
light submodule such as `groundwire.topics.names`, does not pull in pydantic, numpy and
the dedup index. Everything else lives in the subpackages (`groundwire.guards`, ...).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

__version__ = "0.1.0"

# name -> the module that defines it. The TYPE_CHECKING imports below say the same for
# type checkers; tests/unit/test_facade.py keeps the two in step.
_EXPORTS = {
    "Claim": "groundwire.topics.records",
    "SourceTurn": "groundwire.topics.records",
    "ScreenedClaim": "groundwire.topics.records",
    "RoutedResult": "groundwire.topics.records",
    "Source": "groundwire.topics.vocab",
    "Tier": "groundwire.topics.vocab",
    "ReasonCode": "groundwire.topics.vocab",
    "GuardsConfig": "groundwire.guards.config",
    "GuardServices": "groundwire.guards.factory",
    "build_validator": "groundwire.guards.factory",
    "build_citation_verifier": "groundwire.guards.factory",
    "Validator": "groundwire.guards.validator",
    "screen_batch": "groundwire.guards.screening",
}

if TYPE_CHECKING:
    from groundwire.guards.config import GuardsConfig
    from groundwire.guards.factory import GuardServices, build_citation_verifier, build_validator
    from groundwire.guards.screening import screen_batch
    from groundwire.guards.validator import Validator
    from groundwire.topics.records import Claim, RoutedResult, ScreenedClaim, SourceTurn
    from groundwire.topics.vocab import ReasonCode, Source, Tier

__all__ = [
    "Claim",
    "GuardServices",
    "GuardsConfig",
    "ReasonCode",
    "RoutedResult",
    "ScreenedClaim",
    "Source",
    "SourceTurn",
    "Tier",
    "Validator",
    "__version__",
    "build_citation_verifier",
    "build_validator",
    "screen_batch",
]


def __getattr__(name: str) -> object:
    module = _EXPORTS.get(name)
    if module is None:
        # Also how `from groundwire import metrics` falls through to the submodule.
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value: object = getattr(import_module(module), name)
    globals()[name] = value  # later lookups find it without calling this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})
