"""Text said on one line of bounded length: error messages, reports, previews."""

from __future__ import annotations


def one_line(text: str, width: int | None = None) -> str:
    """`text` with every run of whitespace (line breaks too) made one space, cut to `width` characters."""
    flat = " ".join(str(text).split())
    return flat if width is None or len(flat) <= width else flat[: width - 1] + "…"


def error_line(error: BaseException, width: int | None = None) -> str:
    """An exception's message on one line; the exception's type when it has no message."""
    return one_line(str(error), width) or type(error).__name__
