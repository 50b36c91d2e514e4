"""Atomic file writes (a reader never sees a half-written file, a failed write leaves nothing behind),
and keeping a damaged file aside.

A file is written to a temporary ``.NAME.RANDOM.fanyi.part`` in the destination folder and renamed
into place (a rename within one file system). The temporary is created with the permissions any
new file gets (``0666 & ~umask``, applied by the kernel, so no umask race; ``0600`` for a private
one) and, on POSIX, is locked
(``flock``) by its writer until it has been renamed. A writer that was killed (``kill -9``, a
crash, a power cut) leaves its temporary behind; ``sweep_stale`` removes those: only our names,
only unlocked ones (the lock dies with its process), and only ones untouched for ``STALE_AFTER``
seconds (the moment between creating a temporary and locking it, or on Windows, where an open file
cannot be deleted anyway, between closing and renaming it). Two concurrent writers therefore never
remove each other's live temporaries.
"""

from __future__ import annotations

import contextlib
import errno
import itertools
import os
import re
import secrets
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]

TEMP_SUFFIX = ".fanyi.part"
STALE_AFTER = 60.0  # seconds without a write before an unlocked temporary counts as abandoned
_TEMP_NAME = re.compile(r"\..+\.[0-9a-f]{12}" + re.escape(TEMP_SUFFIX), re.DOTALL)
# os.link fails like this where a file system has no hard links (FAT, exFAT, some network shares).
_NO_HARD_LINKS = {errno.EPERM, errno.EACCES, errno.EXDEV, errno.EMLINK, errno.ENOSYS, errno.EOPNOTSUPP, errno.ENOTSUP}


class Staged:
    """A temporary file being written next to its destination; ``publish`` gives it its final name."""

    def __init__(self, handle: IO[Any], temp: Path) -> None:
        self.file = handle
        self.temp = temp
        self.published = False

    def publish(self, path: str | os.PathLike[str], *, overwrite: bool) -> None:
        """Flush and rename the temporary to ``path``; without ``overwrite``, FileExistsError when ``path`` exists.

        A failed publish leaves the temporary in place, so another name can be tried.
        """
        target = Path(path)
        if not self.file.closed:
            self.file.flush()
            os.fsync(self.file.fileno())
        if os.name == "nt":  # Windows renames only a closed file; its rename never replaces by itself
            self.file.close()
            (os.replace if overwrite else os.rename)(self.temp, target)
        elif overwrite:
            os.replace(self.temp, target)  # while still locked, so no sweep can take it
        else:
            _rename_no_replace(self.temp, target)
        self.published = True
        self.file.close()


def _rename_no_replace(temp: Path, target: Path) -> None:
    """Rename that fails with FileExistsError instead of replacing: a hard link is created only if the name is free."""
    try:
        os.link(temp, target)
    except FileExistsError:
        raise
    except OSError as error:
        if error.errno not in _NO_HARD_LINKS:
            raise
        # No hard links here: claim the name with an empty file, then replace it.
        os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        try:
            os.replace(temp, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(target)
            raise
        return
    os.unlink(temp)


@contextlib.contextmanager
def staged(
    target: str | os.PathLike[str], mode: str = "wb", encoding: str | None = None, *, private: bool = False
) -> Iterator[Staged]:
    """A locked temporary file in the folder of ``target``, removed on exit unless it was published.

    ``private``: created readable and writable by its owner only (0600), for a file holding a secret."""
    target = Path(target)
    if "b" not in mode and encoding is None:
        encoding = "utf-8"
    fd, temp = _create_temporary(target, 0o600 if private else 0o666)
    try:
        _lock(fd)
        handle = os.fdopen(fd, mode, encoding=encoding)
    except BaseException:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    stage = Staged(handle, temp)
    try:
        yield stage
    finally:
        if not stage.published:
            with contextlib.suppress(OSError):
                handle.close()
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temp)


def _create_temporary(target: Path, permissions: int) -> tuple[int, Path]:
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)
    while True:
        temp = target.parent / f".{_shortened(target.name)}.{secrets.token_hex(6)}{TEMP_SUFFIX}"
        try:
            return os.open(temp, flags, permissions), temp  # the kernel applies the umask
        except FileExistsError:
            continue


def _shortened(name: str) -> str:
    """``name`` cut to 150 bytes, so the temporary's name stays within the usual 255-byte limit."""
    return name.encode("utf-8", "surrogateescape")[:150].decode("utf-8", "ignore")


def _lock(fd: int) -> None:
    if fcntl is not None:
        with contextlib.suppress(OSError):  # a file system without locks: sweep_stale cannot tell, so keeps it
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)


@contextlib.contextmanager
def atomic_write(
    path: str | os.PathLike[str],
    mode: str = "wb",
    encoding: str | None = None,
    *,
    overwrite: bool = True,
    private: bool = False,
) -> Iterator[IO[Any]]:
    """Open a temporary file next to ``path``; on success fsync and rename it to ``path``.

    On any exception (cancel, full disk, a bug) the temporary file is removed and ``path`` is left
    as it was. Without ``overwrite``, an existing ``path`` raises FileExistsError and is kept.
    ``private``: the file is readable by its owner only (0600), whatever the umask.
    """
    with staged(path, mode, encoding, private=private) as stage:
        yield stage.file
        stage.publish(path, overwrite=overwrite)


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    with atomic_write(path, "wb") as handle:
        handle.write(data)


def atomic_write_text(path: str | os.PathLike[str], text: str, *, private: bool = False) -> None:
    with atomic_write(path, "w", encoding="utf-8", private=private) as handle:
        handle.write(text)


def sweep_stale(folder: str | os.PathLike[str]) -> list[Path]:
    """Remove the temporaries that killed writers left in ``folder``; returns them. Never raises."""
    removed: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    now = time.time()
    for entry in entries:
        if not _TEMP_NAME.fullmatch(entry.name):
            continue
        try:
            if not entry.is_file(follow_symlinks=False):
                continue
            if now - entry.stat(follow_symlinks=False).st_mtime < STALE_AFTER:
                continue
            if _remove_if_abandoned(Path(entry.path)):
                removed.append(Path(entry.path))
        except OSError:
            continue
    return removed


def _remove_if_abandoned(path: Path) -> bool:
    if fcntl is None:
        try:
            os.unlink(path)  # Windows refuses while the writer has it open
        except PermissionError:
            return False
        return True
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return False  # its writer is alive (or the file system cannot tell us: keep it)
        if os.fstat(fd).st_ino != os.stat(path, follow_symlinks=False).st_ino:
            return False  # removed and re-created since we looked
        os.unlink(path)
        return True
    finally:
        os.close(fd)


def move_aside(path: str | os.PathLike[str], why: str = "corrupt") -> Path:
    """Rename a file that cannot be used to ``<name>.<why>-<date>-<time>`` beside it, so nothing is lost
    when a fresh one takes its place; never over another such file. Returns the new path."""
    path = Path(path)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.{why}-{stamp}")
    for n in itertools.count(2):
        if not os.path.lexists(target):
            break
        target = path.with_name(f"{path.name}.{why}-{stamp}-{n}")
    os.replace(path, target)
    return target
