"""A tiny cross-encoder built at test time: a real ONNX graph and a real tokenizer.json.

The graph is what an exported sequence classifier looks like from outside (inputs
`input_ids`, `attention_mask`, `token_type_ids`; output `logits` of shape (batch,
labels)): a token embedding, a mean over the unmasked tokens and a linear layer. Its
weights make it read negation words as contradiction and everything else as entailment,
so verdicts on real sentences are predictable. The tokenizer is a word-level one over a
small vocabulary with the usual `[CLS] a [SEP] b [SEP]` pair template.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

NEGATIONS = ("not", "never", "no")
_TEXT = """the team has engineers working on oauth integration cache is enabled deploy
friday we will meeting moved to monday and a it"""
WORDS = (*NEGATIONS, *_TEXT.split())


def build(directory: Path, labels: int = 3, *, tokenizer: bool = True) -> Path:
    """Write `model.onnx` (and `tokenizer.json`) into `directory`; returns the model path."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors

    vocab = {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3}
    for w in WORDS:
        vocab.setdefault(w, len(vocab))
    emb = np.zeros((len(vocab), 2), dtype=np.float32)
    emb[:, 1] = 1.0  # "content"
    for w in NEGATIONS:
        emb[vocab[w]] = (1.0, 0.0)  # "negation"
    # logits: entailment, neutral, contradiction (or the first `labels` of them)
    w = np.array([[-120.0, 0.0, 120.0], [4.0, 0.0, -4.0]], dtype=np.float32)[:, :labels]
    b = np.zeros(labels, dtype=np.float32)
    nodes = [
        helper.make_node("Gather", ["emb", "input_ids"], ["tok"]),
        helper.make_node("Cast", ["attention_mask"], ["maskf"], to=TensorProto.FLOAT),
        helper.make_node("Unsqueeze", ["maskf", "axis2"], ["mask3"]),
        helper.make_node("Mul", ["tok", "mask3"], ["masked"]),
        helper.make_node("ReduceSum", ["masked", "axis1"], ["summed"], keepdims=0),
        helper.make_node("ReduceSum", ["maskf", "axis1"], ["count"], keepdims=1),
        helper.make_node("Div", ["summed", "count"], ["pooled"]),
        helper.make_node("MatMul", ["pooled", "w"], ["lin"]),
        helper.make_node("Add", ["lin", "b"], ["logits"]),
        # token_type_ids is an input of the exported models; read it so it stays one
        helper.make_node("Shape", ["token_type_ids"], ["tt_shape"]),
    ]
    graph = helper.make_graph(
        nodes,
        "tiny_cross_encoder",
        [
            helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "seq"]),
            helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "seq"]),
            helper.make_tensor_value_info("token_type_ids", TensorProto.INT64, ["batch", "seq"]),
        ],
        [
            helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", labels]),
            helper.make_tensor_value_info("tt_shape", TensorProto.INT64, [2]),
        ],
        [
            numpy_helper.from_array(emb, "emb"),
            numpy_helper.from_array(w, "w"),
            numpy_helper.from_array(b, "b"),
            numpy_helper.from_array(np.array([1], dtype=np.int64), "axis1"),
            numpy_helper.from_array(np.array([2], dtype=np.int64), "axis2"),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    path = directory / "model.onnx"
    onnx.save(model, str(path))
    if tokenizer:
        tok = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
        tok.normalizer = normalizers.Lowercase()
        tok.pre_tokenizer = pre_tokenizers.Whitespace()
        tok.post_processor = processors.TemplateProcessing(
            single="[CLS] $A [SEP]",
            pair="[CLS] $A [SEP] $B:1 [SEP]:1",
            special_tokens=[("[CLS]", 2), ("[SEP]", 3)],
        )
        tok.save(str(directory / "tokenizer.json"))
    return path
