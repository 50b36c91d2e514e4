"""Hugging Face translation model folder → Fanyi model pack: read, build graphs, quantize, write, checksum.

Every family (fanyi.engine.families) gives the same pack format: encoder-decoders (MarianMT,
mBART-50, M2M100, NLLB-200) an encoder and a one-step decoder graph, decoder-only LLMs one graph and
their chat template; the manifest names the family and lists the languages in the model's own codes.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import onnx

from .. import names
from ..cancel import CancelToken
from ..engine.families import OPTIONAL_TOKENIZER_FILES, Family
from ..engine.families.causal_lm import CHAT_TEMPLATE
from ..engine.pack_format import (
    FORMAT_VERSION,
    MANIFEST,
    file_digest,
)
from ..progress import ProgressCallback
from .causal_graphs import DEFAULT_BLOCK_SIZE, GRAPH_FILE, LlmQuantize, build_causal_decoder
from .chat_checks import record_chat_template
from .errors import ExportError
from .external_data import SharedData
from .generation import SUPPORTED_GENERATION_KEYS, generation_defaults
from .hf_weights import detect_loader, model_weights
from .loaders import HfFolder, Loader
from .loaders.causal_lm import CausalLMLoader
from .slow_vocabulary import SPM_FILE
from .tokenizer_info import HfTokenizer
from .transformer_graphs import QuantizeSpec, build_decoder, build_encoder
from .weights import CausalWeights, Seq2SeqWeights

StatusCallback = Callable[[str], None]  # a line for the user about what the export is doing
QUANTIZATIONS = ("none", "int8", "int4")
OUTPUT_PROJECTIONS = ("int8", "fp32")  # an int8 pack's output projection (the lm_head MatMul)


def quantize_spec(
    mode: str,
    embeddings: str = "int8",
    *,
    decoder_only: bool = False,
    block_size: int = DEFAULT_BLOCK_SIZE,
    output_projection: str = "int8",
) -> QuantizeSpec | LlmQuantize:
    """The quantization of `mode`. An encoder-decoder's int8 pack may keep its output projection in fp32
    (`output_projection`), and the embedding lookups with it: the two share one matrix."""
    if mode not in QUANTIZATIONS:
        raise ExportError(f"unknown quantization {mode!r}; use {', '.join(QUANTIZATIONS)}")
    if output_projection not in OUTPUT_PROJECTIONS:
        raise ExportError(f"unknown output projection {output_projection!r}; use {', '.join(OUTPUT_PROJECTIONS)}")
    if decoder_only:
        bits = {"none": None, "int8": 8, "int4": 4}[mode]
        table_bits = None if bits is None else {"fp32": None, "int8": 8, "int4": 4}[embeddings]
        return LlmQuantize(bits, block_size, table_bits)
    if "int4" in (mode, embeddings):
        raise ExportError("4-bit weights are for decoder-only (LLM) packs; use none or int8")
    if mode == "none":
        return QuantizeSpec()
    if output_projection == "fp32":
        return QuantizeSpec(linear=True)
    return QuantizeSpec(linear=True, output_projection=True, embeddings=embeddings == "int8")


def _with_shapes(model: onnx.ModelProto) -> onnx.ModelProto:
    """The graph with every tensor's shape written in: ONNX Runtime fuses a residual Add and its LayerNorm
    (SkipLayerNormalization) only where it knows both shapes."""
    inferred: onnx.ModelProto = onnx.shape_inference.infer_shapes(model)
    return inferred


def _quantization(spec: QuantizeSpec | LlmQuantize) -> dict[str, Any]:
    if isinstance(spec, LlmQuantize):
        return spec.manifest()
    return {
        "mode": spec.mode,
        "scheme": "dynamic; weights int8 symmetric per output channel, activations uint8 per tensor"
        if spec.mode == "int8"
        else None,
        "linear": spec.linear,
        "output_projection": spec.output_projection,
        "embeddings": "int8" if spec.embeddings and spec.output_projection else "fp32",
    }


def build_manifest(
    folder: HfFolder,
    config: Any,
    weights: Seq2SeqWeights | CausalWeights,
    spec: QuantizeSpec | LlmQuantize,
    *,
    name: str,
    model_id: str | None,
    revision: str | None,
    loader: Loader,
    tokenizer: HfTokenizer,
) -> dict[str, Any]:
    family = loader.family
    gen = generation_defaults(folder.path, loader, folder)
    languages = loader.manifest_languages(folder, lambda: tokenizer, gen)
    unk = languages.pop("unk")
    manifest = {
        "format_version": FORMAT_VERSION,
        "name": name,
        "source_model": {"id": model_id, "revision": revision},
        "architecture": {"type": family.name, **loader.manifest_architecture(config, weights)},
        "tokenizer": tokenizer_kind(family, tokenizer),
        **{k: languages.pop(k) for k in ("source_lang", "target_lang")},
        "special_ids": {
            "pad": gen["pad_token_id"],
            "eos": gen["eos_token_ids"][0],
            "eos_all": gen["eos_token_ids"],
            "unk": unk,
            "decoder_start": gen["decoder_start_token_id"],
        },
        "bad_words_ids": gen["bad_words_ids"] or [],
        "generation": {k: gen[k] for k in SUPPORTED_GENERATION_KEYS if k != "bad_words_ids"},  # that one: above
        **languages,
        **({"added_tokens": tokenizer.slow.manifest_added_tokens()} if tokenizer.slow is not None else {}),
        "quantization": _quantization(spec),
        "files": {},
    }
    if isinstance(loader, CausalLMLoader):
        manifest["prompt"] = loader.manifest_prompt(tokenizer)
    for key, value in loader.manifest_extra(folder, config, gen).items():
        if isinstance(value, dict) and isinstance(manifest.get(key), dict):
            manifest[key].update(value)
        else:
            manifest[key] = value
    return manifest


def export_pack(
    hf_dir: Path,
    out_dir: Path,
    *,
    quantize: str = "none",
    embeddings: str = "int8",
    name: str | None = None,
    model_id: str | None = None,
    revision: str | None = None,
    overwrite: bool = False,
    block_size: int = DEFAULT_BLOCK_SIZE,
    output_projection: str = "int8",
    progress: StatusCallback | None = None,
    cancel: CancelToken | None = None,
    steps: ProgressCallback | None = None,
) -> Path:
    """Write a complete pack to out_dir; the folder appears only once every file is written.

    `progress` hears what the export is doing in words; `steps` (done, total) counts the layers converted;
    `cancel` stops it between layers (Cancelled), leaving nothing behind."""
    say = progress or (lambda _msg: None)
    hf_dir, out_dir = Path(hf_dir), Path(out_dir)
    name = names.check(name or hf_dir.name, "the pack's name")  # the folder it is installed in is named after it
    if out_dir.exists() and not overwrite:
        raise ExportError(f"{out_dir} already exists; choose another folder or remove it")
    loader, folder = detect_loader(hf_dir)
    family = loader.family
    spec = quantize_spec(
        quantize,
        embeddings,
        decoder_only=family.decoder_only,
        block_size=block_size,
        output_projection=output_projection,
    )
    config = loader.model_config(folder)

    out_dir.parent.mkdir(parents=True, exist_ok=True)
    say(f"reading the {family.title} tokenizer")
    tokenizer = HfTokenizer(hf_dir, loader.hf_tokenizer_class)
    tokenizer_data = tokenizer_files(family, hf_dir, tokenizer, loader.made_tokenizer_files(folder))
    say(f"reading the {family.title} weights")
    weights = model_weights(loader, config, hf_dir)
    if tokenizer.slow is not None and tokenizer.slow.size > weights.lm_head.shape[0]:
        raise ExportError(
            f"{hf_dir}: the tokenizer has {tokenizer.slow.size} ids, the model {weights.lm_head.shape[0]} rows"
        )
    manifest = build_manifest(
        folder,
        config,
        weights,
        spec,
        name=name,
        model_id=model_id,
        revision=revision,
        loader=loader,
        tokenizer=tokenizer,
    )
    if isinstance(loader, CausalLMLoader):
        record_chat_template(
            manifest, tokenizer_data[CHAT_TEMPLATE].decode("utf-8"), tokenizer_data["tokenizer.json"].decode("utf-8")
        )
    layers = _LayerCounter(weights, steps, cancel)
    _write_pack(family, weights, spec, manifest, tokenizer_data, out_dir, say, layers)
    say(f"pack written to {out_dir}")
    return out_dir


def tokenizer_kind(family: Family, tokenizer: HfTokenizer) -> str:
    """The manifest's "tokenizer": how the pack tokenizes ("tokenizers": tokenizer.json, "marian": MarianMT's
    SentencePiece models, "sentencepiece": one SentencePiece model and vocab.json)."""
    if tokenizer.slow is not None:
        return "sentencepiece"
    if "tokenizer.json" in family.tokenizer_files:
        return "tokenizers"
    return "marian" if "source.spm" in family.tokenizer_files else "sentencepiece"


def tokenizer_files(
    family: Family, hf_dir: Path, tokenizer: HfTokenizer, made: dict[str, bytes] | None = None
) -> dict[str, bytes]:
    """The family's tokenizer files for the pack, by name: the folder's own, a decoder-only model's chat
    template written out of tokenizer_config.json where the folder has no chat_template.jinja, the slow
    tokenizer's vocabulary of an mBART-50 or NLLB folder without tokenizer.json, and what the loader `made`
    (BART's tokenizer.json from vocab.json and merges.txt)."""
    files: dict[str, bytes] = dict(made or {})
    if family.decoder_only:
        template = tokenizer.chat_template
        if not isinstance(template, str) or not template.strip():
            raise ExportError(f"{hf_dir}: the tokenizer has no chat template; {family.title} packs prompt through it")
        files[CHAT_TEMPLATE] = template.encode("utf-8")
    if tokenizer.slow is not None:
        files["vocab.json"] = tokenizer.slow.vocab_json()
    required = family.pack_tokenizer_files({"tokenizer": tokenizer_kind(family, tokenizer)})
    for filename in required + OPTIONAL_TOKENIZER_FILES:
        if filename not in files and (hf_dir / filename).is_file():
            files[filename] = (hf_dir / filename).read_bytes()
    missing = [f for f in required if f not in files]
    if missing == ["tokenizer.json"] and family.other_tokenizers:  # nor the slow tokenizer's SentencePiece model
        raise ExportError(
            f"{hf_dir} has neither tokenizer.json nor {SPM_FILE}: the {family.title} tokenizer needs one of them"
        )
    if missing:
        raise ExportError(f"{hf_dir / missing[0]} is missing: the {family.title} tokenizer needs it")
    try:  # the runtime must be able to stream its decoding exactly: refuse now, not at run time
        if "tokenizer.json" in required:
            family.check_tokenizer_json(files["tokenizer.json"].decode("utf-8"))
    except ValueError as exc:
        raise ExportError(f"{hf_dir}: {exc}") from None
    return files


class _LayerCounter:
    """The LayerDone of an export: counts the layers built for `steps` and stops at a cancel."""

    def __init__(
        self, weights: Seq2SeqWeights | CausalWeights, steps: ProgressCallback | None, cancel: CancelToken | None
    ):
        self.total = (
            len(weights.layers)
            if isinstance(weights, CausalWeights)
            else len(weights.encoder_layers) + len(weights.decoder_layers)
        )
        self.done, self.steps, self.cancel = 0, steps, cancel

    def __call__(self) -> None:
        self.done += 1
        if self.steps is not None:
            self.steps(self.done, self.total)
        if self.cancel is not None:
            self.cancel.raise_if_cancelled()


def _graphs(
    weights: Seq2SeqWeights | CausalWeights,
    spec: QuantizeSpec | LlmQuantize,
    layer_done: _LayerCounter,
    shared: SharedData,
) -> dict[str, onnx.ModelProto]:
    if isinstance(weights, CausalWeights):  # an LLM's weights go to shared.bin layer by layer: never all in memory
        assert isinstance(spec, LlmQuantize)
        return {GRAPH_FILE: build_causal_decoder(weights, spec, layer_done, shared).build()}
    assert isinstance(spec, QuantizeSpec)
    return {
        "encoder.onnx": build_encoder(weights, spec, layer_done).build(),
        "decoder.onnx": build_decoder(weights, spec, layer_done).build(),
    }


def _write_pack(
    family: Family,
    weights: Seq2SeqWeights | CausalWeights,
    spec: QuantizeSpec | LlmQuantize,
    manifest: dict[str, Any],
    tokenizer_files: dict[str, bytes],
    out_dir: Path,
    say: StatusCallback,
    layers: _LayerCounter,
) -> None:
    mode = manifest["quantization"]["mode"]
    staging = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.", dir=out_dir.parent))
    shared = SharedData(staging)
    try:
        say(f"building the {family.title} graphs" + (f" ({mode})" if mode != "none" else ""))
        graphs = _graphs(weights, spec, layers, shared)
        if not family.decoder_only:  # an LLM's graph states its shapes itself (GroupQueryAttention's outputs)
            graphs = {k: _with_shapes(m) for k, m in graphs.items()}
        say("writing the pack")
        manifest["external_tensors"] = shared.save(graphs, staging)
        for filename, data in tokenizer_files.items():
            (staging / filename).write_bytes(data)
        manifest["files"] = {p.name: file_digest(p) for p in sorted(staging.iterdir()) if p.is_file()}
        # bytes, not text: Windows would write its line ends, and a pack is the same bytes on every platform
        (staging / MANIFEST).write_bytes((json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode())
        if out_dir.exists():
            shutil.rmtree(out_dir)
        staging.rename(out_dir)
    except BaseException:
        shared.close()
        shutil.rmtree(staging, ignore_errors=True)
        raise
