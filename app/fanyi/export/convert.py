"""Hugging Face translation model folder → Fanyi model pack: build graphs, simplify, quantize, write, checksum.

Every family (fanyi.engine.families) gives the same pack format: encoder-decoders (MarianMT,
mBART-50, M2M100, NLLB-200) an encoder and a one-step decoder graph, decoder-only LLMs one graph and
their chat template; the manifest names the family and lists the languages in the model's own codes.
"""

from __future__ import annotations

import functools
import json
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import onnx
from onnx import external_data_helper

from ..cancel import CancelToken
from ..engine.chat_tokenizer import check_chat_tokenizer
from ..engine.families import OPTIONAL_TOKENIZER_FILES, Family, HfFolder
from ..engine.families.causal_lm import CHAT_TEMPLATE, CausalLM
from ..engine.families.weights import CausalWeights, Seq2SeqWeights
from ..engine.json_tokenizer import JsonTokenizer
from ..engine.pack_format import (
    FORMAT_VERSION,
    INT8_SCALE_SUFFIX,
    INT8_WEIGHT_SUFFIX,
    MANIFEST,
    SHARED_DATA,
    file_digest,
)
from ..progress import ProgressCallback
from .causal_graphs import DEFAULT_BLOCK_SIZE, LlmQuantize, build_causal_decoder
from .chat_checks import record_chat_template
from .errors import ExportError
from .hf_weights import SUPPORTED_GENERATION_KEYS, detect_family, generation_defaults, load_model, model_weights
from .transformer_graphs import QuantizeSpec, build_decoder, build_encoder

StatusCallback = Callable[[str], None]  # a line for the user about what the export is doing
QUANTIZATIONS = ("none", "int8", "int4")


def quantize_spec(
    mode: str, embeddings: str = "int8", *, decoder_only: bool = False, block_size: int = DEFAULT_BLOCK_SIZE
) -> QuantizeSpec | LlmQuantize:
    if mode not in QUANTIZATIONS:
        raise ExportError(f"unknown quantization {mode!r}; use {', '.join(QUANTIZATIONS)}")
    if decoder_only:
        bits = {"none": None, "int8": 8, "int4": 4}[mode]
        table_bits = None if bits is None else {"fp32": None, "int8": 8, "int4": 4}[embeddings]
        return LlmQuantize(bits, block_size, table_bits)
    if "int4" in (mode, embeddings):
        raise ExportError("4-bit weights are for decoder-only (LLM) packs; use none or int8")
    if mode == "none":
        return QuantizeSpec()
    return QuantizeSpec(linear=True, output_projection=True, embeddings=embeddings == "int8")


def _simplify(model: onnx.ModelProto) -> onnx.ModelProto:
    import onnxslim

    slimmed: onnx.ModelProto = onnxslim.slim(model)
    return slimmed


def _external(name: str) -> bool:
    """`shared.*` tensors are used by both graphs; int8 weights are read by the runtime (engine.int8_weights);
    the big weights of a decoder-only graph are kept out of the .onnx file (protobuf's 2 GB limit)."""
    return (
        name.startswith(("shared.", "weights."))
        or name.endswith(INT8_WEIGHT_SUFFIX)
        or name.endswith(INT8_WEIGHT_SUFFIX + INT8_SCALE_SUFFIX)
    )


def _write_graphs(graphs: dict[str, onnx.ModelProto], folder: Path) -> dict[str, dict[str, Any]]:
    """Save the graphs with their shared and int8 tensors in one external file; returns that file's index."""
    index: dict[str, dict[str, Any]] = {}
    stored: dict[bytes, int] = {}
    with open(folder / SHARED_DATA, "wb") as blob:
        for filename, model in graphs.items():
            for tensor in model.graph.initializer:
                if not _external(tensor.name):
                    continue
                if tensor.name not in index:
                    data = tensor.raw_data
                    # equal tensors (Marian's two sinusoidal position tables) are stored once
                    if (offset := stored.get(data)) is None:
                        # big tensors page-aligned, so the runtime may map them; small ones packed
                        blob.write(b"\0" * ((-blob.tell()) % (4096 if len(data) >= 65536 else 64)))
                        offset = stored[data] = blob.tell()
                        blob.write(data)
                    index[tensor.name] = {
                        "offset": offset,
                        "length": len(data),
                        "dtype": onnx.helper.tensor_dtype_to_np_dtype(tensor.data_type).name,
                        "shape": list(tensor.dims),
                        "graphs": [],
                    }
                entry = index[tensor.name]
                entry["graphs"].append(filename)
                external_data_helper.set_external_data(
                    tensor, SHARED_DATA, offset=entry["offset"], length=entry["length"]
                )
                tensor.ClearField("raw_data")
                tensor.data_location = onnx.TensorProto.EXTERNAL
    for filename, model in graphs.items():
        onnx.save_model(model, folder / filename)
    return index


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
    model: Any,
    spec: QuantizeSpec | LlmQuantize,
    *,
    name: str,
    model_id: str | None,
    revision: str | None,
    family: Family,
    hf_tokenizer: Callable[[], Any],
) -> dict[str, Any]:
    gen = generation_defaults(folder.path, family)
    languages = family.manifest_languages(folder, hf_tokenizer, gen)
    unk = languages.pop("unk")
    manifest = {
        "format_version": FORMAT_VERSION,
        "name": name,
        "source_model": {"id": model_id, "revision": revision},
        "architecture": {"type": family.name, **family.manifest_architecture(model)},
        "tokenizer": "tokenizers"
        if "tokenizer.json" in family.tokenizer_files
        else "marian"
        if "source.spm" in family.tokenizer_files
        else "sentencepiece",
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
        "quantization": _quantization(spec),
        "files": {},
    }
    if isinstance(family, CausalLM):
        manifest["prompt"] = family.manifest_prompt(hf_tokenizer())
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
    simplify: bool = True,
    overwrite: bool = False,
    block_size: int = DEFAULT_BLOCK_SIZE,
    progress: StatusCallback | None = None,
    cancel: CancelToken | None = None,
    steps: ProgressCallback | None = None,
) -> Path:
    """Write a complete pack to out_dir; the folder appears only once every file is written.

    `progress` hears what the export is doing in words; `steps` (done, total) counts the layers converted;
    `cancel` stops it between layers (Cancelled), leaving nothing behind."""
    say = progress or (lambda _msg: None)
    hf_dir, out_dir = Path(hf_dir), Path(out_dir)
    if out_dir.exists() and not overwrite:
        raise ExportError(f"{out_dir} already exists; choose another folder or remove it")
    family, folder = detect_family(hf_dir)
    spec = quantize_spec(quantize, embeddings, decoder_only=family.decoder_only, block_size=block_size)

    out_dir.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=f".{out_dir.name}.tokenizer.", dir=out_dir.parent) as tok_tmp:
        say(f"reading the {family.title} tokenizer")
        hf_tokenizer = _hf_tokenizer_loader(family, hf_dir)
        tokenizer_dir = tokenizer_files(family, hf_dir, Path(tok_tmp), hf_tokenizer)
        say(f"loading the PyTorch model ({family.title})")
        model = load_model(hf_dir, family)
        weights = model_weights(family, model)
        manifest = build_manifest(
            folder,
            model,
            spec,
            name=name or hf_dir.name,
            model_id=model_id,
            revision=revision,
            family=family,
            hf_tokenizer=hf_tokenizer,
        )
        del model  # a decoder-only model's weights are now numpy arrays: one copy less in memory
        if isinstance(family, CausalLM):
            record_chat_template(manifest, tokenizer_dir, CHAT_TEMPLATE)
        layers = _LayerCounter(weights, steps, cancel)
        _write_pack(
            family, weights, spec, manifest, tokenizer_dir, out_dir, simplify and not family.decoder_only, say, layers
        )
    say(f"pack written to {out_dir}")
    return out_dir


def _hf_tokenizer_loader(family: Family, hf_dir: Path) -> Callable[[], Any]:
    """The folder's transformers tokenizer, loaded when a family's manifest needs it (once)."""

    @functools.cache
    def load() -> Any:
        from transformers import AutoTokenizer

        try:
            return AutoTokenizer.from_pretrained(hf_dir)
        except (OSError, ValueError) as exc:
            raise ExportError(f"{hf_dir}: the {family.title} tokenizer cannot be read ({exc})") from None

    return load


def tokenizer_files(family: Family, hf_dir: Path, scratch: Path, hf_tokenizer: Callable[[], Any]) -> Path:
    """A folder with the family's tokenizer files: hf_dir itself, or `scratch` where tokenizer.json had
    to be made from the slow tokenizer's SentencePiece model or the chat template written out of
    tokenizer_config.json (export time has transformers)."""
    folder = hf_dir
    if "tokenizer.json" in family.tokenizer_files and not (hf_dir / "tokenizer.json").is_file():
        try:
            hf_tokenizer().save_pretrained(scratch)
        except (OSError, ValueError) as exc:
            raise ExportError(f"{hf_dir}: the {family.title} tokenizer cannot be read ({exc})") from None
        folder = scratch
    if family.decoder_only:
        template = hf_tokenizer().chat_template
        if not isinstance(template, str) or not template.strip():
            raise ExportError(f"{hf_dir}: the tokenizer has no chat template; {family.title} packs prompt through it")
        for filename in family.tokenizer_files + OPTIONAL_TOKENIZER_FILES:
            if filename != CHAT_TEMPLATE and (folder / filename).is_file() and folder != scratch:
                shutil.copy2(folder / filename, scratch / filename)
        (scratch / CHAT_TEMPLATE).write_text(template, encoding="utf-8")
        folder = scratch
    missing = [f for f in family.tokenizer_files if not (folder / f).is_file()]
    if missing:
        raise ExportError(f"{hf_dir / missing[0]} is missing: the {family.title} tokenizer needs it")
    try:  # the runtime must be able to stream its decoding exactly: refuse now, not at run time
        if family.decoder_only:
            check_chat_tokenizer(folder / "tokenizer.json")
        elif family.tokenizer_files == ("tokenizer.json",):
            JsonTokenizer(folder / "tokenizer.json", {})
    except ValueError as exc:
        raise ExportError(f"{hf_dir}: {exc}") from None
    return folder


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
    weights: Seq2SeqWeights | CausalWeights, spec: QuantizeSpec | LlmQuantize, layer_done: _LayerCounter
) -> dict[str, onnx.ModelProto]:
    if isinstance(weights, CausalWeights):
        assert isinstance(spec, LlmQuantize)
        return {"decoder.onnx": build_causal_decoder(weights, spec, layer_done).build()}
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
    tokenizer_dir: Path,
    out_dir: Path,
    simplify: bool,
    say: StatusCallback,
    layers: _LayerCounter,
) -> None:
    mode = manifest["quantization"]["mode"]
    say(f"building the {family.title} graphs" + (f" ({mode})" if mode != "none" else ""))
    graphs = _graphs(weights, spec, layers)
    if simplify:
        say("simplifying the graphs")
        graphs = {k: _simplify(m) for k, m in graphs.items()}

    staging = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.", dir=out_dir.parent))
    try:
        say("writing the pack")
        manifest["external_tensors"] = _write_graphs(graphs, staging)
        for filename in family.tokenizer_files + OPTIONAL_TOKENIZER_FILES:
            if (tokenizer_dir / filename).is_file():
                shutil.copy2(tokenizer_dir / filename, staging / filename)
        manifest["files"] = {p.name: file_digest(p) for p in sorted(staging.iterdir()) if p.is_file()}
        (staging / MANIFEST).write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        if out_dir.exists():
            shutil.rmtree(out_dir)
        staging.rename(out_dir)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
