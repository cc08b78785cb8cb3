"""One pass of every chaos scenario on a three-broker cluster (replication 3, min ISR 2):
zero claims lost, zero doubled, and routing back within 30 s of the fault being healed.

`scripts/chaos.sh --runs N` runs the same scenarios many times and writes the table in
bench/results/chaos.md.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.chaos.cluster import ChaosStack
from tests.chaos.harness import run_scenario
from tests.chaos.scenarios import SCENARIOS

pytestmark = [pytest.mark.chaos, pytest.mark.timeout(900)]

CLAIMS = 3_000
RESUME_LIMIT_S = 30.0


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ChaosStack]:
    stack = ChaosStack(tmp_path_factory.mktemp("chaos-stack"), base_port=19100, brokers=3)
    stack.start()
    try:
        yield stack
    finally:
        stack.stop()


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_scenario_loses_and_doubles_nothing(cluster: ChaosStack, name: str, tmp_path: Path) -> None:
    result = run_scenario(
        cluster,
        name,
        SCENARIOS[name],
        claims=CLAIMS,
        seed=sum(map(ord, name)),
        work_dir=tmp_path,
        max_outage_s=20.0,
    )
    print(result)
    assert (result.lost, result.doubled) == (0, 0), result
    if result.resume_s is not None:
        assert result.resume_s <= RESUME_LIMIT_S, result
