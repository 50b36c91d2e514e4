"""Random-weight MarianMT folders shaped like OPUS-MT ones (build time: torch, transformers).

No real weights can be downloaded everywhere Fanyi is built or tested, so tests, the benchmark and
the bundle smoke test make their own models: the real architecture, tokenizers trained on the text
in assets/corpus, random weights scaled so that the output depends on the input.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fanyi.paths import assets_dir

from .spm_files import train_fast_tokenizer, train_m2m100_tokenizer, train_marian_tokenizer

OPUS_MT_EN_ZH = dict(
    d_model=512,
    encoder_layers=6,
    decoder_layers=6,
    heads=8,
    ffn_dim=2048,
    vocab_size=65001,
    max_positions=512,
    max_length=512,
    num_beams=4,
)
EN_ZH_TARGETS = (">>cmn_Hans<<", ">>cmn_Hant<<", ">>yue<<")


@dataclass(frozen=True)
class TinyShape:
    d_model: int = 32
    encoder_layers: int = 2
    decoder_layers: int = 2
    heads: int = 4
    ffn_dim: int = 64
    max_positions: int = 128
    max_length: int = 40
    num_beams: int = 4
    linear_gain: float = 4.0  # weights ~ N(0, gain / sqrt(fan_in)): layers mix, so the output depends on the input
    embedding_std: float = 0.3
    eos_bias: float = 6.0  # with the eos row below, random models stop at varied lengths


def _dimensions(shape: TinyShape) -> dict[str, int]:
    """The shape as the encoder-decoder configs of transformers name it (Marian, mBART, M2M100, NLLB)."""
    return {
        "d_model": shape.d_model,
        "encoder_layers": shape.encoder_layers,
        "decoder_layers": shape.decoder_layers,
        "encoder_attention_heads": shape.heads,
        "decoder_attention_heads": shape.heads,
        "encoder_ffn_dim": shape.ffn_dim,
        "decoder_ffn_dim": shape.ffn_dim,
        "max_position_embeddings": shape.max_positions,
    }


def build_random_marian(
    out_dir: Path,
    vocab_size: int,
    shape: TinyShape = TinyShape(),
    *,
    seed: int = 0,
    pad_id: int | None = None,
    extra_generation: dict[str, Any] | None = None,
) -> Path:
    """Save a MarianMTModel with random weights (model.safetensors, config.json, generation_config.json)."""
    import torch
    from transformers import GenerationConfig, MarianConfig, MarianMTModel

    pad = vocab_size - 1 if pad_id is None else pad_id
    config = MarianConfig(
        vocab_size=vocab_size,
        **_dimensions(shape),
        activation_function="swish",
        scale_embedding=True,
        pad_token_id=pad,
        eos_token_id=0,
        decoder_start_token_id=pad,
        forced_eos_token_id=0,
        bos_token_id=0,
        share_encoder_decoder_embeddings=True,
        num_beams=shape.num_beams,
        max_length=shape.max_length,
        bad_words_ids=[[pad]],
    )
    torch.manual_seed(seed)
    model = MarianMTModel(config).eval()
    with torch.no_grad():
        # Plain N(0, 0.02) makes a model that repeats one token forever. Stronger layer weights make the
        # output depend on the input; an eos row resembling mid-sentence positions makes some outputs end.
        for module in model.modules():
            if isinstance(module, torch.nn.Linear) and module is not model.lm_head:
                module.weight.normal_(0.0, shape.linear_gain / math.sqrt(module.in_features))
                if module.bias is not None:
                    module.bias.normal_(0.0, 0.1)
        model.model.shared.weight.normal_(0.0, shape.embedding_std)
        positions = model.model.decoder.embed_positions.weight
        model.model.shared.weight[0] = 0.5 * positions[8:16].mean(0)
        model.final_logits_bias.normal_(0.0, 0.1)
        model.final_logits_bias[0, 0] += shape.eos_bias
    gen = GenerationConfig(
        bad_words_ids=[[pad]],
        bos_token_id=0,
        decoder_start_token_id=pad,
        eos_token_id=0,
        forced_eos_token_id=0,
        max_length=shape.max_length,
        num_beams=shape.num_beams,
        pad_token_id=pad,
        **(extra_generation or {}),
    )
    out_dir.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out_dir)
    gen.save_pretrained(out_dir)
    return out_dir


def build_tiny_folder(
    out_dir: Path,
    *,
    direction: str = "en-zh",
    multi_target: bool = True,
    shape: TinyShape = TinyShape(),
    seed: int = 0,
    vocab_size: int = 800,
) -> Path:
    """A complete Hugging Face folder (weights + tokenizer files) like Helsinki-NLP/opus-mt-<direction>."""
    source, target = direction.split("-")
    corpus = assets_dir() / "corpus"
    vocab = train_marian_tokenizer(
        out_dir,
        corpus / f"{source}.txt",
        corpus / f"{target}.txt",
        source_vocab_size=vocab_size,
        target_vocab_size=vocab_size,
        target_tokens=EN_ZH_TARGETS if multi_target else (),
        source_lang=source,
        target_lang=target,
        seed=seed,
    )
    build_random_marian(out_dir, len(vocab), shape, seed=seed, pad_id=vocab["<pad>"])
    return out_dir


def build_filled_marian_folder(out_dir: Path, vocab_size: int, shape: TinyShape, *, seed: int = 0) -> Path:
    """An en→zh folder whose vocabulary is filled up to `vocab_size` entries (filler pieces after the
    trained ones, <pad> last), so the embedding and output matrices have the size of a real model's."""
    import json

    corpus = assets_dir() / "corpus"
    vocab = train_marian_tokenizer(out_dir, corpus / "en.txt", corpus / "zh.txt", target_tokens=EN_ZH_TARGETS)
    entries = [tok for tok, _ in sorted(vocab.items(), key=lambda kv: kv[1]) if tok != "<pad>"]
    entries += [f"▁filler{i}" for i in range(vocab_size - 1 - len(entries))]
    full = {tok: i for i, tok in enumerate(entries)}
    full["<pad>"] = vocab_size - 1
    (out_dir / "vocab.json").write_text(json.dumps(full, ensure_ascii=False), encoding="utf-8")
    return build_random_marian(out_dir, vocab_size, shape, seed=seed, pad_id=vocab_size - 1)


def opus_mt_en_zh_shape() -> TinyShape:
    """The full opus-mt-en-zh configuration (random weights): for the benchmark and pack-size numbers."""
    s = OPUS_MT_EN_ZH
    return TinyShape(
        d_model=s["d_model"],
        encoder_layers=s["encoder_layers"],
        decoder_layers=s["decoder_layers"],
        heads=s["heads"],
        ffn_dim=s["ffn_dim"],
        max_positions=s["max_positions"],
        max_length=s["max_length"],
        num_beams=s["num_beams"],
    )


# --- many-to-many families ----------------------------------------------------------------------

# The real configurations (random weights) for the benchmark and pack-size numbers; spm_pieces sizes
# the tokenizer so the vocabulary is the real one (mBART-50 250054, NLLB-200 256206).
MBART_LARGE_50 = dict(
    d_model=1024,
    encoder_layers=12,
    decoder_layers=12,
    heads=16,
    ffn_dim=4096,
    max_positions=1024,
    max_length=200,
    num_beams=5,
    spm_pieces=250_000,
)
NLLB_200_600M = {**MBART_LARGE_50, "num_beams": 1, "spm_pieces": 256_000}  # the same transformer
# generation_config.json of facebook/mbart-large-50-many-to-many-mmt, facebook/m2m100_418M and
# facebook/nllb-200-distilled-600M (max_length and beams come from the shape)
_GENERATION: dict[str, dict[str, Any]] = {
    "mbart50": dict(early_stopping=True, forced_eos_token_id=2),
    "m2m100": dict(early_stopping=True),
    "nllb": dict(),
}
_MODEL = {  # config class, model class, activation
    "mbart50": ("MBartConfig", "MBartForConditionalGeneration", "gelu"),
    "m2m100": ("M2M100Config", "M2M100ForConditionalGeneration", "relu"),
    "nllb": ("M2M100Config", "M2M100ForConditionalGeneration", "relu"),
}
# config.json fields of the real folders that transformers does not need but other converters read
# (CTranslate2 takes mBART's norm placement and decoder start from them)
_CONFIG_EXTRAS: dict[str, dict[str, Any]] = {
    "mbart50": dict(
        normalize_before=True, normalize_embedding=True, add_final_layer_norm=True, tokenizer_class="MBart50Tokenizer"
    ),
    "m2m100": dict(),
    "nllb": dict(tokenizer_class="NllbTokenizer"),
}
# How far the decoder's last LayerNorm leans towards </s> (found by trying, for these tiny shapes):
# enough that outputs end at varied lengths, not so much that they end at once.
_EOS_LEAN = {"mbart50": 1.2, "m2m100": 2.3, "nllb": 1.9}


def build_random_many_to_many(
    out_dir: Path, family: str, vocab_size: int, shape: TinyShape = TinyShape(), *, seed: int = 0
) -> Path:
    """Save an mBART-50 / M2M100 / NLLB model with random weights: fairseq ids (<s> 0, <pad> 1, </s> 2),
    </s> as decoder start, the family's generation defaults."""
    import torch
    import transformers

    config_class, model_class, activation = _MODEL[family]
    generation: dict[str, Any] = dict(
        bos_token_id=0,
        pad_token_id=1,
        eos_token_id=2,
        decoder_start_token_id=2,
        max_length=shape.max_length,
        num_beams=shape.num_beams,
        **_GENERATION[family],
    )
    config = getattr(transformers, config_class)(
        vocab_size=vocab_size,
        **_dimensions(shape),
        activation_function=activation,
        scale_embedding=True,
        bos_token_id=0,
        pad_token_id=1,
        eos_token_id=2,
        decoder_start_token_id=2,
        forced_eos_token_id=generation.get("forced_eos_token_id"),
        **_CONFIG_EXTRAS[family],
    )
    torch.manual_seed(seed)
    model = getattr(transformers, model_class)(config).eval()
    with torch.no_grad():
        for module in model.modules():
            if isinstance(module, torch.nn.Linear) and module is not model.lm_head:
                module.weight.normal_(0.0, shape.linear_gain / math.sqrt(module.in_features))
                if module.bias is not None:
                    module.bias.normal_(0.0, 0.1)
            elif isinstance(module, torch.nn.LayerNorm):
                module.weight.normal_(1.0, 0.2)
                module.bias.normal_(0.0, 0.2)
        shared = model.model.shared.weight
        shared.normal_(0.0, shape.embedding_std)
        shared[1].zero_()  # the pad row, as fairseq trains it
        if family == "mbart50":
            # learned positions as strong as the tokens, and a </s> row like mid-sentence positions,
            # so that where an output ends depends on how far it got
            for stack in (model.model.encoder, model.model.decoder):
                stack.embed_positions.weight.normal_(0.0, 1.0)
            shared[2] = model.model.decoder.embed_positions.weight[10:18].mean(0)
        final = model.model.decoder.layer_norm
        final.bias.add_(_EOS_LEAN[family] * shared[2] / shared[2].norm())
        if hasattr(model, "final_logits_bias"):
            model.final_logits_bias.normal_(0.0, 0.1)
    out_dir.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out_dir)
    transformers.GenerationConfig(**generation).save_pretrained(out_dir)
    return out_dir


def build_many_to_many_folder(
    out_dir: Path,
    family: str,
    *,
    shape: TinyShape = TinyShape(),
    seed: int = 0,
    vocab_size: int = 1200,
    pieces: int | None = None,
) -> Path:
    """A complete Hugging Face folder (weights + tokenizer files) of the family ("mbart50", "m2m100",
    "nllb"), its tokenizer trained on every corpus in assets/corpus; `pieces` grows an mBART-50 or
    NLLB tokenizer to a real model's vocabulary (see spm_files.pad_sentencepiece)."""
    corpora = sorted((assets_dir() / "corpus").glob("*.txt"))
    if family == "m2m100":
        model_vocab = train_m2m100_tokenizer(out_dir, corpora, vocab_size=vocab_size, seed=seed)
    else:
        model_vocab = train_fast_tokenizer(out_dir, family, corpora, vocab_size=vocab_size, seed=seed, pieces=pieces)
        if family == "nllb":
            model_vocab += 2  # NLLB-200's embedding has two rows more than its tokenizer has ids
    return build_random_many_to_many(out_dir, family, model_vocab, shape, seed=seed)


def real_shape(config: dict[str, Any]) -> TinyShape:
    """A TinyShape with a real model's sizes (MBART_LARGE_50, NLLB_200_600M, OPUS_MT_EN_ZH)."""
    return TinyShape(
        **{
            k: config[k]
            for k in (
                "d_model",
                "encoder_layers",
                "decoder_layers",
                "heads",
                "ffn_dim",
                "max_positions",
                "max_length",
                "num_beams",
            )
        }
    )
