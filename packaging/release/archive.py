"""Pack archives: a deterministic .zip of a pack folder, and its strict extraction.

The archive holds manifest.json and exactly the files it lists, at the zip's root, sorted, with fixed
timestamps and permissions, deflated: the same pack gives the same bytes, so its sha256 in the
catalog identifies the content.
"""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

from fanyi.catalog import Archive
from fanyi.engine.pack import MANIFEST, file_digest
from fanyi.fsutil import atomic_write

FIXED_TIME = (1980, 1, 1, 0, 0, 0)  # the earliest a zip can say
CHUNK = 1 << 20


class ArchiveError(Exception):
    pass


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


def extract_flat(archive: Path, into: Path) -> Path:
    """Extract a pack archive made by write_zip into the new folder `into`; anything else is refused.

    Only plain file names at the root, and exactly the manifest and the files it lists. The caller
    verifies the checksums (ModelPack.open).
    """
    try:
        with zipfile.ZipFile(archive) as zf:
            names = zf.namelist()
            bad = [n for n in names if "/" in n or "\\" in n or n in ("", ".", "..")]
            if bad:
                raise ArchiveError(f"{archive} is not a flat pack archive: {bad[0]!r}")
            if MANIFEST not in names:
                raise ArchiveError(f"{archive} has no {MANIFEST}")
            listed = sorted([MANIFEST, *json.loads(zf.read(MANIFEST))["files"]])
            if sorted(names) != listed:
                raise ArchiveError(f"{archive} does not hold exactly the manifest and the files it lists")
            into.mkdir(parents=True)
            for name in names:
                with zf.open(name) as src, open(into / name, "wb") as dst:
                    shutil.copyfileobj(src, dst, CHUNK)
    except (zipfile.BadZipFile, ValueError, KeyError) as exc:
        raise ArchiveError(f"{archive} is not a readable pack archive ({exc})") from None
    return into
