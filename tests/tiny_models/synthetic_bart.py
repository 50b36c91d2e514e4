"""Random-weight BART summarizers shaped like facebook/bart-large-cnn and sshleifer/distilbart-cnn-12-6.

Build/test time only (torch, transformers). Each folder keeps every option of the released config.json
but the sizes (and the vocabulary, which is a byte-level BPE tokenizer trained on assets/corpus):

- facebook/bart-large-cnn: the options as a copy of the repository's config.json saved by transformers 4.6.1
  holds them (github.com/CapstoneGroup1StClair/Capstone-2, bart-large-cnn/config.json), with the summarization
  settings of the task_specific_params the Hub's file gives (beam 4, length penalty 2.0, 56 to 142 tokens,
  no repeated 3-grams, early stopping), which that copy had changed; vocab_size 50264, one row fewer than
  the tokenizer's 50265 ids (its <mask> has no row: "Models that load the facebook/bart-large-cnn weights will
  not have a mask_token_id", transformers' BART documentation);
- sshleifer/distilbart-cnn-12-6: 12 encoder and 6 decoder layers, extra_pos_embeddings 2, the same
  summarization settings (as quoted in the kjarni-transformers tests of its config), and the older
  force_bos_token_to_be_generated flag of transformers 3 (huggingface/transformers#6526 "update distilbart
  configs") in place of forced_bos_token_id, which BartConfig turns into forced_bos_token_id = bos_token_id.
  The whole file could not be read where this was written: the keys it may carry that transformers no
  longer reads (normalize_embedding, static_position_embeddings, add_bias_logits…) are set as BART's
  transformers-3 configs set them, and change nothing.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from fanyi.paths import assets_dir

SUMMARIZATION = {
    "early_stopping": True,
    "length_penalty": 2.0,
    "max_length": 142,
    "min_length": 56,
    "no_repeat_ngram_size": 3,
    "num_beams": 4,
}
_LABELS = {
    "id2label": {"0": "LABEL_0", "1": "LABEL_1", "2": "LABEL_2"},
    "label2id": {"LABEL_0": 0, "LABEL_1": 1, "LABEL_2": 2},
}

BART_LARGE_CNN: dict[str, Any] = {
    "_num_labels": 3,
    "activation_dropout": 0.0,
    "activation_function": "gelu",
    "add_final_layer_norm": False,
    "architectures": ["BartForConditionalGeneration"],
    "attention_dropout": 0.0,
    "bos_token_id": 0,
    "classif_dropout": 0.0,
    "classifier_dropout": 0.0,
    "d_model": 1024,
    "decoder_attention_heads": 16,
    "decoder_ffn_dim": 4096,
    "decoder_layerdrop": 0.0,
    "decoder_layers": 12,
    "decoder_start_token_id": 2,
    "dropout": 0.1,
    "early_stopping": True,
    "encoder_attention_heads": 16,
    "encoder_ffn_dim": 4096,
    "encoder_layerdrop": 0.0,
    "encoder_layers": 12,
    "eos_token_id": 2,
    "force_bos_token_to_be_generated": True,
    "forced_bos_token_id": 0,
    "forced_eos_token_id": 2,
    "gradient_checkpointing": False,
    **_LABELS,
    "init_std": 0.02,
    "is_encoder_decoder": True,
    "length_penalty": 2.0,
    "max_length": 142,
    "max_position_embeddings": 1024,
    "min_length": 56,
    "model_type": "bart",
    "no_repeat_ngram_size": 3,
    "normalize_before": False,
    "num_beams": 4,
    "num_hidden_layers": 12,
    "output_past": True,
    "pad_token_id": 1,
    "prefix": " ",
    "scale_embedding": False,
    "task_specific_params": {"summarization": SUMMARIZATION},
    "transformers_version": "4.7.0.dev0",
    "use_cache": True,
    "vocab_size": 50264,
}

DISTILBART_CNN_12_6: dict[str, Any] = {
    "_num_labels": 3,
    "activation_dropout": 0.0,
    "activation_function": "gelu",
    "add_bias_logits": False,
    "add_final_layer_norm": False,
    "architectures": ["BartForConditionalGeneration"],
    "attention_dropout": 0.0,
    "bos_token_id": 0,
    "classif_dropout": 0.0,
    "d_model": 1024,
    "decoder_attention_heads": 16,
    "decoder_ffn_dim": 4096,
    "decoder_layerdrop": 0.0,
    "decoder_layers": 6,
    "decoder_start_token_id": 2,
    "dropout": 0.1,
    "early_stopping": True,
    "encoder_attention_heads": 16,
    "encoder_ffn_dim": 4096,
    "encoder_layerdrop": 0.0,
    "encoder_layers": 12,
    "eos_token_id": 2,
    "extra_pos_embeddings": 2,
    "force_bos_token_to_be_generated": True,
    **_LABELS,
    "init_std": 0.02,
    "is_encoder_decoder": True,
    "length_penalty": 2.0,
    "max_length": 142,
    "max_position_embeddings": 1024,
    "min_length": 56,
    "model_type": "bart",
    "no_repeat_ngram_size": 3,
    "normalize_before": False,
    "normalize_embedding": True,
    "num_beams": 4,
    "num_hidden_layers": 12,
    "output_past": True,
    "pad_token_id": 1,
    "prefix": " ",
    "scale_embedding": False,
    "static_position_embeddings": False,
    "task_specific_params": {"summarization": SUMMARIZATION},
    "vocab_size": 50264,
}

CONFIGS = {"bart-large-cnn": BART_LARGE_CNN, "distilbart-cnn-12-6": DISTILBART_CNN_12_6}
# the sizes of a tiny model (the layer counts' ratio kept: distilbart has half the decoder layers)
TINY = {"d_model": 32, "ffn_dim": 64, "heads": 4, "max_positions": 160}
# found by trying, for these tiny shapes: with length penalty 2.0 a beam search prefers long summaries
EOS_BIAS = {"bart-large-cnn": 10.5, "distilbart-cnn-12-6": 5.0}
REAL = {"d_model": 1024, "ffn_dim": 4096, "heads": 16, "max_positions": 1024}  # both released models'
SPECIALS = ["<s>", "<pad>", "</s>", "<unk>", "<mask>"]  # ids 0-4, as RoBERTa's vocabulary has them first


def train_byte_level_bpe(
    out_dir: Path, vocab_size: int = 1000, *, tokenizer_json: bool = True, fill_to: int | None = None
) -> int:
    """vocab.json and merges.txt of a byte-level BPE trained on assets/corpus (the files RoBERTa's and BART's
    repositories ship), and, with `tokenizer_json`, the fast tokenizer's files transformers writes from them.
    `fill_to` grows the vocabulary with filler pieces no text is cut into, to a real model's size (50265 for
    bart-large-cnn's tokenizer). The model's vocabulary leaves out <mask>, as bart-large-cnn's does: returns
    the model's vocab_size."""
    from tokenizers import ByteLevelBPETokenizer
    from transformers import BartTokenizerFast

    out_dir.mkdir(parents=True, exist_ok=True)
    corpora = sorted(str(p) for p in (assets_dir() / "corpus").glob("*.txt"))
    bpe = ByteLevelBPETokenizer()
    bpe.train(corpora, vocab_size=vocab_size, min_frequency=2, special_tokens=SPECIALS, show_progress=False)
    vocab = bpe.get_vocab()
    # <mask> last, as in roberta-base's vocabulary (50264) and so outside the model's rows
    ordered = [t for t, _ in sorted(vocab.items(), key=lambda kv: kv[1]) if t != "<mask>"]
    ordered += [f"\u0120filler{i}" for i in range((fill_to or 0) - len(ordered) - 1)] + ["<mask>"]
    bpe.save_model(str(out_dir))  # merges.txt (and its vocab.json, written again below)
    (out_dir / "vocab.json").write_text(json.dumps({t: i for i, t in enumerate(ordered)}, ensure_ascii=False))
    if tokenizer_json:
        tok = BartTokenizerFast(vocab_file=str(out_dir / "vocab.json"), merges_file=str(out_dir / "merges.txt"))
        tok.save_pretrained(out_dir)
    return len(ordered) - 1


def build_bart_folder(
    out_dir: Path,
    kind: str,
    *,
    sizes: dict[str, int] | None = None,
    seed: int = 0,
    tokenizer_json: bool = True,
    vocab_size: int = 1000,
    generation_config: bool = False,
    eos_bias: float | None = None,
    linear_gain: float = 3.0,
    fill_to: int | None = None,
) -> Path:
    """A Hugging Face folder of a random BART summarizer with `kind`'s config.json options ("bart-large-cnn",
    "distilbart-cnn-12-6"): tiny by default, or of `sizes` (TINY's keys) with the released layer counts (the
    benchmarks give the real sizes, REAL, and fill_to the real vocabulary)."""
    import torch
    from transformers import BartConfig, BartForConditionalGeneration, GenerationConfig

    model_vocab = train_byte_level_bpe(out_dir, vocab_size, tokenizer_json=tokenizer_json, fill_to=fill_to)
    released = CONFIGS[kind]
    config_json = dict(released)
    s = sizes or TINY
    layers = (released["encoder_layers"], released["decoder_layers"])
    if sizes is None:  # the tiny model: 2 encoder layers, the released ratio of decoder layers
        layers = (2, 2 * released["decoder_layers"] // released["encoder_layers"] or 1)
    config_json.update(
        d_model=s["d_model"],
        encoder_attention_heads=s["heads"],
        decoder_attention_heads=s["heads"],
        encoder_ffn_dim=s["ffn_dim"],
        decoder_ffn_dim=s["ffn_dim"],
        max_position_embeddings=s["max_positions"],
        encoder_layers=layers[0],
        decoder_layers=layers[1],
        num_hidden_layers=layers[0],
        vocab_size=model_vocab,
    )
    torch.manual_seed(seed)
    config = BartConfig(**{k: v for k, v in config_json.items() if k not in ("architectures", "model_type")})
    model = BartForConditionalGeneration(config).eval()
    with torch.no_grad():
        # N(0, 0.02) makes a model that says one token forever: stronger weights make the output depend on the input
        for module in model.modules():
            if isinstance(module, torch.nn.Linear) and module is not model.lm_head:
                module.weight.normal_(0.0, linear_gain / math.sqrt(module.in_features))
                if module.bias is not None:
                    module.bias.normal_(0.0, 0.1)
            elif isinstance(module, torch.nn.LayerNorm):
                module.weight.normal_(1.0, 0.2)
                module.bias.normal_(0.0, 0.2)
        model.model.shared.weight.normal_(0.0, 0.5)
        for stack in (model.model.encoder, model.model.decoder):
            stack.embed_positions.weight.normal_(0.0, 0.5)
        model.final_logits_bias.normal_(0.0, 0.1)
        # summaries that end at varied lengths (56 to 141 tokens for the corpus's texts), not all at the bound
        model.final_logits_bias[0, 2] += EOS_BIAS[kind] if eos_bias is None else eos_bias
    model.save_pretrained(out_dir)
    # the released config.json as it is, its sizes changed (save_pretrained writes transformers' view of it)
    (out_dir / "config.json").write_text(json.dumps(config_json, indent=2) + "\n", encoding="utf-8")
    if generation_config:
        GenerationConfig.from_model_config(config).save_pretrained(out_dir)
    elif (out_dir / "generation_config.json").exists():
        (out_dir / "generation_config.json").unlink()
    return out_dir
