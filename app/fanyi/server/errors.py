"""The error every part of the server raises for a request it cannot answer; web.guarded() turns it
into the protocol's own shape."""

from __future__ import annotations


class ApiError(Exception):
    """A request that cannot be answered: an HTTP status and a sentence for the client (and, for a
    request that may succeed later, the seconds to wait before trying again)."""

    def __init__(self, status: int, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry_after = retry_after
