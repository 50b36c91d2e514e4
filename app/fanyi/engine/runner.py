"""Runs an encoder-decoder pack's encoder and one-step decoder sessions (causal_runner.py runs an LLM's graph).

One runner for every family: the graphs have the same inputs and outputs whatever the architecture
(see export/transformer_graphs.py).

The decoder is fed through an IOBinding: the self-attention cache is one buffer per layer and
kind that the graph writes in place (its past and present are the same memory), the logits and
log-probabilities land in buffers that are reused from step to step, and a beam search reorders
nothing — it rewrites a small table of which beam holds which position (the cache indirection).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from .int8_weights import needs_reduced_range, reduced_range_weights
from .pack_format import PackError
from .search import StepOutput
from .sessions import PinnedBinding, open_session, thread_count

if TYPE_CHECKING:
    import onnxruntime as ort

    from .pack_view import PackView

INITIAL_CAPACITY = 32  # cached positions allocated at first; doubled whenever a decode outgrows it
# The decoder's top_ids have min(top_k, blocks) columns, and a graph has at least min(vocab, 64) blocks
# (export/transformer_graphs.py): asking for at most this many ids gives exactly as many.
MAX_TOP_IDS = 64
Shape = Sequence[int | None]  # an input's or output's sizes as the manifest fixes them, None where any size goes


def check_interface(
    session: ort.InferenceSession, path: Path, inputs: dict[str, Shape], outputs: dict[str, Shape]
) -> None:
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
        elif len(got) != len(shape) or any(isinstance(g, int) and w is not None and g != w for g, w in zip(got, shape)):
            problems.append(f"{name} has the shape {got}, the manifest implies {shape}")
    if problems:
        raise PackError(f"{path} does not fit the pack's manifest: {problems[0]}")


def logits_width(session: ort.InferenceSession, path: Path, vocab: int) -> int:
    """The decoder's logits are the vocabulary padded to the graph's top-id blocks."""
    width = next(arg.shape[1] for arg in session.get_outputs() if arg.name == "logits")
    if not isinstance(width, int) or width < vocab:
        raise PackError(
            f"{path} does not fit the pack's manifest: logits have {width} columns for a vocabulary of {vocab}"
        )
    return width


class Runner:
    def __init__(self, pack: PackView, threads: int | None = None):
        arch = pack.architecture
        self.layers = arch["decoder_layers"]
        self.heads = arch["heads"]
        self.head_dim = arch["head_dim"]
        self.pad_id = pack.special_ids["pad"]
        self.vocab_size = arch["vocab_size"]
        self.reduced_range = pack.quantization == "int8" and needs_reduced_range()
        self._halved: dict[str, np.ndarray] = {}  # the encoder's and decoder's share the embedding's
        threads = thread_count(threads)  # once for both sessions (a clamp is logged once)
        self.cross_names = [f"cross_{kind}_{i}" for i in range(self.layers) for kind in ("key", "value")]
        self.cache_names = [
            (f"past_{kind}_{i}", f"present_{kind}_{i}") for i in range(self.layers) for kind in ("key", "value")
        ]
        cache = [None, self.heads, None, self.head_dim]
        rows, scores, one = [None, None], [None, None], [1]
        self.encoder = self._open(
            pack,
            "encoder.onnx",
            threads,
            {"input_ids": rows, "attention_mask": rows},
            dict.fromkeys(self.cross_names, cache),
        )
        self.decoder = self._open(
            pack,
            "decoder.onnx",
            threads,
            {
                "input_ids": [None, 1],
                "position": one,
                "encoder_attention_mask": rows,
                "top_k": one,
                "beam_width": one,
                "cache_indirection": [None, None, None],
                "log_probs_wanted": one,
                **dict.fromkeys(self.cross_names + [past for past, _ in self.cache_names], cache),
            },
            {
                "logits": scores,
                "log_probs": scores,
                "top_ids": rows,
                **dict.fromkeys([present for _, present in self.cache_names], cache),
            },
        )
        self.logits_width = logits_width(self.decoder, pack.file("decoder.onnx"), self.vocab_size)

    def _open(
        self, pack: PackView, graph: str, threads: int | None, inputs: dict[str, Shape], outputs: dict[str, Shape]
    ) -> ort.InferenceSession:
        def load(path: Path) -> ort.InferenceSession:
            halved = reduced_range_weights(pack, graph, self._halved) if self.reduced_range else None
            return open_session(path, threads, halved)

        session = pack.load(graph, load)
        check_interface(session, pack.file(graph), inputs, outputs)
        return session

    def encode(self, sequences: list[list[int]], beams: int = 1, max_steps: int = INITIAL_CAPACITY) -> Decoding:
        """Pads the sources on the right (as the Hugging Face tokenizers do), computes the cross-attention
        cache, and returns the decoder state for `beams` rows per source and at most `max_steps` steps."""
        width = max(len(s) for s in sequences)
        ids = np.full((len(sequences), width), self.pad_id, dtype=np.int64)
        mask = np.zeros((len(sequences), width), dtype=np.int64)
        for row, seq in enumerate(sequences):
            ids[row, : len(seq)] = seq
            mask[row, : len(seq)] = 1
        cross = self.encoder.run(self.cross_names, {"input_ids": ids, "attention_mask": mask})
        return Decoding(self, cross, mask, beams, max_steps)


class Decoding:
    """The decoder's state for one batch: each source's cross-attention inputs and mask, and for each
    of its `beams` rows the self-attention cache, bound to the decoder session once.

    What run() returns lives in buffers the next run() overwrites.
    """

    def __init__(self, runner: Runner, cross: list[np.ndarray], mask: np.ndarray, beams: int, max_steps: int):
        self._runner = runner
        self._bound = PinnedBinding(runner.decoder)
        self.beams = beams
        self.position = 0
        self._max_capacity = max(1, max_steps)
        self._beam_ids = np.arange(beams, dtype=np.int32)
        self._capacity = min(INITIAL_CAPACITY, self._max_capacity)
        self._bind_sources(cross, mask)
        self._cache = [
            np.empty((self.rows, runner.heads, self._capacity, runner.head_dim), np.float32) for _ in runner.cache_names
        ]
        self._indirection = np.zeros((self.sources, beams, self._capacity), np.int32)
        self._bound.input("beam_width", np.array([beams], np.int32))
        # inputs that change every step are written in place: bound once, by pointer
        self._position = self._bound.input("position", np.zeros(1, np.int32))
        self._top_k = self._bound.input("top_k", np.zeros(1, np.int64))
        self._log_probs_wanted = self._bound.input("log_probs_wanted", np.zeros(1, bool))
        self._bind_rows()

    @property
    def sources(self) -> int:
        return int(self._mask.shape[0])

    @property
    def rows(self) -> int:
        return self.sources * self.beams

    # --- binding ----------------------------------------------------------------------------------
    def _bind_sources(self, cross: list[np.ndarray], mask: np.ndarray) -> None:
        self._cross, self._mask = cross, np.ascontiguousarray(mask)
        for name, array in zip(self._runner.cross_names, cross):
            self._bound.input(name, array)
        self._bound.input("encoder_attention_mask", self._mask)

    def _bind_cache(self) -> None:
        """(Re)bind the cache (the same memory in and out: the graph writes this step's keys and
        values in place) and the beam table."""
        for (past, present), array in zip(self._runner.cache_names, self._cache):
            self._bound.input(past, array)
            self._bound.output(present, array)
        self._bound.input("cache_indirection", self._indirection)

    def _bind_rows(self) -> None:
        """(Re)bind what has a row per beam: the cache, the beam table, the tokens and the scores."""
        self._bind_cache()
        self._tokens = self._bound.input("input_ids", np.zeros((self.rows, 1), np.int64))
        self._logits = self._bound.output("logits", np.empty((self.rows, self._runner.logits_width), np.float32))
        self._log_probs: np.ndarray | None = None
        self._top_ids: np.ndarray | None = None

    def _bind_scores(self, top_k: int, log_probs: bool) -> None:
        """The top ids' width and whether the log-probabilities are computed, when they change."""
        if self._top_ids is None or self._top_ids.shape[1] != top_k:
            self._top_k[0] = top_k
            self._top_ids = self._bound.output("top_ids", np.empty((self.rows, top_k), np.int64))
        if self._log_probs is None or bool(self._log_probs.size) != log_probs:
            self._log_probs_wanted[0] = log_probs
            # without them the graph gives an empty [0, 0]
            shape = (self.rows, self._runner.logits_width) if log_probs else (0, 0)
            self._log_probs = self._bound.output("log_probs", np.empty(shape, np.float32))

    # --- what the searches call -------------------------------------------------------------------
    def run(self, tokens: np.ndarray, top_k: int = 1, log_probs: bool = False) -> StepOutput:
        """One decoder step for every row; log-probabilities only when asked (beam search)."""
        if self.position >= self._capacity:
            self._grow()
        vocab = self._runner.vocab_size
        self._bind_scores(min(top_k, vocab, MAX_TOP_IDS), log_probs)
        self._tokens[:] = tokens
        self._position[0] = self.position
        self._runner.decoder.run_with_iobinding(self._bound.binding)
        self._indirection[:, :, self.position] = self._beam_ids  # each row wrote its own position
        self.position += 1
        assert self._log_probs is not None and self._top_ids is not None  # bound by _bind_scores
        scores = self._log_probs[:, :vocab] if log_probs else self._log_probs
        return StepOutput(self._logits[:, :vocab], scores, self._top_ids)

    def reorder(self, origins: np.ndarray) -> None:
        """Beam b of source s continues what beam origins[s, b] of that source decoded so far."""
        self._indirection[...] = np.take_along_axis(self._indirection, origins[:, :, None].astype(np.int64), axis=1)

    def keep(self, sources: np.ndarray) -> None:
        """Keep only these sources (all their beams), in this order."""
        rows = (sources[:, None] * self.beams + np.arange(self.beams)).reshape(-1)
        self._bind_sources([c[sources] for c in self._cross], self._mask[sources])
        self._cache = [self._copy(c, self._capacity, rows) for c in self._cache]
        self._indirection = np.ascontiguousarray(self._indirection[sources])
        self._bind_rows()

    def _copy(self, cache: np.ndarray, capacity: int, rows: np.ndarray | slice = slice(None)) -> np.ndarray:
        """The filled positions of these rows of a cache, in a buffer of `capacity` positions."""
        kept = cache[rows, :, : self.position]
        out = np.empty(kept.shape[:2] + (capacity,) + kept.shape[3:], np.float32)
        out[:, :, : self.position] = kept
        return out

    def _grow(self) -> None:
        capacity = max(self.position + 1, min(2 * self._capacity, self._max_capacity))
        self._cache = [self._copy(c, capacity) for c in self._cache]
        indirection = np.zeros(self._indirection.shape[:2] + (capacity,), np.int32)
        indirection[:, :, : self.position] = self._indirection[:, :, : self.position]
        self._indirection, self._capacity = indirection, capacity
        self._bind_cache()  # the rows are the same: tokens and scores keep their buffers
