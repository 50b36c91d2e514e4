"""Random-weight MarianMT folders shaped like OPUS-MT ones (build time: torch, transformers).

No real weights can be downloaded everywhere Fanyi is built or tested, so tests, the benchmark and
the bundle smoke test make their own models: the real architecture, tokenizers trained on the text
in assets/corpus, random weights scaled so that the output depends on the input.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from ..paths import assets_dir

OPUS_MT_EN_ZH = dict(d_model=512, encoder_layers=6, decoder_layers=6, heads=8, ffn_dim=2048,
                     vocab_size=65001, max_positions=512, max_length=512, num_beams=4)
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


def build_random_marian(out_dir: Path, vocab_size: int, shape: TinyShape = TinyShape(), *, seed: int = 0,
                        pad_id: int | None = None, extra_generation: dict | None = None) -> Path:
    """Save a MarianMTModel with random weights (model.safetensors, config.json, generation_config.json)."""
    import torch
    from transformers import GenerationConfig, MarianConfig, MarianMTModel

    pad = vocab_size - 1 if pad_id is None else pad_id
    config = MarianConfig(
        vocab_size=vocab_size, d_model=shape.d_model, encoder_layers=shape.encoder_layers,
        decoder_layers=shape.decoder_layers, encoder_attention_heads=shape.heads,
        decoder_attention_heads=shape.heads, encoder_ffn_dim=shape.ffn_dim, decoder_ffn_dim=shape.ffn_dim,
        max_position_embeddings=shape.max_positions, activation_function="swish", scale_embedding=True,
        pad_token_id=pad, eos_token_id=0, decoder_start_token_id=pad, forced_eos_token_id=0,
        bos_token_id=0, share_encoder_decoder_embeddings=True,
        num_beams=shape.num_beams, max_length=shape.max_length, bad_words_ids=[[pad]],
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
        bad_words_ids=[[pad]], bos_token_id=0, decoder_start_token_id=pad, eos_token_id=0,
        forced_eos_token_id=0, max_length=shape.max_length, num_beams=shape.num_beams, pad_token_id=pad,
        **(extra_generation or {}),
    )
    out_dir.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out_dir)
    gen.save_pretrained(out_dir)
    return out_dir


def build_tiny_folder(out_dir: Path, *, direction: str = "en-zh", multi_target: bool = True,
                      shape: TinyShape = TinyShape(), seed: int = 0, vocab_size: int = 800) -> Path:
    """A complete Hugging Face folder (weights + tokenizer files) like Helsinki-NLP/opus-mt-<direction>."""
    from .spm_files import train_marian_tokenizer

    source, target = direction.split("-")
    corpus = assets_dir() / "corpus"
    vocab = train_marian_tokenizer(
        out_dir, corpus / f"{source}.txt", corpus / f"{target}.txt",
        source_vocab_size=vocab_size, target_vocab_size=vocab_size,
        target_tokens=EN_ZH_TARGETS if multi_target else (), source_lang=source, target_lang=target, seed=seed,
    )
    build_random_marian(out_dir, len(vocab), shape, seed=seed, pad_id=vocab["<pad>"])
    return out_dir


def opus_mt_en_zh_shape() -> TinyShape:
    """The full opus-mt-en-zh configuration (random weights): for the benchmark and pack-size numbers."""
    s = OPUS_MT_EN_ZH
    return TinyShape(d_model=s["d_model"], encoder_layers=s["encoder_layers"], decoder_layers=s["decoder_layers"],
                     heads=s["heads"], ffn_dim=s["ffn_dim"], max_positions=s["max_positions"],
                     max_length=s["max_length"], num_beams=s["num_beams"])
