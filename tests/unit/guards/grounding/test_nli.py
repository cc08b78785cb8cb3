"""The `nli` verifier end to end with a tiny cross-encoder built here (tiny_nli.py), and
the ensemble rule. onnx, onnxruntime and tokenizers are in the `test` extra."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")
pytest.importorskip("tokenizers")

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding import build_verifier
from groundwire.guards.grounding.ensemble import EnsembleVerifier, combine
from groundwire.guards.grounding.nli import NliConfigError, NliVerifier, windows_for
from groundwire.guards.protocols import GroundingRequest
from groundwire.topics.records import Claim, GroundingReport, SourceTurn
from groundwire.topics.vocab import GroundingVerdict

from . import tiny_nli

TURNS = [
    SourceTurn(
        id="t1", text="The team has 3 engineers working on the OAuth integration.", source="corpus"
    ),
    SourceTurn(id="t2", text="The cache is enabled. We will deploy on Friday.", source="corpus"),
]


def claim(text: str, i: int = 0) -> Claim:
    return Claim(claim_id=f"c{i}", tenant_id="t", content=text, source="chat", source_turns=TURNS)


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("nli")
    tiny_nli.build(d)
    return d


def nli_cfg(model_dir: Path, **kw: object) -> GroundingConfig:
    return GroundingConfig(verifier="nli", nli_model_path=model_dir / "model.onnx", **kw)


async def test_scores_real_sentences_and_batches_across_claims(model_dir: Path) -> None:
    verifier = build_verifier(nli_cfg(model_dir, nli_batch_size=2))
    assert isinstance(verifier, NliVerifier)
    calls: list[int] = []
    real = verifier.encoder.probabilities

    def counting(pairs, run_options=None):  # type: ignore[no-untyped-def]
        calls.append(len(pairs))
        return real(pairs, run_options)

    verifier.encoder.probabilities = counting  # type: ignore[method-assign]
    texts = ["The team has engineers on the OAuth integration", "The cache is not enabled"]
    reports = await verifier.verify_batch(
        [GroundingRequest(claim(t, i), TURNS) for i, t in enumerate(texts)]
    )
    assert [r.verdict for r in reports] == [
        GroundingVerdict.SUPPORTED,
        GroundingVerdict.NOT_SUPPORTED,
    ]
    assert reports[0].score is not None and reports[0].score > 0.9
    assert reports[1].score is not None and reports[1].score < 0.01
    assert "contradicts" in reports[1].reasoning
    # every span is an exact slice of its turn
    span = reports[0].evidence_spans[0]
    turn = next(t for t in TURNS if t.id == span.turn_id)
    assert turn.text[span.start : span.end] == span.text
    # two claims x two turns (one window each) = 4 pairs, in batches of 2, one model
    # call per batch across claims
    assert calls == [2, 2]
    await verifier.aclose()


def test_windows_are_the_few_that_cover_the_claim() -> None:
    long = SourceTurn(
        id="d",
        text=" ".join(f"Sentence {i} is about topic {i}." for i in range(40))
        + " The deployment moved to Monday because the cache broke.",
    )
    wins = windows_for("The deployment moved to Monday", [long], size=2, keep=2)
    assert len(wins) == 2
    assert "moved to Monday" in wins[0].text
    assert wins[0].end - wins[0].start < 200


def test_a_wrong_label_map_fails_at_start(model_dir: Path) -> None:
    with pytest.raises(NliConfigError, match="3 outputs but nli_labels names 2"):
        build_verifier(nli_cfg(model_dir, nli_labels=["not_supported", "entailment"]))
    with pytest.raises(NliConfigError, match="no 'entailment'"):
        build_verifier(nli_cfg(model_dir, nli_labels=["neutral", "contradiction", "not_supported"]))


async def test_a_binary_model_with_its_label_map(tmp_path: Path) -> None:
    tiny_nli.build(tmp_path, labels=2)  # outputs: [supported-ish, neutral]
    verifier = build_verifier(
        GroundingConfig(
            verifier="nli",
            nli_model_path=tmp_path / "model.onnx",
            nli_labels=["entailment", "not_supported"],
        )
    )
    [report] = await verifier.verify_batch([GroundingRequest(claim("The cache is enabled"), TURNS)])
    assert report.verdict is GroundingVerdict.SUPPORTED


def test_a_corrupt_model_file_fails_at_start(tmp_path: Path, model_dir: Path) -> None:
    bad = tmp_path / "model.onnx"
    bad.write_bytes(b"\x08\x07this is not a protobuf" * 20)
    (tmp_path / "tokenizer.json").write_bytes((model_dir / "tokenizer.json").read_bytes())
    with pytest.raises(NliConfigError, match="cannot load NLI model"):
        build_verifier(GroundingConfig(verifier="nli", nli_model_path=bad))


def test_a_missing_tokenizer_or_model_fails_at_start(tmp_path: Path) -> None:
    path = tiny_nli.build(tmp_path, tokenizer=False)
    with pytest.raises(NliConfigError, match="tokenizer not found"):
        build_verifier(GroundingConfig(verifier="nli", nli_model_path=path))
    with pytest.raises(NliConfigError, match="model file not found"):
        build_verifier(GroundingConfig(verifier="nli", nli_model_path=tmp_path / "none.onnx"))
    with pytest.raises(NliConfigError, match="needs nli_model_path"):
        build_verifier(GroundingConfig(verifier="nli"))


async def test_a_slow_model_is_bounded_and_reported_unknown(model_dir: Path) -> None:
    verifier = build_verifier(nli_cfg(model_dir, nli_timeout_s=0.2))
    assert isinstance(verifier, NliVerifier)

    finished = threading.Event()

    def slow(pairs, run_options=None):  # type: ignore[no-untyped-def]
        time.sleep(0.5)
        finished.set()
        raise AssertionError("should have been abandoned")

    verifier.encoder.probabilities = slow  # type: ignore[method-assign]
    [report] = await verifier.verify_batch([GroundingRequest(claim("The cache is enabled"), TURNS)])
    assert not finished.is_set()  # the report came back without waiting for the model
    assert report.verdict is GroundingVerdict.UNKNOWN
    assert "timed out" in report.reasoning
    await asyncio.sleep(0.4)  # let the abandoned thread finish


async def test_ensemble_nli_decides_where_confident_and_falls_back(model_dir: Path) -> None:
    cfg = GroundingConfig(verifier=["lexical", "nli"], nli_model_path=model_dir / "model.onnx")
    verifier = build_verifier(cfg)
    assert isinstance(verifier, EnsembleVerifier)
    assert verifier.name == "lexical+nli"
    texts = ["The team has engineers on the OAuth integration", "The cache is not enabled"]
    batch = [GroundingRequest(claim(t, i), TURNS) for i, t in enumerate(texts)]
    combined, members = await verifier.verify_members(batch)
    assert set(members) == {"lexical", "nli"}
    assert [r.verdict for r in combined] == [
        GroundingVerdict.SUPPORTED,
        GroundingVerdict.NOT_SUPPORTED,
    ]
    assert all(r.verifier == "lexical+nli" for r in combined)
    assert combined[0].reasoning.startswith("[nli]")

    # a failing NLI member leaves the first member's report in place
    nli = verifier.members[1]

    def broken(pairs, run_options=None):  # type: ignore[no-untyped-def]
        raise RuntimeError("boom")

    nli.encoder.probabilities = broken  # type: ignore[attr-defined]
    reports = await verifier.verify_batch(batch)
    assert [r.verdict for r in reports] == [r.verdict for r in members["lexical"]]
    assert all(r.reasoning.startswith("[lexical]") for r in reports)


def test_combine_rule() -> None:
    def rep(verdict: GroundingVerdict, score: float | None) -> GroundingReport:
        return GroundingReport(verdict=verdict, score=score, reasoning="r", verifier="x")

    s, n, u = GroundingVerdict.SUPPORTED, GroundingVerdict.NOT_SUPPORTED, GroundingVerdict.UNKNOWN
    names = ["learned", "nli"]
    assert combine(names, [rep(n, 0.2), rep(s, 0.95)], 0.9, 0.1).verdict is s
    assert combine(names, [rep(n, 0.2), rep(s, 0.6)], 0.9, 0.1).verdict is n  # not confident
    assert combine(names, [rep(s, 0.8), rep(n, 0.05)], 0.9, 0.1).verdict is n
    assert combine(names, [rep(s, 0.8), rep(u, None)], 0.9, 0.1).verdict is s
    assert combine(names, [rep(u, None), rep(s, 0.6)], 0.9, 0.1).verdict is s
    assert combine(names, [rep(s, 0.8), rep(n, None)], 0.9, 0.1).verdict is n  # no score: LLM
