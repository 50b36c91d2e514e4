"""GitHub as the dictionary download sees it, on 127.0.0.1 (tests/packserver.py's server).

- a release asset at ``/OWNER/REPO/releases/download/TAG/NAME`` answers 302 to where it is stored
  (``/storage/…``, as github.com redirects to its storage host), which serves it with Range;
- the release API at ``/api/repos/OWNER/REPO/releases/tags/TAG`` answers the release's JSON, each asset's
  ``name``, ``size``, ``browser_download_url`` and ``digest`` (``"sha256:…"``, or null as for assets uploaded
  before GitHub computed digests);
- a repository file at ``/raw/OWNER/REPO/COMMIT/PATH`` (raw.githubusercontent.com's paths), with Range;
- a GitHub proxy at ``/proxy/`` that serves ``/proxy/https://github.com/…`` as the services users in
  mainland China put before GitHub's addresses do.

``GitHubHosts`` of the app point at it for the test (fanyi.library.sources.github.HOSTS).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

import pytest
from packserver import PackServer, Route

from fanyi.library.sources import github

REPO = "skywind3000/ECDICT"
COMMIT = "bc015ed2e24a7abef49fc6dbbb7fe32c1dadaf8b"
TAG = "1.0.28"
ASSET = "ecdict-sqlite-28.zip"


def git_blob(data: bytes) -> str:
    return hashlib.sha1(f"blob {len(data)}\0".encode() + data).hexdigest()


@dataclass
class FakeGitHub:
    server: PackServer
    hosts: github.GitHubHosts

    def release(self, assets: dict[str, bytes], *, digests: bool = False, tag: str = TAG, api: bool = True) -> None:
        """Publish `assets` in a release; `digests`: the API states their sha256 (assets uploaded since 2025)."""
        listed = []
        for name, data in assets.items():
            storage = f"/storage/{hashlib.sha256(data).hexdigest()[:16]}/{name}"
            self.server.routes[storage] = Route(data)
            self.server.routes[f"/{REPO}/releases/download/{tag}/{name}"] = Route(b"", status=302, location=storage)
            listed.append(
                {
                    "name": name,
                    "size": len(data),
                    "state": "uploaded",
                    "browser_download_url": f"{self.hosts.web}/{REPO}/releases/download/{tag}/{name}",
                    "digest": f"sha256:{hashlib.sha256(data).hexdigest()}" if digests else None,
                }
            )
        if api:
            body = json.dumps({"tag_name": tag, "assets": listed}).encode()
            self.server.routes[f"/api/repos/{REPO}/releases/tags/{tag}"] = Route(body)

    def file(self, path: str, data: bytes, commit: str = COMMIT) -> str:
        """Publish a repository file at `commit`; returns its route."""
        route = f"/raw/{REPO}/{commit}/{path}"
        self.server.routes[route] = Route(data)
        return route

    def proxy(self, direct_url: str, data: bytes) -> Route:
        """The GitHub proxy serves `data` for `direct_url` put after its own address (and sends it whole)."""
        route = self.server.routes["/proxy/" + direct_url] = Route(data)
        return route

    @property
    def proxy_url(self) -> str:
        return self.server.url("/proxy/")


@pytest.fixture()
def fake_github(server, monkeypatch) -> FakeGitHub:
    hosts = github.GitHubHosts(web=server.url(""), api=server.url("/api"), raw=server.url("/raw"))
    monkeypatch.setattr(github, "HOSTS", hosts)
    return FakeGitHub(server, hosts)
