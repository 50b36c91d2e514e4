"""The files a conversion needs, from the first download source that delivers them: resumable and verified.

For each origin in turn: list the repository at its revision, choose the files the converter reads
(fanyi.export.checkpoint_files.needed_files: configuration, tokenizer, licence, safetensors weights,
shards through their index; a repository of pickled weights only is refused before anything is
downloaded), check each against what the recipe pins, download it into the folder with library.download
and verify it. A file is checked against the sha256 the recipe pins, else the sha256 the source states
(the Hub's LFS sha256 at a pinned commit, ModelScope's Sha256), else its size and, on the Hub, its git blob
id (sha1 of the git object, for the small files the Hub does not keep in LFS); a file nobody states a hash
of is checked by its size alone.

The automatic order (several origins) first asks a source whether it answers at all, and passes over one
that is silent for limits.SOURCE_PROBE_TIMEOUT_S without waiting for its list: a blocked huggingface.co
costs a few seconds, once, not the list's timeout on every download. The source that delivered is remembered
(order.remember) and asked first next time; the progress names it while the files come.

What arrived stays in the folder: a cancel, a dropped connection or a closed app leave the partial file
(``NAME.part``) and the finished ones, which the next call resumes or finds verified. When a source fails
mid-way the automatic order goes on with the next one, keeping the files already verified (a file whose
sha256 the next source states otherwise is fetched again).
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ... import limits
from ...cancel import CancelToken
from ...export.checkpoint_files import needed_files
from ...export.errors import ExportError
from ..catalog import Pin
from ..diskspace import require_free
from ..download import Timeouts, TransferCallback, TransferProgress, already_there, answers, download
from ..errors import AccessDenied, DownloadError, NotFound
from . import Listing, RemoteFile
from .order import Origin, remember

log = logging.getLogger(__name__)
WEIGHTS_SUFFIX = ".safetensors"
# Bytes the disk must hold beyond the download: the conversion's estimate, given the weights' bytes and config.
NeedAfter = Callable[[Path, int], int]


@dataclass(frozen=True)
class _Transfer:
    timeouts: Timeouts
    retry_delay: float


@dataclass(frozen=True)
class Fetched:
    """The model's files in `folder`, and where they came from."""

    folder: Path
    origin: Origin
    listing: Listing
    files: tuple[str, ...]

    @property
    def revision(self) -> str:
        """The commit the files are from, where the source names one, else the revision asked for."""
        return self.listing.commit or self.listing.revision


def git_blob_id(path: Path) -> str:
    """The git object id of a file: what the Hub lists as the blob id of a file it does not keep in LFS."""
    digest = hashlib.sha1(f"blob {path.stat().st_size}\0".encode())
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _expected(name: str, remote: RemoteFile, pin: Pin | None, label: str) -> tuple[int, str | None, str]:
    """(size, sha256, whose) a file must have; DownloadError when the source's file is not the pinned one."""
    if pin is None:
        return remote.size, remote.sha256, label
    if pin.size != remote.size or (pin.sha256 and remote.sha256 and pin.sha256 != remote.sha256):
        raise DownloadError(f"{label}'s {name} is not the file the recipe pins (size or sha256 differ)")
    return pin.size, pin.sha256 or remote.sha256, "the recipe" if pin.sha256 else label


def fetch_repository(
    origins: Sequence[Origin],
    folder: Path,
    *,
    pins: Mapping[str, Pin] | None = None,
    need_after: NeedAfter | None = None,
    progress: TransferCallback | None = None,
    cancel: CancelToken | None = None,
    list_timeout: float = limits.SOURCE_LIST_TIMEOUT_S,
    timeouts: Timeouts = Timeouts(),
    retry_delay: float = 1.0,
) -> Fetched:
    """Download what the conversion needs from the first origin that delivers it into `folder`.

    `pins`: the recipe's files (size, sha256). `need_after(folder, weights_bytes)`: the disk the conversion will
    need besides, asked once the small files are in (it reads config.json); the free space for the rest of the
    download and that is checked before the weights come. `timeouts`, `retry_delay`: library.download's.
    Raises the most useful failure when no origin delivered: AccessDenied (what to do), NotFound, or a
    DownloadError naming every source's reason (unreachable when none answered).
    """
    if not origins:
        raise NotFound("no download source has this model")
    failures: list[DownloadError] = []
    automatic = len(origins) > 1
    for origin in origins:
        if cancel is not None:
            cancel.raise_if_cancelled()
        _report(progress, "connecting", 0, 0, origin.source.label)
        try:
            if automatic and not answers(origin.source.endpoint, limits.SOURCE_PROBE_TIMEOUT_S):
                raise DownloadError(f"{origin.source.label} cannot be reached", unreachable=True)
            listing = origin.source.listing(origin.repo_id, origin.revision, list_timeout)
            fetched = _fetch(
                origin, listing, folder, pins or {}, need_after, progress, cancel, _Transfer(timeouts, retry_delay)
            )
        except DownloadError as exc:  # this source cannot deliver: the next one may (a full disk is no DownloadError)
            log.info("%s: %s", origin.source.label, exc)
            failures.append(exc)
        else:
            remember(origin.source.kind)
            return fetched
    raise _summary(failures, [o.source.label for o in origins])


def _report(progress: TransferCallback | None, phase: str, done: int, total: int, detail: str) -> None:
    if progress is not None:
        progress(TransferProgress(phase, done, total, 0.0, None, detail))


def _fetch(
    origin: Origin,
    listing: Listing,
    folder: Path,
    pins: Mapping[str, Pin],
    need_after: NeedAfter | None,
    progress: TransferCallback | None,
    cancel: CancelToken | None,
    transfer: _Transfer,
) -> Fetched:
    source = origin.source
    folder.mkdir(parents=True, exist_ok=True)
    expected: dict[str, tuple[int, str | None, str]] = {}

    def get(name: str, meter: _Meter) -> Path:
        if name not in expected:
            expected[name] = _expected(name, listing.files[name], pins.get(name), source.label)
        size, sha256, whose = expected[name]
        dest = folder / name
        if not already_there(dest, sha256, size):
            address = source.address(listing, name, limits.SOURCE_LIST_TIMEOUT_S)
            download(
                address.urls,
                dest,
                sha256=sha256,
                size=size,
                progress=meter.file(name),
                cancel=cancel,
                credentials=address.credentials,
                authority=whose,
                timeouts=transfer.timeouts,
                retry_delay=transfer.retry_delay,
            )
        blob = listing.files[name].git_blob
        if sha256 is None and blob is not None and git_blob_id(dest) != blob:
            dest.unlink()
            raise DownloadError(f"{source.label}: {name} is not the file the repository lists (git blob id); deleted")
        meter.done(size)
        return dest

    def read(name: str) -> bytes:  # the shard index, which needed_files reads to name the shards
        return get(name, _Meter(None, 0)).read_bytes()

    try:
        names = needed_files(listing.files.keys(), read)
    except ExportError as exc:
        raise NotFound(f"{source.label}: {origin.repo_id} at {origin.revision}: {exc}") from None
    for name in names:  # every file against the recipe's pins before anything more is downloaded
        expected[name] = _expected(name, listing.files[name], pins.get(name), source.label)
    small = [n for n in names if not n.endswith(WEIGHTS_SUFFIX)]
    weights = [n for n in names if n.endswith(WEIGHTS_SUFFIX)]
    meter = _Meter(progress, sum(listing.files[n].size for n in names), source.label)
    for name in small:
        get(name, meter)
    weights_bytes = sum(listing.files[n].size for n in weights)
    missing = sum(listing.files[n].size for n in weights if not (folder / n).is_file())
    require_free(folder, missing + (need_after(folder, weights_bytes) if need_after else 0))
    for name in weights:
        get(name, meter)
    return Fetched(folder, origin, listing, tuple(names))


class _Meter:
    """One download's progress over all its files: bytes of the files done plus the current one's."""

    def __init__(self, progress: TransferCallback | None, total: int, source: str = "") -> None:
        self.progress, self.total, self.finished, self.source = progress, total, 0, source

    def file(self, name: str) -> TransferCallback | None:
        if self.progress is None:
            return None
        report, base = self.progress, self.finished

        def each(p: TransferProgress) -> None:
            done = base + p.done
            left = (self.total - done) / p.bytes_per_second if p.bytes_per_second > 0 else None
            report(TransferProgress("downloading", done, self.total, p.bytes_per_second, left, name, self.source))

        return each

    def done(self, size: int) -> None:
        self.finished += size


def _summary(failures: list[DownloadError], labels: list[str]) -> DownloadError:
    """One error for every source that failed: the one that says what to do first."""
    reasons = "; ".join(dict.fromkeys(str(f) for f in failures))
    denied = next((f for f in failures if isinstance(f, AccessDenied)), None)
    if denied is not None:
        others = "; ".join(dict.fromkeys(str(f) for f in failures if f is not denied))
        return AccessDenied(str(denied) + (f" ({others})" if others else ""), denied.page, denied.token_sent)
    if failures and all(f.unreachable for f in failures):
        return DownloadError(
            f"no download source can be reached ({', '.join(labels)}): check the internet connection or the "
            "proxy; where huggingface.co is blocked (mainland China) choose hf-mirror.com or ModelScope "
            "(Settings → Downloads, or --from)",
            unreachable=True,
        )
    if failures and all(isinstance(f, NotFound) for f in failures):
        return NotFound(reasons)
    return DownloadError(reasons)
