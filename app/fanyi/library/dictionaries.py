"""Dictionaries on this computer, and installing one from where ECDICT publishes it — no Qt, no ONNX Runtime.

A dictionary is installed as a model pack is (`fanyi models install ecdict`, the model manager's Download):
from its recipe in the catalog (library.catalog.DictionaryEntry), downloaded with library.download
(resumable, with progress and cancel, from the user's GitHub mirror first where one is set), checked,
then converted on this computer into one indexed SQLite file (fanyi.dictionary.build) in the
dictionaries folder (``dictionaries/<id>.sqlite`` in the user data folder). Where GitHub is blocked, the
same file can come from an address the user gives (``--url``) or from a file already downloaded
(``--file``); it is checked the same way. A file of the user's own (``fanyi models import ecdict.csv``) is
converted as it is and recorded as imported.

What the download is checked against, the strongest that is known: the sha256 the recipe pins; else the
sha256 GitHub's release API states for the asset; else, for a repository file, the git blob id the recipe
pins (the sha1 of the git object, which fixes the size too); else only the size GitHub or the server states,
and what the conversion finds (ECDICT's columns, at least half the entries the recipe says). Each
installed dictionary records how it was checked and the sha256 of the file it was made from
(`fanyi models list` shows them), so a user can compare it with a copy from elsewhere.

The downloaded file waits in ``downloads/dictionaries/`` until the dictionary is installed (a cancel, a
failure or a closed app lose nothing; the next attempt resumes), and is deleted once it is.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from .. import limits, names, paths
from ..cancel import CancelToken
from ..dictionary import Dictionary, DictionaryError
from ..dictionary.build import convert
from ..dictionary.ecdict import kind_of
from ..engine import file_digest
from . import download
from .catalog import DictionaryEntry
from .diskspace import require_free
from .download import Timeouts, TransferCallback, TransferProgress
from .errors import DownloadError, LibraryError
from .sources import github
from .sources.fetch import git_blob_id

log = logging.getLogger(__name__)

SUFFIX = ".sqlite"
DOWNLOADS = "dictionaries"  # the folder in the downloads folder
UNPACK_FACTOR = 5  # a .zip's database unpacks to ~4 times its size (ecdict-sqlite-28.zip: ~207 MB → ~800 MB)
CONVERTED_FACTOR = 3  # the converted dictionary is ~2.6 times ECDICT's CSV (benchmarks/), less than its SQLite file
CHECKED_AGAINST = {
    "recipe-sha256": "sha256 pinned by the recipe",
    "github-sha256": "sha256 stated by GitHub",
    "git-blob": "git blob id pinned by the recipe",
    "size": "size only: nobody states this file's sha256",
    "unchecked": "not checked: a file given by hand, which nobody states a sha256 for",
    "imported": "imported as it is",
}


@dataclass(frozen=True)
class DictionaryInfo:
    """A dictionary file found on this computer; a broken one (`problem` says why, one line) is listed so that
    it can be removed, never opened."""

    name: str  # its id: "ecdict", "ecdict-full"
    path: Path
    size_bytes: int
    entries: int = 0
    version: int = 0  # the catalog version it was installed as; 0 for an imported file
    checked: str = ""  # a key of CHECKED_AGAINST
    source_sha256: str = ""  # of the file it was converted from
    problem: str | None = None

    @property
    def usable(self) -> bool:
        return self.problem is None

    def open(self) -> Dictionary:
        return Dictionary.open(self.path)


def dictionaries_dir() -> Path:
    return paths.dictionaries_dir()


def _info(path: Path) -> DictionaryInfo:
    size = path.stat().st_size
    try:
        d = Dictionary.open(path)
    except DictionaryError as exc:
        return DictionaryInfo(path.stem, path, size, problem=str(exc))
    version = d.info.get("version", "0")
    return DictionaryInfo(
        d.name,
        path,
        size,
        d.entries,
        int(version) if version.isdigit() else 0,
        d.info.get("checked", ""),
        d.info.get("source_sha256", ""),
    )


def list_dictionaries(folder: Path | None = None) -> list[DictionaryInfo]:
    """Every dictionary file in the dictionaries folder, by name."""
    folder = folder or dictionaries_dir()
    if not folder.is_dir():
        return []
    return [_info(p) for p in sorted(folder.glob(f"*{SUFFIX}")) if p.is_file() and not p.name.startswith(".")]


def preferred(found: Sequence[DictionaryInfo] | None = None) -> DictionaryInfo | None:
    """The dictionary lookups use: the usable one with the most entries (the full ECDICT over the CSV's)."""
    usable = [d for d in (list_dictionaries() if found is None else found) if d.usable]
    return max(usable, key=lambda d: (d.entries, d.name), default=None)


def open_preferred() -> Dictionary | None:
    """The dictionary lookups use, opened; None when none is installed (a broken one is never opened)."""
    chosen = preferred()
    if chosen is None:
        return None
    try:
        return chosen.open()
    except DictionaryError as exc:  # removed or replaced since it was listed
        log.info("dictionary: %s", exc)
        return None


def find(name: str) -> DictionaryInfo:
    found = next((d for d in list_dictionaries() if d.name == name or d.path.stem == name), None)
    if found is None:
        raise LibraryError(f"no dictionary {name!r} is installed")
    return found


def remove(name: str) -> None:
    find(name).path.unlink()


def _report(progress: TransferCallback | None, phase: str, done: int, total: int, detail: str = "") -> None:
    if progress is not None:
        progress(TransferProgress(phase, done, total, 0.0, None, detail))


def _convert(
    source: Path,
    name: str,
    meta: dict[str, str],
    min_entries: int,
    progress: TransferCallback | None,
    cancel: CancelToken | None,
) -> DictionaryInfo:
    names.check(name, "the dictionary's name")  # before anything is written
    folder = dictionaries_dir()
    folder.mkdir(parents=True, exist_ok=True)
    size = source.stat().st_size
    # the new dictionary is written beside the one it replaces; a .zip's file is unpacked next to it first
    require_free(folder, 2 * UNPACK_FACTOR * size if kind_of(source) == "zip" else CONVERTED_FACTOR * size)
    _report(progress, "indexing", 0, 0, name)
    try:
        convert(
            source,
            folder / f"{name}{SUFFIX}",
            meta={**meta, "id": name, "source_sha256": file_digest(source)["sha256"]},
            min_entries=min_entries,
            progress=lambda done, total: _report(progress, "indexing", done, total, name),
            cancel=cancel,
        )
    except DictionaryError as exc:
        raise LibraryError(str(exc)) from None
    return _info(folder / f"{name}{SUFFIX}")


def import_file(
    source: Path,
    name: str | None = None,
    *,
    progress: TransferCallback | None = None,
    cancel: CancelToken | None = None,
) -> DictionaryInfo:
    """Convert a file of ECDICT's data the user has (ecdict.csv, stardict.db, a .zip of one) as it is, under
    `name` (default: ecdict for the CSV, ecdict-full for the SQLite file). Replaces a dictionary of that name."""
    source = Path(source)
    try:
        kind = kind_of(source)
    except DictionaryError as exc:
        raise LibraryError(str(exc)) from None
    name = name or ("ecdict" if kind == "csv" else "ecdict-full")
    meta = {"version": "0", "source": source.name, "checked": "imported"}
    return _convert(source, name, meta, 1, progress, cancel)


def is_dictionary_file(path: Path) -> bool:
    """Whether `path` is imported as ECDICT's data rather than as a model pack: a pack is a folder or a .zip, so
    any other file is taken for a dictionary (and one that is not ECDICT's data is told so by its import), as is
    a .zip of ECDICT's CSV or SQLite file without a pack's manifest."""
    if not path.is_file():
        return False
    try:
        kind = kind_of(path)
    except DictionaryError:
        return path.suffix.lower() != ".zip"  # a damaged .zip is a pack that cannot be read
    if kind != "zip":
        return True
    import zipfile  # noqa: PLC0415 - only a .zip needs looking into

    try:
        with zipfile.ZipFile(path) as zf:
            names = [n.rsplit("/", 1)[-1].lower() for n in zf.namelist()]
    except (zipfile.BadZipFile, OSError):
        return False
    return "manifest.json" not in names and any(n.endswith((".csv", ".db")) for n in names)


@dataclass(frozen=True)
class _Expected:
    size: int | None
    sha256: str | None
    checked: str  # a key of CHECKED_AGAINST
    authority: str  # whose numbers, for messages


def _expected(
    entry: DictionaryEntry, hosts: github.GitHubHosts | None, progress: TransferCallback | None, ask: bool
) -> _Expected:
    """What the file must be; `ask`: GitHub's release API may be asked (not for a file the user already has)."""
    if entry.sha256:
        return _Expected(entry.size, entry.sha256, "recipe-sha256", "the recipe")
    stated = github.Stated()
    if ask and entry.github.release:
        _report(progress, "connecting", 0, 0, "GitHub")
        stated = github.release_asset(entry.github, hosts)
    size = entry.size or stated.size
    if stated.sha256:
        return _Expected(size, stated.sha256, "github-sha256", "GitHub")
    return _Expected(size, None, "git-blob" if entry.github.git_blob else "size", "the recipe")


def _check_file(path: Path, entry: DictionaryEntry, expected: _Expected) -> None:
    """A file given by the user, or downloaded, against what the recipe (or GitHub) says it is."""
    if expected.sha256 and file_digest(path)["sha256"] != expected.sha256:
        raise LibraryError(
            f"{path.name} is not {entry.github.name} as {expected.authority} states it (its sha256 differs); "
            f"to use it as it is: fanyi models import {path.name}"
        )
    if entry.github.git_blob and git_blob_id(path) != entry.github.git_blob:
        raise LibraryError(
            f"{path.name} is not {entry.github.name} of {entry.github.repo} at {entry.github.revision[:12]} "
            f"(its git blob id differs); to use it as it is: fanyi models import {path.name}"
        )


def install(
    entry: DictionaryEntry,
    *,
    mirror: str = "",
    url: str | None = None,
    file: Path | None = None,
    progress: TransferCallback | None = None,
    cancel: CancelToken | None = None,
    hosts: github.GitHubHosts | None = None,
    timeouts: Timeouts = Timeouts(),
    retry_delay: float = 1.0,
) -> DictionaryInfo:
    """Download `entry`'s file (or take `file`, or download it from `url`), check it, convert and install it.

    Raises LibraryError (DownloadError, DiskSpaceError) in one line, or Cancelled; a partial or finished
    download is kept for the next attempt until the dictionary is installed.
    """
    urls = [url] if url else github.urls(entry.github, mirror, hosts)
    try:
        expected = _expected(entry, hosts, progress, ask=file is None)
        if file is None:
            path = _download(entry, urls, expected, progress, cancel, timeouts, retry_delay)
    except DownloadError as exc:
        if exc.unreachable and url is None:  # what to do then is the dictionary's, not a model pack's
            raise DownloadError(github_unreachable(entry, urls), unreachable=True) from None
        raise
    source_label = str(file) if file else url or github.url(entry.github, hosts)
    if file is not None:
        path = Path(file)
        if not path.is_file():
            raise LibraryError(f"{path} does not exist")
        _check_file(path, entry, expected)
        if expected.checked == "size":
            expected = _Expected(None, None, "unchecked", "nobody")
    meta = {"version": str(entry.version), "source": source_label, "checked": expected.checked}
    info = _convert(path, entry.id, meta, max(1, entry.entries // 2), progress, cancel)
    if file is None:
        path.unlink(missing_ok=True)  # installed: the download is no longer needed
    return info


def github_unreachable(entry: DictionaryEntry, urls: Sequence[str]) -> str:
    """GitHub (or its mirror) not answering: the ways around it, for the command line."""
    hosts = ", ".join(dict.fromkeys(urlsplit(u).netloc for u in urls))
    return (
        f"GitHub cannot be reached ({hosts}): check the internet connection or the proxy; where GitHub is blocked "
        f"or slow (as in mainland China), give a GitHub mirror (fanyi models install {entry.id} --mirror "
        "https://PROXY/, or Settings → Downloads), or import ECDICT's file you have as it is: fanyi models import "
        "ecdict.csv"
    )


def _download(
    entry: DictionaryEntry,
    urls: list[str],
    expected: _Expected,
    progress: TransferCallback | None,
    cancel: CancelToken | None,
    timeouts: Timeouts,
    retry_delay: float,
) -> Path:
    dest = paths.downloads_dir() / DOWNLOADS / f"{entry.id}-{entry.version}-{entry.github.name}"
    size = expected.size
    if size is None:
        _report(progress, "connecting", 0, 0, urlsplit(urls[0]).netloc)
        _url, size = download.remote_size(urls, timeouts=timeouts, most=limits.MAX_DICTIONARY_SOURCE_BYTES)
    download.download(
        urls,
        dest,
        sha256=expected.sha256,
        size=size,
        progress=progress,
        cancel=cancel,
        timeouts=timeouts,
        retry_delay=retry_delay,
        authority=expected.authority,
    )
    if entry.github.git_blob and git_blob_id(dest) != entry.github.git_blob:
        dest.unlink()
        raise DownloadError(
            f"{entry.github.name} is not the file the recipe pins (its git blob id differs); it was deleted"
        )
    return dest
