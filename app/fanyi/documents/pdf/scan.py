"""Pages of a PDF without a text layer (scans): rendered with PDFium and read by ``fanyi.ocr``.

pdfminer reads text but cannot draw a page. PDFium (through pypdfium2) is Chrome's PDF renderer:
one native library of ~8 MB with no other dependency, wheels for every platform, Apache-2.0/BSD,
and fuzzed continuously as part of Chrome; PyMuPDF would be the other choice, and is AGPL.
Each page is rendered at OCR_PAGE_DPI (less for a huge page, within MAX_OCR_PAGE_PIXELS); at most
MAX_OCR_PAGES pages are recognised, within MAX_OCR_SECONDS, checking ``cancel`` between pages.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from fanyi import ocr
from fanyi.cancel import CancelToken
from fanyi.limits import MAX_OCR_PAGE_PIXELS, MAX_OCR_PAGES, MAX_OCR_SECONDS, OCR_PAGE_DPI

from ..base import CorruptDocument, describe
from ..bounds import too_large

POINTS_PER_INCH = 72


@dataclass(frozen=True)
class Recognised:
    """The lines OCR read on one page; their boxes are in pixels of the page rendered at ``scale`` pixels a point."""

    page: int  # from 1
    lines: list[ocr.Line]
    scale: float


def render(page: Any, dpi: int = OCR_PAGE_DPI) -> tuple[np.ndarray, float]:
    """A pypdfium2 page as an RGB array at ``dpi``, or at the resolution that keeps it within MAX_OCR_PAGE_PIXELS,
    and that resolution in pixels a point."""
    width, height = page.get_size()
    scale = dpi / POINTS_PER_INCH
    if width * height * scale * scale > MAX_OCR_PAGE_PIXELS:
        scale = math.sqrt(MAX_OCR_PAGE_PIXELS / (width * height))
    pixels: np.ndarray = page.render(scale=scale, rev_byteorder=True).to_numpy()
    return pixels, scale


def recognise_pages(
    path: Path,
    pages: list[int],
    cancel: CancelToken | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[Recognised]:
    """The lines OCR finds on ``pages`` (numbered from 1), page by page.

    Raises OcrUnavailable without the models, DocumentTooLarge past the limits, Cancelled.
    """
    if len(pages) > MAX_OCR_PAGES:
        raise too_large(
            path,
            f"{len(pages):,} of its pages have no text layer; Fanyi recognises at most "
            f"{MAX_OCR_PAGES:,} scanned pages in one document",
        )
    import pypdfium2  # loaded only for a scan: a text PDF needs no renderer

    recogniser = ocr.Recogniser()  # before rendering anything: missing models are said at once
    found: list[Recognised] = []
    if progress is not None:
        progress(0, len(pages))
    began = time.monotonic()
    try:
        document = pypdfium2.PdfDocument(str(path))
    except pypdfium2.PdfiumError as error:
        raise CorruptDocument(path, f"{path} could not be rendered for OCR ({describe(error)}).") from error
    try:
        for done, number in enumerate(pages):
            if cancel is not None:
                cancel.raise_if_cancelled()
            try:
                page = document[number - 1]
                try:
                    image, scale = render(page)
                finally:
                    page.close()
            except pypdfium2.PdfiumError as error:
                raise CorruptDocument(
                    path, f"{path}: page {number} could not be rendered for OCR ({describe(error)})."
                ) from error
            found.append(Recognised(number, recogniser(image), scale))
            if progress is not None:
                progress(done + 1, len(pages))
            if time.monotonic() - began > MAX_OCR_SECONDS:
                raise too_large(
                    path,
                    f"recognising its scanned pages took longer than {MAX_OCR_SECONDS // 60} "
                    f"minutes ({done + 1} of {len(pages)} done)",
                )
    finally:
        document.close()
    return found
