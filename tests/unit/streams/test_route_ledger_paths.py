"""The route stage with and without a claim_id ledger decides and writes alike.

Without a ledger the stage builds no ledger entries (their digest was computed for every
claim and never read); with one, the entries are checked and the decisions recorded as
before. These tests hold the two paths to the same outputs, and hold that the ledger
still sees every decided claim (and a replay still gets no second decision).
"""

from __future__ import annotations

import asyncio
from typing import Any

import orjson

from groundwire.guards.factory import build_validator
from groundwire.streams.ledger import LedgerCheck, LedgerEntry, Seen
from groundwire.streams.settings import Settings
from groundwire.streams.stages.route import RouteStage
from groundwire.topics.codec import dumps
from groundwire.topics.records import Claim, GroundingReport, HedgeReport, ScreenedClaim, Tier
from groundwire.topics.vocab import GroundingVerdict, Source


class _Message:
    """The Message methods the route stage calls."""

    def __init__(self, value: bytes, offset: int) -> None:
        self._value, self._offset = value, offset

    def value(self) -> bytes:
        return self._value

    def headers(self) -> list[tuple[str, bytes]] | None:
        return None

    def topic(self) -> str:
        return "claims.screened"

    def partition(self) -> int:
        return 0

    def offset(self) -> int:
        return self._offset


class _Ledger:
    """A ledger that answers `answers` in order of the claims' ids and keeps what it is
    told to record."""

    def __init__(self, answers: dict[str, Seen]) -> None:
        self.answers = answers
        self.checked: list[LedgerEntry] = []
        self.recorded: list[tuple[LedgerEntry, str]] = []

    async def check(self, entries: list[LedgerEntry]) -> list[LedgerCheck]:
        self.checked.extend(entries)
        out = []
        for e in entries:
            seen = self.answers.get(e.claim.claim_id, Seen.NEW)
            if seen is Seen.REPLAY:
                out.append(
                    LedgerCheck(seen, earlier_tier=Tier.AUTO_APPROVE.value, first_origin="x:0:0")
                )
            else:
                out.append(LedgerCheck(seen))
        return out

    async def record(self, decided: list[tuple[LedgerEntry, str]]) -> None:
        self.recorded.extend(decided)

    async def aclose(self) -> None:
        return None


_TEXTS = (
    ("c1", "The deploy script runs the migrations before the web servers restart."),
    ("c2", "Alice moved the staging database to the new cluster on Tuesday."),
    ("c3", "The deploy script runs the migrations before the web servers restart."),
    ("c4", "Maybe the cache is too small for the nightly batch."),
)


def _messages() -> list[_Message]:
    out = []
    for offset, (claim_id, text) in enumerate(_TEXTS):
        screened = ScreenedClaim(
            claim=Claim(claim_id=claim_id, tenant_id="t1", content=text, source=Source.USER),
            hedge=HedgeReport(),
            grounding=GroundingReport(verdict=GroundingVerdict.SUPPORTED, score=0.9),
        )
        out.append(_Message(dumps(screened), offset))
    return out


def _run(ledger: Any) -> list[tuple[str, bytes | None, dict[str, Any], tuple[Any, ...]]]:
    settings = Settings(metrics_port=0, guards={"dedup": {"backend": "memory"}})
    stage = RouteStage(settings, build_validator(settings.guards), ledger)
    outputs = asyncio.run(stage.process(_messages()))  # type: ignore[arg-type]
    rows = []
    for o in outputs:
        body = orjson.loads(o.value or b"")
        for volatile in ("routed_at", "timings_ms", "noted_at"):
            body.pop(volatile, None)
        if "validation" in body:
            body["validation"]["evidence"].pop("capture_time", None)
        rows.append((o.topic, o.key, body, o.headers))
    return rows


def test_without_a_ledger_the_outputs_are_those_of_a_ledger_that_finds_all_new() -> None:
    ledger = _Ledger({})
    with_ledger = _run(ledger)
    without = _run(None)
    assert without == with_ledger
    # two records (tier topic and audit) per claim; the copy c3 is c1's duplicate
    assert len(without) == 2 * len(_TEXTS)
    tiers = [body["validation"]["tier"] for _, _, body, _ in without[::2]]
    assert tiers[2] == "block" and without[4][2]["duplicate_of"] == "c1"
    # the ledger still sees and records every claim, with its digest and origin
    assert [e.claim.claim_id for e in ledger.checked] == [c for c, _ in _TEXTS]
    assert [(e.claim.claim_id, tier) for e, tier in ledger.recorded] == [
        (c, t) for (c, _), t in zip(_TEXTS, tiers, strict=True)
    ]
    assert all(len(e.digest) == 32 and e.origin for e in ledger.checked)


def test_a_replay_reported_by_the_ledger_is_not_decided_again() -> None:
    ledger = _Ledger({"c2": Seen.REPLAY})
    rows = _run(ledger)
    # c2 leaves one replay notice on audit, the other three two records each
    assert len(rows) == 1 + 2 * 3
    assert [h for _, _, _, h in rows].count((("event", b"replay"),)) == 1
    assert "c2" not in [e.claim.claim_id for e, _ in ledger.recorded]
