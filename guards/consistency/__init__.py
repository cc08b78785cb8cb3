"""Store-time consistency (docs/spec.md §Store-time consistency): the memory a claim
becomes, write-time supersession, and the scan that finds, judges and resolves
conflicting memories. Pure: the memory stage and the scan job in `streams/memory/`
read and write the view; these modules decide.

* `extract`: subject / predicate / object of a memory, comparison keys, valid_from;
* `memory`: building a memory and every change to one (supersede, merge, flag, ...);
* `signals`: suspect clusters (structural, semantic, temporal);
* `judge`, `llm_judge`: a verdict per cluster;
* `scan`: one tenant's plan (the commands the memory stage applies);
* `cron`: the schedule.
"""

from groundwire.guards.consistency.config import ConsistencyConfig

__all__ = ["ConsistencyConfig"]
