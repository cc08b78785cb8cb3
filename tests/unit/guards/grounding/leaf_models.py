"""A learned-verifier model file of one leaf tree, for the tests that load one.

Every claim's raw score is `raw`; the default calibration maps [-5, 5] linearly onto
[0, 1] (raw -4 reads P = 0.1, raw 2 reads P = 0.7), so a test can choose the calibrated
score it needs without training anything.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from groundwire.guards.grounding.learned.model import FORMAT

LINEAR = {"x": [-5.0, 5.0], "y": [0.0, 1.0]}


def leaf_model(
    path: Path,
    names: tuple[str, ...],
    *,
    raw: float = 2.0,
    calibration: dict[str, Any] | None = None,
    overrule_below: float | None = None,
) -> Path:
    """Write the model to `path` (features `names`) and return the path."""
    thresholds: dict[str, float] = {"partial": 0.3, "supported": 0.6}
    if overrule_below is not None:
        thresholds["overrule_below"] = overrule_below
    doc = {
        "format": FORMAT,
        "features": list(names),
        "base": 0.0,
        "depth": 1,
        "trees": {
            "feature": [[0]],
            "threshold": [[1e30]],
            "left": [[0]],
            "right": [[0]],
            "value": [[raw]],
        },
        "calibration": LINEAR if calibration is None else calibration,
        "thresholds": thresholds,
        "training": {},
    }
    path.write_text(json.dumps(doc))
    return path
