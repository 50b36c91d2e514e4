"""Decoder-only translation LLMs (HY-MT1.5 / HunYuan dense, Qwen3, Gemma 3 and TranslateGemma): how their
checkpoints are read and what their packs record.

The weights are named as the model's state dict names them ("model.layers.N.self_attn.q_proj"…), read a layer
at a time (fanyi.export.weights.Lazy) with the embedding table a block of rows at a time; the rotary tables are
computed from the configuration (fanyi.export.tables); the manifest records the languages each model offers,
as its card and template name them, and the prompts its card documents. Options the graphs do not implement
are refused in one line.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from ...engine.families.causal_lm import CHAT_TEMPLATE
from ...languages import MULTIPLE
from ..config_sizes import Stated
from ..weights import CausalWeights, DecoderBlock, Lazy, RopeSpec, Rotary, Table, Tensors, read_linear
from .base import ExportRefused, HfFolder, Loader

# rotary tables are stored up to this many positions: a translation request never needs more, and
# a 128k-position table would weigh 64 MB
MAX_TABLE_POSITIONS = 8192
# config.json values the graphs implement; anything else set is refused by name (check_config)
ROPE_TYPES = ("default", "linear", "dynamic")


class CausalLMLoader(Loader):
    activation: ClassVar[str] = "silu"  # the MLP's gate in the graph: "silu" (SwiGLU) or "gelu_tanh" (GeGLU)
    activation_key: ClassVar[str] = "hidden_act"  # where config.json names it, and as what
    config_activation: ClassVar[str] = "silu"
    # the card's prompts (engine/prompt.py): key → (text, the language its language names are written in)
    instructions: ClassVar[dict[str, tuple[str, str]]]
    term_line: ClassVar[str] = "{term} → {translation}"
    template_kwargs: ClassVar[dict[str, bool]] = {}
    generation_prompt: ClassVar[bool] = True  # add_generation_prompt, as the card's example renders its prompt
    strip_think: ClassVar[bool] = True
    # code → (English name, Chinese name): the languages offered, as the prompts name them
    languages: ClassVar[dict[str, tuple[str, str]]]
    # the attention's per-head query and key RMSNorms, and the norm before the MLP, as transformers names them
    qk_norm_modules: ClassVar[tuple[str, str]] = ("q_norm", "k_norm")
    pre_ffn_norm_module: ClassVar[str] = "post_attention_layernorm"

    # --- export: the folder and its configuration -------------------------------------------------
    def check_folder(self, folder: HfFolder) -> None:
        if not folder.has("tokenizer.json"):
            raise ExportRefused(
                f"{folder.path / 'tokenizer.json'} is missing: {self.title} packs need the fast tokenizer's file"
            )
        self.check_config(self.model_config(folder))

    def check_config(self, config: Any) -> None:
        """Refuse, in one line, an option of config.json the graphs do not implement."""
        rope = config.rope_scaling or {}
        kind = rope.get("rope_type", rope.get("type", "default")) if isinstance(rope, dict) else "default"
        if kind not in ROPE_TYPES:
            raise ExportRefused(f"rope_scaling type {kind!r} is not supported (supported: {', '.join(ROPE_TYPES)})")
        if getattr(config, "partial_rotary_factor", 1.0) != 1.0:
            raise ExportRefused("partial_rotary_factor is not supported: the graphs rotate whole heads")
        act = getattr(config, self.activation_key, self.config_activation)
        if act != self.config_activation:
            raise ExportRefused(
                f"{self.activation_key} {act!r} is not supported for {self.title} (expected {self.config_activation!r})"
            )

    def rope_kind(self, config: Any) -> str:
        rope = config.rope_scaling or {}
        return str(rope.get("rope_type", rope.get("type", "default")))

    def rotary_specs(self, config: Any) -> dict[str, RopeSpec]:
        """Each rotary embedding of the model by the key DecoderBlock.rotary names. A "dynamic" rope is the
        default one at every position up to max_position_embeddings, and the tables stop there."""
        factor = float(config.rope_scaling["factor"]) if self.rope_kind(config) == "linear" else 1.0
        return {"global": RopeSpec(float(config.rope_theta), self.head_dim(config), factor)}

    def table_positions(self, config: Any) -> int:
        return min(int(config.max_position_embeddings), MAX_TABLE_POSITIONS)

    # --- export: weights ----------------------------------------------------------------------------
    def decoder_prefix(self, tensors: Tensors) -> str:
        """Where the decoder's tensors are in the checkpoint."""
        return "model."

    def head_names(self, tensors: Tensors) -> tuple[str, ...]:
        """Where an untied output matrix may be."""
        return ("lm_head.weight",)

    def norm(self, tensors: Tensors, name: str) -> np.ndarray:
        """An RMSNorm's multiplier as applied (Gemma overrides: 1 + w)."""
        return tensors.array(f"{name}.weight")

    def block(self, tensors: Tensors, prefix: str, index: int, config: Any) -> DecoderBlock:
        att, mlp = f"{prefix}self_attn.", f"{prefix}mlp."
        q_norm, k_norm = self.qk_norm_modules
        return DecoderBlock(
            input_norm=self.norm(tensors, f"{prefix}input_layernorm"),
            q=read_linear(tensors, f"{att}q_proj"),
            k=read_linear(tensors, f"{att}k_proj"),
            v=read_linear(tensors, f"{att}v_proj"),
            o=read_linear(tensors, f"{att}o_proj"),
            pre_ffn_norm=self.norm(tensors, f"{prefix}{self.pre_ffn_norm_module}"),
            gate=read_linear(tensors, f"{mlp}gate_proj"),
            up=read_linear(tensors, f"{mlp}up_proj"),
            down=read_linear(tensors, f"{mlp}down_proj"),
            rotary="global",
            q_norm=self.norm(tensors, f"{att}{q_norm}"),
            k_norm=self.norm(tensors, f"{att}{k_norm}"),
        )

    def tied(self, config: Any) -> bool:
        return bool(config.tie_word_embeddings)

    def weights(self, tensors: Tensors, config: Any, rotary: dict[str, Rotary]) -> CausalWeights:
        cfg = config
        prefix = self.decoder_prefix(tensors)
        embedding = Table(tensors, f"{prefix}embed_tokens.weight")
        if self.tied(cfg):  # transformers ties the output matrix to the embedding: a stored lm_head is not read
            lm_head = embedding
        else:
            heads = [name for name in self.head_names(tensors) if tensors.has(name)]
            if not heads:
                raise ValueError(f"the checkpoint has no {self.head_names(tensors)[0]} and its config does not tie it")
            lm_head = Table(tensors, heads[0])
        return CausalWeights(
            hidden_size=cfg.hidden_size,
            heads=cfg.num_attention_heads,
            kv_heads=cfg.num_key_value_heads,
            head_dim=self.head_dim(cfg),
            activation=self.activation,
            rms_eps=float(cfg.rms_norm_eps),
            embedding=embedding,
            lm_head=lm_head,
            final_norm=self.norm(tensors, f"{prefix}norm"),
            layers=Lazy(cfg.num_hidden_layers, lambda i: self.block(tensors, f"{prefix}layers.{i}.", i, cfg)),
            rotary=rotary,
            attention_scale=self.attention_scale(cfg),
            **self.extras(cfg),
        )

    def stated_shapes(self, config: Any, tensors: Tensors) -> list[Stated]:
        cfg, width, head = config, ("hidden_size", config.hidden_size), self.head_dim(config)
        prefix = self.decoder_prefix(tensors)
        attention = f"{prefix}layers.0.self_attn."
        return [
            Stated(f"{prefix}embed_tokens.weight", (("vocab_size", cfg.vocab_size), width)),
            Stated(f"{prefix}layers.0.mlp.gate_proj.weight", (("intermediate_size", cfg.intermediate_size), width)),
            Stated(
                f"{attention}q_proj.weight", (("num_attention_heads × head_dim", cfg.num_attention_heads * head), width)
            ),
            Stated(
                f"{attention}k_proj.weight", (("num_key_value_heads × head_dim", cfg.num_key_value_heads * head), width)
            ),
        ]

    def stated_layers(self, config: Any, tensors: Tensors) -> list[tuple[str, int, str]]:
        return [("num_hidden_layers", config.num_hidden_layers, f"{self.decoder_prefix(tensors)}layers.")]

    def head_dim(self, config: Any) -> int:
        return int(getattr(config, "head_dim", None) or config.hidden_size // config.num_attention_heads)

    def attention_scale(self, config: Any) -> float:
        return float(float(self.head_dim(config)) ** -0.5)

    def extras(self, config: Any) -> dict[str, Any]:
        """CausalWeights fields beyond the common ones (embedding scale, soft-capping, norm order)."""
        return {}

    # --- export: the manifest ----------------------------------------------------------------------
    def manifest_architecture(self, config: Any, weights: Any) -> dict[str, Any]:
        cfg = config
        return {
            "hidden_size": cfg.hidden_size,
            "layers": cfg.num_hidden_layers,
            "heads": cfg.num_attention_heads,
            "kv_heads": cfg.num_key_value_heads,
            "head_dim": self.head_dim(cfg),
            "ffn_dim": cfg.intermediate_size,
            "vocab_size": int(weights.lm_head.shape[0]),
            "max_positions": self.table_positions(cfg),
            "activation": self.activation,
            "sliding_window": self.sliding_window(cfg),
            "rope": self.rope_kind(cfg),
        }

    def sliding_window(self, config: Any) -> int | None:
        return None

    def manifest_languages(
        self, folder: HfFolder, hf_tokenizer: Callable[[], Any], generation: dict[str, Any]
    ) -> dict[str, Any]:
        codes = list(self.languages)
        default = "zh" if "zh" in codes else codes[0]
        return {
            "source_lang": MULTIPLE,
            "target_lang": MULTIPLE,
            "languages": {
                "source": codes,
                "target": codes,
                "names": {code: list(names) for code, names in self.languages.items()},
            },
            "target_tokens": {},
            "default_target": default,
            "unk": hf_tokenizer().unk_token_id,
        }

    def message_format(self, template: str) -> str:
        """How a request's text is put in the user message: as the instruction, or as a record the template
        itself turns into one (TranslateGemma)."""
        return "text"

    def manifest_prompt(self, hf_tokenizer: Any) -> dict[str, Any]:
        special = {key: value for key, value in hf_tokenizer.special_tokens_map.items() if isinstance(value, str)}
        return {
            "chat_template": CHAT_TEMPLATE,
            "special_tokens": special,
            "template_kwargs": dict(self.template_kwargs),
            "generation_prompt": self.generation_prompt,
            "message": self.message_format(hf_tokenizer.chat_template or ""),
            "instructions": {key: {"text": text_, "names": names} for key, (text_, names) in self.instructions.items()},
            "term_line": self.term_line,
            "strip": {"think": self.strip_think, "prefixes": []},
        }
