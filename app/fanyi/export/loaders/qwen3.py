"""Qwen3 (Qwen/Qwen3-0.6B, 1.7B, 4B; Apache-2.0): RMSNorm of queries and keys before the rotary
embedding, grouped-query attention, SwiGLU. The card documents no translation prompt: Fanyi's own
instructions ask for the translation only, and the chat template runs with thinking off."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, ClassVar

from .base import ExportRefused, register
from .causal_lm import CausalLMLoader

# code → (English name, Chinese name)
LANGUAGES = {
    "en": ("English", "英语"),
    "zh": ("Simplified Chinese", "简体中文"),
    "zh-Hant": ("Traditional Chinese", "繁体中文"),
    "yue": ("Cantonese", "粤语"),
    "ja": ("Japanese", "日语"),
    "ko": ("Korean", "韩语"),
    "fr": ("French", "法语"),
    "de": ("German", "德语"),
    "es": ("Spanish", "西班牙语"),
    "it": ("Italian", "意大利语"),
    "pt": ("Portuguese", "葡萄牙语"),
    "ru": ("Russian", "俄语"),
    "ar": ("Arabic", "阿拉伯语"),
    "vi": ("Vietnamese", "越南语"),
    "th": ("Thai", "泰语"),
    "id": ("Indonesian", "印尼语"),
    "ms": ("Malay", "马来语"),
    "tr": ("Turkish", "土耳其语"),
    "pl": ("Polish", "波兰语"),
    "nl": ("Dutch", "荷兰语"),
    "uk": ("Ukrainian", "乌克兰语"),
    "hi": ("Hindi", "印地语"),
}
ASK = "Translate the following text into {target_language}. Output only the translation, nothing else."


@register
class Qwen3Loader(CausalLMLoader):
    family_name = "qwen3"
    architectures = ("Qwen3ForCausalLM",)
    model_types = ("qwen3",)
    model_class = "Qwen3ForCausalLM"
    hf_tokenizer_class = "Qwen2Tokenizer"
    config_defaults: ClassVar[dict[str, Any]] = {  # Qwen3Config's (transformers 4.57)
        "vocab_size": 151936,
        "hidden_size": 4096,
        "intermediate_size": 22016,
        "num_hidden_layers": 32,
        "num_attention_heads": 32,
        "num_key_value_heads": 32,
        "head_dim": 128,
        "hidden_act": "silu",
        "max_position_embeddings": 32768,
        "initializer_range": 0.02,
        "rms_norm_eps": 1e-6,
        "use_cache": True,
        "tie_word_embeddings": False,
        "rope_theta": 10000.0,
        "rope_scaling": None,
        "attention_bias": False,
        "use_sliding_window": False,
        "sliding_window": 4096,
        "max_window_layers": 28,
        "layer_types": None,
        "attention_dropout": 0.0,
    }
    languages = LANGUAGES
    instructions = {
        "default": (ASK + "\n\n{text}", "en"),
        "terminology": ("Translate these terms as given:\n{terms}\n\n" + ASK + "\n\n{text}", "en"),
        "context": ("Earlier text, for context only (do not translate it):\n{context}\n\n" + ASK + "\n\n{text}", "en"),
        # Fanyi's own, as ASK is: a general chat model summarizes as it translates (fanyi.summaries)
        "summarize": (
            "Summarize the following text in {target_language}: its main points in a few sentences. "
            "Give only the summary, no explanations.\n\n{text}",
            "en",
        ),
    }
    template_kwargs = {"enable_thinking": False}

    def derived(self, config: SimpleNamespace) -> SimpleNamespace:
        # Qwen3Config: key/value heads left null are the query heads; the window only where it is used
        if config.num_key_value_heads is None:
            config.num_key_value_heads = config.num_attention_heads
        if not config.use_sliding_window:
            config.sliding_window = None
        return config

    def check_config(self, config: Any) -> None:
        super().check_config(config)
        if config.use_sliding_window:
            raise ExportRefused(
                "use_sliding_window=true is not supported for Qwen3 (its released models do not use it)"
            )
