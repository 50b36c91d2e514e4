"""A local HTTP(S) server for the download tests, and the pack archives and catalogs it serves.

The fixtures at the end (``server``, ``archives``, ``publish``) are imported by tests/conftest.py,
so the download tests and the UI tests share them.

Each path serves bytes; a Route says how to misbehave: an error status, dropping the connection
after a byte (once), stalling before the headers or after a byte (once), ignoring Range, or never
stopping. Every request's path and Range header is recorded.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import threading
import zipfile
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from fanyi.cancel import CancelToken
from fanyi.engine.pack import FORMAT_VERSION, file_digest

PACK_ID = "opus-mt-en-zh"  # what the tests publish the tiny int8 pack as
STALL_S = 20.0  # far past the clients' read timeouts in these tests; released when the server stops


@dataclass
class Route:
    body: bytes
    status: int | None = None
    drop_after: int | None = None  # close the connection once the file's bytes up to here were sent (once)
    stall_after: int | None = None  # stop sending after this byte until the client gives up (once)
    stall_before_headers: bool = False
    ignore_range: bool = False
    forever: bool = False  # no Content-Length; after the body, junk until the client hangs up
    slow: float = 0.0  # seconds to pause after every 16 KiB sent: a download a test can cancel midway
    location: str | None = None  # with a 3xx status: where it redirects to


@dataclass
class PackServer:
    routes: dict[str, Route] = field(default_factory=dict)
    requests: list[tuple[str, str | None]] = field(default_factory=list)  # (path, Range header)
    tls: object | None = None  # an ssl.SSLContext to serve HTTPS

    def __enter__(self) -> PackServer:
        self._release = threading.Event()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._httpd.daemon_threads = True
        self._httpd.pack_server = self
        if self.tls is not None:
            self._httpd.socket = self.tls.wrap_socket(self._httpd.socket, server_side=True)
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._release.set()
        self._httpd.shutdown()
        self._httpd.server_close()

    def url(self, path: str) -> str:
        scheme = "https" if self.tls is not None else "http"
        return f"{scheme}://127.0.0.1:{self._httpd.server_port}{path}"

    def ranges(self, path: str) -> list[str | None]:
        return [r for p, r in self.requests if p == path]


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, *args) -> None:  # keep the test output clean
        pass

    def handle(self) -> None:
        try:
            super().handle()
        except (ConnectionError, TimeoutError, OSError):
            pass  # the client hung up: that is what several tests do

    def do_GET(self) -> None:
        server: PackServer = self.server.pack_server
        path = urlsplit(self.path).path
        asked = self.headers.get("Range")
        server.requests.append((path, asked))
        route = server.routes.get(path)
        if route is None:
            self.send_error(404)
            return
        if route.location is not None:
            self.send_response(route.status or 302)
            self.send_header("Location", route.location)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if route.status is not None:
            self.send_error(route.status)
            return
        if route.stall_before_headers:
            server._release.wait(STALL_S)
            return
        body, start = route.body, 0
        m = re.fullmatch(r"bytes=(\d+)-", asked or "")
        if m and not route.ignore_range:
            start = int(m[1])
            if start >= len(body):
                self.send_error(416)
                return
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{len(body) - 1}/{len(body)}")
        else:
            self.send_response(200)
        if not route.forever:
            self.send_header("Content-Length", str(len(body) - start))
        self.end_headers()
        end = len(body)
        if route.drop_after is not None and start < route.drop_after:
            end, route.drop_after = route.drop_after, None
        stall = route.stall_after if route.stall_after is not None and start < route.stall_after else None
        if stall is not None:
            route.stall_after = None
            self.wfile.write(body[start:stall])
            self.wfile.flush()
            server._release.wait(STALL_S)
            return
        if route.slow:
            for offset in range(start, end, 16384):
                self.wfile.write(body[offset : min(end, offset + 16384)])
                self.wfile.flush()
                server._release.wait(route.slow)
        else:
            self.wfile.write(body[start:end])
        while route.forever:
            self.wfile.write(b"\0" * 65536)


def closed_port_url(path: str = "/catalog.json") -> str:
    """A URL on this computer where nothing listens: what "no network" looks like, quickly."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}{path}"


class CancelAfter(CancelToken):
    """Cancels itself at the n-th check: mid-download, deterministically."""

    def __init__(self, checks: int) -> None:
        super().__init__()
        self.left = checks

    def raise_if_cancelled(self) -> None:
        self.left -= 1
        if self.left == 0:
            self.cancel()
        super().raise_if_cancelled()


# --- archives and catalogs -------------------------------------------------------------------------
def make_archive(
    pack: Path, dest: Path, name: str, version: int, *, folder: bool = True, extra: dict[str, bytes] | None = None
) -> Path:
    """A pack .zip as the release pipeline publishes it: manifest name and pack_version set."""
    manifest = json.loads((pack / "manifest.json").read_text(encoding="utf-8"))
    manifest.update(name=name, pack_version=version)
    prefix = f"{name}/" if folder else ""
    with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(prefix + "manifest.json", json.dumps(manifest, indent=1))
        for file in manifest["files"]:
            zf.write(pack / file, prefix + file)
        for member, data in (extra or {}).items():
            zf.writestr(member, data)
    return dest


def unpacked_size(pack: Path) -> int:
    return sum(p.stat().st_size for p in pack.iterdir())


def entry(pack_id: str, version: int, zip_path: Path, urls: list[str], *, unpacked: int, **changes) -> dict:
    """A catalog entry (a recipe) that also lists a prebuilt archive: what the archive tests install."""
    digest = file_digest(zip_path)
    doc = {
        "id": pack_id,
        "version": version,
        "default": True,
        "display_name": {"en": "English → Chinese", "zh_CN": "英语 → 中文"},
        "architecture": "marian",
        "source_langs": ["en"],
        "target_langs": ["zh"],
        "target_tokens": ["cmn_Hans", "cmn_Hant", "yue"],
        "sources": {"huggingface": {"repo": "Helsinki-NLP/opus-mt-en-zh", "revision": "0" * 40}},
        "convert": {"quantize": "int8"},
        "download_size": digest["size"],
        "pack_size": unpacked,
        "format_version": FORMAT_VERSION,
        "archive": {
            "file": zip_path.name,
            "size": digest["size"],
            "sha256": digest["sha256"],
            "unpacked_size": unpacked,
        },
        "urls": urls,
        "license": {"name": "CC-BY-4.0", "url": "https://creativecommons.org/licenses/by/4.0/", "commercial_use": True},
        "quality": {"test_set": "FLORES-200 devtest", "bleu": {"pytorch": 31.2, "fp32": 31.2, "int8": 30.9}},
    }
    doc.update(changes)
    return doc


def catalog_doc(entries: list[dict], serial: int = 1, catalog_urls: list[str] | None = None) -> bytes:
    return json.dumps(
        {
            "schema": 2,
            "serial": serial,
            "generated": "2026-12-01T00:00:00Z",
            "catalog_urls": catalog_urls or [],
            "packs": entries,
        }
    ).encode()


def copy_pack(pack: Path, dest: Path, name: str, version: int | None) -> Path:
    """A pack folder with its manifest's name and pack_version changed (None: no pack_version)."""
    shutil.copytree(pack, dest)
    manifest = json.loads((dest / "manifest.json").read_text(encoding="utf-8"))
    manifest["name"] = name
    if version is not None:
        manifest["pack_version"] = version
    (dest / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return dest


# --- fixtures (imported by tests/conftest.py) -------------------------------------------------------
@pytest.fixture(scope="session")
def archives(tiny_pack_int8, tmp_path_factory) -> dict[int, Path]:
    """The tiny int8 pack published as opus-mt-en-zh versions 1 and 2."""
    out = tmp_path_factory.mktemp("archives")
    return {v: make_archive(tiny_pack_int8, out / f"{PACK_ID}-int8-v{v}.zip", PACK_ID, v) for v in (1, 2)}


@pytest.fixture()
def server(monkeypatch):
    """A running PackServer, reached directly whatever proxy the machine running the tests has."""
    for key in list(os.environ):
        if key.lower() in ("http_proxy", "https_proxy", "all_proxy", "no_proxy"):
            monkeypatch.delenv(key)
    with PackServer() as running:
        yield running


@pytest.fixture()
def publish(server, archives, tiny_pack_int8, monkeypatch):
    """publish(version, **entry_changes): serve that archive and a catalog listing it; FANYI_CATALOG_URL
    points at the catalog. Returns the entry as published (a dict)."""

    def go(version: int = 1, serial: int | None = None, **changes) -> dict:
        archive = archives[version]
        server.routes.setdefault(f"/packs/{archive.name}", Route(archive.read_bytes()))
        doc = entry(
            PACK_ID,
            version,
            archive,
            [server.url(f"/packs/{archive.name}")],
            unpacked=unpacked_size(tiny_pack_int8),
            **changes,
        )
        server.routes["/catalog.json"] = Route(catalog_doc([doc], serial=serial or version))
        monkeypatch.setenv("FANYI_CATALOG_URL", server.url("/catalog.json"))
        return doc

    return go
