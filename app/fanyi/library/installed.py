"""Model packs on this machine: bundled (read-only) and user-installed; import, remove, fetch.

No Qt and no ONNX Runtime here: the CLI and the UI both use it.

One pack per name: when a user-installed pack and a bundled one share a name (an update downloaded
over the pack an installer shipped), the higher manifest ``pack_version`` wins (missing counts as
0), and on a tie the user's copy does. list_packs() shows only the winner, and find_pack() finds it.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import paths
from ..cancel import CancelToken
from ..engine import MANIFEST, ModelPack, PackError
from ..progress import ProgressCallback
from . import unpack
from .errors import LibraryError
from .memory import memory_needed

DEFAULT_PACK = "opus-mt-en-zh"


@dataclass(frozen=True)
class PackInfo:
    """A pack found on this machine. A broken one (`problem` says why) is listed so that it can be
    removed, never opened: its name is its folder's, its languages and quantization are "", its size 0."""

    name: str
    path: Path
    source_lang: str
    target_lang: str
    size_bytes: int
    quantization: str
    bundled: bool
    target_tokens: dict[str, Any]
    pack_version: int = 0  # the catalog version it was published as; 0 for packs not from a catalog
    languages: tuple[str, ...] = ()  # a many-to-many pack's target languages (model codes); empty for Marian
    problem: str | None = None
    source_languages: tuple[str, ...] = ()  # a many-to-many pack's source languages (model codes)
    default_target: str | None = None  # the target token or language asked for when none is named
    family: str = ""  # the model family for people: "MarianMT", "HY-MT (HunYuan)", "Qwen3"
    memory_bytes: int = 0  # what translating with it takes (library.memory.memory_needed)
    chat: bool = False  # a decoder-only LLM: it can answer a conversation through its own chat template
    translates: bool = True  # False: a summarizer only (BART), never chosen to translate
    summarizes: bool = False  # it writes summaries (fanyi.summaries): BART, an LLM whose prompts say how

    @property
    def usable(self) -> bool:
        return self.problem is None

    @property
    def origin(self) -> str:
        """Where it was found, for people: "bundled" (it came with Fanyi), "from FANYI_MODELS_DIR" (the folder
        that variable names) or "installed" (the user's packs)."""
        if not self.bundled:
            return "installed"
        models_dir = os.environ.get("FANYI_MODELS_DIR")
        if models_dir and self.path.parent.resolve() == Path(models_dir).resolve():
            return "from FANYI_MODELS_DIR"
        return "bundled"

    @classmethod
    def of(cls, pack: ModelPack, bundled: bool) -> PackInfo:
        return cls(
            pack.name,
            pack.path,
            pack.source_lang,
            pack.target_lang,
            pack.size_bytes,
            pack.quantization,
            bundled,
            pack.target_tokens,
            pack.pack_version or 0,
            tuple(pack.target_languages),
            source_languages=tuple(pack.source_languages),
            default_target=pack.default_target,
            family=pack.family.title,
            memory_bytes=memory_needed(pack.manifest),
            chat=pack.family.decoder_only,
            translates=pack.translates,
            summarizes=pack.summarizes,
        )

    @classmethod
    def broken(cls, path: Path, bundled: bool, problem: str) -> PackInfo:
        return cls(path.name, path, "", "", 0, "", bundled, {}, problem=problem)


def _candidates(folder: Path) -> list[Path]:
    """Folders holding a manifest; hidden ones are imports still being unpacked."""
    try:
        entries = sorted(folder.iterdir()) if folder.is_dir() else []
    except OSError:  # an unreadable folder holds no pack we could use
        return []
    return [p for p in entries if not p.name.startswith(".") and os.path.lexists(p / MANIFEST)]


def list_packs() -> list[PackInfo]:
    """Every pack: the usable ones one per name (see the module docstring), and every broken one
    (PackInfo.problem says why); manifests are read, checksums are left to opening a pack for use."""
    usable: dict[str, PackInfo] = {}
    broken: list[PackInfo] = []
    seen: set[Path] = set()
    for folder in pack_folders():
        bundled = folder != paths.user_packs_dir()
        for candidate in _candidates(folder):
            if candidate.resolve() in seen:
                continue
            seen.add(candidate.resolve())
            try:
                info = PackInfo.of(ModelPack.open(candidate, verify=False), bundled)
            except PackError as exc:
                broken.append(PackInfo.broken(candidate, bundled, str(exc)))
                continue
            held = usable.get(info.name)
            if held is None or _rank(info) > _rank(held):
                usable[info.name] = info
    return [*usable.values(), *broken]


def _rank(info: PackInfo) -> tuple[int, bool]:
    return info.pack_version, not info.bundled


def _named(packs: list[PackInfo], name_or_path: str) -> PackInfo | None:
    """The pack of that name, folder name or folder path."""
    as_path = Path(name_or_path).expanduser()
    folder = as_path.resolve() if as_path.is_dir() else None
    return next((p for p in packs if name_or_path in (p.name, p.path.name) or p.path.resolve() == folder), None)


def find_pack(name_or_path: str | None = None) -> PackInfo:
    """A usable pack by folder path or by name; with None, the default pack (en→zh preferred)."""
    if name_or_path and Path(name_or_path).expanduser().is_dir():
        try:
            return PackInfo.of(ModelPack.open(Path(name_or_path).expanduser(), verify=False), bundled=False)
        except PackError as exc:
            raise LibraryError(str(exc)) from None
    packs = list_packs()
    usable = [p for p in packs if p.usable]
    pack = _named(packs, name_or_path) if name_or_path else None
    if pack is not None and not pack.usable:
        raise LibraryError(f"the model pack {pack.name} is broken: {pack.problem}")
    if pack is not None:
        return pack
    default = preferred(usable)
    if default is None:
        raise LibraryError(no_model_message(packs))
    if name_or_path is None:
        return default
    raise LibraryError(f"no model pack named {name_or_path!r}; installed: {', '.join(p.name for p in usable)}")


def preferred(packs: list[PackInfo]) -> PackInfo | None:
    """The default of the usable `packs` (en→zh preferred), None when none is usable."""
    usable = [p for p in packs if p.usable]
    if not usable:
        return None
    from fanyi.routing import default_pack  # noqa: PLC0415 - the router (and langid) load only when asked

    return default_pack(usable, DEFAULT_PACK) or usable[0]


def pack_folders() -> list[Path]:
    """The folders searched for packs, in order: FANYI_MODELS_DIR, the bundle's, the user's."""
    return [*paths.bundled_packs_dirs(), paths.user_packs_dir()]


def no_model_message(packs: list[PackInfo] | None = None) -> str:
    broken = sum(not p.usable for p in packs or [])
    state = (
        f"No usable translation model is installed ({broken} broken: fanyi models list says why)"
        if broken
        else "No translation model is installed"
    )
    return (
        f"{state}. Download one with the app's Download button or fanyi models install {DEFAULT_PACK}, "
        "or import a pack: fanyi models import PACK_FOLDER_OR_ZIP"
    )


def import_pack(src: Path, progress: ProgressCallback | None = None, cancel: CancelToken | None = None) -> PackInfo:
    """Install a pack folder or .zip into the user packs folder: only the files its manifest lists,
    within the limits, every checksum verified, all or nothing (library.unpack)."""
    return PackInfo.of(unpack.install(Path(src), progress=progress, cancel=cancel), bundled=False)


def remove_pack(name: str) -> None:
    """Remove a user-installed pack, usable or broken; bundled packs stay."""
    pack = _named(list_packs(), name)
    if pack is None:
        raise LibraryError(f"no model pack named {name!r}")
    if pack.bundled or pack.path.parent.resolve() != paths.user_packs_dir().resolve():
        raise LibraryError(f"{pack.name} came with Fanyi and cannot be removed")
    if pack.path.is_symlink():
        pack.path.unlink()  # the link is what was installed here, not what it points to
    else:
        shutil.rmtree(pack.path)
