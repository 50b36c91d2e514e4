"""What can go wrong managing packs; every message is one line for the user.

Its own module so that the library, unpacking, disk space and downloads can all raise these
without importing each other.
"""

from __future__ import annotations


class LibraryError(Exception):
    """A pack cannot be found, installed, imported or removed."""


class DiskSpaceError(LibraryError):
    """Not enough free space; the message names the folder, what is needed and what is free."""


class DownloadError(LibraryError):
    """A download that failed, in one line; `unreachable` when no server could be reached at all; `status` the
    HTTP status a server answered with, where that is what failed."""

    def __init__(self, message: str, unreachable: bool = False, status: int | None = None) -> None:
        super().__init__(message)
        self.unreachable, self.status = unreachable, status


class AccessDenied(DownloadError):
    """A repository a download source refuses without a token or an accepted licence (HTTP 401/403: gated or
    private). `page` is the model's page, where its licence is accepted; `token_sent` says whether a token was
    offered and refused."""

    def __init__(self, message: str, page: str, token_sent: bool) -> None:
        super().__init__(message)
        self.page, self.token_sent = page, token_sent


class NotFound(DownloadError):
    """The repository, the revision or a file does not exist at a download source."""
