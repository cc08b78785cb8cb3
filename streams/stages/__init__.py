"""The pipeline's stages, by name: what `groundwire worker --stages` accepts.

A stage implements `groundwire.streams.runner.Stage` (a batch of records in, outputs
out); the runner owns the consumer, the transaction and the offsets.
"""

from __future__ import annotations

from groundwire.streams.stages.route import RouteStage
from groundwire.streams.stages.screen import ScreenStage

# "memory" (streams/memory/stage.py): approved claims become memories, scan commands and
# review decisions change them (docs/spec.md §Store-time consistency).
STAGES = ("screen", "route", "memory")

# Stages that run only when named (`groundwire worker --stages answers`): read-time
# faithfulness is opt-in (docs/spec.md §Read-time faithfulness).
OPT_IN_STAGES = ("answers",)
ALL_STAGES = (*STAGES, *OPT_IN_STAGES)

__all__ = ["ALL_STAGES", "OPT_IN_STAGES", "STAGES", "RouteStage", "ScreenStage"]
