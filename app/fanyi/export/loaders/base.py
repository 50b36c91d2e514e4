"""What every loader says: which Hugging Face folders it reads, their configuration, and the manifest's record.

A loader is the export side of one model family (fanyi.engine.families holds the runtime side): it knows the
Hugging Face architecture, the configuration class's defaults, the names of the checkpoint's tensors and how
they become the graph builders' weights (fanyi.export.weights), the tables a model computes, and what the
manifest records of the model. One module per architecture, each overriding only what differs, as
CTranslate2's converters have one loader per architecture. Nothing here imports torch or transformers.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any, ClassVar

from ...engine import FAMILIES
from ...engine.families import Family
from ..config_sizes import Stated, check_bounds
from ..weights import Tensors

UNSUPPORTED = "{architecture} is not supported; Fanyi exports {supported}"


class ExportRefused(ValueError):
    """A Hugging Face folder no loader reads; the message names its architecture or the problem."""


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


class Loader:
    """The base of every loader: the registry's entry and the hooks the exporter calls."""

    family_name: ClassVar[str]  # the runtime family it makes packs of (the manifest's architecture.type)
    architectures: ClassVar[tuple[str, ...]]  # config.json "architectures" this loader reads
    model_types: ClassVar[tuple[str, ...]]  # config.json "model_type", for folders that name no architecture
    model_class: ClassVar[str]  # the transformers class that validates a pack (fanyi validate)
    hf_tokenizer_class: ClassVar[str]  # transformers' tokenizer class where tokenizer_config.json names none
    # transformers' configuration class of the architecture: the default of every argument of its __init__ (and of
    # PretrainedConfig's that the export reads), which a released config.json may leave out (gemma-3-4b-it's
    # text_config sets five of them)
    config_defaults: ClassVar[dict[str, Any]] = {}

    @property
    def family(self) -> Family:
        return FAMILIES[self.family_name]

    @property
    def name(self) -> str:
        return self.family_name

    @property
    def title(self) -> str:
        return self.family.title

    @property
    def decoder_only(self) -> bool:
        return self.family.decoder_only

    # --- which folders ---------------------------------------------------------------------------
    def claims(self, folder: HfFolder) -> bool:
        """Whether this loader reads the folder (its architecture already matched)."""
        return True

    def refusal(self, folder: HfFolder) -> str:
        """Why a folder of this loader's architecture is not exported (when claims() is False)."""
        return f"{folder.path}: {folder.architecture} is not supported"

    def check_folder(self, folder: HfFolder) -> None:
        """ExportRefused when the folder lacks what the export needs."""
        raise NotImplementedError

    def model_config(self, folder: HfFolder) -> SimpleNamespace:
        """The configuration the model is built from, as its configuration class reads config.json: the file's
        values over config_defaults, then what the class derives from them, read as attributes."""
        return self.configured(folder.config)

    def configured(self, values: dict[str, Any]) -> SimpleNamespace:
        """``values`` over config_defaults, their sizes held to the limits (ExportError) before anything is derived
        from them, then derived."""
        config = SimpleNamespace(**{**self.config_defaults, **values})
        check_bounds(config, positions=not self.decoder_only)
        return self.derived(config)

    def derived(self, config: SimpleNamespace) -> SimpleNamespace:
        """What the configuration class's __init__ computes from the values it is given (nothing, unless a
        loader says so)."""
        return config

    def stated_shapes(self, config: Any, tensors: Tensors) -> list[Stated]:
        """Tensors whose shapes config.json states, checked against the checkpoint before any work."""
        return []

    def stated_layers(self, config: Any, tensors: Tensors) -> list[tuple[str, int, str]]:
        """The layers config.json counts: (key, count, the prefix of their tensors' names)."""
        return []

    # --- what the manifest records ---------------------------------------------------------------
    def manifest_architecture(self, config: Any, weights: Any) -> dict[str, Any]:
        raise NotImplementedError

    def manifest_languages(
        self, folder: HfFolder, hf_tokenizer: Callable[[], Any], generation: dict[str, Any]
    ) -> dict[str, Any]:
        raise NotImplementedError

    def manifest_extra(self, folder: HfFolder, config: Any, generation: dict[str, Any]) -> dict[str, Any]:
        """Manifest fields of this family alone; a dict value is merged into the field of that name."""
        return {}

    # --- what the exporter takes besides generate()'s own settings and the folder's files -------------
    def task_generation(self, folder: HfFolder) -> dict[str, Any]:
        """Generation settings a pipeline puts over generate()'s (BART's task_specific_params.summarization)."""
        return {}

    def made_tokenizer_files(self, folder: HfFolder) -> dict[str, bytes]:
        """Tokenizer files the pack needs and the folder lacks, made from what it has, by file name."""
        return {}


# --- the registry ------------------------------------------------------------------------------
LOADERS: dict[str, Loader] = {}  # by the family's name
_BY_ARCHITECTURE: dict[str, list[Loader]] = {}  # by config.json architecture and by model_type


def register(cls: type[Loader]) -> type[Loader]:
    """Class decorator: one instance of the loader, found by its family's name and its architectures."""
    loader = cls()
    if loader.family_name in LOADERS:
        raise ValueError(f"loader of {loader.family_name!r} registered twice")
    LOADERS[loader.family_name] = loader
    for key in (*cls.architectures, *cls.model_types):
        _BY_ARCHITECTURE.setdefault(key, []).append(loader)
    return cls


def supported() -> str:
    """The architectures the exporter takes, for messages."""
    return ", ".join(f"{arch} ({loader.title})" for loader in LOADERS.values() for arch in loader.architectures)


def loader_for_folder(folder: HfFolder) -> Loader:
    """The loader that reads a Hugging Face folder; ExportRefused names what the folder is instead."""
    names = folder.config.get("architectures") or []
    candidates = (
        _BY_ARCHITECTURE.get(str(names[0]), [])
        if names
        else _BY_ARCHITECTURE.get(str(folder.config.get("model_type")), [])
    )
    for loader in candidates:
        if loader.claims(folder):
            return loader
    if candidates:
        raise ExportRefused(candidates[-1].refusal(folder))
    raise ExportRefused(
        f"{folder.path}: " + UNSUPPORTED.format(architecture=folder.architecture, supported=supported())
    )
