"""Random-weight Hugging Face folders at exactly HY-MT1.5-1.8B's and Qwen3-1.7B's configurations (issue 19).

    /work/bench/venv/bin/python benchmarks/llm_models.py [--out /work/bench/models] [--models hy-mt1.5-1.8b,qwen3-1.7b]

(`--models hy-mt1.5-1.8b-tiny,qwen3-1.7b-tiny`: the same families at a tiny shape, for a smoke test.)

Each folder has config.json, model.safetensors (bfloat16, as the real checkpoints are stored) and a
tokenizer.json: a byte-level BPE trained on assets/corpus/*.txt whose vocabulary is filled up to the
config's vocab_size with unreachable filler pieces and the model's special tokens at their real ids,
so every matrix has its real size and token ids span the whole embedding. The weights come from
transformers' own initialisation (`_init_weights`: normal(0, initializer_range) for linear and
embedding matrices, ones for the RMSNorm weights) under a fixed seed, so activations stay at the
real model's scale and finite. Random weights decode nonsense: these folders exist for speed,
memory and size numbers only.

Where each configuration value comes from (no access to the hub here; public repositories that
quote the real config.json, read through the project's code search):
- Qwen3-1.7B: a documentation page that quotes huggingface.co/Qwen/Qwen3-1.7B/blob/main/config.json
  in full (every key below); the same values as Qwen3's other published configs (4B quoted in a
  model-card mirror) for the shared keys: rope_theta 1e6, rms_norm_eps 1e-6, head_dim 128, ids
  151643/151645, tied embeddings.
- HY-MT1.5-1.8B: no verbatim copy of its config.json was found. The architecture values agree across
  several independent re-implementations that validate against it: vocab 120818, hidden 2048,
  intermediate 6144, 32 layers, 16 heads, 4 key/value heads, head_dim 128, max_position_embeddings
  262144, rms_norm_eps 1e-5, rope_theta 10000 with rope_scaling type "dynamic" alpha 1000 (effective
  base 10000 * 1000**(128/126) = 1.1159e7, which is also what the published GGUF bakes into
  hunyuan-dense.rope.freq_base), use_qk_norm, no attention bias, tied embeddings, SiLU. The full
  rope_scaling dict (beta_fast/beta_slow/mscale/mscale_all_dim) is the one quoted for HY-MT's 7B
  sibling; eos 120020 from a test that mirrors the Hy-MT 1.8B config. bos/pad/eod ids were not found:
  the values below are placeholders inside the vocabulary and do not affect speed (eos is blocked
  during timing anyway).
"""

from __future__ import annotations

import argparse
import json
import shutil
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO / "assets" / "corpus"
DEFAULT_OUT = Path("/work/bench/models")
BPE_PIECES = 8000  # trained on ~32 kB of text: the merges stop well below this


@dataclass(frozen=True)
class ModelSpec:
    key: str  # folder name under --out, engine-neutral
    title: str
    config: dict  # config.json as the real checkpoint has it
    specials: dict  # special token text -> its real id (or a placeholder, see the module doc)
    eos_ids: tuple[int, ...]


QWEN3_1_7B = ModelSpec(
    key="qwen3-1.7b",
    title="Qwen3-1.7B",
    config={
        "architectures": ["Qwen3ForCausalLM"],
        "attention_bias": False,
        "attention_dropout": 0.0,
        "bos_token_id": 151643,
        "eos_token_id": 151645,
        "head_dim": 128,
        "hidden_act": "silu",
        "hidden_size": 2048,
        "initializer_range": 0.02,
        "intermediate_size": 6144,
        "max_position_embeddings": 40960,
        "max_window_layers": 28,
        "model_type": "qwen3",
        "num_attention_heads": 16,
        "num_hidden_layers": 28,
        "num_key_value_heads": 8,
        "rms_norm_eps": 1e-06,
        "rope_scaling": None,
        "rope_theta": 1000000,
        "sliding_window": None,
        "tie_word_embeddings": True,
        "torch_dtype": "bfloat16",
        "use_cache": True,
        "use_sliding_window": False,
        "vocab_size": 151936,
    },
    specials={
        "<|endoftext|>": 151643,
        "<|im_start|>": 151644,
        "<|im_end|>": 151645,
        "<think>": 151667,
        "</think>": 151668,
    },
    eos_ids=(151645, 151643),
)

HY_MT_1_5_1_8B = ModelSpec(
    key="hy-mt1.5-1.8b",
    title="HY-MT1.5-1.8B",
    config={
        "architectures": ["HunYuanDenseV1ForCausalLM"],
        "attention_bias": False,
        "attention_dropout": 0.0,
        "bos_token_id": 120000,  # placeholder (see the module doc)
        "eos_token_id": 120020,
        "pad_token_id": 120002,  # placeholder
        "eod_token_id": 120020,
        "head_dim": 128,
        "hidden_act": "silu",
        "hidden_size": 2048,
        "initializer_range": 0.02,
        "intermediate_size": 6144,
        "max_position_embeddings": 262144,
        "mlp_bias": False,
        "model_type": "hunyuan_v1_dense",
        "num_attention_heads": 16,
        "num_hidden_layers": 32,
        "num_key_value_heads": 4,
        "rms_norm_eps": 1e-05,
        "rope_scaling": {
            "alpha": 1000.0,
            "beta_fast": 32,
            "beta_slow": 1,
            "factor": 1.0,
            "mscale": 1.0,
            "mscale_all_dim": 1.0,
            "type": "dynamic",
        },
        "rope_theta": 10000.0,
        "tie_word_embeddings": True,
        "torch_dtype": "bfloat16",
        "use_cache": True,
        "use_qk_norm": True,
        "vocab_size": 120818,
    },
    specials={
        "<|hy_begin_of_sentence|>": 120000,
        "<|hy_pad|>": 120002,
        "<|hy_User|>": 120006,
        "<|hy_Assistant|>": 120007,
        "<|hy_eos|>": 120020,
    },
    eos_ids=(120020,),
)

TINY = {
    "hidden_size": 64,
    "intermediate_size": 128,
    "num_hidden_layers": 2,
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "head_dim": 16,
}  # multiples of 32 where Q4_0 and int4 blocks need them


def tiny(spec: ModelSpec) -> ModelSpec:
    """The same family, ids and vocabulary at a tiny shape: a smoke test of the whole pipeline, not a measurement."""
    return ModelSpec(f"{spec.key}-tiny", f"{spec.title} (tiny)", {**spec.config, **TINY}, spec.specials, spec.eos_ids)


REAL = (HY_MT_1_5_1_8B, QWEN3_1_7B)
MODELS = {spec.key: spec for spec in (*REAL, *map(tiny, REAL))}


def train_tokenizer(spec: ModelSpec):
    """Byte-level BPE on the repository's corpus, its vocabulary filled to the config's vocab_size."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    vocab_size = spec.config["vocab_size"]
    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=BPE_PIECES, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False
    )
    tokenizer.train([str(p) for p in sorted(CORPUS.glob("*.txt"))], trainer)
    data = json.loads(tokenizer.to_str())
    vocab: dict[str, int] = data["model"]["vocab"]
    taken = set(spec.specials.values())
    ids = (i for i in range(vocab_size) if i not in taken)
    # Re-number the learned pieces densely around the special ids, then fill the rest with pieces no
    # merge produces: they are never emitted by encoding but make the vocabulary the model's size.
    # The special tokens sit in the model's vocabulary too, so they keep their ids when loaded.
    renumbered = {piece: next(ids) for piece, _ in sorted(vocab.items(), key=lambda kv: kv[1])}
    renumbered.update(spec.specials)
    for filler, i in enumerate(ids):
        renumbered[f"<filler_{filler}>"] = i
    data["model"]["vocab"] = renumbered
    data["added_tokens"] = [
        {
            "id": i,
            "content": text,
            "single_word": False,
            "lstrip": False,
            "rstrip": False,
            "normalized": False,
            "special": True,
        }
        for text, i in spec.specials.items()
    ]
    full = Tokenizer.from_str(json.dumps(data))
    if full.get_vocab_size() != vocab_size:
        raise SystemExit(f"{spec.key}: tokenizer has {full.get_vocab_size()} entries, config says {vocab_size}")
    return full


def build_folder(spec: ModelSpec, out: Path, seed: int = 0) -> Path:
    """Writes out/<key>/ (reused when complete); the folder appears only when complete."""
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM

    folder = out / spec.key
    if (folder / "model.safetensors").exists() and (folder / "tokenizer.json").exists():
        return folder
    tmp = out / f"{spec.key}.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    (tmp / "config.json").write_text(json.dumps(spec.config, indent=2))
    config = AutoConfig.from_pretrained(str(tmp))
    torch.manual_seed(seed)
    model = AutoModelForCausalLM.from_config(config, torch_dtype=torch.float32)
    model.to(torch.bfloat16).save_pretrained(str(tmp), safe_serialization=True, max_shard_size="20GB")
    del model
    # save_pretrained rewrites config.json in transformers' own form: keep the real one's keys and values
    (tmp / "config.json").write_text(json.dumps(spec.config, indent=2))
    train_tokenizer(spec).save(str(tmp / "tokenizer.json"))
    (tmp / "generation_config.json").write_text(
        json.dumps(
            {"bos_token_id": spec.config["bos_token_id"], "eos_token_id": list(spec.eos_ids), "do_sample": False}
        )
    )
    shutil.rmtree(folder, ignore_errors=True)
    tmp.rename(folder)
    return folder


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--models", default=",".join(spec.key for spec in REAL))
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    for key in args.models.split(","):
        folder = build_folder(MODELS[key], args.out, args.seed)
        print(f"{key}: {folder}")


if __name__ == "__main__":
    main()
