"""Runs a pack's encoder and one-step decoder sessions; the only module that feeds ONNX Runtime.

One runner for every family: the graphs have the same inputs and outputs whatever the architecture
(see export/transformer_graphs.py).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .int8_weights import needs_reduced_range, reduced_range_weights
from .pack import ModelPack, PackError
from .search import DecoderState, StepOutput
from .sessions import open_session, thread_count


def _check_interface(session, path: Path, inputs: dict[str, list], outputs: dict[str, list]) -> None:
    """The graph takes exactly `inputs` and gives at least `outputs`, of the shapes the manifest implies.

    A shape lists the sizes the manifest fixes (None where any size goes). A graph that passed its
    checksum can still disagree with its manifest (both rewritten); better a load error naming it
    than an ONNX Runtime error in the middle of a translation.
    """
    declared_inputs = {arg.name: arg.shape for arg in session.get_inputs()}
    declared = {**declared_inputs, **{arg.name: arg.shape for arg in session.get_outputs()}}
    unexpected = sorted(set(declared_inputs) - set(inputs))
    problems = [f"it takes {', '.join(unexpected)}, which the runtime does not feed"] if unexpected else []
    for name, shape in {**inputs, **outputs}.items():
        got = declared.get(name)
        if got is None:
            problems.append(f"it has no {name}")
        elif len(got) != len(shape) or any(isinstance(g, int) and w is not None and g != w
                                           for g, w in zip(got, shape)):
            problems.append(f"{name} has the shape {got}, the manifest implies {shape}")
    if problems:
        raise PackError(f"{path} does not fit the pack's manifest: {problems[0]}")


class Runner:
    def __init__(self, pack: ModelPack, threads: int | None = None):
        arch = pack.architecture
        self.layers = arch["decoder_layers"]
        self.heads = arch["heads"]
        self.head_dim = arch["head_dim"]
        self.pad_id = pack.special_ids["pad"]
        self.vocab_size = arch["vocab_size"]
        self.reduced_range = pack.quantization == "int8" and needs_reduced_range()
        threads = thread_count(threads)  # once for both sessions (a clamp is logged once)
        self._cross_names = [f"cross_{kind}_{i}" for i in range(self.layers) for kind in ("key", "value")]
        self._past_names = [f"past_{kind}_{i}" for i in range(self.layers) for kind in ("key", "value")]
        self._outputs = ["logits", "log_probs", "top_ids"] + [
            f"present_{kind}_{i}" for i in range(self.layers) for kind in ("key", "value")]
        cache = [None, self.heads, None, self.head_dim]
        rows, scores = [None, None], [None, self.vocab_size]
        self.encoder = self._open(pack, "encoder.onnx", threads, {"input_ids": rows, "attention_mask": rows},
                                  dict.fromkeys(self._cross_names, cache))
        self.decoder = self._open(
            pack, "decoder.onnx", threads,
            {"input_ids": [None, 1], "position": [1], "encoder_attention_mask": rows, "top_k": [1],
             **dict.fromkeys(self._cross_names + self._past_names, cache)},
            {"logits": scores, "log_probs": scores, "top_ids": rows, **dict.fromkeys(self._outputs[3:], cache)})

    def _open(self, pack: ModelPack, graph: str, threads: int | None, inputs: dict, outputs: dict):
        def load(path: Path):
            return open_session(path, threads, reduced_range_weights(pack, graph) if self.reduced_range else None)

        session = pack.load(graph, load)
        _check_interface(session, pack.file(graph), inputs, outputs)
        return session

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
