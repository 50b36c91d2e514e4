"""Gemma 3's text decoder (Gemma3ForCausalLM, and the language model of a Gemma3ForConditionalGeneration
checkpoint such as TranslateGemma's): RMSNorm as x·(1 + w),
embeddings scaled by sqrt(hidden_size), a norm on each sublayer's output too, GeGLU, and local
(sliding-window) layers with their own rotary base between the global ones.

TranslateGemma's chat template takes a structured message (the text with its source and target
language codes) and writes the instruction itself; other Gemma 3 templates get the instruction."""

from __future__ import annotations

import math
from dataclasses import replace
from types import SimpleNamespace
from typing import Any, ClassVar

import numpy as np

from ..weights import DecoderBlock, RopeSpec, Tensors
from .base import ExportRefused, HfFolder, register
from .causal_lm import CausalLMLoader
from .qwen3 import ASK

# TranslateGemma's languages: its card says 55 and its template maps their codes to names, but neither list
# could be read here. These are the languages of WMT24++, on which the technical report evaluates the model
# ("55 language pairs", English to 54 locales, some of one language), by the codes the template takes, and
# Traditional Chinese. code → (English name, Chinese name)
LANGUAGES = {
    "en": ("English", "英语"),
    "zh": ("Chinese", "中文"),
    "zh-Hant": ("Traditional Chinese", "繁体中文"),
    "ar": ("Arabic", "阿拉伯语"),
    "bg": ("Bulgarian", "保加利亚语"),
    "bn": ("Bengali", "孟加拉语"),
    "ca": ("Catalan", "加泰罗尼亚语"),
    "cs": ("Czech", "捷克语"),
    "da": ("Danish", "丹麦语"),
    "de": ("German", "德语"),
    "el": ("Greek", "希腊语"),
    "es": ("Spanish", "西班牙语"),
    "et": ("Estonian", "爱沙尼亚语"),
    "fa": ("Persian", "波斯语"),
    "fi": ("Finnish", "芬兰语"),
    "fil": ("Filipino", "菲律宾语"),
    "fr": ("French", "法语"),
    "gu": ("Gujarati", "古吉拉特语"),
    "he": ("Hebrew", "希伯来语"),
    "hi": ("Hindi", "印地语"),
    "hr": ("Croatian", "克罗地亚语"),
    "hu": ("Hungarian", "匈牙利语"),
    "id": ("Indonesian", "印尼语"),
    "is": ("Icelandic", "冰岛语"),
    "it": ("Italian", "意大利语"),
    "ja": ("Japanese", "日语"),
    "kn": ("Kannada", "卡纳达语"),
    "ko": ("Korean", "韩语"),
    "lt": ("Lithuanian", "立陶宛语"),
    "lv": ("Latvian", "拉脱维亚语"),
    "ml": ("Malayalam", "马拉雅拉姆语"),
    "mr": ("Marathi", "马拉地语"),
    "nl": ("Dutch", "荷兰语"),
    "no": ("Norwegian", "挪威语"),
    "pa": ("Punjabi", "旁遮普语"),
    "pl": ("Polish", "波兰语"),
    "pt": ("Portuguese", "葡萄牙语"),
    "ro": ("Romanian", "罗马尼亚语"),
    "ru": ("Russian", "俄语"),
    "sk": ("Slovak", "斯洛伐克语"),
    "sl": ("Slovenian", "斯洛文尼亚语"),
    "sr": ("Serbian", "塞尔维亚语"),
    "sv": ("Swedish", "瑞典语"),
    "sw": ("Swahili", "斯瓦希里语"),
    "ta": ("Tamil", "泰米尔语"),
    "te": ("Telugu", "泰卢固语"),
    "th": ("Thai", "泰语"),
    "tr": ("Turkish", "土耳其语"),
    "uk": ("Ukrainian", "乌克兰语"),
    "ur": ("Urdu", "乌尔都语"),
    "vi": ("Vietnamese", "越南语"),
    "zu": ("Zulu", "祖鲁语"),
}


@register
class Gemma3Loader(CausalLMLoader):
    family_name = "gemma3"
    # TranslateGemma's checkpoint is the multimodal one: its language model is exported, its vision tower not
    architectures = ("Gemma3ForCausalLM", "Gemma3ForConditionalGeneration")
    model_types = ("gemma3_text", "gemma3")
    model_class = "Gemma3ForCausalLM"
    hf_tokenizer_class = "GemmaTokenizer"
    config_defaults: ClassVar[dict[str, Any]] = {  # Gemma3TextConfig's (transformers 4.57)
        "vocab_size": 262_208,
        "hidden_size": 2304,
        "intermediate_size": 9216,
        "num_hidden_layers": 26,
        "num_attention_heads": 8,
        "num_key_value_heads": 4,
        "head_dim": 256,
        "hidden_activation": "gelu_pytorch_tanh",
        "max_position_embeddings": 131_072,
        "initializer_range": 0.02,
        "rms_norm_eps": 1e-6,
        "use_cache": True,
        "pad_token_id": 0,
        "eos_token_id": 1,
        "bos_token_id": 2,
        "tie_word_embeddings": True,
        "rope_theta": 1_000_000.0,
        "attention_bias": False,
        "attention_dropout": 0.0,
        "query_pre_attn_scalar": 256,
        "sliding_window": 4096,
        "layer_types": None,
        "final_logit_softcapping": None,
        "attn_logit_softcapping": None,
        "rope_scaling": None,
        "rope_local_base_freq": 10_000.0,
        "use_bidirectional_attention": False,
    }
    languages = LANGUAGES
    instructions = {"default": (ASK + "\n\n{text}", "en")}
    activation = "gelu_tanh"
    activation_key = "hidden_activation"
    config_activation = "gelu_pytorch_tanh"
    strip_think = False
    pre_ffn_norm_module = "pre_feedforward_layernorm"  # its post_attention_layernorm closes the attention

    def model_config(self, folder: HfFolder) -> SimpleNamespace:
        """Gemma3TextConfig of the language model: a multimodal checkpoint's text_config (Gemma3Config builds it
        from that alone, its defaults where the file has none; transformers 4.57 ties the output matrix as the
        text_config says, whatever the outer configuration's tie_word_embeddings), or the file itself."""
        values = folder.config
        if values.get("model_type") == "gemma3" or folder.architecture == "Gemma3ForConditionalGeneration":
            text = values.get("text_config")
            values = text if isinstance(text, dict) else {}
        return self.configured(values)

    def derived(self, config: SimpleNamespace) -> SimpleNamespace:
        # the layer types, where not listed, from the older sliding_window_pattern (6 where it is not given
        # either): every pattern-th layer global
        if config.layer_types is None:
            pattern = int(getattr(config, "sliding_window_pattern", 6))
            config.layer_types = [
                "sliding_attention" if (i + 1) % pattern else "full_attention" for i in range(config.num_hidden_layers)
            ]
        return config

    def check_config(self, config: Any) -> None:
        super().check_config(config)
        if config.use_bidirectional_attention:
            raise ExportRefused("use_bidirectional_attention=true is not supported for Gemma 3 (an embedding model's)")

    def decoder_prefix(self, tensors: Tensors) -> str:
        # a multimodal checkpoint's language model, as transformers 4.5x saves it and as newer versions do
        for prefix in ("model.", "language_model.model.", "model.language_model."):
            if tensors.has(f"{prefix}embed_tokens.weight"):
                return prefix
        raise ValueError("the checkpoint has no Gemma 3 language model (embed_tokens.weight)")

    def head_names(self, tensors: Tensors) -> tuple[str, ...]:
        return ("lm_head.weight", "language_model.lm_head.weight")

    def norm(self, tensors: Tensors, name: str) -> np.ndarray:
        return (1.0 + tensors.array(f"{name}.weight")).astype(np.float32)

    def rotary_specs(self, config: Any) -> dict[str, RopeSpec]:
        # the local layers' rotary embedding: rope_local_base_freq, never scaled
        specs = super().rotary_specs(config)
        specs["local"] = RopeSpec(float(config.rope_local_base_freq), self.head_dim(config))
        return specs

    def block(self, tensors: Tensors, prefix: str, index: int, config: Any) -> DecoderBlock:
        sliding = config.layer_types[index] == "sliding_attention"
        return replace(
            super().block(tensors, prefix, index, config),
            rotary="local" if sliding else "global",
            post_attention_norm=self.norm(tensors, f"{prefix}post_attention_layernorm"),
            post_ffn_norm=self.norm(tensors, f"{prefix}post_feedforward_layernorm"),
            sliding_window=int(config.sliding_window) if sliding else None,
        )

    def attention_scale(self, config: Any) -> float:
        return float(float(config.query_pre_attn_scalar) ** -0.5)

    def sliding_window(self, config: Any) -> int | None:
        return int(config.sliding_window) if "sliding_attention" in config.layer_types else None

    def extras(self, config: Any) -> dict[str, Any]:
        return {
            # √hidden in fp32 from the configuration: the module's buffer is rounded to bfloat16 when the
            # checkpoint loads in its own dtype (50.5 for 50.596 at width 2560), and fp32 transformers is
            # what a pack is compared with
            "embed_scale": math.sqrt(config.hidden_size),
            "attention_softcap": config.attn_logit_softcapping,
            "final_softcap": config.final_logit_softcapping,
        }

    def message_format(self, template: str) -> str:
        return "structured" if "source_lang_code" in template else "text"
