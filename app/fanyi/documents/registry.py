"""Which module handles which file suffix.

Modules are imported on first use: pdfminer, python-docx and lxml take a while to load, and a
translation of a .txt file should not wait for them.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path

from fanyi.cancel import CancelToken
from fanyi.progress import ProgressCallback

from .base import DocumentHandler, UnsupportedFormat


@dataclass(frozen=True)
class Format:
    name: str
    suffixes: tuple[str, ...]
    module: str  # in fanyi.documents, with an ``open_document(path) -> DocumentHandler``
    output_suffix: str | None = None  # None: the same as the source
    # Opening can take minutes (a scanned PDF is recognised by OCR): ``open_document`` then also
    # takes the job's cancel token and a progress callback (pages done, pages to do).
    slow_open: bool = False

    def open(
        self, path: Path, cancel: CancelToken | None = None, progress: ProgressCallback | None = None
    ) -> DocumentHandler:
        module = importlib.import_module(f"{__package__}.{self.module}")
        handler: DocumentHandler = (
            module.open_document(path, cancel, progress) if self.slow_open else module.open_document(path)
        )
        return handler


FORMATS = (
    Format("plain text", (".txt", ".text"), "txt"),
    Format("Markdown", (".md", ".markdown"), "markdown"),
    Format("SubRip subtitles", (".srt",), "subtitles"),
    Format("WebVTT subtitles", (".vtt",), "subtitles"),
    Format("HTML", (".html", ".htm", ".xhtml"), "html"),
    Format("Word document", (".docx",), "docx"),
    Format("PowerPoint presentation", (".pptx",), "pptx"),
    Format("EPUB book", (".epub",), "epub"),
    Format("PDF", (".pdf",), "pdf", output_suffix=".docx", slow_open=True),
)

SUPPORTED_SUFFIXES = tuple(suffix for fmt in FORMATS for suffix in fmt.suffixes)


def format_for(path: Path) -> Format:
    suffix = path.suffix.lower()
    for fmt in FORMATS:
        if suffix in fmt.suffixes:
            return fmt
    raise UnsupportedFormat(
        path,
        f"{path} is not a supported document: Fanyi translates {', '.join(SUPPORTED_SUFFIXES)} files.",
    )
