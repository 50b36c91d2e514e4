"""Decoder-only translation LLMs: what HY-MT1.5 (HunYuan dense), Qwen3 and TranslateGemma (Gemma 3) share.

One graph runs the prompt and then each new token (fanyi.export.causal_graphs, run by
fanyi.engine.causal_runner): RMSNorm, rotary embeddings, grouped-query attention with the key/value
cache written in place, a gated MLP. A request's text becomes a prompt through the model's own chat
template and the instructions its card documents (engine/prompt.py). Decoding is greedy.

The models differ in how their checkpoints are read and in what their packs record (fanyi.export.loaders):
their runtime is this one, driven by each pack's manifest.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from tokenizers import Tokenizer

from ... import limits
from ...languages import base_language
from ..causal_runner import CausalRunner
from ..chat_tokenizer import ChatTokenizer, check_streamable
from ..language_choice import LanguageChoice, pick_languages
from ..prompt import CONTEXT, DEFAULT, FORMATTED, SUMMARIZE, TERMINOLOGY, Prompts, Request, strip_rule
from ..schema import Invalid, integer, show, text
from ..segment import Segment, split_paragraphs
from .base import (
    ACTIVATION,
    HEADS,
    LAYERS,
    POSITIONS,
    VOCAB,
    WIDTH,
    Family,
    clean_up_spaces,
    informative,
)

if TYPE_CHECKING:
    from ..options import DecodeOptions
    from ..pack_view import PackView
    from ..search import Decoder, SearchSettings

CHAT_TEMPLATE = "chat_template.jinja"
# a paragraph longer than this (in prompt tokens) is cut at sentence ends; the rest of the model's
# positions are left for the translation
PARAGRAPH_TOKENS = 640
# a prompt to summarize holds at most this many tokens: the key/value cache of Qwen3-1.7B's 28 layers is ~0.35 GB
# at 1,536 + 512 positions in fp32, and its prompt takes seconds on two cores
SUMMARY_PROMPT_TOKENS = 1536


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

    def check_tokenizer_json(self, content: str) -> None:
        check_streamable(Tokenizer.from_str(content))

    def summarizes(self, manifest: dict[str, Any]) -> bool:
        """An LLM pack summarizes when its prompts say how (Qwen3's; not models made only to translate)."""
        return SUMMARIZE in (manifest["prompt"] or {}).get("instructions", {})

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
        summary = bool(options and options.summary)
        return LanguageChoice(None, None, base_language(source), base_language(target), source, target, summary)

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
        return Request(choice.source or "", choice.target or "", tuple(terms), context, formatted, choice.summary)

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

    def max_summary_source_tokens(self, pack: PackView) -> int:
        return min(SUMMARY_PROMPT_TOKENS, int(pack.architecture["max_positions"]) // 2)

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
