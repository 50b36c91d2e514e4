"""What every model family has to say, and the registry that finds a family by name or by folder.

A family is one architecture as Fanyi exports and runs it: MarianMT, mBART-50, M2M100, NLLB-200,
and the decoder-only translation LLMs. Each is a class in a module of its own that overrides only
what differs from its base (weights mapping, positions, tokenizer, language choice, prompt); the
exporter, ModelPack, the runner and the Translator ask the family and never compare its name.

Families are registered by the name a pack's manifest gives them (``architecture.type``). How a Hugging
Face checkpoint of each becomes a pack is the export's side (fanyi.export.loaders, one loader per family).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from tokenizers import Tokenizer

from ... import limits
from ..detok import StreamDecoder
from ..json_tokenizer import check_metaspace
from ..schema import Check, Invalid, integer, optional, text
from ..segment import Segment, split_text

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..language_choice import LanguageChoice
    from ..options import DecodeOptions
    from ..pack_view import PackView
    from ..search import Decoder, SearchSettings

OPTIONAL_TOKENIZER_FILES = ("tokenizer_config.json",)  # decode settings (clean-up of spaces)


class Family:
    """The base of every family: the registry's entry and the hooks ModelPack, the runner and the Translator
    call. Subclasses fill in the class attributes and override hooks."""

    name: ClassVar[str]  # the manifest's architecture.type
    title: ClassVar[str]  # for messages: "MarianMT", "Qwen3"
    tokenizer_files: ClassVar[tuple[str, ...]]  # required in the pack
    # the files of a pack whose manifest names another tokenizer ("tokenizer": "sentencepiece") than the usual
    other_tokenizers: ClassVar[dict[str, tuple[str, ...]]] = {}
    graphs: ClassVar[tuple[str, ...]]  # the ONNX graphs a pack of this family holds
    architecture_fields: ClassVar[dict[str, Any]]  # the manifest's architecture record (schema checks)
    many_to_many: ClassVar[bool] = False  # languages listed in the manifest, chosen per request
    decoder_only: ClassVar[bool] = False  # one graph for the prompt and each step (the LLMs), greedy only
    batch_size: ClassVar[int] = 16  # parts decoded together by translate_results (sorted by length)
    translates: ClassVar[bool] = True  # False: a summarizer, never offered to translate (BART)

    # --- the manifest ----------------------------------------------------------------------------
    def check_manifest(self, manifest: dict[str, Any]) -> None:
        """What the schema cannot say field by field; raises schema.Invalid."""

    def pack_tokenizer_files(self, manifest: dict[str, Any]) -> tuple[str, ...]:
        """The tokenizer files a pack with this manifest holds."""
        return self.other_tokenizers.get(manifest.get("tokenizer") or "", self.tokenizer_files)

    def summarizes(self, manifest: dict[str, Any]) -> bool:
        """Whether a pack with this manifest writes summaries (fanyi.summaries)."""
        return False

    def extra_position_rows(self) -> int:
        """Rows of a position table beyond max_positions (shared.*_positions), where the family has one."""
        return 0

    def check_tokenizer_json(self, content: str) -> None:
        """ValueError (one line) when a tokenizer.json's decoding cannot be streamed exactly: the exporter
        refuses such a model. The many-to-many families stream Metaspace pieces (json_tokenizer.py)."""
        check_metaspace(Tokenizer.from_str(content))

    # --- the runtime -----------------------------------------------------------------------------
    def open_tokenizer(self, pack: PackView) -> Any:
        raise NotImplementedError

    def choose(self, pack: PackView, options: DecodeOptions | None) -> LanguageChoice:
        """The languages of a request; ValueError (one line) for a language the pack does not offer."""
        raise NotImplementedError

    def encode(
        self,
        tokenizer: Any,
        text: str,
        choice: LanguageChoice,
        terms: Sequence[tuple[str, str]] = (),
        context: str = "",
        formatted: bool = False,
    ) -> list[int]:
        """A source's ids as the model reads them (a prompt, for an LLM). `terms` (glossary entries found in
        the text), `context` (the text before it) and `formatted` (the text marks its formatted spans
        <sn>…</sn>) only where takes_terms / takes_context / takes_formatted says so."""
        ids: list[int] = tokenizer.encode(text, choice.source_token)
        return ids

    def takes_terms(self, tokenizer: Any) -> bool:
        """Whether a glossary goes into the prompt (else its terms are protected by placeholders)."""
        return False

    def takes_context(self, tokenizer: Any) -> bool:
        """Whether the text before a paragraph can be given with it (an LLM's context prompt)."""
        return False

    def takes_formatted(self, tokenizer: Any) -> bool:
        """Whether a paragraph can be given with its formatted spans marked <sn>…</sn> (HY-MT1.5's formatted
        translation prompt), the translation marking them back."""
        return False

    def open_runner(self, pack: PackView, threads: int | None) -> Any:
        """What runs the pack's graphs: Runner (encoder-decoder) or CausalRunner (decoder-only)."""
        raise NotImplementedError

    def max_source_tokens(self, pack: PackView) -> int:
        """The most tokens encode() may give for one part of a text; longer sentences are cut."""
        raise NotImplementedError

    def max_summary_source_tokens(self, pack: PackView) -> int:
        """The most tokens encode() may give for a text to summarize (fanyi.summaries cuts longer ones)."""
        return self.max_source_tokens(pack)

    # --- decoding (the defaults are an encoder-decoder's) -------------------------------------------
    def split(self, text: str, source_lang: str, max_tokens: int, count: Callable[[str], int]) -> list[Segment]:
        """A text's pieces: sentences to translate and the layout between them."""
        return split_text(text, source_lang=source_lang)

    def start(
        self, runner: Any, tokenizer: Any, choice: LanguageChoice, sources: list[list[int]], settings: SearchSettings
    ) -> tuple[Decoder, SearchSettings]:
        """The decoder state of a batch, and the settings the search runs with."""
        return runner.encode(sources, settings.num_beams, settings.max_length - 1), settings

    def checked_ids(self, tokenizer: Any, ids: Sequence[int], text: str | None) -> Sequence[int]:
        """The ids a translation's length and loops are judged against (degenerate.SentenceCheck)."""
        return ids

    def stream_decoder(self, tokenizer: Any) -> Any:
        """What turns ids into streamed text (push/finish)."""
        return StreamDecoder(tokenizer)


# --- the registry ------------------------------------------------------------------------------
FAMILIES: dict[str, Family] = {}  # by manifest name


def register(cls: type[Family]) -> type[Family]:
    """Class decorator: one instance of the family, found by its name."""
    family = cls()
    if family.name in FAMILIES:
        raise ValueError(f"family {family.name!r} registered twice")
    FAMILIES[family.name] = family
    return cls


def family_named(name: str) -> Family:
    try:
        return FAMILIES[name]
    except KeyError:
        raise ValueError(
            f"architecture {name!r} is not supported (this Fanyi runs {', '.join(sorted(FAMILIES))})"
        ) from None


def family_of(manifest: dict[str, Any]) -> Family:
    """The family a manifest names; packs written before families existed are Marian."""
    return family_named((manifest.get("architecture") or {}).get("type", "marian"))


# --- checks the families share -----------------------------------------------------------------
LAYERS = integer(1, limits.MAX_LAYERS)
HEADS = integer(1, limits.MAX_HEADS)
WIDTH = integer(1, limits.MAX_MODEL_WIDTH)
VOCAB = integer(1, limits.MAX_VOCAB_SIZE)
POSITIONS = integer(1, limits.MAX_POSITIONS)
ACTIVATION = text(r"[a-z0-9_]{1,32}")


def check_ids_in_vocabulary(used: Sequence[tuple[str, int]], vocab: int) -> None:
    for where, token in used:
        if token >= vocab:
            raise Invalid(where, f"is token {token}, outside the vocabulary of {vocab} tokens")


def informative(check: Check) -> Any:
    """An architecture field kept for the record: what the exporter did; the runtime does not depend on it."""
    return optional(check)


def clean_up_spaces(pack: PackView) -> bool:
    """decode()'s clean-up of spaces, as the model's tokenizer_config.json sets it (default off)."""
    name = OPTIONAL_TOKENIZER_FILES[0]
    if name not in pack.manifest["files"]:
        return False

    def read(path: Path) -> bool:
        settings = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(settings, dict):
            raise ValueError("not a JSON object")
        return bool(settings.get("clean_up_tokenization_spaces", False))

    return pack.load(name, read)
