"""Folders served as Hugging Face Hub repositories on 127.0.0.1: the self-test's stand-in for huggingface.co,
and the base of the tests' misbehaving ones.

It answers what huggingface_hub and library.sources.hub ask, as huggingface.co answers it:

- ``GET /api/models/{repo}/revision/{revision}[?blobs=true]``: the commit and the files (with ``blobs``, each
  file's size, git blob id and, for a large file, its LFS sha256);
- ``HEAD``/``GET /{repo}/resolve/{revision}/{file}``: a small file answers 307 to
  ``/api/resolve-cache/models/{repo}/{commit}/{file}`` (a relative redirect, which huggingface_hub follows),
  which serves it with ``ETag`` (its git blob id) and ``X-Repo-Commit``; a large (LFS) file answers 302 to
  the CDN address ``/cdn/{sha256}`` with ``X-Repo-Commit``, ``X-Linked-Etag`` (its sha256) and
  ``X-Linked-Size``;
- ``/cdn/{sha256}``: the bytes, with ``Range`` (206 and ``Content-Range``);
- ``GET /api/models/{repo}/discussions?p=N[&type=…&author=…&status=…]``: its pull requests, a page at a time,
  filtered as asked (the safetensors conversion's, which library.sources.hub looks for);
- ``GET /api/models/{repo}/commits/{revision}``: the commits a revision holds, newest first;
- errors with ``X-Error-Code`` as the Hub sends them: an unknown repository 401 ``RepoNotFound``, an unknown
  revision 404 ``RevisionNotFound``, an unknown file 404 ``EntryNotFound``, a gated repository's file asked
  for without a token 401 ``GatedRepo``.

A revision is a commit, ``main`` or another ref the repository was given (``refs/pr/1``). A pull request
(``open_pull_request``) is a commit of its own on top of main's, named ``refs/pr/N``.
"""

from __future__ import annotations

import hashlib
import json
import re
import socketserver
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from urllib.parse import parse_qs, unquote, urlsplit

LFS_SUFFIXES = (".safetensors", ".bin", ".model", ".onnx", ".spm")
_RANGE = re.compile(r"bytes=(\d+)-(\d*)")


@dataclass(frozen=True)
class PullRequest:
    num: int
    title: str
    author: str
    commit: str  # its head, one commit on top of the one it was opened on
    status: str = "open"


@dataclass
class HubRepo:
    files: dict[str, bytes]  # at `commit`, which main names
    commit: str
    refs: dict[str, str] = field(default_factory=dict)  # "main", "refs/pr/1" → commit
    gated: bool = False
    others: dict[str, tuple[dict[str, bytes], str]] = field(default_factory=dict)  # commit → (files, parent)
    pulls: list[PullRequest] = field(default_factory=list)

    def resolve(self, revision: str) -> str | None:
        return revision if revision == self.commit or revision in self.others else self.refs.get(revision)

    def files_at(self, commit: str) -> dict[str, bytes]:
        return self.files if commit == self.commit else self.others[commit][0]

    def every_file(self) -> Iterator[bytes]:
        yield from self.files.values()
        for files, _parent in self.others.values():
            yield from files.values()

    def history(self, commit: str) -> list[str]:
        """The commits `commit` holds, newest first."""
        found = [commit]
        while found[-1] in self.others:
            found.append(self.others[found[-1]][1])
        return found


def git_blob(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def commit_id(files: dict[str, bytes], parent: str = "") -> str:
    digest = json.dumps({"parent": parent, **{n: hashlib.sha256(d).hexdigest() for n, d in files.items()}})
    return hashlib.sha1(digest.encode()).hexdigest()


def read_folder(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def is_lfs(name: str) -> bool:
    return name.endswith(LFS_SUFFIXES)


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def server_bind(self) -> None:
        """As HTTPServer's, without its reverse lookup of the address's host name (socket.getfqdn): the
        self-test asks no name server anything."""
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = "127.0.0.1", self.server_address[1]


class LocalHub:
    """A Hub on 127.0.0.1 while used as a context manager; `endpoint` is its address (HF_ENDPOINT's value)."""

    def __init__(self) -> None:
        self.repos: dict[str, HubRepo] = {}
        self.requests: list[tuple[str, str, dict[str, str]]] = []  # (method, path, headers lower-cased) of each
        self.cdn: str | None = None  # where large files are redirected to: this server unless set (another host)
        self._server: _Server | None = None

    def add(self, repo_id: str, folder: Path, *, gated: bool = False, refs: tuple[str, ...] = ()) -> HubRepo:
        """Serve the top-level files of `folder` as `repo_id`, at one commit that `main` (and `refs`) name."""
        files = read_folder(folder)
        commit = commit_id(files)
        repo = HubRepo(files, commit, {"main": commit, **dict.fromkeys(refs, commit)}, gated)
        self.repos[repo_id] = repo
        return repo

    def open_pull_request(
        self, repo_id: str, folder: Path, *, title: str, author: str, on: str | None = None, status: str = "open"
    ) -> PullRequest:
        """A pull request on `repo_id` whose one commit, on top of commit `on` (main's), holds `folder`'s files."""
        repo = self.repos[repo_id]
        parent = on or repo.commit
        files = read_folder(folder)
        commit = commit_id(files, parent)
        repo.others[commit] = (files, parent)
        pull = PullRequest(len(repo.pulls) + 1, title, author, commit, status)
        repo.pulls.append(pull)
        repo.refs[f"refs/pr/{pull.num}"] = commit
        return pull

    @property
    def endpoint(self) -> str:
        assert self._server is not None, "not started"
        return f"http://127.0.0.1:{self._server.server_port}"

    def __enter__(self) -> LocalHub:
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.hub = self  # type: ignore[attr-defined]  # the handler finds its hub here
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    # --- what a test may change ------------------------------------------------------------------------
    def authorized(self, handler: BaseHTTPRequestHandler, repo: HubRepo) -> bool:
        """Whether a gated repository's file may be given: any bearer token opens it here."""
        return not repo.gated or handler.headers.get("Authorization", "").startswith("Bearer ")

    def send_body(self, handler: BaseHTTPRequestHandler, data: bytes, start: int) -> None:
        """Write the bytes of a file from `start` (the headers are sent)."""
        handler.wfile.write(data[start:])

    # --- answers -------------------------------------------------------------------------------------------
    def info(self, repo_id: str, repo: HubRepo, commit: str, blobs: bool) -> dict[str, object]:
        siblings: list[dict[str, object]] = []
        for name, data in repo.files_at(commit).items():
            sibling: dict[str, object] = {"rfilename": name}
            if blobs:
                sibling.update(size=len(data), blobId=git_blob(data))
                if is_lfs(name):
                    sha = hashlib.sha256(data).hexdigest()
                    pointer = f"version https://git-lfs.github.com/spec/v1\noid sha256:{sha}\nsize {len(data)}\n"
                    sibling["lfs"] = {"size": len(data), "sha256": sha, "pointerSize": len(pointer)}
            siblings.append(sibling)
        return {
            "_id": commit[:24],
            "id": repo_id,
            "modelId": repo_id,
            "sha": commit,
            "private": False,
            "disabled": False,
            "gated": "manual" if repo.gated else False,
            "tags": [],
            "siblings": siblings,
        }


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:
        pass

    @property
    def hub(self) -> LocalHub:
        hub: LocalHub = self.server.hub  # type: ignore[attr-defined]
        return hub

    def do_HEAD(self) -> None:
        self._answer(head=True)

    def do_GET(self) -> None:
        self._answer(head=False)

    def _answer(self, head: bool) -> None:
        parts = urlsplit(self.path)
        path = parts.path
        self.hub.requests.append((self.command, path, {k.lower(): v for k, v in self.headers.items()}))
        query = parse_qs(parts.query)
        if m := re.fullmatch(r"/api/models/([^/]+/[^/]+)/discussions", path):
            self._discussions(unquote(m[1]), {k: v[0] for k, v in query.items()})
        elif m := re.fullmatch(r"/api/models/([^/]+/[^/]+)/commits/([^/]+)", path):
            self._commits(unquote(m[1]), unquote(m[2]))
        elif m := re.fullmatch(r"/api/models/([^/]+/[^/]+)(?:/revision/([^/]+))?", path):
            self._info(
                unquote(m[1]),
                unquote(m[2] or "main"),
                "true" in [v.lower() for v in query.get("blobs", [])],
            )
        elif m := re.fullmatch(r"/([^/]+/[^/]+)/resolve/([^/]+)/([^/]+)", path):
            self._resolve(unquote(m[1]), unquote(m[2]), unquote(m[3]), head)
        elif m := re.fullmatch(r"/api/resolve-cache/models/([^/]+/[^/]+)/([0-9a-f]{40})/([^/]+)", path):
            self._small(unquote(m[1]), m[2], unquote(m[3]), head)
        elif m := re.fullmatch(r"/cdn/([0-9a-f]{64})", path):
            self._cdn(m[1], head)
        else:
            self._error(404, "", "not found")

    def _error(self, status: int, code: str, message: str) -> None:
        body = json.dumps({"error": message}).encode()
        self.send_response(status)
        if code:
            self.send_header("X-Error-Code", code)
        self.send_header("X-Error-Message", message)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _repo(self, repo_id: str, revision: str) -> tuple[HubRepo, str] | None:
        repo = self.hub.repos.get(repo_id)
        if repo is None:
            self._error(401, "RepoNotFound", "Repository not found")
            return None
        commit = repo.resolve(revision)
        if commit is None:
            self._error(404, "RevisionNotFound", "Invalid rev id: " + revision)
            return None
        return repo, commit

    def _info(self, repo_id: str, revision: str, blobs: bool) -> None:
        found = self._repo(repo_id, revision)
        if found is not None:
            self._json(self.hub.info(repo_id, found[0], found[1], blobs))

    def _discussions(self, repo_id: str, query: dict[str, str]) -> None:
        """A page of 50, as the Hub pages them; "type" and "author" and "status" filter."""
        found = self._repo(repo_id, "main")
        if found is None:
            return
        kind, author, status = query.get("type", "all"), query.get("author"), query.get("status", "all")
        pulls = [
            p
            for p in reversed(found[0].pulls)  # newest first
            if kind in ("all", "pull_request") and author in (None, p.author) and status in ("all", p.status)
        ]
        start = 50 * int(query.get("p", "0"))
        self._json(
            {
                "discussions": [
                    {
                        "num": p.num,
                        "title": p.title,
                        "author": {"name": p.author},
                        "createdAt": "2024-01-01T00:00:00.000Z",
                        "status": p.status,
                        "repo": {"name": repo_id, "type": "model"},
                        "isPullRequest": True,
                    }
                    for p in pulls[start : start + 50]
                ],
                "count": len(pulls),
                "start": start,
                "numClosedDiscussions": sum(p.status == "closed" for p in pulls),
            }
        )

    def _commits(self, repo_id: str, revision: str) -> None:
        found = self._repo(repo_id, revision)
        if found is not None:
            self._json(
                [
                    {"id": c, "authors": [], "date": "2024-01-01T00:00:00.000Z", "title": "", "message": ""}
                    for c in found[0].history(found[1])
                ]
            )

    def _json(self, answer: object) -> None:
        body = json.dumps(answer).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _resolve(self, repo_id: str, revision: str, name: str, head: bool) -> None:
        found = self._repo(repo_id, revision)
        if found is None:
            return
        repo, commit = found
        files = repo.files_at(commit)
        if name not in files:
            self._error(404, "EntryNotFound", f"{name} does not exist on {revision}")
            return
        if not self.hub.authorized(self, repo):
            self._error(401, "GatedRepo", f"Access to model {repo_id} is restricted. Please log in.")
            return
        data = files[name]
        self.send_response(302 if is_lfs(name) else 307)
        self.send_header("X-Repo-Commit", commit)
        self.send_header("ETag", f'"{git_blob(data)}"')
        if is_lfs(name):
            sha = hashlib.sha256(data).hexdigest()
            self.send_header("X-Linked-Etag", f'"{sha}"')
            self.send_header("X-Linked-Size", str(len(data)))
            self.send_header("Location", f"{self.hub.cdn or self.hub.endpoint}/cdn/{sha}")
        else:
            self.send_header("Location", f"/api/resolve-cache/models/{repo_id}/{commit}/{name}")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _small(self, repo_id: str, commit: str, name: str, head: bool) -> None:
        repo = self.hub.repos.get(repo_id)
        files = repo.files_at(commit) if repo is not None and repo.resolve(commit) == commit else {}
        if name not in files:
            self._error(404, "EntryNotFound", "not found")
            return
        data = files[name]
        self._bytes(data, head, {"X-Repo-Commit": commit, "ETag": f'"{git_blob(data)}"'})

    def _cdn(self, sha256: str, head: bool) -> None:
        for repo in self.hub.repos.values():
            for data in repo.every_file():
                if hashlib.sha256(data).hexdigest() == sha256:
                    self._bytes(data, head, {"ETag": f'"{sha256}"'})
                    return
        self._error(404, "", "no such object")

    def _bytes(self, data: bytes, head: bool, headers: dict[str, str]) -> None:
        start, end = 0, len(data)
        asked = _RANGE.fullmatch(self.headers.get("Range", ""))
        if asked and not head:
            start = int(asked[1])
            end = min(len(data), int(asked[2]) + 1) if asked[2] else len(data)
            if start >= len(data):
                self._error(416, "", "range not satisfiable")
                return
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{end - 1}/{len(data)}")
        else:
            self.send_response(200)
        for key, value in headers.items():
            self.send_header(key, value)
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("Content-Length", str(end - start))
        self.end_headers()
        if not head:
            self.hub.send_body(self, data[:end], start)
