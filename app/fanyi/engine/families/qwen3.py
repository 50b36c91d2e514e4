"""Qwen3 (Qwen/Qwen3-0.6B, 1.7B, 4B; Apache-2.0): RMSNorm of queries and keys before the rotary
embedding, grouped-query attention, SwiGLU. The card documents no translation prompt: Fanyi's own
instructions ask for the translation only, and the chat template runs with thinking off."""

from __future__ import annotations

from .base import register
from .causal_lm import CausalLM


@register
class Qwen3(CausalLM):
    name = "qwen3"
    title = "Qwen3"
