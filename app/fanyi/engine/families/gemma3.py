"""Gemma 3's text decoder (Gemma3ForCausalLM, and the language model of a Gemma3ForConditionalGeneration
checkpoint such as TranslateGemma's): RMSNorm as x·(1 + w),
embeddings scaled by sqrt(hidden_size), a norm on each sublayer's output too, GeGLU, and local
(sliding-window) layers with their own rotary base between the global ones.

TranslateGemma's chat template takes a structured message (the text with its source and target
language codes) and writes the instruction itself; other Gemma 3 templates get the instruction."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from .base import ExportRefused, register
from .causal_lm import CausalLM
from .qwen3 import ASK, LANGUAGES
from .seq2seq import array
from .weights import DecoderBlock


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
            "embed_scale": float(decoder.embed_tokens.embed_scale),
            "attention_softcap": cfg.attn_logit_softcapping,
            "final_softcap": cfg.final_logit_softcapping,
        }

    def message_format(self, template: str) -> str:
        return "structured" if "source_lang_code" in template else "text"
