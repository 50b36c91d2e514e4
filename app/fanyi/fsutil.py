"""Atomic file writes (a reader never sees a half-written file, a failed write leaves nothing behind), and
keeping a damaged file aside."""

from __future__ import annotations

import contextlib
import itertools
import os
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO


@contextlib.contextmanager
def atomic_write(path: str | os.PathLike[str], mode: str = "wb", encoding: str | None = None) -> Iterator[IO]:
    """Open a temporary file next to ``path``; on success fsync and rename it over ``path``.

    The temporary file lives in the destination folder so that ``os.replace`` is a rename on one
    file system. On any exception (cancel, full disk, a bug) the temporary file is removed and
    ``path`` is left as it was.
    """
    target = Path(path)
    if "b" not in mode and encoding is None:
        encoding = "utf-8"
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    try:
        with os.fdopen(fd, mode, encoding=encoding) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    with atomic_write(path, "wb") as handle:
        handle.write(data)


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    with atomic_write(path, "w", encoding="utf-8") as handle:
        handle.write(text)


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
