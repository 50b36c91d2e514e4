"""Model packs on this machine: bundled (read-only) and user-installed; import, remove, fetch.

No Qt and no ONNX Runtime here: the CLI and the UI both use it.

One pack per name: when a user-installed pack and a bundled one share a name (an update downloaded
over the pack an installer shipped), the higher manifest ``pack_version`` wins (missing counts as
0), and on a tie the user's copy does. list_packs() shows only the winner, and find_pack() finds it.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from . import paths
from .engine.options import CancelToken
from .engine.pack import MANIFEST, ModelPack, PackError

DEFAULT_PACK = "opus-mt-en-zh"
Progress = Callable[[int, int], None]


class LibraryError(Exception):
    pass


@dataclass(frozen=True)
class PackInfo:
    name: str
    path: Path
    source_lang: str
    target_lang: str
    size_bytes: int
    quantization: str
    bundled: bool
    target_tokens: dict
    pack_version: int = 0  # the catalog version it was published as; 0 for packs not from a catalog

    @classmethod
    def of(cls, pack: ModelPack, bundled: bool) -> "PackInfo":
        version = pack.manifest.get("pack_version", 0)
        return cls(pack.name, pack.path, pack.source_lang, pack.target_lang, pack.size_bytes, pack.quantization,
                   bundled, pack.target_tokens, version if isinstance(version, int) else 0)


def _candidates(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if (p / MANIFEST).is_file())


def list_packs() -> list[PackInfo]:
    """Every readable pack, one per name (see the module docstring); manifests are read but checksums
    are left to opening a pack for use."""
    found: dict[str, PackInfo] = {}
    seen: set[Path] = set()
    sources = [(d, True) for d in paths.bundled_packs_dirs()] + [(paths.user_packs_dir(), False)]
    for folder, bundled in sources:
        for candidate in _candidates(folder):
            if candidate.resolve() in seen:
                continue
            seen.add(candidate.resolve())
            try:
                info = PackInfo.of(ModelPack.open(candidate, verify=False), bundled)
            except PackError:
                continue
            held = found.get(info.name)
            if held is None or _rank(info) > _rank(held):
                found[info.name] = info
    return list(found.values())


def _rank(info: PackInfo) -> tuple[int, bool]:
    return info.pack_version, not info.bundled


def find_pack(name_or_path: str | None = None) -> PackInfo:
    """A pack by folder path or by name; with None, the default pack (en→zh preferred)."""
    if name_or_path:
        as_path = Path(name_or_path).expanduser()
        if as_path.is_dir():
            try:
                return PackInfo.of(ModelPack.open(as_path, verify=False), bundled=False)
            except PackError as exc:
                raise LibraryError(str(exc)) from None
    packs = list_packs()
    if not packs:
        raise LibraryError(no_model_message())
    if name_or_path is None:
        for pack in packs:
            if pack.name == DEFAULT_PACK or (pack.source_lang, pack.target_lang) == ("en", "zh"):
                return pack
        return packs[0]
    for pack in packs:
        if pack.name == name_or_path or pack.path.name == name_or_path:
            return pack
    raise LibraryError(f"no model pack named {name_or_path!r}; installed: {', '.join(p.name for p in packs)}")


def no_model_message() -> str:
    return (f"No translation model is installed. Download one with the app's Download button or "
            f"fanyi models install {DEFAULT_PACK}, or import a pack file: fanyi models import PACK_FOLDER_OR_ZIP")


def import_pack(src: Path, progress: Progress | None = None, cancel: CancelToken | None = None) -> PackInfo:
    """Install a pack folder or .zip into the user packs folder: only the files its manifest lists,
    within the limits, every checksum verified, all or nothing (fanyi.unpack)."""
    from . import unpack  # it builds on this module's LibraryError

    return PackInfo.of(unpack.install(Path(src), progress=progress, cancel=cancel), bundled=False)


def remove_pack(name: str) -> None:
    pack = find_pack(name)
    if pack.bundled or paths.user_packs_dir().resolve() not in pack.path.resolve().parents:
        raise LibraryError(f"{pack.name} came with Fanyi and cannot be removed")
    shutil.rmtree(pack.path)


def can_build_default() -> tuple[bool, str]:
    """Whether this installation can download and export a model (the `export` extra is installed)."""
    import importlib.util

    missing = [m for m in ("torch", "transformers", "onnx", "huggingface_hub") if importlib.util.find_spec(m) is None]
    if missing:
        return False, ("building a model needs the export tools: pip install 'fanyi[export]' "
                       f"(missing: {', '.join(missing)})")
    return True, ""
