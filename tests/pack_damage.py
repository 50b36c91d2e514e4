"""Damaged copies of the tiny packs, as bad input makes them: a manifest that lies, or a file rewritten
with its checksum recomputed, so that only the checks after the checksum can catch it."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

from fanyi.engine.pack import file_digest


def rewrite_manifest(pack_dir: Path, change: Callable[[dict], object]) -> Path:
    path = pack_dir / "manifest.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    change(manifest)
    path.write_text(json.dumps(manifest), encoding="utf-8")
    return pack_dir


def replace_file(pack_dir: Path, name: str, data: bytes) -> Path:
    (pack_dir / name).write_bytes(data)
    return rewrite_manifest(pack_dir, lambda m: m["files"].update({name: file_digest(pack_dir / name)}))


def truncate(pack_dir: Path, name: str, keep: int = 5000) -> Path:
    """The file cut after `keep` bytes, its checksum recomputed: a graph ONNX Runtime cannot parse."""
    return replace_file(pack_dir, name, (pack_dir / name).read_bytes()[:keep])


def broken_copy(pack: Path, dest: Path, change: Callable[[dict], object]) -> Path:
    """A copy of `pack` whose manifest is changed by `change(manifest)`."""
    return rewrite_manifest(shutil.copytree(pack, dest), change)
