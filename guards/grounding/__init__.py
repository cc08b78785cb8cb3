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


def _learned(cfg: GroundingConfig) -> GroundingVerifier:
    from groundwire.guards.grounding.learned import LearnedVerifier

    return LearnedVerifier(cfg)


def _embedding(cfg: GroundingConfig) -> GroundingVerifier:
    """The packaged sentence encoder; without its optional packages, the lexical verifier
    (logged), because an optional model must not stop a worker from starting."""
    from groundwire.guards.grounding.embedding import EmbeddingUnavailable, EmbeddingVerifier

    try:
        return EmbeddingVerifier(cfg)
    except EmbeddingUnavailable as exc:
        log.warning("embedding verifier unavailable (%s); using the lexical verifier", exc)
        return _lexical(cfg)


def _nli(cfg: GroundingConfig) -> GroundingVerifier:
    """An ONNX cross-encoder from the configured paths; a wrong file or label map is an
    error here, when the worker starts (`NliConfigError`), never per claim."""
    from groundwire.guards.grounding.nli import NliVerifier

    return NliVerifier(cfg)


def _llm(cfg: GroundingConfig) -> GroundingVerifier:
    from groundwire.guards.grounding.llm import LlmVerifier

    if not cfg.llm_base_url or not cfg.llm_model:
        raise ValueError("grounding verifier 'llm' needs llm_base_url and llm_model")
    return LlmVerifier(cfg)


# Imports stay inside the factories: the embedding and LLM verifiers pull in optional or
# heavy packages that a worker using the lexical default never needs to load.
VERIFIERS: dict[str, Callable[[GroundingConfig], GroundingVerifier]] = {
    "lexical": _lexical,
    "learned": _learned,
    "embedding": _embedding,
    "nli": _nli,
    "llm": _llm,
}


def _one(cfg: GroundingConfig, name: str) -> GroundingVerifier:
    try:
        factory = VERIFIERS[name]
    except KeyError:
        raise ValueError(
            f"unknown grounding verifier {name!r}; one of {sorted(VERIFIERS)}"
        ) from None
    return factory(cfg)


def build_verifier(cfg: GroundingConfig) -> GroundingVerifier:
    """The verifier `cfg.verifier` names; a list of names builds an ensemble
    (`ensemble.EnsembleVerifier`: later members decide where they are confident)."""
    names = cfg.verifier
    if isinstance(names, str):
        return _one(cfg, names)
    if len(names) == 1:
        return _one(cfg, names[0])
    if len(set(names)) != len(names):
        raise ValueError(f"grounding verifier list names a verifier twice: {names}")
    from groundwire.guards.grounding.ensemble import EnsembleVerifier

    return EnsembleVerifier([_one(cfg, n) for n in names], cfg)


__all__ = ["VERIFIERS", "build_verifier", "grounding_blocks", "verify_batch_safely"]
