"""Pack archives: a deterministic .zip of a pack folder (the app unpacks it with fanyi.library.unpack).

The archive holds manifest.json and exactly the files it lists, at the zip's root, sorted, with fixed
timestamps and permissions, deflated: the same pack gives the same bytes, so its sha256 in the
catalog identifies the content.
"""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

from fanyi.engine.pack import MANIFEST, file_digest
from fanyi.fsutil import atomic_write
from fanyi.library.catalog import Archive

FIXED_TIME = (1980, 1, 1, 0, 0, 0)  # the earliest a zip can say
CHUNK = 1 << 20


def pack_members(pack_dir: Path) -> list[str]:
    files = json.loads((pack_dir / MANIFEST).read_text(encoding="utf-8"))["files"]
    return sorted([MANIFEST, *files])


def write_zip(pack_dir: Path, dest: Path) -> Archive:
    """Zip the pack into `dest` (atomically) and describe it for the catalog."""
    members = pack_members(pack_dir)
    with atomic_write(dest) as handle, zipfile.ZipFile(handle, "w") as zf:
        for name in members:
            info = zipfile.ZipInfo(name, date_time=FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3  # unix, whatever system builds it
            info.external_attr = 0o100644 << 16
            info.file_size = (pack_dir / name).stat().st_size  # lets zipfile choose zip64 up front
            with open(pack_dir / name, "rb") as src, zf.open(info, "w") as dst:
                shutil.copyfileobj(src, dst, CHUNK)
    digest = file_digest(dest)
    unpacked = sum((pack_dir / name).stat().st_size for name in members)
    return Archive(file=dest.name, size=digest["size"], sha256=digest["sha256"], unpacked_size=unpacked)
