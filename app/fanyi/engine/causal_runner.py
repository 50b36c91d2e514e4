"""Runs a decoder-only pack's one graph: the prompt in one run (prefill), then one token per step.

The graph (fanyi.export.causal_graphs) takes a right-padded chunk of tokens per row with the number
of valid ones, writes their keys and values into each row's cache at its own position, and returns
the logits and top ids of each row's last valid token. The cache is one buffer per layer and kind,
past and present at once (ONNX Runtime's GroupQueryAttention writes it in place), bound through an
IOBinding as the encoder-decoder runner does.

The prompt's fixed part — the chat template and the instruction before the source text — is the
same for every text of a language pair: its keys and values are computed once and copied into each
new cache, so a request runs only its own tokens.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from .pack_format import PackError
from .runner import MAX_TOP_IDS, check_interface, logits_width
from .search import StepOutput
from .sessions import PinnedBinding, open_session, thread_count

if TYPE_CHECKING:
    from .pack_view import PackView

INITIAL_STEPS = 64  # cache positions allocated past the prompt at first; doubled when a decode outgrows them
PREFIXES_KEPT = 8  # prompt prefixes (language pairs, with or without glossary) whose caches are kept


def shared_prefix(sequences: Sequence[Sequence[int]], prefix: Sequence[int]) -> int:
    """How many leading ids every sequence shares with `prefix`."""
    count = len(prefix)
    for seq in sequences:
        n = 0
        for a, b in zip(seq, prefix[:count]):
            if a != b:
                break
            n += 1
        count = min(count, n)
    return count


class CausalRunner:
    def __init__(self, pack: PackView, threads: int | None = None):
        arch = pack.architecture
        self.layers = arch["layers"]
        self.kv_heads = arch["kv_heads"]
        self.head_dim = arch["head_dim"]
        self.vocab_size = arch["vocab_size"]
        self.max_positions = arch["max_positions"]
        self.pad_id = pack.special_ids["pad"]
        self.cache_names = [
            (f"past_{kind}_{i}", f"present_{kind}_{i}") for i in range(self.layers) for kind in ("key", "value")
        ]
        cache = [None, self.kv_heads, None, self.head_dim]
        rows, one = [None], [1]
        graph = "decoder.onnx"
        session = pack.load(graph, lambda path: open_session(path, thread_count(threads)))
        check_interface(
            session,
            pack.file(graph),
            {
                "input_ids": [None, None],
                "query_lengths": rows,
                "seqlens_k": rows,
                "total_sequence_length": [],
                "top_k": one,
                **dict.fromkeys([past for past, _ in self.cache_names], cache),
            },
            {
                "logits": [None, None],
                "top_ids": [None, None],
                **dict.fromkeys([present for _, present in self.cache_names], cache),
            },
        )
        self.session = session
        self.logits_width = logits_width(session, pack.file(graph), self.vocab_size)
        self._prefixes: OrderedDict[tuple[int, ...], list[np.ndarray]] = OrderedDict()

    def encode(
        self, sequences: list[list[int]], beams: int = 1, max_steps: int = INITIAL_STEPS, prefix: Sequence[int] = ()
    ) -> CausalDecoding:
        """The decoding state of these prompts (run at the first step), for at most `max_steps` new tokens."""
        if beams != 1:
            raise ValueError("decoder-only packs decode greedily (one beam)")
        longest = max(len(s) for s in sequences)
        if longest >= self.max_positions:
            raise ValueError(f"a prompt of {longest} tokens does not fit the model's {self.max_positions} positions")
        shared = shared_prefix(sequences, prefix)
        # the last prompt token is always run: its logits choose the first new token
        shared = min(shared, min(len(s) for s in sequences) - 1)
        cached = self.prefix_cache(tuple(prefix[:shared])) if shared > 0 else None
        return CausalDecoding(self, sequences, cached, min(max_steps, self.max_positions - longest))

    def forget_prefixes(self) -> None:
        """Drop every kept prefix cache (the next request computes its whole prompt)."""
        self._prefixes.clear()

    def prefix_cache(self, prefix: tuple[int, ...]) -> list[np.ndarray]:
        """Keys and values of a prompt prefix, [kv_heads, len, head_dim] per cache name; computed once."""
        if prefix in self._prefixes:
            self._prefixes.move_to_end(prefix)
            return self._prefixes[prefix]
        state = CausalDecoding(self, [list(prefix)], None, 1)
        state.run(np.zeros((1, 1), np.int64))
        kept = [np.ascontiguousarray(c[0, :, : len(prefix)]) for c in state.cache]
        self._prefixes[prefix] = kept
        if len(self._prefixes) > PREFIXES_KEPT:
            self._prefixes.popitem(last=False)
        return kept


class CausalDecoding:
    """The decoding state of a batch of prompts, one row each: every row's cache and its length.

    The first run() runs the prompts (the tokens it is given stand for them and are not read); each
    later run() appends one token per row. What run() returns lives in buffers the next run() overwrites.
    """

    def __init__(self, runner: CausalRunner, prompts: list[list[int]], prefix: list[np.ndarray] | None, max_steps: int):
        self._runner = runner
        self._bound = PinnedBinding(runner.session)
        self._prompts = prompts
        self._prefix = prefix
        self.lengths = np.zeros(len(prompts), np.int32)  # tokens in each row's cache
        longest = max(len(p) for p in prompts)
        self._max_capacity = min(runner.max_positions, longest + max(1, max_steps))
        self._capacity = min(self._max_capacity, longest + INITIAL_STEPS)
        self.cache = [
            np.zeros((len(prompts), runner.kv_heads, self._capacity, runner.head_dim), np.float32)
            for _ in runner.cache_names
        ]
        self._top_k = self._bound.input("top_k", np.zeros(1, np.int64))
        self._total = self._bound.input("total_sequence_length", np.zeros((), np.int32))
        self._bind_rows()
        self.started = False

    @property
    def sources(self) -> int:
        return self.lengths.shape[0]

    # --- binding ----------------------------------------------------------------------------------
    def _bind_rows(self) -> None:
        """(Re)bind what has a row per prompt: the cache (the same memory in and out) and the scores."""
        for (past, present), array in zip(self._runner.cache_names, self.cache):
            self._bound.input(past, array)
            self._bound.output(present, array)
        rows = self.sources
        self._seqlens = self._bound.input("seqlens_k", np.zeros(rows, np.int32))
        self._query = self._bound.input("query_lengths", np.zeros(rows, np.int32))
        self._logits = self._bound.output("logits", np.empty((rows, self._runner.logits_width), np.float32))
        self._top_ids: np.ndarray | None = None
        self._tokens: np.ndarray | None = None

    def _bind_tokens(self, tokens: np.ndarray) -> None:
        if self._tokens is None or self._tokens.shape != tokens.shape:
            self._tokens = self._bound.input("input_ids", np.zeros(tokens.shape, np.int64))
        self._tokens[...] = tokens

    # --- what the search calls --------------------------------------------------------------------
    def run(self, tokens: np.ndarray, top_k: int = 1, log_probs: bool = False) -> StepOutput:
        """The prompts at the first call, then one token per row."""
        if log_probs:
            raise ValueError("decoder-only packs decode greedily: no log-probabilities")
        top_k = min(top_k, self._runner.vocab_size, MAX_TOP_IDS)
        if self.started and int(self.lengths.max()) >= self._capacity:
            self._grow()  # binds the rows anew, the top ids' buffer with them: first
        if self._top_ids is None or self._top_ids.shape[1] != top_k:
            self._top_k[0] = top_k
            self._top_ids = self._bound.output("top_ids", np.empty((self.sources, top_k), np.int64))
        if self.started:
            self._execute(np.asarray(tokens, np.int64).reshape(self.sources, 1), np.ones(self.sources, np.int32))
        else:
            self._prefill()
            self.started = True
        return StepOutput(self._logits[:, : self._runner.vocab_size], None, self._top_ids)

    def _execute(self, chunk: np.ndarray, valid: np.ndarray) -> None:
        self._bind_tokens(chunk)
        self._query[:] = valid
        self._seqlens[:] = self.lengths + valid - 1
        self._total[...] = int((self.lengths + valid).max())
        self._runner.session.run_with_iobinding(self._bound.binding)
        self.lengths += valid.astype(np.int32)

    def _prefill(self) -> None:
        start = 0
        if self._prefix is not None:
            start = self._prefix[0].shape[1]
            for cache, kept in zip(self.cache, self._prefix):
                cache[:, :, :start] = kept
            self.lengths[:] = start
        valid = np.array([len(p) - start for p in self._prompts], np.int32)
        chunk = np.full((self.sources, int(valid.max())), self._runner.pad_id, np.int64)
        for row, prompt in enumerate(self._prompts):
            chunk[row, : valid[row]] = prompt[start:]
        self._execute(chunk, valid)
        self._prompts = []

    def reorder(self, origins: np.ndarray) -> None:
        raise PackError("decoder-only packs decode greedily: there are no beams to reorder")

    def keep(self, sources: np.ndarray) -> None:
        """Keep only these rows, in this order."""
        self.cache = [np.ascontiguousarray(c[sources]) for c in self.cache]
        self.lengths = self.lengths[sources]
        self._bind_rows()

    def _grow(self) -> None:
        capacity = min(2 * self._capacity, self._max_capacity)
        if capacity <= self._capacity:
            raise ValueError(f"the decode ran past the model's {self._runner.max_positions} positions")
        grown = []
        for cache in self.cache:
            out = np.zeros(cache.shape[:2] + (capacity,) + cache.shape[3:], np.float32)
            out[:, :, : self._capacity] = cache
            grown.append(out)
        self.cache, self._capacity = grown, capacity
        self._bind_rows()
