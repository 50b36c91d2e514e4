"""One resumable, mirrored, verified HTTP(S) transfer; and small documents (the catalog) over HTTP(S).

Standard library only (urllib), so the system's proxy settings apply: the ``*_proxy`` environment
variables everywhere, and the system settings on Windows and macOS (``urllib.request.getproxies()``).
Certificates are checked against the operating system's own trust store through truststore (the
Windows and macOS certificate stores, the distribution's CA bundle on Linux): what the user's
browser trusts, a company's TLS-inspecting proxy included, and it works in the frozen app, where
Python's compiled-in CA paths point into the build machine.

A file arrives as DEST.part, whose bytes are hashed as they come; a later call (after a restart of
the process too) hashes the bytes already there and asks for the rest with ``Range``. Only when
the last byte is in and size and sha256 equal the expected ones is DEST.part renamed to DEST; a
file that does not match is deleted. Cancel and errors leave DEST.part for the next call. A file whose
sha256 nobody states (a model repository's small files) is checked by its size, and its caller checks
what else it knows (library.sources: the Hub's git blob id).

Credentials (a Hugging Face token) go only to the host they were given for: they are sent as headers
urllib does not repeat on a redirect, so a CDN the Hub redirects to never sees them.
"""

from __future__ import annotations

import functools
import hashlib
import http.client
import logging
import os
import re
import socket
import ssl
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO
from urllib.parse import urlsplit

import truststore

from .. import __version__, limits
from ..cancel import Cancelled, CancelToken
from ..engine import file_digest
from .diskspace import full_disk_reported, require_free
from .errors import DownloadError
from .sources import Credentials

log = logging.getLogger(__name__)

CHUNK = 64 * limits.KiB
PROGRESS_INTERVAL_S = 0.1  # at most ~10 reports a second: a UI redraws, a terminal line updates
SPEED_HALF_LIFE_S = 2.0  # the speed shown weighs the last few seconds, not the whole download
_HEADERS = {"User-Agent": f"Fanyi/{__version__}", "Accept-Encoding": "identity"}
_CONTENT_RANGE = re.compile(r"bytes (?P<start>\d+)-(?P<end>\d+)/(?P<total>\d+|\*)")


@dataclass(frozen=True)
class TransferProgress:
    # "downloading" (bytes), "converting" (layers: library.from_source), "installing" (bytes unpacked and
    # verified), or "connecting" (asking a download source for a repository's files; total 0)
    phase: str
    done: int  # bytes, or layers while converting
    total: int
    bytes_per_second: float  # smoothed; 0 until measured
    seconds_left: float | None  # None until the speed is known
    detail: str = ""  # the file or download source it is about
    source: str = ""  # while downloading a model's files: the source they come from ("hf-mirror.com")


TransferCallback = Callable[[TransferProgress], None]


@dataclass(frozen=True)
class Timeouts:
    connect: float = limits.CONNECT_TIMEOUT_S
    read: float = limits.READ_TIMEOUT_S


class Meter:
    """Turns a growing byte count into TransferProgress reports: at most one per interval, speed smoothed."""

    def __init__(
        self, phase: str, total: int, report: TransferCallback | None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.phase, self.total, self._report, self._clock = phase, total, report, clock
        self._speed = 0.0
        self._last: tuple[float, int] | None = None  # (time, done) of the last report

    def update(self, done: int, final: bool = False) -> None:
        if self._report is None:
            return
        now = self._clock()
        if self._last is not None:
            then, before = self._last
            elapsed = now - then
            if elapsed < PROGRESS_INTERVAL_S and not final:
                return
            if elapsed > 0 and done >= before:  # fewer bytes than before: a restart, not a speed
                rate = (done - before) / elapsed
                weight = 1 - 0.5 ** (elapsed / SPEED_HALF_LIFE_S)
                self._speed = rate if self._speed == 0 else self._speed + weight * (rate - self._speed)
        self._last = (now, done)
        left = (self.total - done) / self._speed if self._speed > 0 else None
        self._report(TransferProgress(self.phase, done, self.total, self._speed, left))

    def restart(self, done: int) -> None:
        """A new connection: the time until its first byte is not a speed."""
        if self._last is not None:
            self._last = (self._clock(), done)


# --- connections -----------------------------------------------------------------------------------
class _ReadTimeout(http.client.HTTPConnection):
    """Connect within the request's (connect) timeout, then allow `read_timeout` for every read."""

    def __init__(self, *args: Any, read_timeout: float, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.read_timeout = read_timeout

    def connect(self) -> None:
        super().connect()
        assert self.sock is not None  # connected
        self.sock.settimeout(self.read_timeout)


class _HTTPConnection(_ReadTimeout, http.client.HTTPConnection):
    pass


class _HTTPSConnection(_ReadTimeout, http.client.HTTPSConnection):
    pass


class _HTTPHandler(urllib.request.HTTPHandler):
    def __init__(self, read_timeout: float) -> None:
        super().__init__()
        self._read_timeout = read_timeout

    def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(functools.partial(_HTTPConnection, read_timeout=self._read_timeout), req)


class _HTTPSHandler(urllib.request.HTTPSHandler):
    def __init__(self, read_timeout: float, context: ssl.SSLContext) -> None:
        super().__init__(context=context)
        self._read_timeout, self._tls = read_timeout, context

    def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(
            functools.partial(_HTTPSConnection, read_timeout=self._read_timeout), req, context=self._tls
        )


def tls_context() -> ssl.SSLContext:
    """Certificates checked by the operating system's trust store (see the module docstring)."""
    return truststore.SSLContext(ssl.PROTOCOL_TLS_CLIENT)


def _opener(timeouts: Timeouts) -> urllib.request.OpenerDirector:
    """urllib's default chain (system proxies, redirects) for http and https only: no ftp, file or data."""
    opener = urllib.request.OpenerDirector()
    for handler in (
        urllib.request.ProxyHandler(),
        urllib.request.UnknownHandler(),
        urllib.request.HTTPDefaultErrorHandler(),
        urllib.request.HTTPRedirectHandler(),
        urllib.request.HTTPErrorProcessor(),
        _HTTPHandler(timeouts.read),
        _HTTPSHandler(timeouts.read, tls_context()),
    ):
        opener.add_handler(handler)
    return opener


class _Failure(Exception):
    """One attempt at one URL failed. kind: unreachable (no answer), refused (an answer, but not the
    file), dropped (the body stopped: retry with Range), damaged (wrong bytes: start over elsewhere)."""

    def __init__(self, kind: str, reason: str, status: int | None = None) -> None:
        super().__init__(reason)
        self.kind, self.reason, self.status = kind, reason, status


def _describe(reason: object) -> _Failure:
    if isinstance(reason, ssl.SSLCertVerificationError):
        return _Failure("refused", f"its certificate is not trusted ({reason.verify_message})")
    if isinstance(reason, ssl.SSLError):
        return _Failure("refused", f"the secure connection failed ({reason.reason or reason})")
    if isinstance(reason, socket.gaierror):
        return _Failure("unreachable", "the host name cannot be resolved")
    if isinstance(reason, TimeoutError):
        return _Failure("unreachable", "no answer in time")
    if isinstance(reason, ConnectionRefusedError):
        return _Failure("unreachable", "the connection was refused")
    if isinstance(reason, OSError):
        return _Failure("unreachable", reason.strerror or type(reason).__name__)
    return _Failure("refused", str(reason))


def _open(
    opener: urllib.request.OpenerDirector,
    url: str,
    headers: dict[str, str],
    timeouts: Timeouts,
    credentials: Credentials | None = None,
) -> http.client.HTTPResponse:
    request = urllib.request.Request(url, headers={**_HEADERS, **headers})
    if credentials is not None and urlsplit(url).netloc == credentials.host:
        for name, value in credentials.headers.items():
            request.add_unredirected_header(name, value)  # for this host only: never to where it redirects
    try:
        response: http.client.HTTPResponse = opener.open(request, timeout=timeouts.connect)
        return response
    except urllib.error.HTTPError as exc:
        exc.close()
        if 300 <= exc.code < 400:  # urllib gave up following: a loop, or more than 10 redirects
            raise _Failure("refused", "it redirects in a loop (or more than 10 times)") from None
        raise _Failure("refused", " ".join(f"HTTP {exc.code} {exc.reason}".split()), exc.code) from None
    except urllib.error.URLError as exc:
        raise _describe(exc.reason) from None
    except (OSError, http.client.HTTPException) as exc:  # the status line did not come (in time)
        raise _describe(exc) from None


def _host(url: str) -> str:
    return urlsplit(url).netloc or url


def unreachable_message(urls: Sequence[str]) -> str:
    hosts = ", ".join(dict.fromkeys(_host(u) for u in urls))
    return (
        f"the download servers cannot be reached ({hosts}): check the internet connection or the proxy "
        "settings, or import a pack file instead"
    )


def _summary(what: str, failures: list[tuple[str, _Failure]]) -> DownloadError:
    if failures and all(f.kind == "unreachable" for _url, f in failures):
        return DownloadError(unreachable_message([url for url, _f in failures]), unreachable=True)
    hosts_of: dict[str, list[str]] = {}  # the same reason from several addresses is said once
    for url, failure in failures:
        hosts_of.setdefault(failure.reason, []).append(_host(url))
    reasons = "; ".join(f"{', '.join(dict.fromkeys(hosts))}: {reason}" for reason, hosts in hosts_of.items())
    statuses = {f.status for _url, f in failures}
    status = statuses.pop() if len(statuses) == 1 else None  # every address answered the same
    return DownloadError(f"cannot download {what}: {reasons or 'no download address'}", status=status)


# --- the partial file -----------------------------------------------------------------------------
class _Partial:
    """DEST.part: the bytes received so far and their running sha256, open at its end for writing."""

    def __init__(self, path: Path, size: int, cancel: CancelToken | None) -> None:
        self.path, self.size = path, size
        self.hash, self.done = hashlib.sha256(), 0
        self.file: BinaryIO = open(path, "a+b")  # noqa: SIM115 - closed by close()
        self.file.seek(0)
        for block in iter(lambda: self.file.read(1 << 20), b""):
            if cancel is not None and cancel.cancelled:
                self.close()
                raise Cancelled()
            self.hash.update(block)
            self.done += len(block)
        if self.done > size:  # not the file we are after
            self.restart()

    def write(self, chunk: bytes) -> None:
        self.file.write(chunk)
        self.file.flush()  # what arrived is on disk even if the process is killed: resumable
        self.hash.update(chunk)
        self.done += len(chunk)

    def restart(self) -> None:
        self.file.seek(0)
        self.file.truncate()
        self.hash, self.done = hashlib.sha256(), 0

    def finish(self, dest: Path) -> None:
        self.file.flush()
        os.fsync(self.file.fileno())
        self.file.close()
        os.replace(self.path, dest)

    def close(self) -> None:
        if not self.file.closed:
            self.file.close()
        if self.done == 0:  # nothing worth resuming
            self.path.unlink(missing_ok=True)


def _accept(response: http.client.HTTPResponse, part: _Partial, authority: str) -> None:
    """Check the answer's status and range; a 200 to a resume request starts the file over."""
    if response.status == 206 and part.done:
        m = _CONTENT_RANGE.fullmatch(response.headers.get("Content-Range", ""))
        if not m or int(m["start"]) != part.done or m["total"] not in ("*", str(part.size)):
            raise _Failure("refused", "it answers a resume request with a different range")
    elif response.status == 200:
        if part.done:
            log.info("%s ignores Range: starting %s over", response.url, part.path.name)
            part.restart()
    else:
        raise _Failure("refused", f"HTTP {response.status}")
    length = response.headers.get("Content-Length", "")
    if length.isdigit() and part.done + int(length) > part.size:
        raise _Failure("refused", f"it sends {part.done + int(length)} bytes, {authority} lists {part.size}")


@dataclass(frozen=True)
class _Request:
    """How one file is asked for: the credentials for its hosts, and whose numbers it is checked against."""

    timeouts: Timeouts
    credentials: Credentials | None
    authority: str  # "the catalog", "the recipe", "huggingface.co": for messages


def _transfer(
    opener: urllib.request.OpenerDirector,
    url: str,
    part: _Partial,
    meter: Meter,
    cancel: CancelToken | None,
    how: _Request,
) -> None:
    """Append the rest of the file from `url` to `part`; returns when exactly `size` bytes are in."""
    asked = {"Range": f"bytes={part.done}-"} if part.done else {}
    with _open(opener, url, asked, how.timeouts, how.credentials) as response:
        _accept(response, part, how.authority)
        meter.restart(part.done)
        while True:
            if cancel is not None:
                cancel.raise_if_cancelled()
            # once complete, ask for one byte more: a server that has one is not sending this file
            want = min(CHUNK, part.size - part.done) or 1
            try:  # read1: what has arrived, so a stall loses nothing already received
                chunk = response.read1(want)
            except (OSError, http.client.HTTPException) as exc:
                raise _Failure("dropped", f"the connection broke ({type(exc).__name__})") from None
            if not chunk:
                if part.done == part.size:
                    return
                raise _Failure("dropped", "the connection closed early")
            if part.done == part.size:
                raise _Failure("damaged", f"it sends more than the {part.size} bytes {how.authority} lists")
            part.write(chunk)
            meter.update(part.done)


def _from_url(
    opener: urllib.request.OpenerDirector,
    url: str,
    part: _Partial,
    meter: Meter,
    cancel: CancelToken | None,
    how: _Request,
    retries: int,
    retry_delay: float,
) -> _Failure | None:
    """Complete `part` from one URL, retrying a broken connection `retries` times with Range; None
    when complete. (Whatever is left after that, the next URL or the next call resumes.)"""
    attempt = 0
    while part.done < part.size:
        try:
            _transfer(opener, url, part, meter, cancel, how)
        except _Failure as failure:
            attempt += 1
            if failure.kind != "dropped" or attempt > retries:
                return failure
            log.info("%s: %s; resuming at byte %d", _host(url), failure.reason, part.done)
            if cancel is not None and cancel.wait(retry_delay * attempt):
                raise Cancelled() from None
            if cancel is None:
                time.sleep(retry_delay * attempt)
    return None


def already_there(dest: Path, sha256: str | None, size: int) -> bool:
    """Whether `dest` is complete: of `size` bytes and `sha256` (when given); a file that is not is deleted."""
    if not dest.is_file():
        return False
    if dest.stat().st_size == size and (sha256 is None or file_digest(dest)["sha256"] == sha256):
        return True
    dest.unlink()
    return False


def download(
    urls: Sequence[str],
    dest: Path,
    *,
    sha256: str | None,
    size: int,
    progress: TransferCallback | None = None,
    cancel: CancelToken | None = None,
    timeouts: Timeouts = Timeouts(),
    retries: int = limits.DOWNLOAD_RETRIES,
    retry_delay: float = 1.0,
    credentials: Credentials | None = None,
    authority: str = "the catalog",
) -> Path:
    """Download the file of `size` bytes and `sha256` to `dest`, trying `urls` in order; returns `dest`.

    `sha256` None: nobody states it, and the size alone is checked. `credentials`: headers (a token) sent to
    their own host only, never to another of `urls` nor to where one redirects. `authority` names whose size
    and sha256 these are, in messages. Raises DownloadError (one line) when no URL delivered the file,
    DiskSpaceError when the disk is too full, Cancelled when `cancel` was cancelled (DEST.part is kept for the
    next call).
    """
    dest = Path(dest)
    if already_there(dest, sha256, size):
        return dest
    dest.parent.mkdir(parents=True, exist_ok=True)
    how = _Request(timeouts, credentials, authority)
    meter = Meter("downloading", size, progress)
    part = _Partial(dest.with_name(dest.name + ".part"), size, cancel)
    failures: list[tuple[str, _Failure]] = []
    try:
        need = size - part.done
        require_free(dest.parent, need)
        meter.update(part.done)
        opener = _opener(timeouts)
        with full_disk_reported(dest.parent, need):
            for url in urls:
                failure = _from_url(opener, url, part, meter, cancel, how, retries, retry_delay)
                if failure is None and sha256 in (None, part.hash.hexdigest()):
                    part.finish(dest)
                    meter.update(size, final=True)
                    return dest
                if failure is None:
                    failure = _Failure("damaged", f"the file's sha256 does not match {authority}'s; it was deleted")
                if failure.kind == "damaged":
                    part.restart()
                # info: the DownloadError tells every reason once; a warning reached stderr a second time
                log.info("download of %s from %s failed: %s", dest.name, url, failure.reason)
                failures.append((url, failure))
    finally:
        part.close()
    raise _summary(dest.name, failures)


def answers(url: str, timeout: float) -> bool:
    """Whether a server answers at ``url`` at all (with any HTTP status) within ``timeout``."""
    try:
        with _open(_opener(Timeouts(timeout, timeout)), url, {}, Timeouts(timeout, timeout)):
            return True
    except _Failure as failure:
        return failure.kind != "unreachable"


def remote_size(urls: Sequence[str], *, timeouts: Timeouts = Timeouts(), most: int) -> tuple[str, int]:
    """The first of `urls` that answers, and the size of the file there, for a file no recipe states the size of.

    Asked with ``Range: bytes=0-0``, as a resumed download asks (the size is the total of a 206's Content-Range,
    else a 200's Content-Length; its body is not read). The size is the server's word: the caller checks the
    file it then downloads against what it knows (a git blob id, a sha256). DownloadError in one line when no
    URL answers with a size, or with one above `most` bytes.
    """
    opener = _opener(timeouts)
    failures: list[tuple[str, _Failure]] = []
    for url in urls:
        try:
            with _open(opener, url, {"Range": "bytes=0-0"}, timeouts) as response:
                m = _CONTENT_RANGE.fullmatch(response.headers.get("Content-Range", ""))
                length = response.headers.get("Content-Length", "")
                if response.status == 206 and m and m["total"].isdigit():
                    size = int(m["total"])
                elif response.status == 200 and length.isdigit():
                    size = int(length)
                else:
                    raise _Failure("refused", f"it states no size (HTTP {response.status})")
            if not 0 < size <= most:
                raise _Failure("refused", f"it states a size of {size} bytes")
            return url, size
        except _Failure as failure:
            log.info("%s: %s", url, failure.reason)
            failures.append((url, failure))
    name = urlsplit(urls[0]).path.rsplit("/", 1)[-1] if urls else "the file"
    raise _summary(name, failures)


def fetch_bytes(url: str, max_bytes: int, timeout: float = limits.CATALOG_TIMEOUT_S) -> bytes:
    """The body of a small document (the catalog), at most `max_bytes`; DownloadError in one line."""
    try:
        with _open(_opener(Timeouts(timeout, timeout)), url, {}, Timeouts(timeout, timeout)) as response:
            if response.status != 200:
                raise _Failure("refused", f"HTTP {response.status}", response.status)
            chunks: list[bytes] = []
            total = 0
            while True:
                try:
                    block = response.read(CHUNK)
                except (OSError, http.client.HTTPException) as exc:
                    raise _Failure("dropped", f"the connection broke ({type(exc).__name__})") from None
                if not block:
                    return b"".join(chunks)
                total += len(block)
                if total > max_bytes:
                    raise _Failure("refused", f"it sends more than {max_bytes} bytes")
                chunks.append(block)
    except _Failure as failure:
        raise DownloadError(
            f"{url}: {failure.reason}", unreachable=failure.kind == "unreachable", status=failure.status
        ) from None
