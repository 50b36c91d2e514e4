"""One adapter per engine family, behind one small interface, so the worker times them all alike.

Every adapter receives the same source token ids (the Marian tokenizer's, target token and </s>
included; for mBART-50/NLLB the source language token, the pieces and </s>) and must decode exactly
NEW_TOKENS target tokens per row: eos is suppressed by a minimum length, so each engine does the same
number of decoder steps. For mBART-50/NLLB the first of them is the target language token (forced:
`forced_bos_token_id` for ours, a one-token `target_prefix` for CTranslate2); the workload's
"profile" says so. Heavy imports (torch, ctranslate2,
optimum) happen inside load() so an engine's process holds only its own libraries.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np

NEW_TOKENS = 32
PAD = 65000  # opus-mt-en-zh: pad is also the decoder start token
EOS = 0


class Engine(Protocol):
    def load(self, folder: Path, threads: int) -> None: ...
    def generate(self, sources: list[list[int]], beams: int) -> list[list[int]]:
        """New target ids per row (decoder start excluded), one call, the rows as one batch."""

    def first_token(self, source: list[int]) -> float | None:
        """Seconds from the call to the first streamed token (greedy), or None when not offered."""

    def top1(self, source: list[int], prefix: list[int]) -> list[int]:
        """Argmax over the whole vocabulary at each step when fed `prefix` (starts with PAD)."""


# --- transformers / Optimum: both are GenerationMixin models fed torch tensors --------------------


def _padded(sources: list[list[int]]):
    import torch

    width = max(len(s) for s in sources)
    ids = torch.full((len(sources), width), PAD, dtype=torch.long)
    mask = torch.zeros((len(sources), width), dtype=torch.long)
    for row, src in enumerate(sources):
        ids[row, : len(src)] = torch.tensor(src)
        mask[row, : len(src)] = 1
    return ids, mask


class _FirstTokenStreamer:
    """generate() puts the decoder start first, then each new token: the second put is the first token."""

    def __init__(self) -> None:
        self.puts = 0
        self.at: float | None = None

    def put(self, _value) -> None:
        self.puts += 1
        if self.puts == 2 and self.at is None:
            self.at = time.perf_counter()

    def end(self) -> None:
        pass


class _GenerateMixinEngine:
    model = None

    def _generate(self, sources: list[list[int]], beams: int, streamer=None, new_tokens: int = NEW_TOKENS):
        import torch

        ids, mask = _padded(sources)
        with torch.inference_mode():
            # min_length counts the decoder start (as ours does): eos is suppressed until the last
            # step, where the model's forced_eos_token_id makes it eos.
            out = self.model.generate(
                input_ids=ids,
                attention_mask=mask,
                num_beams=beams,
                do_sample=False,
                max_new_tokens=new_tokens,
                min_length=new_tokens + 1,
                num_return_sequences=1,
                streamer=streamer,
            )
        return [row[1:] for row in out.tolist()]

    def generate(self, sources: list[list[int]], beams: int) -> list[list[int]]:
        return self._generate(sources, beams)

    def first_token(self, source: list[int]) -> float | None:
        streamer = _FirstTokenStreamer()
        start = time.perf_counter()
        # A short run: only the first token is timed, and the streamer makes generate() stream.
        self._generate([source], 1, streamer=streamer, new_tokens=2)
        return None if streamer.at is None else streamer.at - start

    def top1(self, source: list[int], prefix: list[int]) -> list[int]:
        import torch

        ids, mask = _padded([source])
        with torch.inference_mode():
            logits = self.model(input_ids=ids, attention_mask=mask, decoder_input_ids=torch.tensor([prefix])).logits
        return logits[0].argmax(-1).tolist()


class TorchEngine(_GenerateMixinEngine):
    def load(self, folder: Path, threads: int) -> None:
        import torch
        from transformers import MarianMTModel

        torch.set_num_threads(threads)
        self.model = MarianMTModel.from_pretrained(str(folder)).eval()


class OptimumEngine(_GenerateMixinEngine):
    def load(self, folder: Path, threads: int) -> None:
        import onnxruntime as ort
        import torch
        from optimum.onnxruntime import ORTModelForSeq2SeqLM

        torch.set_num_threads(threads)  # generate()'s own tensor work between the ONNX calls
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        self.model = ORTModelForSeq2SeqLM.from_pretrained(
            str(folder), session_options=options, provider="CPUExecutionProvider"
        )


# --- CTranslate2: token strings in and out ---------------------------------------------------------


class CT2Engine:
    def __init__(self, compute_type: str, profile: dict | None = None, backend: str = "") -> None:
        self.compute_type = compute_type
        self.backend = backend
        self.eos = (profile or {}).get("eos", EOS)
        self.target_prefix = (profile or {}).get("target_prefix")  # the target language token, or None

    def load(self, folder: Path, threads: int) -> None:
        if self.backend == "oneDNN":
            # CTranslate2 multiplies int8 with Intel MKL on Intel CPUs and with oneDNN on all others (AMD):
            # this measures what an AMD CPU's users get (read once, at its first GEMM)
            os.environ["CT2_USE_MKL"] = "0"
        import ctranslate2

        vocab_file = folder / "shared_vocabulary.json"
        vocab = (
            json.loads(vocab_file.read_text(encoding="utf-8"))
            if vocab_file.exists()
            else (folder / "shared_vocabulary.txt").read_text(encoding="utf-8").splitlines()
        )
        self.tokens = vocab
        self.ids = {tok: i for i, tok in enumerate(vocab)}
        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
        # When the model adds </s> itself, the source must not carry it (same source length as ours).
        self.strip_eos = bool(config.get("add_source_eos", False))
        self.model = ctranslate2.Translator(
            str(folder), device="cpu", compute_type=self.compute_type, inter_threads=1, intra_threads=threads
        )

    def _source(self, ids: list[int]) -> list[str]:
        if self.strip_eos and ids and ids[-1] == self.eos:
            ids = ids[:-1]
        return [self.tokens[i] for i in ids]

    def generate(self, sources: list[list[int]], beams: int) -> list[list[int]]:
        # CT2 has no forced eos: min = max decoding length makes it decode NEW_TOKENS non-eos tokens,
        # i.e. the same NEW_TOKENS decoder steps (the target prefix, when there is one, is the first).
        prefix = {"target_prefix": [[self.target_prefix]] * len(sources)} if self.target_prefix else {}
        results = self.model.translate_batch(
            [self._source(s) for s in sources],
            beam_size=beams,
            max_batch_size=len(sources),
            max_decoding_length=NEW_TOKENS,
            min_decoding_length=NEW_TOKENS,
            num_hypotheses=1,
            return_end_token=True,
            **prefix,
        )
        return [[self.ids[t] for t in r.hypotheses[0]] for r in results]

    def first_token(self, source: list[int]) -> float | None:
        start = time.perf_counter()
        steps = self.model.generate_tokens(
            self._source(source), max_decoding_length=NEW_TOKENS, min_decoding_length=NEW_TOKENS
        )
        next(iter(steps))
        at = time.perf_counter() - start
        steps.close()  # stops the background decoding
        return at

    def top1(self, source: list[int], prefix: list[int]) -> list[int]:
        """One greedy step after each prefix prefix[1:1+k]: no minimum length, eos returned, so the
        chosen token is the argmax over the whole vocabulary, as for every other engine."""
        forced = [[self.tokens[i] for i in prefix[1 : 1 + k]] for k in range(len(prefix))]
        results = self.model.translate_batch(
            [self._source(source)] * len(forced),
            target_prefix=forced,
            beam_size=1,
            max_batch_size=len(forced),
            max_decoding_length=len(prefix),
            min_decoding_length=0,
            return_end_token=True,
        )
        out = []
        for k, r in enumerate(results):
            hyp = r.hypotheses[0]
            out.append(self.ids[hyp[k]] if len(hyp) > k else EOS)
        return out


# --- ours -----------------------------------------------------------------------------------------


class OursEngine:
    def __init__(self, profile: dict | None = None) -> None:
        # many-to-many packs: the source and target language codes
        self.languages = {k: (profile or {}).get(k) for k in ("source", "target")}

    def load(self, folder: Path, threads: int) -> None:
        from fanyi.engine.options import DecodeOptions
        from fanyi.engine.translator import Translator

        self.options = {
            b: DecodeOptions(beams=b, max_new_tokens=NEW_TOKENS, min_length=NEW_TOKENS + 1, **self.languages)
            for b in (1, 4)
        }
        self.model = Translator.open(folder, threads=threads)

    def generate(self, sources: list[list[int]], beams: int) -> list[list[int]]:
        return self.model.generate_ids(sources, self.options[beams])

    def first_token(self, source: list[int]) -> float | None:
        start = time.perf_counter()
        steps = self.model.decode_ids([source], self.options[1])
        next(steps)
        at = time.perf_counter() - start
        steps.close()
        return at

    def top1(self, source: list[int], prefix: list[int]) -> list[int]:
        return np.asarray(self.model.forced_logits(source, prefix)).argmax(-1).tolist()


@dataclass(frozen=True)
class EngineSpec:
    name: str  # row label in the results
    family: str  # torch | optimum | ct2 | ours
    folder: str  # model folder under the work dir
    compute_type: str = ""
    int8: bool = False
    backend: str = ""  # CTranslate2's GEMM library when not its default for this CPU

    def create(self, profile: dict | None = None) -> Engine:
        """`profile`: the workload's model description (ids and languages), for the many-to-many runs."""
        if self.family == "torch":
            return TorchEngine()
        if self.family == "optimum":
            return OptimumEngine()
        if self.family == "ct2":
            return CT2Engine(self.compute_type, profile, self.backend)
        return OursEngine(profile)


# Order matters: the PyTorch run writes the reference outputs the quality check of the others uses.
ENGINES = [
    EngineSpec("transformers fp32", "torch", "hf-opus-mt-en-zh-random"),
    EngineSpec("CT2 int8", "ct2", "ct2-int8", "int8", int8=True),
    EngineSpec("CT2 int8_float32", "ct2", "ct2-int8", "int8_float32", int8=True),
    EngineSpec("CT2 fp32", "ct2", "ct2-float32", "float32"),
    EngineSpec("Optimum fp32", "optimum", "optimum-fp32"),
    EngineSpec("Optimum int8", "optimum", "optimum-int8", int8=True),
    EngineSpec("ours fp32", "ours", "pack-none"),
    EngineSpec("ours int8", "ours", "pack-int8", int8=True),
]
# Named in paired.py / instructions.py only: CTranslate2 as it runs on AMD CPUs (oneDNN instead of MKL).
CT2_ONEDNN = EngineSpec("CT2 int8 oneDNN", "ct2", "ct2-int8", "int8", int8=True, backend="oneDNN")
BY_NAME = {spec.name: spec for spec in [*ENGINES, CT2_ONEDNN]}
# mBART-50 and NLLB-600M: ours and CTranslate2, int8 (folders under WORK/m2m-<model>/)
MANY_TO_MANY_ENGINES = [BY_NAME[name] for name in ("CT2 int8", "CT2 int8_float32", "ours int8")]
