"""Speculation and hedging in a claim's own wording (personal belief, admitted
uncertainty, suggestions, technical hedges, approximations).

`lexicon` holds the pattern tables and their trigger-word index, `normalize` the
spelling fixes applied before matching, `spelling` the undoing of hedge words spelled
letter by letter or with digits, `detector` the detector and its filters.
"""

from __future__ import annotations

from groundwire.guards.hedge.detector import ACTION_OF, HedgeDetector, HedgeHit, analyze
from groundwire.topics.vocab import HedgeAction, HedgeCategory

__all__ = ["ACTION_OF", "HedgeAction", "HedgeCategory", "HedgeDetector", "HedgeHit", "analyze"]
