"""Where a file published on GitHub is downloaded from: a repository's file at a commit, or a release's asset.

A repository file comes from ``raw.githubusercontent.com/OWNER/REPO/COMMIT/PATH``; a release asset from
``github.com/OWNER/REPO/releases/download/TAG/NAME``, which redirects (302) to GitHub's storage, where it
is asked for again with ``Range`` to resume (library.download follows the redirect and resumes). What
GitHub states about an asset — its size, and the sha256 ``digest`` it computes for assets uploaded since
June 2025 — comes from its release API (``api.github.com/repos/OWNER/REPO/releases/tags/TAG``); an older
asset's digest is null, and a GitHub that cannot be reached states nothing (the download is then checked
by what its recipe pins).

Where GitHub is blocked or slow (mainland China), the user's GitHub mirror (Settings → Downloads, ``--mirror``)
is tried first: an address put before GitHub's own, as GitHub proxy services take them
(``https://PROXY/https://github.com/…``); GitHub itself is still tried after it.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass

from ... import limits
from ..catalog import GitHubFile
from ..download import fetch_bytes
from ..errors import DownloadError

log = logging.getLogger(__name__)

API_MAX_BYTES = 1 * limits.MiB  # a release's JSON with a few dozen assets is ~20 KB


@dataclass(frozen=True)
class GitHubHosts:
    """GitHub's addresses: the tests point them at a server on 127.0.0.1."""

    web: str = "https://github.com"
    api: str = "https://api.github.com"
    raw: str = "https://raw.githubusercontent.com"


HOSTS = GitHubHosts()


@dataclass(frozen=True)
class Stated:
    """What GitHub's release API says of an asset; None where it says nothing."""

    size: int | None = None
    sha256: str | None = None


def url(file: GitHubFile, hosts: GitHubHosts | None = None) -> str:
    """The file's address at GitHub."""
    h = hosts or HOSTS
    if file.release:
        return f"{h.web}/{file.repo}/releases/download/{file.release}/{file.file}"
    return f"{h.raw}/{file.repo}/{file.revision}/{file.file}"


def urls(file: GitHubFile, mirror: str = "", hosts: GitHubHosts | None = None) -> list[str]:
    """Where to download `file` from, in order: through the user's GitHub mirror (a prefix), then GitHub."""
    direct = url(file, hosts)
    if not mirror:
        return [direct]
    if not mirror.startswith(("https://", "http://")) or any(c.isspace() for c in mirror):
        raise DownloadError(f"the GitHub mirror {mirror!r} is not an http(s) address")
    return [f"{mirror.rstrip('/')}/{direct}", direct]


def release_asset(file: GitHubFile, hosts: GitHubHosts | None = None) -> Stated:
    """The size and sha256 GitHub states for a release asset; Stated() when it cannot be asked or says nothing."""
    if not file.release:
        return Stated()
    h = hosts or HOSTS
    address = f"{h.api}/repos/{file.repo}/releases/tags/{file.release}"
    try:
        release = json.loads(fetch_bytes(address, API_MAX_BYTES, timeout=limits.SOURCE_LIST_TIMEOUT_S))
    except (DownloadError, ValueError, RecursionError) as exc:
        log.info("GitHub's release API: %s", exc)
        return Stated()
    assets = release.get("assets") if isinstance(release, dict) else None
    asset = (
        next((a for a in assets or [] if isinstance(a, dict) and a.get("name") == file.file), None)
        if isinstance(assets, list)
        else None
    )
    if asset is None:
        log.info("GitHub's release %s lists no asset %s", file.release, file.file)
        return Stated()
    size = asset.get("size")
    digest = asset.get("digest")
    sha256 = None
    if isinstance(digest, str) and digest.startswith("sha256:"):
        hexdigest = digest.removeprefix("sha256:").lower()
        if len(hexdigest) == 64 and all(c in "0123456789abcdef" for c in hexdigest):
            sha256 = hexdigest
    good_size = isinstance(size, int) and not isinstance(size, bool) and 0 < size <= limits.MAX_DICTIONARY_SOURCE_BYTES
    return Stated(size if good_size else None, sha256)
