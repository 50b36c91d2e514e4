"""Many-to-many encoder-decoders (mBART-50, M2M100, NLLB-200): their languages as the tokenizer lists them.

The manifest records each language in the model's own code ("en_XX", "en", "eng_Latn") with its vocabulary
token and id and where the source language token goes, so the runtime needs no table of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from ...languages import MULTIPLE
from .base import ExportRefused, HfFolder
from .seq2seq import EncoderDecoderLoader

# the code asked for when the user names none: the app is an English→Chinese translator first
PREFERRED_TARGETS = ("zho_Hans", "zh_CN", "zh")


class ManyToManyLoader(EncoderDecoderLoader):
    config_defaults: ClassVar[dict[str, Any]] = {  # MBartConfig's (transformers 4.57), and PretrainedConfig's tying
        "vocab_size": 50265,
        "max_position_embeddings": 1024,
        "encoder_layers": 12,
        "encoder_ffn_dim": 4096,
        "encoder_attention_heads": 16,
        "decoder_layers": 12,
        "decoder_ffn_dim": 4096,
        "decoder_attention_heads": 16,
        "encoder_layerdrop": 0.0,
        "decoder_layerdrop": 0.0,
        "use_cache": True,
        "is_encoder_decoder": True,
        "activation_function": "gelu",
        "d_model": 1024,
        "dropout": 0.1,
        "attention_dropout": 0.0,
        "activation_dropout": 0.0,
        "init_std": 0.02,
        "classifier_dropout": 0.0,
        "scale_embedding": False,
        "pad_token_id": 1,
        "bos_token_id": 0,
        "eos_token_id": 2,
        "forced_eos_token_id": 2,
        "tie_word_embeddings": True,
    }

    def check_folder(self, folder: HfFolder) -> None:
        """Nothing beyond the tokenizer files, which the exporter checks."""

    def language_codes(self, hf_tokenizer: Any) -> tuple[list[str], list[str]]:
        """The model's language codes and their vocabulary tokens: for mBART-50 and NLLB the codes are the
        tokens, the tokenizer's additional special tokens."""
        codes = list(hf_tokenizer.additional_special_tokens)
        return codes, codes

    def manifest_languages(
        self, folder: HfFolder, hf_tokenizer: Callable[[], Any], generation: dict[str, Any]
    ) -> dict[str, Any]:
        tok = hf_tokenizer()
        codes, tokens = self.language_codes(tok)
        if not tokens:
            raise ExportRefused(f"{folder.path}: the {self.title} tokenizer has no language tokens")
        ids = [int(tok.convert_tokens_to_ids(t)) for t in tokens]
        if len(set(ids)) != len(ids) or tok.unk_token_id in ids:
            raise ExportRefused(f"{folder.path}: the {self.title} tokenizer's language tokens are not distinct tokens")
        by_id = dict(zip(ids, codes))
        forced = generation["forced_bos_token_id"]
        if forced is not None and forced not in by_id:
            raise ExportRefused(f"forced_bos_token_id {forced} is not a language token of the tokenizer")
        default = (
            by_id.get(forced) if forced is not None else next((c for c in PREFERRED_TARGETS if c in codes), codes[0])
        )
        return {
            "source_lang": MULTIPLE,
            "target_lang": MULTIPLE,
            "languages": {
                "source": codes,
                "target": codes,
                "tokens": {code: [token, i] for code, token, i in zip(codes, tokens, ids)},
                # NLLB's legacy_behaviour puts the code after </s>; everything else starts with it
                "source_token_position": "suffix" if getattr(tok, "legacy_behaviour", False) else "prefix",
                # whether a language token written in a text is that token, and decoding skips it (an
                # M2M100 folder saved by transformers 4.57 does not list them as special tokens)
                "tokens_are_special": all(t in tok.all_special_tokens for t in tokens),
            },
            "target_tokens": {},
            "default_target": default,
            "unk": tok.unk_token_id,
        }


class FairseqPositionsLoader(EncoderDecoderLoader):
    """M2M100 and NLLB: fairseq's sinusoidal positions, row pad + 1 + i for the i-th non-pad token and
    row pad for a pad token; Hugging Face's table has two rows more than max_positions for that."""

    positions = "fairseq"
    config_defaults: ClassVar[dict[str, Any]] = {  # M2M100Config's (transformers 4.57), and PretrainedConfig's tying
        "vocab_size": 128112,
        "max_position_embeddings": 1024,
        "encoder_layers": 12,
        "encoder_ffn_dim": 4096,
        "encoder_attention_heads": 16,
        "decoder_layers": 12,
        "decoder_ffn_dim": 4096,
        "decoder_attention_heads": 16,
        "encoder_layerdrop": 0.05,
        "decoder_layerdrop": 0.05,
        "use_cache": True,
        "is_encoder_decoder": True,
        "activation_function": "relu",
        "d_model": 1024,
        "dropout": 0.1,
        "attention_dropout": 0.1,
        "activation_dropout": 0.0,
        "init_std": 0.02,
        "decoder_start_token_id": 2,
        "scale_embedding": True,
        "pad_token_id": 1,
        "bos_token_id": 0,
        "eos_token_id": 2,
        "tie_word_embeddings": True,
    }

    def position_offset(self, config: Any) -> int:
        return int(config.pad_token_id) + 1

    def pad_position(self, config: Any) -> int | None:
        pad: int | None = config.pad_token_id
        return pad
