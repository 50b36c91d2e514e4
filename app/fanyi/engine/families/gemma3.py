"""Gemma 3's text decoder (Gemma3ForCausalLM, and the language model of a Gemma3ForConditionalGeneration
checkpoint such as TranslateGemma's): RMSNorm as x·(1 + w),
embeddings scaled by sqrt(hidden_size), a norm on each sublayer's output too, GeGLU, and local
(sliding-window) layers with their own rotary base between the global ones.

TranslateGemma's chat template takes a structured message (the text with its source and target
language codes) and writes the instruction itself; other Gemma 3 templates get the instruction."""

from __future__ import annotations

from .base import register
from .causal_lm import CausalLM


@register
class Gemma3(CausalLM):
    name = "gemma3"
    title = "Gemma 3"
