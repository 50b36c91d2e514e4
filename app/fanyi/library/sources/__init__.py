"""Where a model's own files come from: the Hugging Face Hub, servers that speak its API, and ModelScope.

One module per kind of source, each offering the same two questions (``Source``): which files does a
repository have at a revision (with their sizes and the sha256 the source states), and from which URLs is
one of them downloaded. ``hub`` answers for huggingface.co, hf-mirror.com and any Hub-compatible server
(through huggingface_hub, so ``HF_ENDPOINT`` and ``HF_TOKEN`` work as everywhere else); ``modelscope``
for ModelScope's HTTP API. ``order`` turns the user's choice (automatic, or one source) into the list
of sources to try; ``fetch`` downloads the files a conversion needs from the first that delivers them,
resumable and verified, with library.download (the bytes never go through the sources' own clients: one
transfer with resume, progress, cancel and sha256 for every source). ``localhub`` serves a folder as a Hub
repository on 127.0.0.1, for the self-test.

No Qt, no torch; huggingface_hub is imported only when the Hub is asked something.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol


@dataclass(frozen=True)
class RemoteFile:
    """A top-level file of a repository as a source lists it."""

    name: str
    size: int
    sha256: str | None = None  # what the source states: the Hub's LFS sha256, ModelScope's Sha256
    git_blob: str | None = None  # the Hub's git blob id of a small (non-LFS) file: sha1 of b"blob <size>\0" + bytes


@dataclass(frozen=True)
class Listing:
    """A repository's files at one revision, at one source."""

    repo_id: str
    revision: str  # as asked
    commit: str | None  # what it resolved to (the Hub); None where the source names no commit (ModelScope)
    files: Mapping[str, RemoteFile]
    gated: bool = False  # the source says it asks for a token and an accepted licence


@dataclass(frozen=True)
class Credentials:
    """Headers (a token) for one host only: never sent to another, nor to where that host redirects."""

    host: str  # netloc, e.g. "huggingface.co"
    headers: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Address:
    """Where one file is downloaded from, in the order to try, and with what credentials."""

    urls: tuple[str, ...]
    credentials: Credentials | None = None


class Source(Protocol):
    kind: str  # "hf", "hf-mirror", "modelscope", "url"
    label: str  # for people and messages: "huggingface.co", "hf-mirror.com", "ModelScope"
    endpoint: str  # its address ("https://hf-mirror.com"), which the automatic order asks whether it answers
    default_revision: str  # what "the latest" is called there: "main" on the Hub, "master" on ModelScope

    def listing(self, repo_id: str, revision: str, timeout: float) -> Listing:
        """The repository's files at `revision`; NotFound, AccessDenied or DownloadError in one line."""
        ...

    def address(self, listing: Listing, name: str, timeout: float) -> Address:
        """Where file `name` of `listing` is downloaded from, at the listing's commit where there is one."""
        ...

    def page(self, repo_id: str) -> str:
        """The model's page at this source, for people (where a licence is accepted)."""
        ...
