"""Putting a pack (a folder or a .zip) into the user packs folder: safely, completely, or not at all.

Shared by `fanyi models import` and catalog installs. The manifest is read first (bounded); then only
manifest.json and the files it lists are copied, each by a plain name, never through a link, each
exactly as large as the manifest says, every archive member within the compression ratio, into a
hidden staging folder inside the packs folder. The staged pack's checksums are verified
(ModelPack.open) and the folder is renamed into place, so a reader never sees half a pack and a
failure, a cancel or a full disk leave nothing behind. An update installs beside the old version
and swaps: old aside, new in, old deleted.

Staging folders (``.staging-*``, and ``.import-*`` of earlier versions) left by a process that died
are swept by the next install once they are an hour old (a live install elsewhere may still be
writing a younger one); ``.old-*`` folders that could not be deleted (Windows: a file in use) are
swept at once.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shutil
import stat
import tempfile
import time
import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import IO, Any, BinaryIO, Protocol

from .. import limits, names, paths
from ..cancel import CancelToken
from ..engine import MANIFEST, ModelPack, PackError
from ..progress import ProgressCallback
from .diskspace import full_disk_reported, require_free
from .errors import LibraryError

STAGING_PREFIX, OLD_PREFIX, LEGACY_PREFIX = ".staging-", ".old-", ".import-"
STALE_STAGING_S = 3600
CHUNK = 1 << 20
# A file of a pack: a plain name, no folder, nothing hidden, nothing a file system would reinterpret.
_PLAIN_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$")
_SYMLINK = 0o120000


# --- what a pack source must offer ----------------------------------------------------------------
class _Source(Protocol):
    label: str  # for messages
    folder_name: str  # the pack's name when its manifest gives none

    def manifest_bytes(self) -> bytes: ...

    def check(self, files: dict[str, int]) -> None:
        """Refuse what the archive holds beyond manifest.json and `files`, or sizes that differ."""

    def open(self, name: str) -> contextlib.AbstractContextManager[IO[bytes]]: ...


def _refuse(label: str, why: str) -> LibraryError:
    return LibraryError(f"{label} is refused: {why}")


def _unsafe_member(name: str) -> bool:
    parts = PurePosixPath(name).parts
    return (
        name.startswith("/") or "\\" in name or bool(re.match(r"^[A-Za-z]:", name)) or ".." in parts or "\x00" in name
    )


class _ZipSource:
    """A .zip holding manifest.json and the listed files at its top, or in one folder at its top."""

    def __init__(self, zf: zipfile.ZipFile, archive: Path) -> None:
        self.zf, self.label = zf, str(archive)
        members = zf.infolist()
        names = [m.filename for m in members]
        if len(names) != len(set(names)):
            raise _refuse(self.label, "it holds two entries of the same name")
        for member in members:
            if _unsafe_member(member.filename):
                raise _refuse(self.label, f"entry {member.filename!r} would be written outside the pack folder")
            if (member.external_attr >> 16) & 0o170000 == _SYMLINK:
                raise _refuse(self.label, f"entry {member.filename!r} is a symbolic link")
        manifests = sorted(
            (
                m
                for m in members
                if PurePosixPath(m.filename).name == MANIFEST and len(PurePosixPath(m.filename).parts) <= 2
            ),
            key=lambda m: len(PurePosixPath(m.filename).parts),
        )
        if not manifests:
            raise LibraryError(f"{archive} does not contain a model pack (no {MANIFEST})")
        depth = len(PurePosixPath(manifests[0].filename).parts)
        if sum(len(PurePosixPath(m.filename).parts) == depth for m in manifests) > 1:
            raise _refuse(self.label, "it holds more than one pack")
        self.prefix = manifests[0].filename[: -len(MANIFEST)]
        self.folder_name = self.prefix.rstrip("/") or archive.stem
        self.members = {m.filename: m for m in members}

    def _member(self, name: str) -> zipfile.ZipInfo:
        return self.members[self.prefix + name]

    def manifest_bytes(self) -> bytes:
        info = self._member(MANIFEST)
        if info.file_size > limits.MAX_MANIFEST_BYTES:
            raise _refuse(self.label, f"its {MANIFEST} is larger than {limits.MAX_MANIFEST_BYTES} bytes")
        with self.zf.open(info) as handle:
            data = handle.read(limits.MAX_MANIFEST_BYTES + 1)
        if len(data) > limits.MAX_MANIFEST_BYTES:
            raise _refuse(self.label, f"its {MANIFEST} is larger than {limits.MAX_MANIFEST_BYTES} bytes")
        return data

    def check(self, files: dict[str, int]) -> None:
        wanted = {self.prefix + MANIFEST} | {self.prefix + n for n in files}
        for name, info in self.members.items():
            if name not in wanted and not (info.is_dir() and info.file_size == 0):
                raise _refuse(self.label, f"it holds {name}, which the pack's manifest does not list")
        for name, size in files.items():
            member = self.members.get(self.prefix + name)
            if member is None:
                raise LibraryError(f"{self.label} cannot be imported: {name} is missing from the archive")
            if member.file_size != size:
                raise LibraryError(
                    f"{self.label} cannot be imported: {name} is damaged "
                    f"({member.file_size} bytes, the manifest says {size})"
                )
            if member.flag_bits & 0x1:
                raise _refuse(self.label, f"{name} is encrypted")
            if size > limits.ARCHIVE_RATIO_FLOOR and size > limits.MAX_ARCHIVE_RATIO * member.compress_size:
                raise _refuse(
                    self.label, f"{name} would unpack to more than {limits.MAX_ARCHIVE_RATIO} times its compressed size"
                )

    def open(self, name: str) -> contextlib.AbstractContextManager[IO[bytes]]:
        return self.zf.open(self._member(name))


class _FolderSource:
    """A pack folder; links are never followed, not even to a file inside it."""

    def __init__(self, folder: Path) -> None:
        self.folder, self.label, self.folder_name = folder, str(folder), folder.name

    def _fd(self, name: str) -> int:
        path = self.folder / name
        try:
            if stat.S_ISLNK(os.lstat(path).st_mode):
                raise _refuse(self.label, f"{name} is a symbolic link; links are never followed")
            # O_NOFOLLOW closes the gap between the check and the open where the system has it
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0))
        except FileNotFoundError:
            raise LibraryError(f"{path} is missing: {self.folder} is not a complete model pack") from None
        except OSError as exc:
            raise LibraryError(f"{path} cannot be read ({exc.strerror or exc})") from None
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise _refuse(self.label, f"{name} is not a regular file")
        return fd

    def manifest_bytes(self) -> bytes:
        with os.fdopen(self._fd(MANIFEST), "rb") as handle:
            data = handle.read(limits.MAX_MANIFEST_BYTES + 1)
        if len(data) > limits.MAX_MANIFEST_BYTES:
            raise _refuse(self.label, f"its {MANIFEST} is larger than {limits.MAX_MANIFEST_BYTES} bytes")
        return data

    def check(self, files: dict[str, int]) -> None:
        for name, size in files.items():
            fd = self._fd(name)
            actual = os.fstat(fd).st_size
            os.close(fd)
            if actual != size:
                raise LibraryError(
                    f"{self.label} cannot be imported: {name} is damaged ({actual} bytes, the manifest says {size})"
                )

    def open(self, name: str) -> contextlib.AbstractContextManager[IO[bytes]]:
        return os.fdopen(self._fd(name), "rb")


# --- the manifest, before anything is written -----------------------------------------------------
def _listed_files(manifest_bytes: bytes, label: str) -> tuple[dict[str, Any], dict[str, int]]:
    """The manifest and its files' sizes, every name plain and the sizes within bounds."""
    try:
        manifest = json.loads(manifest_bytes)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise LibraryError(f"{label} cannot be imported: its {MANIFEST} is damaged ({exc})") from None
    files = manifest.get("files") if isinstance(manifest, dict) else None
    if not isinstance(files, dict) or not files:
        raise LibraryError(f"{label} cannot be imported: its {MANIFEST} lists no files")
    sizes: dict[str, int] = {}
    for name, entry in files.items():
        if not _PLAIN_NAME.match(name) or name == MANIFEST:
            raise _refuse(label, f"its manifest lists {name!r}, which is not a plain file name inside the pack")
        size = entry.get("size") if isinstance(entry, dict) else None
        if not isinstance(size, int) or isinstance(size, bool) or size < 0:
            raise LibraryError(f"{label} cannot be imported: the manifest gives {name} no valid size")
        sizes[name] = size
    if sum(sizes.values()) > limits.MAX_PACK_BYTES:
        raise _refuse(label, f"its files add up to more than {limits.MAX_PACK_BYTES} bytes")
    return manifest, sizes


def folder_name(name: str) -> str:
    """The folder a pack of this name is installed in."""
    cleaned = "".join(c if c.isalnum() or c in "-_." else "_" for c in name).strip("._")
    return cleaned or "pack"


# --- staging and putting in place -----------------------------------------------------------------
def sweep(packs_dir: Path | None = None) -> None:
    """Remove what interrupted installs left in the packs folder (see the module docstring)."""
    packs_dir = packs_dir or paths.user_packs_dir()
    if not packs_dir.is_dir():
        return
    now = time.time()
    for child in packs_dir.iterdir():
        if child.name.startswith(OLD_PREFIX):
            shutil.rmtree(child, ignore_errors=True)
        elif child.name.startswith((STAGING_PREFIX, LEGACY_PREFIX)):
            with contextlib.suppress(OSError):
                if now - child.stat().st_mtime > STALE_STAGING_S:
                    shutil.rmtree(child, ignore_errors=True)


def _copy(
    source: _Source,
    name: str,
    size: int,
    into: Path,
    done: int,
    total: int,
    progress: ProgressCallback | None,
    cancel: CancelToken | None,
) -> int:
    """Copy one listed file, never writing more than its manifest size; returns the bytes done."""
    written = 0
    try:
        with source.open(name) as src, _create(into / name) as out:
            while block := src.read(min(CHUNK, size - written + 1)):
                if cancel is not None:
                    cancel.raise_if_cancelled()
                written += len(block)
                if written > size:
                    raise _refuse(source.label, f"{name} holds more bytes than its manifest says")
                out.write(block)
                if progress:
                    progress(done + written, total)
    except (zipfile.BadZipFile, zlib.error, EOFError) as exc:
        raise LibraryError(f"{source.label} cannot be imported: {name} is damaged ({exc})") from None
    if written != size:
        raise LibraryError(
            f"{source.label} cannot be imported: {name} is damaged ({written} bytes, the manifest says {size})"
        )
    return done + written


def _create(path: Path) -> BinaryIO:
    return open(path, "xb")


@contextlib.contextmanager
def _staging(packs_dir: Path) -> Iterator[Path]:
    staging = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=packs_dir))
    try:
        yield staging
    finally:
        shutil.rmtree(staging, ignore_errors=True)  # gone already when it was renamed into place


def _put_in_place(staging: Path, target: Path, replace: bool) -> None:
    if not target.exists():
        try:
            os.rename(staging, target)
            return
        except OSError:
            if not target.exists():
                raise
    if not replace:
        raise LibraryError(f"a pack named {target.name!r} is already installed at {target}; remove it first")
    aside = target.with_name(f"{OLD_PREFIX}{secrets.token_hex(4)}-{target.name}")
    try:
        os.rename(target, aside)
    except PermissionError:
        raise LibraryError(
            f"{target} is in use and cannot be replaced: close what uses it (another Fanyi window) and try again"
        ) from None
    try:
        os.rename(staging, target)
    except BaseException:
        os.rename(aside, target)
        raise
    shutil.rmtree(aside, ignore_errors=True)  # Windows may refuse while a file is open: swept next time


def install(
    src: Path,
    *,
    expect_name: str | None = None,
    expect_version: int | None = None,
    replace: bool = False,
    progress: ProgressCallback | None = None,
    cancel: CancelToken | None = None,
    packs_dir: Path | None = None,
) -> ModelPack:
    """Install the pack folder or .zip `src` into the user packs folder; returns the installed pack.

    `expect_name`/`expect_version`: refuse a pack whose manifest says otherwise (a catalog install).
    `replace`: swap out an installed pack of the same name instead of refusing.
    `packs_dir`: another folder of packs (the installers' build puts the default pack into models/).
    """
    src = Path(src)
    if not src.exists():
        raise LibraryError(f"{src} does not exist")
    packs_dir = packs_dir or paths.user_packs_dir()
    try:
        return _install(src, packs_dir, expect_name, expect_version, replace, progress, cancel)
    except OSError as exc:  # a read-only or full folder, a file that cannot be read: one line, not a traceback
        where = Path(exc.filename) if exc.filename else None
        if where is not None and (where in (packs_dir, *packs_dir.parents) or packs_dir in where.parents):
            raise LibraryError(f"cannot install into {packs_dir}: {exc.strerror or exc}") from None
        raise LibraryError(
            f"{src} cannot be imported: {exc.strerror or exc}" + (f" ({where})" if where is not None else "")
        ) from None


def _install(
    src: Path,
    packs_dir: Path,
    expect_name: str | None,
    expect_version: int | None,
    replace: bool,
    progress: ProgressCallback | None,
    cancel: CancelToken | None,
) -> ModelPack:
    if src.is_dir():
        return _install_from(_FolderSource(src), packs_dir, expect_name, expect_version, replace, progress, cancel)
    try:
        with zipfile.ZipFile(src) as zf:
            return _install_from(_ZipSource(zf, src), packs_dir, expect_name, expect_version, replace, progress, cancel)
    except zipfile.BadZipFile as exc:
        raise LibraryError(f"{src} is not a readable .zip archive ({exc})") from None


def _install_from(
    source: _Source,
    packs_dir: Path,
    expect_name: str | None,
    expect_version: int | None,
    replace: bool,
    progress: ProgressCallback | None,
    cancel: CancelToken | None,
) -> ModelPack:
    manifest_bytes = source.manifest_bytes()
    manifest, sizes = _listed_files(manifest_bytes, source.label)
    name = manifest.get("name") if isinstance(manifest.get("name"), str) and manifest.get("name") else None
    name = name or source.folder_name
    if expect_name is not None and name != expect_name:
        raise _refuse(source.label, f"it holds the pack {name!r}, not {expect_name!r}")
    version = manifest.get("pack_version", 0)
    if expect_version is not None and version != expect_version:
        raise _refuse(source.label, f"it holds version {version!r} of {name}, the catalog lists {expect_version}")
    try:
        names.check(name, "the pack's name")
    except names.BadName as exc:
        raise _refuse(source.label, str(exc)) from None
    source.check(sizes)
    total = sum(sizes.values())
    need = total + len(manifest_bytes)
    require_free(packs_dir, need)
    packs_dir.mkdir(parents=True, exist_ok=True)  # only once the pack is known to be one that can be installed
    sweep(packs_dir)
    target = packs_dir / folder_name(name)
    if target.exists() and not replace:
        raise LibraryError(f"a pack named {name!r} is already installed at {target}; remove it first")
    with _staging(packs_dir) as staging, full_disk_reported(packs_dir, need):
        done = 0
        for file_name, size in sizes.items():
            done = _copy(source, file_name, size, staging, done, total, progress, cancel)
        with _create(staging / MANIFEST) as out:
            out.write(manifest_bytes)
        try:
            ModelPack.open(staging)
        except PackError as exc:
            raise LibraryError(
                f"{source.label} cannot be imported: {str(exc).replace(str(staging), folder_name(name))}"
            ) from None
        if cancel is not None:
            cancel.raise_if_cancelled()
        _put_in_place(staging, target, replace)
    return ModelPack.open(target, verify=False)
