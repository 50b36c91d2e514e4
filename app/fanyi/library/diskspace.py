"""Free disk space: checked before a download or an install writes, and a full disk said in words."""

from __future__ import annotations

import contextlib
import errno
import shutil
from collections.abc import Iterator
from pathlib import Path

from ..sizes import human_size
from .errors import DiskSpaceError

# ENOSPC on every platform (Python maps Windows' ERROR_DISK_FULL to it); EDQUOT is a full quota
_FULL = {errno.ENOSPC} | ({errno.EDQUOT} if hasattr(errno, "EDQUOT") else set())


def free_bytes(folder: Path) -> int:
    """Free bytes on the disk that holds `folder` (or would hold it: its nearest existing parent)."""
    probe = Path(folder).absolute()
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    return shutil.disk_usage(probe).free


def _message(folder: Path, need: int, have: int) -> str:
    return f"not enough disk space on {folder}: need {human_size(need)}, have {human_size(have)}"


def require_free(folder: Path, need: int) -> None:
    have = free_bytes(folder)
    if have < need:
        raise DiskSpaceError(_message(folder, need, have))


@contextlib.contextmanager
def full_disk_reported(folder: Path, need: int) -> Iterator[None]:
    """Turn a write that fails for lack of space into DiskSpaceError; other errors pass through."""
    try:
        yield
    except OSError as exc:
        if exc.errno in _FULL:
            raise DiskSpaceError(_message(folder, need, free_bytes(folder))) from None
        raise
