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
    """A download that failed, in one line; `unreachable` when no server could be reached at all."""

    def __init__(self, message: str, unreachable: bool = False) -> None:
        super().__init__(message)
        self.unreachable = unreachable
