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
    # What else it can be written as (``to``), besides its own kind: a PDF as a .docx.
    also_writes: tuple[str, ...] = ()
    # Opening can take minutes (a scanned PDF is recognised by OCR): ``open_document`` then also
    # takes the job's cancel token and a progress callback (pages done, pages to do), and the
    # output's kind and the layout of a bilingual output as the keywords ``output`` and ``bilingual``.
    slow_open: bool = False

    def output_suffix(self, src: Path, to: str | None = None) -> str:
        """The suffix of what ``src`` is translated into: its own, or ``to`` ("docx", ".docx") where it can be."""
        if to is None:
            return src.suffix
        wanted = "." + to.lower().lstrip(".")
        if wanted in self.suffixes:
            return src.suffix
        if wanted not in self.also_writes:
            kinds = ", ".join(s.lstrip(".") for s in (self.suffixes[0], *self.also_writes))
            raise UnsupportedFormat(src, f"A {self.name} cannot be written as {wanted.lstrip('.')}: it can be {kinds}.")
        return wanted

    def open(
        self,
        path: Path,
        cancel: CancelToken | None = None,
        progress: ProgressCallback | None = None,
        *,
        to: str | None = None,
        bilingual: str = "side",
    ) -> DocumentHandler:
        module = importlib.import_module(f"{__package__}.{self.module}")
        if not self.slow_open:
            opened: DocumentHandler = module.open_document(path)
            return opened
        output = self.output_suffix(path, to).lstrip(".")
        handler: DocumentHandler = module.open_document(path, cancel, progress, output=output, bilingual=bilingual)
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
    Format("PDF", (".pdf",), "pdf", also_writes=(".docx",), slow_open=True),
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
