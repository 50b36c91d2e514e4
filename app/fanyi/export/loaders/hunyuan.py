"""HY-MT1.5 (tencent/HY-MT1.5-1.8B; HunYuanDenseV1ForCausalLM): like Qwen3, but the queries and keys are
normalised after the rotary embedding, whose base is scaled by the configuration's NTK alpha. Prompts
and languages are the model card's (its ZH<=>XX and XX<=>XX prompts, terminology and context), rendered
as its example code renders them: without the generation prompt, so the prompt ends with the template's
<｜hy_place▁holder▁no▁8｜>."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, ClassVar

from ..weights import RopeSpec
from .base import register
from .causal_lm import CausalLMLoader

# the card's language table: code → (English name, Chinese name)
LANGUAGES = {
    "zh": ("Chinese", "中文"),
    "en": ("English", "英语"),
    "fr": ("French", "法语"),
    "pt": ("Portuguese", "葡萄牙语"),
    "es": ("Spanish", "西班牙语"),
    "ja": ("Japanese", "日语"),
    "tr": ("Turkish", "土耳其语"),
    "ru": ("Russian", "俄语"),
    "ar": ("Arabic", "阿拉伯语"),
    "ko": ("Korean", "韩语"),
    "th": ("Thai", "泰语"),
    "it": ("Italian", "意大利语"),
    "de": ("German", "德语"),
    "vi": ("Vietnamese", "越南语"),
    "ms": ("Malay", "马来语"),
    "id": ("Indonesian", "印尼语"),
    "tl": ("Filipino", "菲律宾语"),
    "hi": ("Hindi", "印地语"),
    "zh-Hant": ("Traditional Chinese", "繁体中文"),
    "pl": ("Polish", "波兰语"),
    "cs": ("Czech", "捷克语"),
    "nl": ("Dutch", "荷兰语"),
    "km": ("Khmer", "高棉语"),
    "my": ("Burmese", "缅甸语"),
    "fa": ("Persian", "波斯语"),
    "gu": ("Gujarati", "古吉拉特语"),
    "ur": ("Urdu", "乌尔都语"),
    "te": ("Telugu", "泰卢固语"),
    "mr": ("Marathi", "马拉地语"),
    "he": ("Hebrew", "希伯来语"),
    "bn": ("Bengali", "孟加拉语"),
    "ta": ("Tamil", "泰米尔语"),
    "uk": ("Ukrainian", "乌克兰语"),
    "bo": ("Tibetan", "藏语"),
    "kk": ("Kazakh", "哈萨克语"),
    "mn": ("Mongolian", "蒙古语"),
    "ug": ("Uyghur", "维吾尔语"),
    "yue": ("Cantonese", "粤语"),
}
ZH_ASK = "将以下文本翻译为{target_language}，注意只需要输出翻译后的结果，不要额外解释："


@register
class HunYuanLoader(CausalLMLoader):
    family_name = "hunyuan"
    architectures = ("HunYuanDenseV1ForCausalLM",)
    model_types = ("hunyuan_v1_dense",)
    model_class = "HunYuanDenseV1ForCausalLM"
    hf_tokenizer_class = "PreTrainedTokenizerFast"
    config_defaults: ClassVar[dict[str, Any]] = {  # HunYuanDenseV1Config's (transformers 4.57)
        "vocab_size": 290943,
        "hidden_size": 4096,
        "intermediate_size": 11008,
        "num_hidden_layers": 32,
        "num_attention_heads": 32,
        "num_key_value_heads": None,
        "hidden_act": "silu",
        "max_position_embeddings": 2048,
        "initializer_range": 0.02,
        "rms_norm_eps": 1e-5,
        "use_cache": True,
        "pad_token_id": 0,
        "bos_token_id": 1,
        "eos_token_id": 2,
        "eod_token_id": 3,
        "pretraining_tp": 1,
        "tie_word_embeddings": False,
        "rope_theta": 10000.0,
        "rope_scaling": None,
        "attention_bias": False,
        "attention_dropout": 0.0,
        "head_dim": None,
    }
    languages = LANGUAGES
    instructions = {  # the card's prompt templates
        "default": (
            "Translate the following segment into {target_language}, without additional explanation.\n\n{text}",
            "en",
        ),
        "chinese": (ZH_ASK + "\n\n{text}", "zh"),
        "terminology": ("参考下面的翻译：\n{terms}\n\n" + ZH_ASK + "\n{text}", "zh"),
        "context": (  # the card's block ends with a blank line after the text
            "{context}\n参考上面的信息，把下面的文本翻译成{target_language}，注意不需要翻译上文，也不要额外解释：\n{text}\n",
            "zh",
        ),
        # the card's formatted translation, whose target it names 中文: the target's name here
        "formatted": (
            "将以下<source></source>之间的文本翻译为{target_language}，注意只需要输出翻译后的结果，不要额外解释，"
            "原文中的<sn></sn>标签表示标签内文本包含格式信息，需要在译文中相应的位置尽量保留该标签。"
            "输出格式为：<target>str</target>\n\n<source>{text}</source>",
            "zh",
        ),
    }
    term_line = "{term} 翻译成 {translation}"
    generation_prompt = False  # the card's example: apply_chat_template(messages, add_generation_prompt=False)
    qk_norm_modules = ("query_layernorm", "key_layernorm")

    def derived(self, config: SimpleNamespace) -> SimpleNamespace:
        # HunYuanDenseV1Config: key/value heads left out are the query heads
        if config.num_key_value_heads is None:
            config.num_key_value_heads = config.num_attention_heads
        return config

    def rotary_specs(self, config: Any) -> dict[str, RopeSpec]:
        """transformers' HunYuan rotary embedding: with a "dynamic" rope and an alpha, the base is scaled by
        alpha^(dim/(dim−2)) (NTK) at every position."""
        rope = config.rope_scaling or {}
        alpha = rope.get("alpha") if self.rope_kind(config) == "dynamic" else None
        if not alpha:
            return super().rotary_specs(config)
        return {"global": RopeSpec(float(config.rope_theta), self.head_dim(config), alpha=float(alpha))}

    def extras(self, config: Any) -> dict[str, Any]:
        return {"qk_norm_after_rotary": True}
