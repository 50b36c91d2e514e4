"""MarianMT (OPUS-MT) checkpoints: post-norm, sinusoidal positions (computed, or as the checkpoint stored them),
one embedding shared by encoder, decoder and output unless the configuration says otherwise; its languages
from tokenizer_config.json or the repository's name, its target tokens (>>cmn_Hans<<…) from vocab.json."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any, ClassVar

from ...engine.families.marian import LANG_TOKEN
from ...languages import ALIASES
from .base import ExportRefused, HfFolder, register
from .seq2seq import EncoderDecoderLoader


@register
class MarianLoader(EncoderDecoderLoader):
    family_name = "marian"
    architectures = ("MarianMTModel",)
    model_types = ("marian",)
    model_class = "MarianMTModel"
    hf_tokenizer_class = "MarianTokenizer"
    pre_norm = False
    config_defaults: ClassVar[dict[str, Any]] = {  # MarianConfig's (transformers 4.57), and PretrainedConfig's tying
        "vocab_size": 58101,
        "decoder_vocab_size": None,
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
        "decoder_start_token_id": 58100,
        "scale_embedding": False,
        "pad_token_id": 58100,
        "eos_token_id": 0,
        "forced_eos_token_id": 0,
        "share_encoder_decoder_embeddings": True,
        "tie_word_embeddings": True,
    }

    def check_folder(self, folder: HfFolder) -> None:
        for required in self.family.tokenizer_files:
            if not folder.has(required):
                raise ExportRefused(f"{folder.path / required} is missing: not a complete MarianMT model folder")
        if folder.has("target_vocab.json"):
            raise ExportRefused(
                f"{folder.path} uses separate source and target vocabularies, which Fanyi does not support"
            )

    def shares_embeddings(self, config: Any) -> bool:
        return bool(config.share_encoder_decoder_embeddings)

    def manifest_languages(
        self, folder: HfFolder, hf_tokenizer: Callable[[], Any], generation: dict[str, Any]
    ) -> dict[str, Any]:
        if generation["forced_bos_token_id"] is not None:
            raise ExportRefused("forced_bos_token_id is not supported by the Fanyi runtime for MarianMT models")
        vocab = json.loads((folder.path / "vocab.json").read_text(encoding="utf-8"))
        name_match = re.search(r"opus-mt-([a-z]+)-([a-z]+)", folder.path.name)

        def norm(code: str | None, fallback: str | None) -> str:
            code = (code or fallback or "und").lower()
            return ALIASES.get(code, code)

        cfg = folder.tokenizer_config
        target_lang = norm(cfg.get("target_lang"), name_match and name_match.group(2))
        targets = {m.group(1): tok for tok in vocab if (m := LANG_TOKEN.match(tok))}
        preferred = {"zh": "cmn_Hans"}.get(target_lang)
        default = None if not targets else preferred if preferred in targets else sorted(targets)[0]
        return {
            "source_lang": norm(cfg.get("source_lang"), name_match and name_match.group(1)),
            "target_lang": target_lang,
            "target_tokens": targets,
            "default_target": default,
            "unk": vocab.get("<unk>"),
        }
