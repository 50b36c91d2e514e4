"""A document's text for a summary: its paragraphs, read by the handler of its format (every format Fanyi
translates), bounded by limits.MAX_SUMMARY_CHARS while they are read."""

from __future__ import annotations

from pathlib import Path

from .. import limits
from ..cancel import CancelToken
from ..documents.registry import format_for
from ..progress import ProgressCallback
from .run import SummaryError


def read_paragraphs(
    path: Path, cancel: CancelToken | None = None, progress: ProgressCallback | None = None
) -> list[str]:
    """The document's paragraphs (its units with text); SummaryError for none, or more than a summary takes.
    `progress` hears a scanned PDF's pages as they are recognised."""
    handler = format_for(path).open(path, cancel, progress)
    paragraphs: list[str] = []
    total = 0
    for unit in handler.units():
        if cancel is not None:
            cancel.raise_if_cancelled()
        if unit.keep or not unit.text.strip():
            continue
        total += len(unit.text)
        if total > limits.MAX_SUMMARY_CHARS:
            raise SummaryError(
                f"{path.name} holds more than {limits.MAX_SUMMARY_CHARS:,} characters of text; Fanyi summarizes "
                "at most that (about 250 pages) at a time"
            )
        paragraphs.append(unit.text)
    if not paragraphs:
        raise SummaryError(f"{path.name} has no text to summarize")
    return paragraphs
