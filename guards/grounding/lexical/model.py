"""The fitted logistic model that turns the lexical signals into P(supported).

Its weights were fitted by `groundwire eval FILE --fit` on one half of the labelled
development data (split by a hash of claim_id) and are reported on the other half; see
docs/grounding.md. The fit prints the block below (`FitResult.as_python`); it is pasted
here by hand, never written by the fit itself. `FEATURES` fixes the order of the weights:
renaming or reordering a feature means refitting.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from operator import mul

__all__ = [
    "BIAS",
    "FEATURES",
    "PARTIAL_THRESHOLD",
    "SUPPORTED_THRESHOLD",
    "WEIGHTS",
    "probability",
]

# Feature order is part of the fitted model's contract.
FEATURES = (
    "coverage",
    "best_sentence_coverage",
    "bigram_coverage",
    "longest_run",
    "novel_words_log",
    "unsupported_numbers",
    "unsupported_entities",
    "negation_mismatch",
    "first_person",
    "second_person",
    "question",
    "speaker_mismatch",
    "claim_len_log",
    "source_len_log",
    "coverage_x_source_len",
    "exact_coverage",
    "conflicts",
)

# Fitted by `groundwire eval FILE --fit` on the "fit" half (sha1(claim_id) even).
WEIGHTS: tuple[float, ...] = (
    0.9279,  # coverage
    1.8969,  # best_sentence_coverage
    -1.4535,  # bigram_coverage
    1.7155,  # longest_run
    -0.8492,  # novel_words_log
    0.0134,  # unsupported_numbers
    -0.1405,  # unsupported_entities
    -0.7228,  # negation_mismatch
    -1.6059,  # first_person
    -0.9997,  # second_person
    -1.5125,  # question
    -0.7672,  # speaker_mismatch
    1.1954,  # claim_len_log
    0.2729,  # source_len_log
    0.1059,  # coverage_x_source_len
    0.0035,  # exact_coverage
    0.0867,  # conflicts
)
BIAS = -4.0436
SUPPORTED_THRESHOLD = 0.72
PARTIAL_THRESHOLD = 0.44


def probability(
    features: dict[str, float], names: Sequence[str], weights: Sequence[float], bias: float
) -> float:
    """Logistic score of `features` (read in the order of `names`), clamped against overflow."""
    if len(names) != len(weights):
        raise ValueError("one weight per feature name")
    # the same products, summed by `sum` in the same order (no generator frame per term)
    z = bias + sum(map(mul, weights, map(features.__getitem__, names)))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
