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

from .base import ExportRefused, HfFolder, register
from .causal_lm import CausalLM
from .qwen3 import ASK, LANGUAGES
from .weights import DecoderBlock, RopeSpec, Tensors


@register
class Gemma3(CausalLM):
    name = "gemma3"
    title = "Gemma 3"
    # TranslateGemma's checkpoint is the multimodal one: its language model is exported, its vision tower not
    architectures = ("Gemma3ForCausalLM", "Gemma3ForConditionalGeneration")
    model_types = ("gemma3_text", "gemma3")
    model_class = "Gemma3ForCausalLM"
    hf_tokenizer_class = "GemmaTokenizer"
    config_defaults: ClassVar[dict[str, Any]] = {  # Gemma3TextConfig's
        "head_dim": 256,
        "rms_norm_eps": 1e-6,
        "rope_theta": 1_000_000.0,
        "rope_scaling": None,
        "rope_local_base_freq": 10_000.0,
        "tie_word_embeddings": True,
        "hidden_activation": "gelu_pytorch_tanh",
        "attention_bias": False,
        "query_pre_attn_scalar": 256,
        "sliding_window": 4096,
        "layer_types": None,
        "attn_logit_softcapping": None,
        "final_logit_softcapping": None,
        "use_bidirectional_attention": False,
        "max_position_embeddings": 131_072,
    }
    languages = LANGUAGES
    instructions = {"default": (ASK + "\n\n{text}", "en")}
    activation = "gelu_tanh"
    activation_key = "hidden_activation"
    config_activation = "gelu_pytorch_tanh"
    strip_think = False
    pre_ffn_norm_module = "pre_feedforward_layernorm"  # its post_attention_layernorm closes the attention

    def model_config(self, folder: HfFolder) -> SimpleNamespace:
        """Gemma3TextConfig: a multimodal checkpoint's text_config (the output matrix tied as its outer
        configuration says), its layer types derived from the older sliding_window_pattern where not listed."""
        values = folder.config
        text = values.get("text_config")
        if isinstance(text, dict):
            values = {**text, "tie_word_embeddings": values.get("tie_word_embeddings", text.get("tie_word_embeddings"))}
            values = {k: v for k, v in values.items() if v is not None or k != "tie_word_embeddings"}
        config = SimpleNamespace(**{**self.config_defaults, **values})
        if config.layer_types is None:
            pattern = int(values.get("sliding_window_pattern", 6))
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
            # Gemma3TextScaledWordEmbedding's sqrt(hidden_size) as the float32 model applies it (a bfloat16 model
            # rounds it to 8 bits; fp32 is the reference the pack matches)
            "embed_scale": math.sqrt(config.hidden_size),
            "attention_softcap": config.attn_logit_softcapping,
            "final_softcap": config.final_logit_softcapping,
        }

    def message_format(self, template: str) -> str:
        return "structured" if "source_lang_code" in template else "text"
