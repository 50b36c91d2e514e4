"""Decoder-only translation LLMs: what HY-MT1.5 (HunYuan dense), Qwen3 and TranslateGemma (Gemma 3) share.

One graph runs the prompt and then each new token (fanyi.export.causal_graphs, run by
fanyi.engine.causal_runner): RMSNorm, rotary embeddings, grouped-query attention with the key/value
cache written in place, a gated MLP. A request's text becomes a prompt through the model's own chat
template and the instructions its card documents (engine/prompt.py). Decoding is greedy.

Each model's module says what differs: the names of its weights, where its norms sit, its rotary
tables, its prompts and languages. Options the graphs do not implement are refused in one line.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from ... import limits
from ...languages import MULTIPLE, base_language
from ..causal_runner import CausalRunner
from ..chat_tokenizer import ChatTokenizer
from ..language_choice import LanguageChoice, pick_languages
from ..prompt import CONTEXT, DEFAULT, FORMATTED, TERMINOLOGY, Prompts, Request, strip_rule
from ..schema import Invalid, integer, show, text
from ..segment import Segment, split_paragraphs
from .base import (
    ACTIVATION,
    HEADS,
    LAYERS,
    POSITIONS,
    VOCAB,
    WIDTH,
    ExportRefused,
    Family,
    HfFolder,
    clean_up_spaces,
    informative,
)
from .weights import CausalWeights, DecoderBlock, Lazy, RopeSpec, Rotary, Table, Tensors, read_linear

if TYPE_CHECKING:
    from ..options import DecodeOptions
    from ..pack_view import PackView
    from ..search import Decoder, SearchSettings

CHAT_TEMPLATE = "chat_template.jinja"
# a paragraph longer than this (in prompt tokens) is cut at sentence ends; the rest of the model's
# positions are left for the translation
PARAGRAPH_TOKENS = 640
# rotary tables are stored up to this many positions: a translation request never needs more, and
# a 128k-position table would weigh 64 MB
MAX_TABLE_POSITIONS = 8192
# config.json values the graphs implement; anything else set is refused by name (check_config)
ROPE_TYPES = ("default", "linear", "dynamic")


class CausalLM(Family):
    graphs = ("decoder.onnx",)
    tokenizer_files = ("tokenizer.json", CHAT_TEMPLATE)
    many_to_many = True
    decoder_only = True
    batch_size = 4  # paragraphs, each with a cache of its prompt and translation: 16 would take gigabytes
    architecture_fields: ClassVar[dict[str, Any]] = {
        "hidden_size": WIDTH,
        "layers": LAYERS,
        "heads": HEADS,
        "kv_heads": HEADS,
        "head_dim": WIDTH,
        "ffn_dim": WIDTH,
        "vocab_size": VOCAB,
        "max_positions": POSITIONS,
        "activation": informative(ACTIVATION),
        "sliding_window": informative(integer(1, limits.MAX_POSITIONS)),
        "rope": informative(text(r"[a-z0-9_]{1,32}")),
    }
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

    # --- the manifest -----------------------------------------------------------------------------
    def check_manifest(self, manifest: dict[str, Any]) -> None:
        arch = manifest["architecture"]
        if arch["heads"] % arch["kv_heads"]:
            raise Invalid(
                "architecture",
                f"says {arch['heads']} query heads for {arch['kv_heads']} key/value heads, which do not divide them",
            )
        languages, prompt = manifest["languages"], manifest["prompt"]
        if languages is None or languages["names"] is None:
            raise Invalid("languages", f"is missing: a {self.title} pack names its languages")
        for side in ("source", "target"):
            if unknown := [c for c in languages[side] if c not in languages["names"]]:
                raise Invalid(f"languages.{side}", f"lists {show(unknown[0])}, which languages.names lacks")
        if prompt is None:
            raise Invalid("prompt", f"is missing: a {self.title} pack says how it prompts its model")
        if DEFAULT not in prompt["instructions"]:
            raise Invalid("prompt.instructions", "has no default instruction")
        if prompt["chat_template"] not in manifest["files"]:
            raise Invalid("prompt.chat_template", f"names {show(prompt['chat_template'])}, which files does not list")
        default = manifest["default_target"]
        if default is not None and default not in languages["target"]:
            raise Invalid("default_target", f"{show(default)} is not one of languages.target")

    # --- the runtime ------------------------------------------------------------------------------
    def open_tokenizer(self, pack: PackView) -> ChatTokenizer:
        section = pack.manifest["prompt"]

        def read_template(path: Path) -> str:
            if path.stat().st_size > limits.MAX_CHAT_TEMPLATE_BYTES:
                raise ValueError(f"more than {limits.MAX_CHAT_TEMPLATE_BYTES} bytes")
            return path.read_text(encoding="utf-8")

        template = pack.load(section["chat_template"], read_template)
        prompts = pack.load(section["chat_template"], lambda _path: Prompts(section, template, pack.language_names))
        ids = pack.special_ids
        clean = clean_up_spaces(pack)
        return pack.load(
            "tokenizer.json",
            lambda path: ChatTokenizer(
                path,
                prompts,
                strip_rule(section["strip"]),
                ids.get("eos_all") or [ids["eos"]],
                clean_up_tokenization_spaces=clean,
            ),
        )

    def choose(self, pack: PackView, options: DecodeOptions | None) -> LanguageChoice:
        source, target = pick_languages(pack, options)
        return LanguageChoice(None, None, base_language(source), base_language(target), source, target)

    def encode(
        self,
        tokenizer: Any,
        text_: str,
        choice: LanguageChoice,
        terms: Sequence[tuple[str, str]] = (),
        context: str = "",
        formatted: bool = False,
    ) -> list[int]:
        ids: list[int] = tokenizer.encode(text_, self.request(choice, terms, context, formatted))
        return ids

    def request(
        self,
        choice: LanguageChoice,
        terms: Sequence[tuple[str, str]] = (),
        context: str = "",
        formatted: bool = False,
    ) -> Request:
        return Request(choice.source or "", choice.target or "", tuple(terms), context, formatted)

    def takes_terms(self, tokenizer: Any) -> bool:
        return bool(tokenizer.prompts.has(TERMINOLOGY))

    def takes_context(self, tokenizer: Any) -> bool:
        return bool(tokenizer.prompts.has(CONTEXT))

    def takes_formatted(self, tokenizer: Any) -> bool:
        return bool(tokenizer.prompts.has(FORMATTED))

    def open_runner(self, pack: PackView, threads: int | None) -> CausalRunner:
        return CausalRunner(pack, threads)

    def max_source_tokens(self, pack: PackView) -> int:
        return min(PARAGRAPH_TOKENS, int(pack.architecture["max_positions"]) // 2)

    # --- decoding ---------------------------------------------------------------------------------
    def split(self, text_: str, source_lang: str, max_tokens: int, count: Callable[[str], int]) -> list[Segment]:
        return split_paragraphs(text_, source_lang=source_lang, max_tokens=max_tokens, count_tokens=count)

    def start(
        self, runner: Any, tokenizer: Any, choice: LanguageChoice, sources: list[list[int]], settings: SearchSettings
    ) -> tuple[Decoder, SearchSettings]:
        # greedy; and the new tokens fit the positions the longest prompt leaves
        room = runner.max_positions - max(len(s) for s in sources)
        settings = replace(settings, num_beams=1, max_length=max(2, min(settings.max_length, room + 1)))
        prefix = tokenizer.prefix_ids(self.request(choice))
        return runner.encode(sources, 1, settings.max_length - 1, prefix), settings

    def checked_ids(self, tokenizer: Any, ids: Sequence[int], text_: str | None) -> Sequence[int]:
        return ids if text_ is None else tokenizer.encode_text(text_)

    def stream_decoder(self, tokenizer: Any) -> Any:
        return tokenizer.stream_decoder()
