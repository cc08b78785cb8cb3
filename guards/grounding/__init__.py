"""Grounding (does the source conversation say this?): verifiers and their shared rules.

`base` holds what every verifier shares (verdicts, penalties, span pinning, the reports
for skipped / failed / inadmissible evidence); each verifier lives in a module of its own
and is registered in `VERIFIERS` under the name `GroundingConfig.verifier` selects. A new
verifier is a module with a factory, one entry here, and the name added to that setting's
`Literal`; a unit test fails when the two name different verifiers.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding.base import grounding_blocks, verify_batch_safely
from groundwire.guards.protocols import GroundingVerifier

log = logging.getLogger(__name__)


def _lexical(cfg: GroundingConfig) -> GroundingVerifier:
    from groundwire.guards.grounding.lexical import LexicalVerifier

    return LexicalVerifier(cfg)


def _embedding(cfg: GroundingConfig) -> GroundingVerifier:
    """The packaged sentence encoder; without its optional packages, the lexical verifier
    (logged), because an optional model must not stop a worker from starting."""
    from groundwire.guards.grounding.embedding import EmbeddingUnavailable, EmbeddingVerifier

    try:
        return EmbeddingVerifier(cfg)
    except EmbeddingUnavailable as exc:
        log.warning("embedding verifier unavailable (%s); using the lexical verifier", exc)
        return _lexical(cfg)


def _llm(cfg: GroundingConfig) -> GroundingVerifier:
    from groundwire.guards.grounding.llm import LlmVerifier

    if not cfg.llm_base_url or not cfg.llm_model:
        raise ValueError("grounding verifier 'llm' needs llm_base_url and llm_model")
    return LlmVerifier(cfg)


# Imports stay inside the factories: the embedding and LLM verifiers pull in optional or
# heavy packages that a worker using the lexical default never needs to load.
VERIFIERS: dict[str, Callable[[GroundingConfig], GroundingVerifier]] = {
    "lexical": _lexical,
    "embedding": _embedding,
    "llm": _llm,
}


def build_verifier(cfg: GroundingConfig) -> GroundingVerifier:
    """The verifier `cfg.verifier` names."""
    try:
        factory = VERIFIERS[cfg.verifier]
    except KeyError:
        raise ValueError(
            f"unknown grounding verifier {cfg.verifier!r}; one of {sorted(VERIFIERS)}"
        ) from None
    return factory(cfg)


__all__ = ["VERIFIERS", "build_verifier", "grounding_blocks", "verify_batch_safely"]
