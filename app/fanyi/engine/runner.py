"""Runs a pack's encoder and one-step decoder sessions; the only module that feeds ONNX Runtime.

One runner for every family: the graphs have the same inputs and outputs whatever the architecture
(see export/transformer_graphs.py).
"""

from __future__ import annotations

import numpy as np

from .int8_weights import needs_reduced_range, reduced_range_weights
from .pack import ModelPack
from .search import DecoderState, StepOutput
from .sessions import open_session


class Runner:
    def __init__(self, pack: ModelPack, threads: int | None = None):
        arch = pack.architecture
        self.layers = int(arch["decoder_layers"])
        self.heads = int(arch["heads"])
        self.head_dim = int(arch["head_dim"])
        self.pad_id = int(pack.special_ids["pad"])
        self.reduced_range = pack.quantization == "int8" and needs_reduced_range()
        self.encoder, self.decoder = (
            open_session(pack.file(graph), threads, reduced_range_weights(pack, graph) if self.reduced_range else None)
            for graph in ("encoder.onnx", "decoder.onnx"))
        self._cross_names = [f"cross_{kind}_{i}" for i in range(self.layers) for kind in ("key", "value")]
        self._past_names = [f"past_{kind}_{i}" for i in range(self.layers) for kind in ("key", "value")]
        self._outputs = ["logits", "log_probs", "top_ids"] + [
            f"present_{kind}_{i}" for i in range(self.layers) for kind in ("key", "value")]
        self.vocab_size = int(arch["vocab_size"])

    def encode(self, sequences: list[list[int]]) -> DecoderState:
        """Pads the sources on the right (as the Hugging Face tokenizers do) and computes the cross-attention cache."""
        width = max(len(s) for s in sequences)
        ids = np.full((len(sequences), width), self.pad_id, dtype=np.int64)
        mask = np.zeros((len(sequences), width), dtype=np.int64)
        for row, seq in enumerate(sequences):
            ids[row, :len(seq)] = seq
            mask[row, :len(seq)] = 1
        cross = self.encoder.run(self._cross_names, {"input_ids": ids, "attention_mask": mask})
        return DecoderState(self._step, cross, mask, self.layers, self.heads, self.head_dim)

    def _step(self, tokens: np.ndarray, position: int, mask: np.ndarray, cross: list, past: list,
              top_k: int) -> tuple[StepOutput, list]:
        feed = {"input_ids": tokens, "position": np.array([position], dtype=np.int64),
                "encoder_attention_mask": mask, "top_k": np.array([min(top_k, self.vocab_size)], dtype=np.int64)}
        feed.update(zip(self._cross_names, cross))
        feed.update(zip(self._past_names, past))
        logits, log_probs, top_ids, *present = self.decoder.run(self._outputs, feed)
        return StepOutput(logits, log_probs, top_ids), present
