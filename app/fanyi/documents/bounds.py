"""Checks of a document against ``fanyi.limits`` that several formats share, each failing with one line."""

from __future__ import annotations

from pathlib import Path

from .base import DocumentTooLarge


def too_large(path: Path, detail: str) -> DocumentTooLarge:
    """``path`` refused; ``detail`` says what goes past which limit."""
    return DocumentTooLarge(path, f"{path} is too large to translate: {detail}.")


def size(n: int) -> str:
    """A byte count for a message: "64 MB", "2 GB", "900 bytes"."""
    for unit, scale in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if n >= scale:
            return f"{n / scale:.3g} {unit}"
    return f"{n} bytes"


class Tally:
    """A running count over a document (markup tags, units, decoded bytes) that must stay within a limit."""

    def __init__(self, path: Path, limit: int, what: str) -> None:
        self._path = path
        self._limit = limit
        self._what = what  # a plural noun phrase: "tags in its XML parts"
        self.count = 0

    def add(self, n: int = 1) -> None:
        self.count += n
        if self.count > self._limit:
            raise too_large(self._path, f"it has more than {self._limit:,} {self._what}")
