"""Hugging Face translation model folder → Fanyi model pack: build graphs, simplify, quantize, write, checksum.

MarianMT, mBART-50, M2M100 and NLLB-200 folders (fanyi.engine.families) give the same pack format;
the manifest names the family and lists the languages in the model's own codes.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

import onnx
from onnx import external_data_helper

from ..engine.families import OPTIONAL_TOKENIZER_FILES, Family
from ..engine.int8_weights import INT8_SCALE_SUFFIX, INT8_WEIGHT_SUFFIX
from ..engine.json_tokenizer import JsonTokenizer
from ..engine.pack import FORMAT_VERSION, MANIFEST, SHARED_DATA, file_digest
from .errors import ExportError
from .hf_weights import detect_family, extract_weights, generation_defaults, load_model
from .languages import language_manifest
from .transformer_graphs import QuantizeSpec, build_decoder, build_encoder

LANG_TOKEN = re.compile(r"^>>(.+)<<$")
# "zhx" (ISO 639-5: the Chinese languages) is what multi-variety models such as opus-mt-tc-bible-big-zhx-en read
ISO3_TO_ISO1 = {"eng": "en", "zho": "zh", "cmn": "zh", "zhx": "zh", "deu": "de", "fra": "fr", "jpn": "ja",
                "kor": "ko", "spa": "es", "rus": "ru"}
StatusCallback = Callable[[str], None]  # a line for the user about what the export is doing


def quantize_spec(mode: str, embeddings: str = "int8") -> QuantizeSpec:
    if mode == "none":
        return QuantizeSpec()
    if mode == "int8":
        return QuantizeSpec(linear=True, output_projection=True, embeddings=embeddings == "int8")
    raise ExportError(f"unknown quantization {mode!r}; use none or int8")


def _simplify(model: onnx.ModelProto) -> onnx.ModelProto:
    import onnxslim

    return onnxslim.slim(model)


def _external(name: str) -> bool:
    """`shared.*` tensors are used by both graphs; int8 weights are read by the runtime (engine.int8_weights)."""
    return name.startswith("shared.") or name.endswith(INT8_WEIGHT_SUFFIX) or \
        name.endswith(INT8_WEIGHT_SUFFIX + INT8_SCALE_SUFFIX)


def _write_graphs(graphs: dict[str, onnx.ModelProto], folder: Path) -> dict[str, dict]:
    """Save the graphs with their shared and int8 tensors in one external file; returns that file's index."""
    index: dict[str, dict] = {}
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
                    index[tensor.name] = {"offset": offset, "length": len(data),
                                          "dtype": onnx.helper.tensor_dtype_to_np_dtype(tensor.data_type).name,
                                          "shape": list(tensor.dims), "graphs": []}
                entry = index[tensor.name]
                entry["graphs"].append(filename)
                external_data_helper.set_external_data(tensor, SHARED_DATA, offset=entry["offset"],
                                                       length=entry["length"])
                tensor.ClearField("raw_data")
                tensor.data_location = onnx.TensorProto.EXTERNAL
    for filename, model in graphs.items():
        onnx.save_model(model, folder / filename)
    return index


def _languages(hf_dir: Path, vocab: dict) -> tuple[str, str]:
    tok_cfg_path = hf_dir / "tokenizer_config.json"
    cfg = json.loads(tok_cfg_path.read_text(encoding="utf-8")) if tok_cfg_path.exists() else {}
    name_match = re.search(r"opus-mt-([a-z]+)-([a-z]+)", hf_dir.name)

    def norm(code: str | None, fallback: str | None) -> str:
        code = (code or fallback or "und").lower()
        return ISO3_TO_ISO1.get(code, code)

    return (norm(cfg.get("source_lang"), name_match and name_match.group(1)),
            norm(cfg.get("target_lang"), name_match and name_match.group(2)))


def _target_tokens(vocab: dict) -> dict[str, str]:
    return {m.group(1): tok for tok in vocab if (m := LANG_TOKEN.match(tok))}


def _default_target(target_tokens: dict[str, str], target_lang: str) -> str | None:
    if not target_tokens:
        return None
    preferred = {"zh": "cmn_Hans"}.get(target_lang)
    if preferred in target_tokens:
        return preferred
    return sorted(target_tokens)[0]


def _marian_languages(hf_dir: Path) -> dict:
    vocab = json.loads((hf_dir / "vocab.json").read_text(encoding="utf-8"))
    source_lang, target_lang = _languages(hf_dir, vocab)
    targets = _target_tokens(vocab)
    return {"source_lang": source_lang, "target_lang": target_lang, "target_tokens": targets,
            "default_target": _default_target(targets, target_lang), "unk": vocab.get("<unk>")}


def build_manifest(hf_dir: Path, model, spec: QuantizeSpec, *, name: str, model_id: str | None,
                   revision: str | None, family: Family, tokenizer_dir: Path) -> dict:
    cfg = model.config
    gen = generation_defaults(hf_dir, family)
    if family.target_language == "forced_bos":
        languages = language_manifest(family, tokenizer_dir, gen["forced_bos_token_id"])
    else:
        languages = _marian_languages(hf_dir)
    unk = languages.pop("unk")
    w = model.get_output_embeddings().weight
    return {
        "format_version": FORMAT_VERSION,
        "name": name,
        "source_model": {"id": model_id, "revision": revision},
        "architecture": {
            "type": family.name,
            "d_model": cfg.d_model,
            "encoder_layers": cfg.encoder_layers,
            "decoder_layers": cfg.decoder_layers,
            "heads": cfg.decoder_attention_heads,
            "head_dim": cfg.d_model // cfg.decoder_attention_heads,
            "ffn_dim": cfg.decoder_ffn_dim,
            "vocab_size": int(w.shape[0]),
            "max_positions": cfg.max_position_embeddings,
            "activation": cfg.activation_function,
            # how the graphs were built (fanyi.engine.families), for the record
            "pre_norm": family.pre_norm,
            "layernorm_embedding": family.layernorm_embedding,
            "positions": family.positions,
            "embed_scale": bool(cfg.scale_embedding),
        },
        "tokenizer": family.tokenizer,
        **{k: languages.pop(k) for k in ("source_lang", "target_lang")},
        "special_ids": {
            "pad": gen["pad_token_id"],
            "eos": gen["eos_token_ids"][0],
            "eos_all": gen["eos_token_ids"],
            "unk": unk,
            "decoder_start": gen["decoder_start_token_id"],
        },
        "bad_words_ids": gen["bad_words_ids"] or [],
        "generation": {k: gen[k] for k in ("num_beams", "max_length", "max_new_tokens", "min_length",
                                           "length_penalty", "early_stopping", "no_repeat_ngram_size",
                                           "repetition_penalty", "forced_eos_token_id", "renormalize_logits")},
        **languages,
        "quantization": {
            "mode": spec.mode,
            "scheme": "dynamic; weights int8 symmetric per output channel, activations uint8 per tensor"
            if spec.mode == "int8" else None,
            "linear": spec.linear,
            "output_projection": spec.output_projection,
            "embeddings": "int8" if spec.embeddings and spec.output_projection else "fp32",
        },
        "files": {},
    }


def export_pack(hf_dir: Path, out_dir: Path, *, quantize: str = "none", embeddings: str = "int8",
                name: str | None = None, model_id: str | None = None, revision: str | None = None,
                simplify: bool = True, overwrite: bool = False, progress: StatusCallback | None = None) -> Path:
    """Write a complete pack to out_dir; the folder appears only once every file is written."""
    say = progress or (lambda _msg: None)
    hf_dir, out_dir = Path(hf_dir), Path(out_dir)
    if out_dir.exists() and not overwrite:
        raise ExportError(f"{out_dir} already exists; choose another folder or remove it")
    family = detect_family(hf_dir)
    if family.name == "marian":
        for required in ("source.spm", "target.spm", "vocab.json"):
            if not (hf_dir / required).is_file():
                raise ExportError(f"{hf_dir / required} is missing: not a complete MarianMT model folder")
        if (hf_dir / "target_vocab.json").exists():
            raise ExportError(f"{hf_dir} uses separate source and target vocabularies, which Fanyi does not support")
    spec = quantize_spec(quantize, embeddings)

    out_dir.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=f".{out_dir.name}.tokenizer.", dir=out_dir.parent) as tok_tmp:
        say(f"reading the {family.title} tokenizer")
        tokenizer_dir = tokenizer_files(family, hf_dir, Path(tok_tmp))
        say(f"loading the PyTorch model ({family.title})")
        model = load_model(hf_dir, family)
        weights = extract_weights(model, family)
        manifest = build_manifest(hf_dir, model, spec, name=name or hf_dir.name, model_id=model_id,
                                  revision=revision, family=family, tokenizer_dir=tokenizer_dir)
        _write_pack(family, weights, spec, manifest, tokenizer_dir, out_dir, simplify, say)
    say(f"pack written to {out_dir}")
    return out_dir


def tokenizer_files(family: Family, hf_dir: Path, scratch: Path) -> Path:
    """A folder with the family's tokenizer files: hf_dir itself, or `scratch` where tokenizer.json had
    to be made from the slow tokenizer's SentencePiece model (export time has transformers)."""
    folder = hf_dir
    if family.tokenizer == "tokenizers" and not (hf_dir / "tokenizer.json").is_file():
        from transformers import AutoTokenizer

        try:
            AutoTokenizer.from_pretrained(hf_dir, use_fast=True).save_pretrained(scratch)
        except (OSError, ValueError) as exc:
            raise ExportError(f"{hf_dir}: the {family.title} tokenizer cannot be read ({exc})") from None
        folder = scratch
    missing = [f for f in family.tokenizer_files if not (folder / f).is_file()]
    if missing:
        raise ExportError(f"{hf_dir / missing[0]} is missing: the {family.title} tokenizer needs it")
    if family.tokenizer == "tokenizers":
        try:  # the runtime must be able to stream its decoding exactly: refuse now, not at run time
            JsonTokenizer(folder / "tokenizer.json", {})
        except ValueError as exc:
            raise ExportError(f"{hf_dir}: {exc}") from None
    return folder


def _write_pack(family: Family, weights, spec: QuantizeSpec, manifest: dict, tokenizer_dir: Path,
                out_dir: Path, simplify: bool, say: StatusCallback) -> None:
    say("building the encoder and decoder graphs" + (" (int8)" if spec.mode == "int8" else ""))
    graphs = {"encoder.onnx": build_encoder(weights, spec).build(),
              "decoder.onnx": build_decoder(weights, spec).build()}
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
