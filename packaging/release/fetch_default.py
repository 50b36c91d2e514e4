"""`packs.py fetch-default`: the installers' workflow puts the released default pack and the catalog into the build.

Runs with the runtime dependencies only (no torch): downloads catalog.json, then the default pack's
archive from the first of its URLs that serves it, checks its size and sha256 against the catalog,
extracts it into models/<id> (every file verified against its manifest) and saves the catalog as
assets/catalog.json, which the bundle then carries.
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

from fanyi import catalog, limits
from fanyi.catalog import CatalogEntry
from fanyi.engine.pack import ModelPack, PackError
from fanyi.fsutil import atomic_write_bytes

from .archive import ArchiveError, extract_flat

TIMEOUT_S = 60
CHUNK = 1 << 20
USER_AGENT = "fanyi-release/1"


class FetchDefaultError(Exception):
    pass


def _open(url: str):
    return urllib.request.urlopen(urllib.request.Request(url, headers={"User-Agent": USER_AGENT}), timeout=TIMEOUT_S)


def _download_catalog(url: str) -> bytes:
    try:
        with _open(url) as response:
            return response.read(limits.MAX_CATALOG_BYTES + 1)
    except (urllib.error.URLError, OSError) as exc:
        raise FetchDefaultError(f"cannot download the catalog {url}: {exc}") from None


def _download_archive(entry: CatalogEntry, dest: Path, say: Callable[[str], None]) -> None:
    """From the first URL that gives exactly the catalog's bytes; FetchDefaultError when none does."""
    problems = []
    for url in entry.urls:
        say(f"downloading {url}")
        digest, size = hashlib.sha256(), 0
        try:
            with _open(url) as response, open(dest, "wb") as out:
                while block := response.read(CHUNK):
                    size += len(block)
                    if size > entry.archive.size:
                        break
                    digest.update(block)
                    out.write(block)
        except (urllib.error.URLError, OSError) as exc:
            problems.append(f"{url}: {exc}")
            continue
        if size != entry.archive.size:
            problems.append(f"{url}: {'more than' if size > entry.archive.size else size} bytes, "
                            f"the catalog says {entry.archive.size}")
        elif digest.hexdigest() != entry.archive.sha256:
            problems.append(f"{url}: sha256 {digest.hexdigest()} does not match the catalog's {entry.archive.sha256}")
        else:
            return
    raise FetchDefaultError(f"no URL served {entry.archive.file} as the catalog describes it:\n  "
                            + "\n  ".join(problems))


def fetch_default(catalog_url: str, models_dir: Path, assets_dir: Path,
                  say: Callable[[str], None] = lambda _m: None) -> CatalogEntry:
    data = _download_catalog(catalog_url)
    try:
        found = catalog.parse(data, catalog_url)
    except catalog.CatalogError as exc:
        raise FetchDefaultError(str(exc)) from None
    entry = found.default_entry()
    if entry is None:
        raise FetchDefaultError(f"{catalog_url} lists no packs")
    target = models_dir / entry.id
    if target.exists():
        raise FetchDefaultError(f"{target} already exists")
    models_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".fetch-", dir=models_dir) as tmp:
        zipped = Path(tmp) / entry.archive.file
        _download_archive(entry, zipped, say)
        try:
            pack = ModelPack.open(extract_flat(zipped, Path(tmp) / "pack"))
        except (ArchiveError, PackError) as exc:
            raise FetchDefaultError(f"{entry.archive.file}: {exc}") from None
        if (pack.name, pack.pack_version) != (entry.id, entry.version):
            raise FetchDefaultError(f"{entry.archive.file} holds {pack.name} version {pack.pack_version}, "
                                    f"the catalog says {entry.id} version {entry.version}")
        shutil.move(str(pack.path), target)
    assets_dir.mkdir(parents=True, exist_ok=True)
    saved = assets_dir / catalog.CATALOG_FILE
    atomic_write_bytes(saved, data)
    saved.chmod(0o644)  # a temporary file's 0600 would make it unreadable in a root-owned AppImage
    say(f"{entry.id} version {entry.version} in {target}; catalog {found.serial} in {assets_dir}")
    return entry
