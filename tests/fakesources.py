"""Download sources on 127.0.0.1 for the tests: a Hugging Face Hub that misbehaves on request, and ModelScope.

``FaultyHub`` is the app's own stand-in Hub (fanyi.library.sources.localhub, which speaks the endpoints and
headers huggingface_hub uses) with faults per file: the connection closed early (a truncated answer), a stall
after some bytes, other bytes than the listing states. ``FakeModelScope`` answers ModelScope's file list and
file endpoints as its SDK calls them (modelscope/hub/api.py get_model_files, file_download.py): the JSON
envelope, ``"Files": null`` for a revision that does not exist, 404 for a repository that does not.

The fixtures at the end are imported by tests/conftest.py.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from fanyi.library.sources.localhub import LocalHub

STALL_S = 20.0  # far past the clients' read timeouts in these tests; released when the server stops


@dataclass
class Fault:
    close_after: int | None = None  # bytes of the file sent, then the connection closed
    times: int = 1  # how many answers misbehave (then the file is served whole)
    stall_after: int | None = None  # bytes sent, then nothing until the client gives up
    wrong_bytes: bool = False  # the bytes of another file of the same size


class FaultyHub(LocalHub):
    def __init__(self) -> None:
        super().__init__()
        self.faults: dict[str, Fault] = {}  # by file name
        self.release = threading.Event()

    def __exit__(self, *exc: object) -> None:
        self.release.set()
        super().__exit__(*exc)  # type: ignore[arg-type]

    def _fault(self, data: bytes) -> Fault | None:
        for repo in self.repos.values():
            for name, content in repo.files.items():
                if content is data or content == data:
                    return self.faults.get(name)
        return None

    def send_body(self, handler: BaseHTTPRequestHandler, data: bytes, start: int) -> None:
        fault = self._fault(data)
        if fault is None or fault.times <= 0:
            handler.wfile.write(data[start:])
            return
        fault.times -= 1
        if fault.wrong_bytes:
            handler.wfile.write(bytes(b ^ 0xFF for b in data[start:]))
        elif fault.close_after is not None:
            handler.wfile.write(data[start : max(start, fault.close_after)])
            handler.wfile.flush()
            handler.close_connection = True
        elif fault.stall_after is not None:
            handler.wfile.write(data[start : max(start, fault.stall_after)])
            handler.wfile.flush()
            self.release.wait(STALL_S)


@dataclass
class MsRepo:
    files: dict[str, bytes]
    revisions: tuple[str, ...] = ("master",)


@dataclass
class FakeModelScope:
    repos: dict[str, MsRepo] = field(default_factory=dict)
    requests: list[tuple[str, dict[str, list[str]]]] = field(default_factory=list)  # (path, query)

    def add(self, repo_id: str, folder: Path) -> MsRepo:
        repo = MsRepo({p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()})
        self.repos[repo_id] = repo
        return repo

    def __enter__(self) -> FakeModelScope:
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _MsHandler)
        self._httpd.daemon_threads = True
        self._httpd.ms = self  # type: ignore[attr-defined]
        threading.Thread(target=self._httpd.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_port}"


class _MsHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: object) -> None:
        pass

    def _json(self, status: int, doc: object) -> None:
        body = json.dumps(doc).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        ms: FakeModelScope = self.server.ms  # type: ignore[attr-defined]
        parts = urlsplit(self.path)
        query = parse_qs(parts.query)
        ms.requests.append((parts.path, query))
        m = re.fullmatch(r"/api/v1/models/([^/]+/[^/]+)/repo(/files)?", parts.path)
        repo = ms.repos.get(m[1]) if m else None
        if repo is None:
            self._json(404, {"Code": 10010205001, "Message": "模型不存在", "Success": False})
            return
        revision = query.get("Revision", ["master"])[0]
        if m[2]:  # the file list
            files = None
            if revision in repo.revisions:
                files = [
                    {
                        "Name": name,
                        "Path": name,
                        "Type": "blob",
                        "Size": len(data),
                        "Sha256": hashlib.sha256(data).hexdigest(),
                        "IsLFS": name.endswith(".safetensors"),
                        "Revision": "e" * 40,
                    }
                    for name, data in repo.files.items()
                ] + [{"Name": "onnx", "Path": "onnx", "Type": "tree", "Size": 0}]
            self._json(200, {"Code": 200, "Message": "success", "Success": True, "Data": {"Files": files}})
            return
        name = query.get("FilePath", [""])[0]
        if revision not in repo.revisions or name not in repo.files:
            self._json(404, {"Code": 10010205001, "Message": "file not found", "Success": False})
            return
        data = repo.files[name]
        start = int(m2[1]) if (m2 := re.fullmatch(r"bytes=(\d+)-", self.headers.get("Range", ""))) else 0
        self.send_response(206 if start else 200)
        if start:
            self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
        self.send_header("Content-Length", str(len(data) - start))
        self.end_headers()
        self.wfile.write(data[start:])


# --- fixtures (imported by tests/conftest.py) -------------------------------------------------------
@pytest.fixture()
def hub(monkeypatch):
    """A FaultyHub, asked directly whatever proxy the machine has, with huggingface_hub allowed online."""
    for key in ("http_proxy", "https_proxy", "all_proxy", "no_proxy", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    with FaultyHub() as running:
        yield running


@pytest.fixture()
def modelscope(monkeypatch):
    for key in ("http_proxy", "https_proxy", "all_proxy", "no_proxy", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY"):
        monkeypatch.delenv(key, raising=False)
    with FakeModelScope() as running:
        monkeypatch.setenv("MODELSCOPE_DOMAIN", running.endpoint)
        yield running
