"""HY-MT1.5 (tencent/HY-MT1.5-1.8B; HunYuanDenseV1ForCausalLM): like Qwen3, but the queries and keys are
normalised after the rotary embedding, whose base is scaled by the configuration's NTK alpha. Prompts
and languages are the model card's (its ZH<=>XX and XX<=>XX prompts, terminology and context), rendered
as its example code renders them: without the generation prompt, so the prompt ends with the template's
<｜hy_place▁holder▁no▁8｜>."""

from __future__ import annotations

from .base import register
from .causal_lm import CausalLM


@register
class HunYuan(CausalLM):
    name = "hunyuan"
    title = "HY-MT (HunYuan)"
