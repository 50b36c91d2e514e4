"""What every model family has to say, and the registry that finds a family by name or by folder.

A family is one architecture as Fanyi exports and runs it: MarianMT, mBART-50, M2M100, NLLB-200,
and the decoder-only translation LLMs. Each is a class in a module of its own that overrides only
what differs from its base (weights mapping, positions, tokenizer, language choice, prompt); the
exporter, ModelPack, the runner and the Translator ask the family and never compare its name.

Families are registered by the Hugging Face architecture they export (config.json "architectures")
and by the name a pack's manifest gives them (``architecture.type``). Export-time methods take the
folder's configuration (config.json over the defaults of transformers' configuration class) and its
tensors by name (fanyi.export reads them from safetensors): nothing here imports torch or transformers.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, ClassVar

from ... import limits
from ..detok import StreamDecoder
from ..schema import Check, Invalid, integer, optional, text
from ..segment import Segment, split_text

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..language_choice import LanguageChoice
    from ..options import DecodeOptions
    from ..pack_view import PackView
    from ..search import Decoder, SearchSettings

OPTIONAL_TOKENIZER_FILES = ("tokenizer_config.json",)  # decode settings (clean-up of spaces)
UNSUPPORTED = "{architecture} is not supported; Fanyi exports {supported}"


class ExportRefused(ValueError):
    """A Hugging Face folder no family exports; the message names its architecture or the problem."""


@dataclass(frozen=True)
class HfFolder:
    """A Hugging Face model folder as the exporter finds it: config.json and tokenizer_config.json read once."""

    path: Path
    config: dict[str, Any]
    tokenizer_config: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def read(cls, path: Path) -> HfFolder:
        if not (path / "config.json").is_file():
            raise ExportRefused(f"{path} is not a Hugging Face model folder: config.json is missing")
        return cls(
            path,
            _read_json(path / "config.json"),
            _read_json(path / "tokenizer_config.json") if (path / "tokenizer_config.json").is_file() else {},
        )

    @property
    def architecture(self) -> str:
        names = self.config.get("architectures") or []
        return str(names[0]) if names else f"model_type {self.config.get('model_type')!r}"

    @property
    def tokenizer_class(self) -> str:
        return str(self.tokenizer_config.get("tokenizer_class") or "")

    def has(self, name: str) -> bool:
        return (self.path / name).is_file()


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ExportRefused(f"{path} cannot be read: {exc}") from None
    return data if isinstance(data, dict) else {}


class Family:
    """The base of every family: the registry's entry and the hooks ModelPack, the runner, the
    Translator and the exporter call. Subclasses fill in the class attributes and override hooks."""

    name: ClassVar[str]  # the manifest's architecture.type
    title: ClassVar[str]  # for messages: "MarianMT", "Qwen3"
    architectures: ClassVar[tuple[str, ...]]  # config.json "architectures" this family exports
    model_types: ClassVar[tuple[str, ...]]  # config.json "model_type", for folders that name no architecture
    model_class: ClassVar[str]  # the transformers class that validates a pack (fanyi validate)
    hf_tokenizer_class: ClassVar[str]  # transformers' tokenizer class where tokenizer_config.json names none
    tokenizer_files: ClassVar[tuple[str, ...]]  # required in the pack
    graphs: ClassVar[tuple[str, ...]]  # the ONNX graphs a pack of this family holds
    architecture_fields: ClassVar[dict[str, Any]]  # the manifest's architecture record (schema checks)
    many_to_many: ClassVar[bool] = False  # languages listed in the manifest, chosen per request
    decoder_only: ClassVar[bool] = False  # one graph for the prompt and each step (the LLMs), greedy only
    batch_size: ClassVar[int] = 16  # parts decoded together by translate_results (sorted by length)
    # what transformers' configuration class of the architecture assumes for the config.json keys the export
    # reads, where a config.json leaves them out (a saved config.json omits values equal to these)
    config_defaults: ClassVar[dict[str, Any]] = {}

    # --- export: which folders, and what the manifest records ----------------------------------
    def claims(self, folder: HfFolder) -> bool:
        """Whether this family exports the folder (its architecture already matched)."""
        return True

    def refusal(self, folder: HfFolder) -> str:
        """Why a folder of this family's architecture is not exported (when claims() is False)."""
        return f"{folder.path}: {folder.architecture} is not supported"

    def check_folder(self, folder: HfFolder) -> None:
        """ExportRefused when the folder lacks what the export needs."""
        raise NotImplementedError

    def model_config(self, folder: HfFolder) -> SimpleNamespace:
        """The configuration the model is built from: config.json over config_defaults, read as attributes."""
        return SimpleNamespace(**{**self.config_defaults, **folder.config})

    def manifest_architecture(self, config: Any, weights: Any) -> dict[str, Any]:
        raise NotImplementedError

    def manifest_languages(
        self, folder: HfFolder, hf_tokenizer: Callable[[], Any], generation: dict[str, Any]
    ) -> dict[str, Any]:
        raise NotImplementedError

    # --- the manifest ----------------------------------------------------------------------------
    def check_manifest(self, manifest: dict[str, Any]) -> None:
        """What the schema cannot say field by field; raises schema.Invalid."""

    def extra_position_rows(self) -> int:
        """Rows of a position table beyond max_positions (shared.*_positions), where the family has one."""
        return 0

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
_BY_ARCHITECTURE: dict[str, list[Family]] = {}  # by config.json architecture and by model_type


def register(cls: type[Family]) -> type[Family]:
    """Class decorator: one instance of the family, found by its name and its architectures."""
    family = cls()
    if family.name in FAMILIES:
        raise ValueError(f"family {family.name!r} registered twice")
    FAMILIES[family.name] = family
    for key in (*cls.architectures, *cls.model_types):
        _BY_ARCHITECTURE.setdefault(key, []).append(family)
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


def supported() -> str:
    """The architectures the exporter takes, for messages."""
    return ", ".join(f"{arch} ({f.title})" for f in FAMILIES.values() for arch in f.architectures)


def family_for_folder(folder: HfFolder) -> Family:
    """The family that exports a Hugging Face folder; ExportRefused names what the folder is instead."""
    names = folder.config.get("architectures") or []
    candidates = (
        _BY_ARCHITECTURE.get(str(names[0]), [])
        if names
        else _BY_ARCHITECTURE.get(str(folder.config.get("model_type")), [])
    )
    for family in candidates:
        if family.claims(folder):
            return family
    if candidates:
        raise ExportRefused(candidates[-1].refusal(folder))
    raise ExportRefused(
        f"{folder.path}: " + UNSUPPORTED.format(architecture=folder.architecture, supported=supported())
    )


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
