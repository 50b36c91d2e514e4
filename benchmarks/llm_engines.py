"""Decoder-only LLM engines behind one small interface, so llm_paired.py times them all alike (issue 19).

An engine is a class with `load`, `cache_prefix` and `stream` (the `LLMEngine` protocol below),
registered in ENGINES under a row name. Every engine gets the same token ids (the workload of
llm_prepare.py) and must decode greedily with the end-of-sequence ids blocked, so each one does the
same number of decoder steps. Heavy imports happen inside load(), so a worker process holds only its
own engine's libraries.

Fanyi's engine (FanyiEngine) runs the packs llm_prepare.py exports with `fanyi export --quantize int4`
(`ModelFiles.fanyi`, one per variant: the output matrix in 8 or 4 bits, the block size).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import numpy as np


@dataclass(frozen=True)
class ModelFiles:
    """Everything built for one model by llm_prepare.py (paths that were not built are None)."""

    key: str  # hy-mt1.5-1.8b | qwen3-1.7b
    hf: Path  # the random-weight Hugging Face folder
    eos_ids: tuple[int, ...]  # blocked while timing
    gguf: dict[str, Path] = field(default_factory=dict)  # variant ("q4_0", "q4_0-pure") -> file
    ort_genai: Path | None = None  # onnxruntime-genai's int4 folder
    fanyi: dict[str, Path] = field(default_factory=dict)  # variant ("int4", "int4-pure", …) -> Fanyi pack

    @classmethod
    def from_json(cls, data: dict) -> ModelFiles:
        return cls(
            key=data["key"],
            hf=Path(data["hf"]),
            eos_ids=tuple(data["eos_ids"]),
            gguf={k: Path(v) for k, v in data.get("gguf", {}).items()},
            ort_genai=Path(data["ort_genai"]) if data.get("ort_genai") else None,
            fanyi={k: Path(v) for k, v in data.get("fanyi", {}).items()},
        )


class LLMEngine(Protocol):
    """What the harness needs from an engine. All ids are the model's token ids; no text is involved.

    - load(files, threads): build the engine from its files with `threads` compute threads (its
      intra-op/matmul threads; 1 or 2 here) and keep it ready. Timed as the load time; RSS is read
      right after it.
    - cache_prefix(prefix): compute and keep the key/value cache of `prefix` (the fixed part of
      the prompt before the source text). Not timed; the harness calls it right before each timed
      reuse, since a prefill from an empty cache may overwrite it.
    - stream(ids, new_tokens, reuse_prefix): yield `new_tokens` ids, one at a time, as soon as each
      is chosen: greedy (argmax), every id in files.eos_ids blocked, so exactly `new_tokens` come out.
      With reuse_prefix=0 the cache starts empty and all of `ids` is computed (prefill). With
      reuse_prefix=k, ids[:k] equals the prefix given to cache_prefix and the engine must reuse that
      cache and compute only ids[k:].
      The harness times the first yield (prefill, time to first token) and the spacing of the
      others (decode tokens/s), and may stop the iterator early (it calls close()).
    - weight_bytes_per_token(): bytes of weights one decode step reads (every matrix once; the
      embedding table only when it is also the output matrix), for the physical limit.
    - files(): the files the engine loads, for the size column.
    """

    def load(self, files: ModelFiles, threads: int) -> None: ...
    def cache_prefix(self, prefix: list[int]) -> None: ...
    def stream(self, ids: list[int], new_tokens: int, reuse_prefix: int = 0) -> Iterator[int]: ...
    def weight_bytes_per_token(self) -> int: ...
    def files(self) -> list[Path]: ...


def _greedy(logits: np.ndarray, blocked: np.ndarray) -> int:
    logits[blocked] = -np.inf  # a copy or a buffer the engine rewrites on its next step
    return int(logits.argmax())


# --- llama.cpp through llama-cpp-python -----------------------------------------------------------


class LlamaCppEngine:
    """llama.cpp (llama-cpp-python's Llama, low-level eval) on a Q4_0 GGUF.

    Prefix cache: cache_prefix() evaluates the prefix once into the context's KV cache; a call with
    reuse_prefix=k sets the context's token count back to k (llama-cpp-python's `eval` then drops
    the KV cells from position k on: `memory_seq_rm(-1, k, -1)`) and evaluates only ids[k:]. That is
    what llama-cpp-python's own prompt reuse does for a common prefix (Llama.generate), without its
    RAM-cache copy of the whole state (LlamaRAMCache saves/loads the full context state per prompt).
    """

    N_CTX = 512

    def __init__(self, variant: str) -> None:
        self.variant = variant  # a key of ModelFiles.gguf

    def load(self, files: ModelFiles, threads: int) -> None:
        from llama_cpp import Llama

        self.path = files.gguf[self.variant]
        self.blocked = np.array(files.eos_ids)
        self.llm = Llama(
            model_path=str(self.path),
            n_ctx=self.N_CTX,
            n_batch=self.N_CTX,
            n_ubatch=self.N_CTX,
            n_threads=threads,
            n_threads_batch=threads,
            logits_all=False,
            verbose=False,
        )
        self.prefix: list[int] = []

    def cache_prefix(self, prefix: list[int]) -> None:
        self.llm.reset()
        self.llm.eval(prefix)
        self.prefix = list(prefix)

    def _last_logits(self) -> np.ndarray:
        import llama_cpp

        row = llama_cpp.llama_get_logits_ith(self.llm.ctx, -1)
        return np.ctypeslib.as_array(row, shape=(self.llm.n_vocab(),))

    def stream(self, ids: list[int], new_tokens: int, reuse_prefix: int = 0) -> Iterator[int]:
        if reuse_prefix:
            if ids[:reuse_prefix] != self.prefix:
                raise ValueError("reuse_prefix: ids do not start with the cached prefix")
            self.llm.n_tokens = reuse_prefix
        else:
            self.llm.reset()
        self.llm.eval(ids[reuse_prefix:])
        for step in range(new_tokens):
            token = _greedy(self._last_logits(), self.blocked)
            yield token
            if step + 1 < new_tokens:
                self.llm.eval([token])

    def weight_bytes_per_token(self) -> int:
        from gguf import GGUFReader

        reader = GGUFReader(str(self.path))
        tied = not any(t.name == "output.weight" for t in reader.tensors)
        return sum(int(t.n_bytes) for t in reader.tensors if tied or t.name != "token_embd.weight")

    def files(self) -> list[Path]:
        return [self.path]


# --- onnxruntime-genai ------------------------------------------------------------------------------


class OrtGenaiEngine:
    """onnxruntime-genai's Generator on its model builder's int4 model (CPU).

    Threads: the decoder session's intra_op_num_threads through Config.overlay. Greedy with eos
    blocked: search options do_sample=False and min_length = prompt + new tokens (genai masks the
    eos ids below min_length). Prefix cache: one long-lived generator holds the prefix;
    reuse_prefix=k calls Generator.rewind_to(k) (keeps the first k positions of its KV cache) and
    appends ids[k:].
    """

    MAX_LENGTH = 512

    def load(self, files: ModelFiles, threads: int) -> None:
        import onnxruntime_genai as og

        self.og = og
        self.folder = files.ort_genai
        config = og.Config(str(self.folder))
        config.overlay(
            json.dumps(
                {
                    "model": {
                        "decoder": {"session_options": {"intra_op_num_threads": threads, "inter_op_num_threads": 1}}
                    }
                }
            )
        )
        self.model = og.Model(config)
        self.prefix_generator = None
        self.prefix: list[int] = []

    def _generator(self, min_length: int, max_length: int):
        params = self.og.GeneratorParams(self.model)
        params.set_search_options(do_sample=False, min_length=min_length, max_length=max_length)
        return self.og.Generator(self.model, params)

    def cache_prefix(self, prefix: list[int]) -> None:
        self.prefix_generator = self._generator(self.MAX_LENGTH, self.MAX_LENGTH)
        self.prefix_generator.append_tokens(prefix)
        self.prefix = list(prefix)

    def stream(self, ids: list[int], new_tokens: int, reuse_prefix: int = 0) -> Iterator[int]:
        if reuse_prefix:
            if ids[:reuse_prefix] != self.prefix:
                raise ValueError("reuse_prefix: ids do not start with the cached prefix")
            generator = self.prefix_generator
            generator.rewind_to(reuse_prefix)
            generator.append_tokens(ids[reuse_prefix:])
        else:
            total = len(ids) + new_tokens
            generator = self._generator(total, total)
            generator.append_tokens(ids)
        for _ in range(new_tokens):
            generator.generate_next_token()
            yield int(generator.get_next_tokens()[0])

    def weight_bytes_per_token(self) -> int:
        import onnx

        model = onnx.load(str(self.folder / "model.onnx"), load_external_data=False)
        # Tables a step only indexes (the embedding lookup; the rotary cos/sin caches, 262144 positions
        # for HY-MT) are read a row per token, not whole: an initializer counts when some other op reads it.
        indexing = ("Gather", "GatherBlockQuantized", "RotaryEmbedding", "GroupQueryAttention")
        inputs = {name for node in model.graph.node if node.op_type not in indexing for name in node.input}
        total = 0
        for init in model.graph.initializer:
            if init.name not in inputs:
                continue
            size = next((int(e.value) for e in init.external_data if e.key == "length"), None)
            total += size if size is not None else len(init.raw_data)
        return total

    def files(self) -> list[Path]:
        return [p for p in self.folder.iterdir() if p.suffix in (".onnx", ".data") or p.name.endswith(".onnx.data")]


# --- Fanyi -------------------------------------------------------------------------------------------


class FanyiEngine:
    """Fanyi's own LLM engine on its int4 pack (issue 19): the pack opened as the app opens it
    (Translator.open: checksums verified while the session loads), then its CausalRunner driven by the
    engine's own greedy search (fanyi.engine.search.greedy, the step the app runs: top-id candidate
    tables and logits rules). The end-of-sequence ids are blocked by min_length, as generate() and
    onnxruntime-genai do it. Prefix cache: CausalRunner.prefix_cache computes a prefix's keys and
    values once; a request whose ids start with it copies them and runs only the rest.
    """

    def __init__(self, variant: str) -> None:
        self.variant = variant  # a key of ModelFiles.fanyi

    def load(self, files: ModelFiles, threads: int) -> None:
        from fanyi.engine.translator import Translator

        self.path = files.fanyi[self.variant]
        self.translator = Translator.open(self.path, threads=threads)
        self.runner = self.translator.runner
        self.prefix: list[int] = []

    def cache_prefix(self, prefix: list[int]) -> None:
        self.runner.forget_prefixes()
        self.runner.prefix_cache(tuple(prefix))
        self.prefix = list(prefix)

    def stream(self, ids: list[int], new_tokens: int, reuse_prefix: int = 0) -> Iterator[int]:
        from fanyi.engine import search
        from fanyi.engine.options import DecodeOptions
        from fanyi.engine.search_settings import resolve

        if reuse_prefix:
            if ids[:reuse_prefix] != self.prefix:
                raise ValueError("reuse_prefix: ids do not start with the cached prefix")
        else:
            self.runner.forget_prefixes()  # a prefill from an empty cache
        settings = resolve(self.translator.pack, DecodeOptions(min_length=new_tokens + 1, max_new_tokens=new_tokens))
        state = self.runner.encode([ids], 1, new_tokens, self.prefix[:reuse_prefix])
        for _row, new in search.greedy(state, settings, None):
            yield new[0]

    def weight_bytes_per_token(self) -> int:
        """Every weight in shared.bin once (the tied table is both the lookup and the output matrix; the
        lookup reads a row, the output all of it): the distinct byte ranges of the index."""
        manifest = json.loads((self.path / "manifest.json").read_text(encoding="utf-8"))
        ranges = {(e["offset"], e["length"]) for e in manifest["external_tensors"].values()}
        return sum(length for _offset, length in ranges)

    def files(self) -> list[Path]:
        return [p for p in self.path.iterdir() if p.is_file()]


# Fanyi's packs: `fanyi export --quantize int4` with these options (llm_prepare.py builds each)
FANYI_VARIANTS = {
    "int4": ["--embeddings", "int8"],  # the default: output matrix 8-bit
    "int4-pure": ["--embeddings", "int4"],  # everything 4-bit, as Q4_0 pure
    "int4-b128": ["--embeddings", "int8", "--block-size", "128"],  # fewer, larger blocks
}


@dataclass(frozen=True)
class EngineSpec:
    name: str  # row label
    create: Callable[[], LLMEngine]
    available: Callable[[ModelFiles], bool]  # built for this model?
    imports: tuple[str, ...]  # imported before the load is timed


ENGINES = [
    EngineSpec("llama.cpp Q4_0", lambda: LlamaCppEngine("q4_0"), lambda f: "q4_0" in f.gguf, ("llama_cpp",)),
    EngineSpec(
        "llama.cpp Q4_0 pure", lambda: LlamaCppEngine("q4_0-pure"), lambda f: "q4_0-pure" in f.gguf, ("llama_cpp",)
    ),
    EngineSpec("ORT-genai int4", OrtGenaiEngine, lambda f: f.ort_genai is not None, ("onnxruntime_genai",)),
    *(
        EngineSpec(
            f"fanyi {variant}",
            lambda v=variant: FanyiEngine(v),
            lambda f, v=variant: v in f.fanyi,
            ("fanyi.engine.translator",),
        )
        for variant in FANYI_VARIANTS
    ),
]
BY_NAME = {spec.name: spec for spec in ENGINES}
