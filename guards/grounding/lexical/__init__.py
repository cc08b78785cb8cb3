"""The offline lexical verifier: no model download, no network, evidence spans included."""

from __future__ import annotations

from groundwire.guards.grounding.lexical.verifier import (
    FEATURES,
    LexicalVerifier,
    analyse,
    clear_turn_caches,
    known_names,
    split_sentences,
    stem,
    tokenize,
)

__all__ = [
    "FEATURES",
    "LexicalVerifier",
    "analyse",
    "clear_turn_caches",
    "known_names",
    "split_sentences",
    "stem",
    "tokenize",
]
