"""A Q4_0 GGUF of a random-weight folder from llm_models.py, for the llama.cpp peer (issue 19).

    /work/bench/venv/bin/python benchmarks/llm_gguf.py HF_FOLDER OUT.gguf [--pure]

Two steps, both with the libraries of the benchmark venv:
1. the `gguf` package's GGUFWriter writes an F16 GGUF (1-D norm weights F32, as llama.cpp's converter
   does) with the architecture's own tensor names (gguf.get_tensor_name_map) and metadata
   (`hunyuan-dense` or `qwen3`). llama.cpp's convert_hf_to_gguf.py is not used: it identifies the
   BPE pre-tokenizer by hashing a test string's tokens and refuses a tokenizer it does not know,
   which ours (trained on the repository's corpus) is. The metadata is what that converter writes
   for these architectures: HunYuan's NTK-alpha rope folded into rope.freq_base
   (theta * alpha**(d/(d-2))) with scaling type none and a 256k context, no output.weight when the
   embeddings are tied.
2. llama.cpp's own quantizer (`llama_cpp.llama_model_quantize`, what `llama-quantize` runs) turns it
   into Q4_0. By default that is llama.cpp's Q4_0 mix: every matrix Q4_0 except the tied
   embedding/output matrix, which llama.cpp keeps at Q6_K; `--pure` makes that one Q4_0 too
   (`llama-quantize --pure`). The F16 intermediate is deleted.

The tokenizer goes in as a `gpt2` (byte-level BPE) vocabulary with its merges; the pre-tokenizer is
named after the real model's (`hunyuan-dense`, `qwen2`). The benchmark feeds token ids, so the
pre-tokenizer never runs.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

PRE_TOKENIZER = {"hunyuan_v1_dense": "hunyuan-dense", "qwen3": "qwen2"}


def architecture(config: dict):
    import gguf

    arch = {"hunyuan_v1_dense": gguf.MODEL_ARCH.HUNYUAN_DENSE, "qwen3": gguf.MODEL_ARCH.QWEN3}.get(config["model_type"])
    if arch is None:
        raise SystemExit(f"no GGUF writer for model_type {config['model_type']!r}")
    return arch


def rope_base(config: dict) -> float:
    scaling = config.get("rope_scaling") or {}
    if scaling.get("type", scaling.get("rope_type")) == "dynamic" and scaling.get("alpha"):
        dim = config["head_dim"]
        return config["rope_theta"] * scaling["alpha"] ** (dim / (dim - 2))
    return float(config["rope_theta"])


def write_metadata(writer, config: dict, tokenizer: dict, name: str) -> None:
    import gguf

    writer.add_name(name)
    writer.add_block_count(config["num_hidden_layers"])
    writer.add_embedding_length(config["hidden_size"])
    writer.add_feed_forward_length(config["intermediate_size"])
    writer.add_head_count(config["num_attention_heads"])
    writer.add_head_count_kv(config["num_key_value_heads"])
    writer.add_key_length(config["head_dim"])
    writer.add_value_length(config["head_dim"])
    writer.add_layer_norm_rms_eps(config["rms_norm_eps"])
    writer.add_rope_freq_base(rope_base(config))
    if config["model_type"] == "hunyuan_v1_dense":
        writer.add_rope_scaling_type(gguf.RopeScalingType.NONE)
        writer.add_rope_scaling_factor(1)
        writer.add_rope_scaling_orig_ctx_len(256 * 1024)
        writer.add_context_length(256 * 1024)
    else:
        writer.add_context_length(config["max_position_embeddings"])
    writer.add_file_type(gguf.LlamaFileType.MOSTLY_F16)

    vocab = tokenizer["model"]["vocab"]
    specials = {t["id"] for t in tokenizer["added_tokens"]}
    tokens = [""] * config["vocab_size"]
    for piece, i in vocab.items():
        tokens[i] = piece
    if not all(tokens):
        raise SystemExit("tokenizer.json does not cover every id of the vocabulary")
    writer.add_tokenizer_model("gpt2")
    writer.add_tokenizer_pre(PRE_TOKENIZER[config["model_type"]])
    writer.add_token_list(tokens)
    writer.add_token_types(
        [gguf.TokenType.CONTROL if i in specials else gguf.TokenType.NORMAL for i in range(len(tokens))]
    )
    merges = tokenizer["model"]["merges"]
    writer.add_token_merges([m if isinstance(m, str) else " ".join(m) for m in merges])
    writer.add_bos_token_id(config["bos_token_id"])
    writer.add_eos_token_id(config["eos_token_id"])
    writer.add_add_bos_token(False)


def write_f16(folder: Path, out: Path) -> None:
    import gguf
    import torch
    from safetensors import safe_open

    config = json.loads((folder / "config.json").read_text())
    tokenizer = json.loads((folder / "tokenizer.json").read_text(encoding="utf-8"))
    arch = architecture(config)
    names = gguf.get_tensor_name_map(arch, config["num_hidden_layers"])
    writer = gguf.GGUFWriter(str(out), gguf.MODEL_ARCH_NAMES[arch])
    write_metadata(writer, config, tokenizer, folder.name)
    with safe_open(str(folder / "model.safetensors"), framework="pt") as f:
        for hf_name in f.keys():  # noqa: SIM118 - safetensors' safe_open is no mapping
            if hf_name == "lm_head.weight" and config.get("tie_word_embeddings"):
                continue  # llama.cpp reuses token_embd for the output when there is no output.weight
            name = names.get_name(hf_name, try_suffixes=(".weight", ".bias"))
            if name is None:
                raise SystemExit(f"no GGUF name for tensor {hf_name}")
            tensor = f.get_tensor(hf_name)
            dtype = torch.float32 if tensor.ndim == 1 else torch.float16
            writer.add_tensor(name, tensor.to(dtype).numpy())
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()


def quantize(src: Path, out: Path, pure: bool, threads: int = 2) -> None:
    import llama_cpp

    params = llama_cpp.llama_model_quantize_default_params()
    params.ftype = llama_cpp.LLAMA_FTYPE_MOSTLY_Q4_0
    params.nthread = threads
    params.pure = pure
    code = llama_cpp.llama_model_quantize(str(src).encode(), str(out).encode(), params)
    if code != 0:
        raise SystemExit(f"llama_model_quantize failed ({code})")


def f16_path(out: Path) -> Path:
    return out.with_name(out.stem + ".f16.gguf")


def build_gguf(folder: Path, out: Path, pure: bool = False, f16: Path | None = None) -> Path:
    """out (reused when present) from the F16 GGUF `f16` (written when missing, kept)."""
    if out.exists():
        return out
    f16 = f16 or f16_path(out)
    tmp = out.with_name(out.name + ".tmp")
    if not f16.exists():
        write_f16(folder, f16.with_name(f16.name + ".tmp"))
        f16.with_name(f16.name + ".tmp").rename(f16)
    quantize(f16, tmp, pure)
    tmp.rename(out)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("folder", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--pure", action="store_true", help="the embedding/output matrix Q4_0 too")
    parser.add_argument("--keep-f16", action="store_true")
    args = parser.parse_args()
    build_gguf(args.folder, args.out, args.pure)
    if not args.keep_f16:
        f16_path(args.out).unlink(missing_ok=True)
    print(args.out, file=sys.stderr)


if __name__ == "__main__":
    main()
