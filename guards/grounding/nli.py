"""`nli`: any ONNX sequence-classification cross-encoder, scored on the best source windows.

An NLI model (MNLI-style three labels, or a binary supported / not-supported model such
as a MiniCheck- or HHEM-style one) exported to ONNX with its `tokenizer.json` is loaded
from paths in the settings (`nli_model_path`, `nli_tokenizer_path`); `nli_labels` names
what each output means, in order. Nothing is downloaded. docs/grounding.md gives the
export commands and the cost per claim.

Per claim, the source turns are cut into windows of `nli_window_sentences` consecutive
sentences of one turn (the whole evidence is one window when it is short), the windows
are ranked by how many of the claim's content words they hold, and the best
`nli_windows` are scored as (window, claim) pairs, so a long conversation costs a few
model calls, not one per sentence. The pairs of the whole batch go through the model in
batches of `nli_batch_size`, on `nli_threads` threads, in a worker thread with a time
bound (`nli_timeout_s` per `verify_batch`: on expiry the run is terminated and the claims
not scored are UNKNOWN, which `on_verifier_failure` decides). A claim's score is the
highest P(supported) over its windows: P(entailment) of a three-label model (softmax),
P(supported) of a binary one, the sigmoid of a single-logit one.

Everything that can be wrong with the files (missing model, corrupt model, missing
tokenizer, a label map that does not match the model's outputs, inputs the model does not
name) raises `NliConfigError` when the verifier is built, never per claim.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding.base import (
    bounded_turns,
    finish_report,
    no_evidence_report,
    penalty_for,
    unknown_report,
)
from groundwire.guards.grounding.lexical import split_sentences, tokenize
from groundwire.guards.protocols import GroundingRequest
from groundwire.topics.records import EvidenceSpan, GroundingReport, SourceTurn
from groundwire.topics.vocab import GroundingVerdict

__all__ = ["CrossEncoder", "NliConfigError", "NliVerifier", "Window", "windows_for"]

SUPPORTED_THRESHOLD = 0.5
PARTIAL_THRESHOLD = 0.35
WHOLE_EVIDENCE_CHARS = 1_200  # evidence this short is one window
SUPPORTED_LABELS = ("entailment",)
NEGATIVE_LABELS = ("neutral", "contradiction", "not_supported")


class NliConfigError(ValueError):
    """The configured model, tokenizer or label map cannot be used."""


@dataclass(frozen=True, slots=True)
class Window:
    turn: SourceTurn
    start: int
    end: int

    @property
    def text(self) -> str:
        return self.turn.text[self.start : self.end]


def windows_for(claim_text: str, turns: Sequence[SourceTurn], size: int, keep: int) -> list[Window]:
    """The `keep` windows of `size` consecutive sentences (within one turn) that hold the
    most claim content words; the whole evidence when it is short and in one turn."""
    if len(turns) == 1 and len(turns[0].text) <= WHOLE_EVIDENCE_CHARS:
        return [Window(turns[0], 0, len(turns[0].text))]
    stems = {t.stem for t in tokenize(claim_text) if t.content}
    scored: list[tuple[int, int, Window]] = []
    order = 0
    for turn in turns:
        sentences = split_sentences(turn)
        if not sentences:
            continue
        if len(sentences) <= size:
            hit = len(stems & set().union(*(s.stems for s in sentences)))
            scored.append((hit, order, Window(turn, sentences[0].start, sentences[-1].end)))
            order += 1
            continue
        for i in range(len(sentences) - size + 1):
            part = sentences[i : i + size]
            hit = len(stems & set().union(*(s.stems for s in part)))
            scored.append((hit, order, Window(turn, part[0].start, part[-1].end)))
            order += 1
    scored.sort(key=lambda x: (-x[0], x[1]))
    chosen: list[Window] = []
    for _, _, w in scored:
        if any(w.turn is c.turn and w.start < c.end and c.start < w.end for c in chosen):
            continue  # overlapping windows say the same thing twice
        chosen.append(w)
        if len(chosen) == keep:
            break
    return chosen


class CrossEncoder:
    """An ONNX sequence-classification model and its tokenizer: (premise, hypothesis) ->
    P(supported), checked when loaded."""

    def __init__(
        self,
        model_path: Path,
        tokenizer_path: Path | None,
        labels: Sequence[str],
        *,
        max_length: int = 512,
        threads: int = 1,
    ) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        try:
            import onnxruntime as ort
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise NliConfigError(
                "verifier 'nli' needs onnxruntime and tokenizers: "
                "pip install 'groundwire[embedding]'"
            ) from exc
        model_path = Path(model_path)
        if not model_path.is_file():
            raise NliConfigError(f"NLI model file not found: {model_path} (nli_model_path)")
        tok_path = Path(tokenizer_path) if tokenizer_path else model_path.parent / "tokenizer.json"
        if not tok_path.is_file():
            raise NliConfigError(
                f"NLI tokenizer not found: {tok_path} (nli_tokenizer_path; the model's "
                "tokenizer.json, saved beside it by the export)"
            )
        labels = list(labels)
        if "entailment" not in labels:
            raise NliConfigError(f"nli_labels {labels} names no 'entailment' (supported) output")
        if len(set(labels)) != len(labels):
            raise NliConfigError(f"nli_labels {labels} names an output twice")
        try:
            self._tokenizer: Any = Tokenizer.from_file(str(tok_path))
        except Exception as exc:
            raise NliConfigError(f"cannot read NLI tokenizer {tok_path}: {exc}") from exc
        self._tokenizer.enable_truncation(max_length=max_length, strategy="only_first")
        pad_id = self._tokenizer.token_to_id("[PAD]")
        if pad_id is None:
            pad_id = self._tokenizer.token_to_id("<pad>")
        self._tokenizer.enable_padding(pad_id=pad_id or 0)
        options = ort.SessionOptions()
        options.log_severity_level = 3
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        try:
            self._session: Any = ort.InferenceSession(
                str(model_path), sess_options=options, providers=["CPUExecutionProvider"]
            )
        except Exception as exc:
            raise NliConfigError(f"cannot load NLI model {model_path}: {exc}") from exc
        self._ort = ort
        self._inputs = {i.name for i in self._session.get_inputs()}
        missing = {"input_ids", "attention_mask"} - self._inputs
        if missing:
            raise NliConfigError(
                f"NLI model {model_path} has no input {sorted(missing)} "
                f"(inputs: {sorted(self._inputs)})"
            )
        self.labels = labels
        self._entail = labels.index("entailment")
        self._contra = labels.index("contradiction") if "contradiction" in labels else None
        self._lock = threading.Lock()
        try:  # one real pair: the output must have one column per named label
            logits = self._logits([("The sky is blue.", "The sky is blue.")], None)
        except Exception as exc:
            raise NliConfigError(f"NLI model {model_path} failed on a test pair: {exc}") from exc
        if logits.ndim != 2 or logits.shape[1] != len(labels):
            raise NliConfigError(
                f"NLI model {model_path} gives {logits.shape[-1]} outputs but nli_labels names "
                f"{len(labels)} ({labels}): fix the label map"
            )

    def _logits(
        self, pairs: Sequence[tuple[str, str]], run_options: Any
    ) -> npt.NDArray[np.float32]:
        enc = self._tokenizer.encode_batch(list(pairs))
        ids = np.array([e.ids for e in enc], dtype=np.int64)
        feeds = {
            "input_ids": ids,
            "attention_mask": np.array([e.attention_mask for e in enc], dtype=np.int64),
        }
        if "token_type_ids" in self._inputs:
            feeds["token_type_ids"] = np.array([e.type_ids for e in enc], dtype=np.int64)
        with self._lock:
            out: npt.NDArray[np.float32] = self._session.run(None, feeds, run_options)[0]
        return np.asarray(out, dtype=np.float32).reshape(len(pairs), -1)

    def probabilities(
        self, pairs: Sequence[tuple[str, str]], run_options: Any = None
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """(P(supported), P(contradiction) or zeros) for each (premise, hypothesis)."""
        logits = self._logits(pairs, run_options).astype(np.float64)
        if logits.shape[1] == 1:
            p = 1.0 / (1.0 + np.exp(-logits[:, 0]))
            return p, np.zeros_like(p)
        z = logits - logits.max(axis=1, keepdims=True)
        probs = np.exp(z)
        probs /= probs.sum(axis=1, keepdims=True)
        contra = probs[:, self._contra] if self._contra is not None else np.zeros(len(probs))
        return probs[:, self._entail], contra

    def run_options(self) -> Any:
        return self._ort.RunOptions()


class NliVerifier:
    """Cross-encoder over the best source windows; verdict by thresholds on P(supported)."""

    name = "nli"

    def __init__(self, cfg: GroundingConfig | None = None) -> None:
        self.cfg = cfg or GroundingConfig()
        if self.cfg.nli_model_path is None:
            raise NliConfigError("grounding verifier 'nli' needs nli_model_path (an ONNX file)")
        self.encoder = CrossEncoder(
            self.cfg.nli_model_path,
            self.cfg.nli_tokenizer_path,
            self.cfg.nli_labels,
            max_length=self.cfg.nli_max_length,
            threads=self.cfg.nli_threads,
        )
        hi, lo = self.cfg.supported_threshold, self.cfg.partial_threshold
        self.supported_threshold = SUPPORTED_THRESHOLD if hi is None else hi
        self.partial_threshold = min(
            PARTIAL_THRESHOLD if lo is None else lo, self.supported_threshold
        )

    async def aclose(self) -> None:
        """Nothing to release (the session is freed with the object)."""

    async def verify_batch(self, batch: Sequence[GroundingRequest]) -> list[GroundingReport]:
        out: list[GroundingReport | None] = [None] * len(batch)
        plan: list[tuple[int, list[Window]]] = []
        pairs: list[tuple[str, str]] = []
        for i, req in enumerate(batch):
            try:
                turns = bounded_turns(req.turns, self.cfg.max_evidence_chars)
                if not turns:
                    out[i] = no_evidence_report(req.claim, self.name)
                    continue
                wins = windows_for(
                    req.claim.content, turns, self.cfg.nli_window_sentences, self.cfg.nli_windows
                )
            except Exception as exc:  # never raise into the stream
                out[i] = unknown_report(
                    req.claim, self.name, f"verifier error: {type(exc).__name__}"
                )
                continue
            if not wins:
                out[i] = no_evidence_report(req.claim, self.name)
                continue
            plan.append((i, wins))
            pairs.extend((w.text, req.claim.content) for w in wins)
        scores, reason = await self._score(pairs)
        k = 0
        for i, wins in plan:
            claim = batch[i].claim
            n = len(wins)
            if scores is None or k + n > len(scores[0]):
                out[i] = unknown_report(claim, self.name, reason or "NLI model did not answer")
                k += n
                continue
            entail, contra = scores[0][k : k + n], scores[1][k : k + n]
            k += n
            out[i] = self._report(batch[i], wins, entail, contra)
        return [r for r in out if r is not None]

    async def _score(
        self, pairs: list[tuple[str, str]]
    ) -> tuple[tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]] | None, str]:
        """Score all pairs in batches in a worker thread, bounded by `nli_timeout_s`; on
        expiry the model run is terminated and what was scored so far is returned."""
        if not pairs:
            return (np.zeros(0), np.zeros(0)), ""
        options = self.encoder.run_options()
        done_e: list[npt.NDArray[np.float64]] = []
        done_c: list[npt.NDArray[np.float64]] = []
        size = self.cfg.nli_batch_size
        deadline = time.monotonic() + self.cfg.nli_timeout_s

        def work() -> None:
            for j in range(0, len(pairs), size):
                if time.monotonic() > deadline:
                    return
                e, c = self.encoder.probabilities(pairs[j : j + size], options)
                done_e.append(e)
                done_c.append(c)

        reason = ""
        try:
            await asyncio.wait_for(asyncio.to_thread(work), timeout=self.cfg.nli_timeout_s)
        except TimeoutError:
            options.terminate = True  # the running batch stops; the thread returns
            reason = f"NLI model timed out after {self.cfg.nli_timeout_s:g} s"
        except Exception as exc:
            return None, f"verifier error: {type(exc).__name__}"
        if not done_e:
            return None, reason or "NLI model timed out"
        reason = reason or f"NLI model ran out of time ({self.cfg.nli_timeout_s:g} s)"
        return (np.concatenate(done_e), np.concatenate(done_c)), reason

    def _report(
        self,
        req: GroundingRequest,
        wins: Sequence[Window],
        entail: npt.NDArray[np.float64],
        contra: npt.NDArray[np.float64],
    ) -> GroundingReport:
        claim = req.claim
        best = int(np.argmax(entail))
        p = float(entail[best])
        hi, lo = self.supported_threshold, self.partial_threshold
        penalty = 0.0
        if p >= hi:
            verdict = GroundingVerdict.SUPPORTED
        elif p >= lo:
            verdict = GroundingVerdict.PARTIAL
            penalty = penalty_for(p, lo, hi, self.cfg)
        else:
            verdict = GroundingVerdict.NOT_SUPPORTED
        w = wins[best]
        spans = [EvidenceSpan(turn_id=w.turn.id, start=w.start, end=w.end, text=w.text)]
        reasoning = (
            f"{verdict.value}: P(supported) {p:.2f} on the best of {len(wins)} source windows"
        )
        worst = int(np.argmax(contra))
        if verdict is GroundingVerdict.NOT_SUPPORTED and float(contra[worst]) >= 0.5:
            reasoning += f"; a window contradicts it (P {float(contra[worst]):.2f})"
        return finish_report(
            claim,
            verdict,
            verifier=self.name,
            score=p,
            spans=spans if verdict is not GroundingVerdict.NOT_SUPPORTED else [],
            reasoning=reasoning,
            penalty=penalty,
        )
