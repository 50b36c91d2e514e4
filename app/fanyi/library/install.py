"""Packs from the catalog: which are available, installing and updating them — no torch, no Qt.

Meant to be driven from a worker thread: plain calls that take progress (a callable given
download.TransferProgress) and cancel (CancelToken). Every failure is a LibraryError — DownloadError,
DiskSpaceError or LibraryError itself — or an ExportError, whose message is one line for the user; a
cancel raises Cancelled and keeps the partial download, which the next install of the same pack resumes.

An entry is a recipe: its pack is made from the model's own files (library.from_source), from the download
sources the user prefers. An entry that also lists a prebuilt archive gets that first, when it answers.

Trust: an archive's sha256 and size come from the catalog (library.catalog), never from the server or
mirror that sends it. The archive is verified before anything is unpacked; the unpacked pack's own
checksums are verified and its name and version must be the catalog entry's before it is put in place.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from .. import __version__, paths
from ..cancel import Cancelled, CancelToken
from ..engine import FORMAT_VERSION
from . import catalog, catalog_fetch, dictionaries, download, installed, unpack
from .catalog import Catalog, CatalogEntry, DictionaryEntry
from .errors import AccessDenied, DiskSpaceError, DownloadError, LibraryError, NotFound
from .from_source import Recipe, make_pack
from .installed import PackInfo
from .sources.order import AUTOMATIC, Preference, for_entry

log = logging.getLogger(__name__)


class Status(str, Enum):
    NOT_INSTALLED = "not installed"
    INSTALLED = "installed"
    UPDATE = "update available"


@dataclass(frozen=True)
class Available:
    entry: CatalogEntry
    status: Status
    installed: PackInfo | None  # the pack of that name on this machine (installed.list_packs' choice)


def load_catalog(
    *, refresh: bool = False, user_url: str | None = None, warn: Callable[[str], None] | None = None
) -> Catalog:
    """The catalog to use: the newest copy on this machine, fetched when there is none or `refresh`.

    When a refresh fails but a copy is on this machine, that copy is returned and `warn` is told why;
    with no copy at all the DownloadError is raised (one line: e.g. the servers cannot be reached).
    """
    local = catalog.load()
    # the catalog shipped with the app is complete without a refresh; one is asked for where one is published
    if local is not None and (not refresh or not catalog_fetch.catalog_urls(local, user_url)):
        return local
    try:
        return catalog_fetch.refresh(local, user_url=user_url)
    except LibraryError as exc:
        if local is None:
            raise
        if warn is not None:
            warn(f"{exc}; using the list of packs from {local.generated or local.origin}")
        return local


def refreshable(cat: Catalog | None, user_url: str | None = None) -> bool:
    """Whether a refresh can bring a newer list: it names an address, or one is set (FANYI_CATALOG_URL, the
    app's Model list address); without a list at all, a refresh is how one is had."""
    return cat is None or bool(catalog_fetch.catalog_urls(cat, user_url))


def shipped(cat: Catalog) -> bool:
    """Whether the list is the one this version of Fanyi came with (not a copy saved by a refresh)."""
    return Path(cat.origin) == catalog.bundled_path()


def not_refreshable_note(cat: Catalog) -> str:
    """What a refresh that cannot be made says, in the command line's words: which list this is, and when it was
    made."""
    which = f"shipped with Fanyi {__version__}" if shipped(cat) else f"saved at {cat.origin}"
    made = cat.generated[:10] or "on a date it does not give"
    return (
        f"this is the list of packs {which}, made {made}: it names no address to fetch a newer one from "
        "(set one with FANYI_CATALOG_URL or the app's Settings → Downloads → Model list address)"
    )


def available(cat: Catalog) -> list[Available]:
    """Every pack of the catalog with its status on this machine."""
    here = {p.name: p for p in installed.list_packs()}
    rows = []
    for entry in cat.packs:
        info = here.get(entry.id)
        if info is None:
            status = Status.NOT_INSTALLED
        else:
            status = Status.INSTALLED if info.pack_version >= entry.version else Status.UPDATE
        rows.append(Available(entry, status, info))
    return rows


def available_dictionaries(cat: Catalog) -> list[tuple[DictionaryEntry, Status]]:
    """Every dictionary of the catalog with its status here (one the user imported counts as installed)."""
    here = {d.name: d for d in dictionaries.list_dictionaries() if d.usable}
    rows = []
    for entry in cat.dictionaries:
        info = here.get(entry.id)
        if info is None:
            status = Status.NOT_INSTALLED
        else:
            status = Status.INSTALLED if info.version == 0 or info.version >= entry.version else Status.UPDATE
        rows.append((entry, status))
    return rows


def find_entry(cat: Catalog, pack_id: str) -> CatalogEntry:
    entry = cat.find(pack_id)
    if entry is None:
        names = ", ".join(p.id for p in cat.packs) or "none"
        raise LibraryError(f"the list of packs has no {pack_id!r} (it has: {names})")
    return entry


def archive_urls(entry: CatalogEntry, mirror: str | None = None) -> list[str]:
    """Where to download `entry`'s archive from: the user's mirror first, then the catalog's URLs."""
    if entry.archive is None:
        return []
    if not mirror:
        return list(entry.urls)
    if not mirror.startswith(("https://", "http://")):
        raise LibraryError(f"the mirror {mirror!r} is not an http(s) address")
    return [mirror.rstrip("/") + "/" + entry.archive.file, *entry.urls]


def recipe(entry: CatalogEntry, source: Preference) -> Recipe:
    """What library.from_source makes for `entry`, from the sources `source` asks for."""
    return Recipe(
        name=entry.id,
        origins=for_entry(entry, source),
        version=entry.version,
        conversion=entry.convert,
        pins=entry.files,
        converted=entry.converted,
    )


def install(
    entry: CatalogEntry,
    *,
    mirror: str | None = None,
    source: Preference = AUTOMATIC,
    progress: download.TransferCallback | None = None,
    cancel: CancelToken | None = None,
) -> PackInfo:
    """Install `entry`, replacing an older user-installed version; returns the pack.

    From its prebuilt archive when it lists one that this Fanyi reads and that answers, else made from the
    model's files (from the sources `source` asks for). A pack already installed at this version (or newer)
    is returned as it is, without a download.
    """
    current = next((p for p in installed.list_packs() if p.name == entry.id), None)
    if current is not None and current.pack_version >= entry.version:
        return current
    archive_failure: DownloadError | None = None
    if entry.archive is not None and entry.format_version == FORMAT_VERSION:
        try:
            return _install_archive(entry, mirror, progress, cancel)
        except DownloadError as exc:  # the archive's servers do not deliver: the model's own sources may
            log.info("%s: the prebuilt archive cannot be downloaded (%s); made from the model instead", entry.id, exc)
            archive_failure = exc
    elif entry.archive is not None:  # another Fanyi's pack format: made here from the model instead
        log.info("%s: the archive holds pack format %s, not %s", entry.id, entry.format_version, FORMAT_VERSION)
    try:
        return make_pack(recipe(entry, source), progress=progress, cancel=cancel)
    except (AccessDenied, NotFound):
        raise
    except DownloadError as exc:
        if archive_failure is None:
            raise
        raise DownloadError(
            f"{exc}; and the prebuilt archive: {archive_failure}",
            unreachable=exc.unreachable and archive_failure.unreachable,
        ) from None


def _install_archive(
    entry: CatalogEntry, mirror: str | None, progress: download.TransferCallback | None, cancel: CancelToken | None
) -> PackInfo:
    assert entry.archive is not None
    archive = download.download(
        archive_urls(entry, mirror),
        paths.downloads_dir() / entry.archive.file,
        sha256=entry.archive.sha256,
        size=entry.archive.size,
        progress=progress,
        cancel=cancel,
    )
    meter = download.Meter("installing", entry.archive.unpacked_size, progress)

    def copied(done: int, total: int) -> None:
        meter.total = total
        meter.update(done)

    try:  # replace: what is installed under this name is older (or a bundled copy, which stays)
        pack = unpack.install(
            archive, expect_name=entry.id, expect_version=entry.version, replace=True, progress=copied, cancel=cancel
        )
    except (DiskSpaceError, Cancelled):
        raise  # the archive is fine: the next attempt installs it without downloading again
    except LibraryError:
        archive.unlink(missing_ok=True)  # it matched the catalog's sha256 yet is refused: no use keeping it
        raise
    meter.update(meter.total, final=True)
    archive.unlink(missing_ok=True)
    return PackInfo.of(pack, bundled=False)


def update(
    cat: Catalog,
    names: Sequence[str] = (),
    *,
    mirror: str | None = None,
    source: Preference = AUTOMATIC,
    progress: download.TransferCallback | None = None,
    cancel: CancelToken | None = None,
) -> list[PackInfo]:
    """Install the newer version of every installed pack that has one (of `names` only, when given)."""
    rows = {row.entry.id: row for row in available(cat)}
    for name in names:
        row = rows.get(name)
        if row is None:
            find_entry(cat, name)  # raises, naming what the catalog has
        elif row.status is Status.NOT_INSTALLED:
            raise LibraryError(f"{name} is not installed: fanyi models install {name}")
    wanted = [
        row.entry for row in rows.values() if row.status is Status.UPDATE and (not names or row.entry.id in names)
    ]
    return [install(entry, mirror=mirror, source=source, progress=progress, cancel=cancel) for entry in wanted]
