"""The learned offline verifier: lexical signals and more, boosted trees, calibration.

* `features`: what one claim has and lacks against its evidence (`extract`, `FEATURES`),
* `model`: the trees and the calibration curve as arrays, scored in numpy (`load_model`),
* `verifier`: `LearnedVerifier`, the lexical verifier's rules over the calibrated score.

The model is trained by `scripts/train_grounding.py` (`guards/grounding/training.py`).
"""

from __future__ import annotations

from groundwire.guards.grounding.learned.features import FEATURES, extract
from groundwire.guards.grounding.learned.model import ModelError, TreeModel, load_model
from groundwire.guards.grounding.learned.verifier import LearnedVerifier

__all__ = ["FEATURES", "LearnedVerifier", "ModelError", "TreeModel", "extract", "load_model"]
