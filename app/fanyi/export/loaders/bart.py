"""BART summarization checkpoints (facebook/bart-large-cnn, sshleifer/distilbart-cnn-12-6): post-norm with a
LayerNorm on the embeddings, learned positions two rows into their tables, byte-level BPE.

What the summarization pipeline adds to generate() is read here too: task_specific_params.summarization over
the generation settings (beam 4, length penalty 2.0, 56 to 142 tokens, no repeated 3-grams, early stopping for
both models), and the model's text prefix. A folder without tokenizer.json has its tokenizer made from
vocab.json and merges.txt as transformers makes it (export/byte_level_bpe.py).
"""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any, ClassVar

from ...engine.families.many_to_many import LEARNED_POSITION_OFFSET
from ..byte_level_bpe import SLOW_FILES, tokenizer_json
from .base import ExportRefused, HfFolder, register
from .seq2seq import EncoderDecoderLoader

TASK = "summarization"  # the pipeline whose task_specific_params a pack takes
PREFIX_CHARS = 32  # more is no prefix but a prompt, which these models are not given


@register
class BartLoader(EncoderDecoderLoader):
    family_name = "bart"
    architectures = ("BartForConditionalGeneration",)
    model_types = ("bart",)
    model_class = "BartForConditionalGeneration"
    hf_tokenizer_class = "BartTokenizer"
    pre_norm = False
    layernorm_embedding = True
    positions = "learned"
    config_defaults: ClassVar[dict[str, Any]] = {  # BartConfig's (transformers 4.57), and PretrainedConfig's
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
        "activation_function": "gelu",
        "d_model": 1024,
        "dropout": 0.1,
        "attention_dropout": 0.0,
        "activation_dropout": 0.0,
        "init_std": 0.02,
        "classifier_dropout": 0.0,
        "scale_embedding": False,
        "use_cache": True,
        "num_labels": 3,
        "pad_token_id": 1,
        "bos_token_id": 0,
        "eos_token_id": 2,
        "is_encoder_decoder": True,
        "decoder_start_token_id": 2,
        "forced_eos_token_id": 2,
        "forced_bos_token_id": None,
        "prefix": None,
        "task_specific_params": None,
        "tie_word_embeddings": True,
    }

    def check_folder(self, folder: HfFolder) -> None:
        if not folder.has("tokenizer.json") and not all(folder.has(name) for name in SLOW_FILES):
            raise ExportRefused(
                f"{folder.path} has neither tokenizer.json nor {' and '.join(SLOW_FILES)}: "
                "the BART tokenizer needs one of them"
            )
        params = self._task_params(folder)
        prefix = params.get("prefix", folder.config.get("prefix"))
        if prefix is not None and (
            not isinstance(prefix, str) or len(prefix) > PREFIX_CHARS or not prefix.isprintable()
        ):
            raise ExportRefused(
                f"{folder.path}: the text prefix {prefix!r} is not one Fanyi takes "
                f"(at most {PREFIX_CHARS} printable characters)"
            )

    def derived(self, config: SimpleNamespace) -> SimpleNamespace:
        # BartConfig: the transformers-3 flag of bart-large-cnn's and the distilbart configs forces <s> first
        if config.forced_bos_token_id is None and getattr(config, "force_bos_token_to_be_generated", False):
            config.forced_bos_token_id = config.bos_token_id
        return config

    def position_offset(self, config: Any) -> int:
        return LEARNED_POSITION_OFFSET

    @staticmethod
    def _task_params(folder: HfFolder) -> dict[str, Any]:
        tasks = folder.config.get("task_specific_params")
        params = tasks.get(TASK) if isinstance(tasks, dict) else None
        return dict(params) if isinstance(params, dict) else {}

    def task_generation(self, folder: HfFolder) -> dict[str, Any]:
        """The summarization pipeline's settings over generate()'s (its "prefix" is the text's, not generate()'s)."""
        return {k: v for k, v in self._task_params(folder).items() if k != "prefix"}

    def made_tokenizer_files(self, folder: HfFolder) -> dict[str, bytes]:
        return (
            {}
            if folder.has("tokenizer.json")
            else {"tokenizer.json": tokenizer_json(folder.path, folder.tokenizer_config)}
        )

    def manifest_languages(
        self, folder: HfFolder, hf_tokenizer: Callable[[], Any], generation: dict[str, Any]
    ) -> dict[str, Any]:
        return {
            "source_lang": "en",
            "target_lang": "en",
            "target_tokens": {},
            "default_target": None,
            "unk": hf_tokenizer().unk_token_id,
        }

    def manifest_extra(self, folder: HfFolder, config: Any, generation: dict[str, Any]) -> dict[str, Any]:
        prefix = self._task_params(folder).get("prefix", getattr(config, "prefix", None))
        return {
            "special_ids": {"bos": config.bos_token_id},
            "generation": {"forced_bos_token_id": generation["forced_bos_token_id"]},
            "source_prefix": prefix or None,
        }
