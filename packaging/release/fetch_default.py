"""`publish.py fetch-default`: the installers' workflow puts the released default pack and the catalog into the build.

Runs with the runtime dependencies only (no torch) and goes through the app's own download and install
path: the catalog is fetched and validated, the default pack's archive comes from the first of its
URLs that serves exactly the catalog's bytes (size and sha256), it is unpacked into models/<id> with
every file checked against its manifest, and the catalog is saved as assets/catalog.json, which the
bundle then carries.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

from fanyi import limits
from fanyi.fsutil import atomic_write_bytes
from fanyi.library import catalog, download, unpack
from fanyi.library.catalog import CatalogEntry
from fanyi.library.errors import LibraryError


class FetchDefaultError(Exception):
    pass


def fetch_default(
    catalog_url: str, models_dir: Path, assets_dir: Path, say: Callable[[str], None] = lambda _m: None
) -> CatalogEntry:
    try:
        data = download.fetch_bytes(catalog_url, limits.MAX_CATALOG_BYTES)
        found = catalog.parse(data, catalog_url)
    except (LibraryError, catalog.CatalogError) as exc:
        raise FetchDefaultError(f"cannot use the catalog {catalog_url}: {exc}") from None
    entry = found.default_entry()
    if entry is None:
        raise FetchDefaultError(f"{catalog_url} lists no packs")
    if (models_dir / entry.id).exists():
        raise FetchDefaultError(f"{models_dir / entry.id} already exists")
    models_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".fetch-") as tmp:
        say(f"downloading {entry.archive.file}")
        try:
            archive = download.download(
                entry.urls, Path(tmp) / entry.archive.file, sha256=entry.archive.sha256, size=entry.archive.size
            )
            pack = unpack.install(archive, expect_name=entry.id, expect_version=entry.version, packs_dir=models_dir)
        except LibraryError as exc:
            raise FetchDefaultError(str(exc)) from None
    assets_dir.mkdir(parents=True, exist_ok=True)
    saved = assets_dir / catalog.CATALOG_FILE
    atomic_write_bytes(saved, data)
    say(f"{entry.id} version {entry.version} in {pack.path}; catalog {found.serial} in {assets_dir}")
    return entry
