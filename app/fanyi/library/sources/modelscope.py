"""ModelScope (modelscope.cn), where Qwen and Tencent HunYuan publish their models themselves, through its
HTTP API — the endpoints its SDK calls (modelscope/modelscope, modelscope/hub/api.py ``get_model_files``,
file_download.py ``get_file_download_url``), without the SDK:

- the files of a revision: ``GET {endpoint}/api/v1/models/{owner}/{name}/repo/files?Revision={rev}&Recursive=
  false``, answered as ``{"Code": 200, "Success": true, "Data": {"Files": [{"Name", "Path", "Type": "blob" |
  "tree", "Size", "Sha256", "IsLFS", "Revision" (the file's last commit)}]}}``. A revision that does not exist
  is not an error there: it answers 200 with ``"Files": null`` (measured by neutree-ai/neutree, whose
  ModelScope client documents it), which is refused here as NotFound; an unknown repository is a 404.
- one file: ``GET {endpoint}/api/v1/models/{owner}/{name}/repo?Revision={rev}&FilePath={path}``, the bytes
  (the SDK resumes it with Range; redirects are followed).

Revisions are branches and tags ("master" is the default branch, not the Hub's "main"); the SDK refuses a
commit id (modelscope/modelscope issue 1386), so a recipe pins ModelScope's files by their sha256 instead,
which ModelScope states for every file. The endpoint is ``MODELSCOPE_DOMAIN`` when set (as in the SDK:
a bare host gets https://), else www.modelscope.cn. No token is sent: the public models need none.
"""

from __future__ import annotations

import json
import os
from typing import Any
from urllib.parse import quote, urlencode

from ... import limits
from ..download import fetch_bytes
from ..errors import AccessDenied, DownloadError, NotFound
from . import Address, Listing, RemoteFile

MODELSCOPE = "https://www.modelscope.cn"


def modelscope_endpoint() -> str:
    domain = (os.environ.get("MODELSCOPE_DOMAIN") or MODELSCOPE).rstrip("/")
    return domain if domain.startswith(("https://", "http://")) else "https://" + domain


class ModelScopeSource:
    kind = "modelscope"
    label = "ModelScope"
    default_revision = "master"

    def __init__(self, endpoint: str | None = None) -> None:
        self.endpoint = (endpoint or modelscope_endpoint()).rstrip("/")

    def __repr__(self) -> str:
        return f"ModelScopeSource({self.endpoint!r})"

    def page(self, repo_id: str) -> str:
        return f"{self.endpoint}/models/{repo_id}"

    def _api(self, repo_id: str, path: str, query: dict[str, str]) -> str:
        return f"{self.endpoint}/api/v1/models/{quote(repo_id, safe='/')}/{path}?{urlencode(query)}"

    def listing(self, repo_id: str, revision: str, timeout: float) -> Listing:
        url = self._api(repo_id, "repo/files", {"Revision": revision, "Recursive": "false"})
        try:
            body = fetch_bytes(url, limits.MAX_CATALOG_BYTES, timeout)
        except DownloadError as exc:
            if exc.unreachable:
                raise DownloadError(f"{self.label} cannot be reached", unreachable=True) from None
            if exc.status == 404:
                raise NotFound(f"{self.label} has no repository {repo_id}") from None
            if exc.status in (401, 403):
                page = self.page(repo_id)
                raise AccessDenied(
                    f"{repo_id} on {self.label} needs a login: open {page}", page, token_sent=False
                ) from None
            raise DownloadError(f"{self.label}: {exc}", status=exc.status) from None
        files = self._files(body, repo_id, revision)
        return Listing(repo_id, revision, None, files)

    def _files(self, body: bytes, repo_id: str, revision: str) -> dict[str, RemoteFile]:
        try:
            doc: Any = json.loads(body)
            ok = doc.get("Code") == 200 or doc.get("Success") is True
            files = doc["Data"]["Files"] if ok else None
        except (ValueError, TypeError, KeyError, AttributeError):
            raise DownloadError(f"{self.label} does not answer as ModelScope for {repo_id}") from None
        if not ok:
            raise DownloadError(f"{self.label}: {doc.get('Message') or 'the request was refused'} ({repo_id})")
        if files is None:  # how ModelScope says the revision does not exist
            raise NotFound(f"{self.label} has no revision {revision} of {repo_id}")
        found = {}
        for f in files if isinstance(files, list) else ():
            if not isinstance(f, dict) or f.get("Type") != "blob":
                continue
            path, size, sha = f.get("Path"), f.get("Size"), f.get("Sha256")
            if not isinstance(path, str) or "/" in path or not isinstance(size, int) or isinstance(size, bool):
                continue  # the converter reads top-level files only
            found[path] = RemoteFile(path, size, sha256=sha.lower() if isinstance(sha, str) and sha else None)
        return found

    def address(self, listing: Listing, name: str, timeout: float) -> Address:
        return Address((self._api(listing.repo_id, "repo", {"Revision": listing.revision, "FilePath": name}),))
