"""Model packs on this machine: bundled (read-only) and user-installed; import, remove, fetch.

No Qt and no ONNX Runtime here: the CLI and the UI both use it.
"""

from __future__ import annotations

import shutil
import tempfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

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
    languages: tuple[str, ...] = ()  # a many-to-many pack's target languages (model codes); empty for Marian

    @classmethod
    def of(cls, pack: ModelPack, bundled: bool) -> "PackInfo":
        return cls(pack.name, pack.path, pack.source_lang, pack.target_lang, pack.size_bytes, pack.quantization,
                   bundled, pack.target_tokens, tuple(pack.target_languages))


def _candidates(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if (p / MANIFEST).is_file())


def list_packs() -> list[PackInfo]:
    """Every readable pack; manifests are read but checksums are left to opening a pack for use."""
    found: dict[Path, PackInfo] = {}
    sources = [(d, True) for d in paths.bundled_packs_dirs()] + [(paths.user_packs_dir(), False)]
    for folder, bundled in sources:
        for candidate in _candidates(folder):
            try:
                pack = ModelPack.open(candidate, verify=False)
            except PackError:
                continue
            found.setdefault(candidate.resolve(), PackInfo.of(pack, bundled))
    return list(found.values())


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
    return ("No translation model is installed. Import a model pack (fanyi models import PACK_FOLDER_OR_ZIP), "
            f"or, on a machine that is online, build one: fanyi models fetch {DEFAULT_PACK}")


def _safe_extract(archive: Path, into: Path, progress: Progress | None) -> Path:
    """Extract a .zip, refusing entries that would land outside `into`; returns the pack folder inside."""
    try:
        with zipfile.ZipFile(archive) as zf:
            members = zf.infolist()
            total = sum(m.file_size for m in members) or 1
            done = 0
            for member in members:
                name = PurePosixPath(member.filename)
                if name.is_absolute() or ".." in name.parts or (member.external_attr >> 16) & 0o170000 == 0o120000:
                    raise LibraryError(f"{archive} is refused: entry {member.filename!r} would be written "
                                       "outside the pack folder")
                zf.extract(member, into)
                done += member.file_size
                if progress:
                    progress(done, total)
    except zipfile.BadZipFile as exc:
        raise LibraryError(f"{archive} is not a readable .zip archive ({exc})") from None
    manifests = sorted(into.rglob(MANIFEST), key=lambda p: len(p.parts))
    if not manifests:
        raise LibraryError(f"{archive} does not contain a model pack (no {MANIFEST})")
    return manifests[0].parent


def import_pack(src: Path, progress: Progress | None = None) -> PackInfo:
    """Copy a pack folder or .zip into the user packs folder after verifying every checksum."""
    src = Path(src)
    dest_root = paths.user_packs_dir()
    dest_root.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".import-", dir=dest_root) as tmp:
        folder = _safe_extract(src, Path(tmp), progress) if src.is_file() else src
        try:
            pack = ModelPack.open(folder)
        except PackError as exc:
            raise LibraryError(f"{src} cannot be imported: {exc}") from None
        target = dest_root / _folder_name(pack.name)
        if target.exists():
            raise LibraryError(f"a pack named {pack.name!r} is already installed at {target}; remove it first")
        staging = Path(tmp) / "pack"
        if folder == src:
            shutil.copytree(folder, staging)
        else:
            folder.rename(staging)
        staging.rename(target)
    return PackInfo.of(ModelPack.open(target, verify=False), bundled=False)


def _folder_name(name: str) -> str:
    cleaned = "".join(c if c.isalnum() or c in "-_." else "_" for c in name).strip("._")
    return cleaned or "pack"


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


def fetch_default(progress: Callable[[str], None] | None = None, cancel: CancelToken | None = None,
                  name: str = DEFAULT_PACK) -> PackInfo:
    ok, why = can_build_default()
    if not ok:
        raise LibraryError(why)
    from .export.errors import FetchError
    from .export.fetch import fetch_and_install

    try:
        return PackInfo.of(fetch_and_install(name, paths.user_packs_dir(), progress=progress, cancel=cancel),
                           bundled=False)
    except FetchError as exc:
        raise LibraryError(str(exc)) from None
