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

__all__ = ["STAGES", "RouteStage", "ScreenStage"]
