"""The offline lexical verifier: no model download, no network, evidence spans included.

Split by job, read in this order:

* `text`: words (tokens, stems, number values, stopwords) and their caches,
* `evidence`: each source turn read once into sentences, word sets and speakers,
* `features`: the signals of one claim against its evidence (`analyze`),
* `model`: the fitted logistic model (`FEATURES`, `WEIGHTS`, thresholds),
* `verifier`: `LexicalVerifier`, which turns score and signals into a verdict.
"""

from __future__ import annotations

from groundwire.guards.grounding.lexical.evidence import (
    clear_turn_caches,
    known_names,
    split_sentences,
)
from groundwire.guards.grounding.lexical.features import analyze
from groundwire.guards.grounding.lexical.model import FEATURES
from groundwire.guards.grounding.lexical.text import stem, tokenize
from groundwire.guards.grounding.lexical.verifier import LexicalVerifier

__all__ = [
    "FEATURES",
    "LexicalVerifier",
    "analyze",
    "clear_turn_caches",
    "known_names",
    "split_sentences",
    "stem",
    "tokenize",
]
