"""Gemma 3's text decoder (Gemma3ForCausalLM, and the language model of a Gemma3ForConditionalGeneration
checkpoint such as TranslateGemma's): RMSNorm as x·(1 + w),
embeddings scaled by sqrt(hidden_size), a norm on each sublayer's output too, GeGLU, and local
(sliding-window) layers with their own rotary base between the global ones.

TranslateGemma's chat template takes a structured message (the text with its source and target
language codes) and writes the instruction itself; other Gemma 3 templates get the instruction."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import numpy as np

from .base import ExportRefused, register
from .causal_lm import CausalLM
from .qwen3 import ASK
from .seq2seq import array
from .weights import DecoderBlock

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
class Gemma3(CausalLM):
    name = "gemma3"
    title = "Gemma 3"
    # TranslateGemma's checkpoint is the multimodal one: its language model is exported, its vision tower not
    architectures = ("Gemma3ForCausalLM", "Gemma3ForConditionalGeneration")
    model_types = ("gemma3_text", "gemma3")
    model_class = "Gemma3ForCausalLM"
    languages = LANGUAGES
    instructions = {"default": (ASK + "\n\n{text}", "en")}
    activation = "gelu_tanh"
    activation_key = "hidden_activation"
    config_activation = "gelu_pytorch_tanh"
    strip_think = False
    pre_ffn_norm_module = "pre_feedforward_layernorm"  # its post_attention_layernorm closes the attention

    def check_config(self, config: dict[str, Any]) -> None:
        config = config.get("text_config") or config  # a multimodal checkpoint's language model
        super().check_config(config)
        if config.get("use_bidirectional_attention"):
            raise ExportRefused("use_bidirectional_attention=true is not supported for Gemma 3 (an embedding model's)")

    def norm(self, module: Any) -> np.ndarray:
        return (1.0 + array(module.weight)).astype(np.float32)

    def rotary_modules(self, model: Any) -> dict[str, Any]:
        decoder = model.get_decoder()
        return {"global": decoder.rotary_emb, "local": decoder.rotary_emb_local}

    def block(self, layer: Any, index: int, config: Any) -> DecoderBlock:
        sliding = config.layer_types[index] == "sliding_attention"
        return replace(
            super().block(layer, index, config),
            rotary="local" if sliding else "global",
            post_attention_norm=self.norm(layer.post_attention_layernorm),
            post_ffn_norm=self.norm(layer.post_feedforward_layernorm),
            sliding_window=int(config.sliding_window) if sliding else None,
        )

    def attention_scale(self, config: Any) -> float:
        return float(float(config.query_pre_attn_scalar) ** -0.5)

    def sliding_window(self, config: Any) -> int | None:
        return int(config.sliding_window) if "sliding_attention" in config.layer_types else None

    def extras(self, model: Any) -> dict[str, Any]:
        decoder = model.get_decoder()
        cfg = decoder.config
        return {
            # √hidden in fp32 from the configuration: the module's buffer is rounded to bfloat16 when the
            # checkpoint loads in its own dtype (50.5 for 50.596 at width 2560), and fp32 transformers is
            # what a pack is compared with
            "embed_scale": float(np.float32(math.sqrt(cfg.hidden_size))),
            "attention_softcap": cfg.attn_logit_softcapping,
            "final_softcap": cfg.final_logit_softcapping,
        }

    def message_format(self, template: str) -> str:
        return "structured" if "source_lang_code" in template else "text"
