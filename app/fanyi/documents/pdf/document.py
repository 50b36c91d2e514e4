"""A PDF opened for translation: its pages read into paragraphs, its translation written as a PDF or a .docx.

Reading interprets every page once (``interpret``), lays its glyphs out into paragraphs
(``layout``) and keeps for each page what the writer needs to remove a paragraph's glyphs
(``Origins``: ~11 bytes a glyph). Pages with no text layer are rendered and read by OCR
(``scan``); their paragraphs carry boxes too, so the translation is drawn over the scan.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO, Literal

from pdfminer.pdfdocument import PDFEncryptionError

from fanyi import ocr
from fanyi.cancel import CancelToken
from fanyi.limits import MAX_PDF_PAGES, MAX_PDF_TEXT_CHARS, MAX_UNITS
from fanyi.ocr.layout import joined, paragraph_rows

from ..base import CorruptDocument, DocumentError, EncryptedDocument, NoTextFound, Unit, describe
from ..bounds import Tally, too_large
from ..characters import FORBIDDEN
from ..said import Said, said
from . import decoding, interpret, layout, scan
from .interpret import Box
from .layout import Paragraph, Role
from .page import Page, page_runs

Output = Literal["pdf", "docx"]
Bilingual = Literal["side", "alternate"]


decoding.install()
# pdfminer logs warnings about damaged files; with no handler of ours Python would print them on
# stderr. The one-line error (or the report) says what matters; an app's log handlers still see them.
logging.getLogger("pdfminer").addHandler(logging.NullHandler())


def pages_named(numbers: list[int]) -> Said:
    """ "page 3 has" or "pages 1–4, 7 have"."""
    return said("pdf.page_has" if len(numbers) == 1 else "pdf.pages_have", pages=page_runs(numbers))


def _read(path: Path, cancel: CancelToken | None) -> list[Page]:
    found: list[Page] = []
    units = Tally(path, MAX_UNITS, "text boxes")
    chars = Tally(path, MAX_PDF_TEXT_CHARS, "characters of text")
    words: set[str] = set()  # the document's, page by page: what tells a compound's hyphen at a line's end
    try:
        with decoding.decoding_budget(), path.open("rb") as handle:
            for content in interpret.pages(handle):
                if content.number > MAX_PDF_PAGES:
                    raise too_large(path, f"it has more than {MAX_PDF_PAGES:,} pages")
                if cancel is not None:
                    cancel.raise_if_cancelled()
                laid = layout.lay_out(content, words)
                for paragraph in laid.paragraphs:
                    paragraph.text = FORBIDDEN.sub("", paragraph.text)  # a damaged ToUnicode map's control characters
                    units.add()
                    chars.add(len(paragraph.text))
                found.append(
                    Page(
                        content.number,
                        content.width,
                        content.height,
                        content.ctm,
                        content.crop,
                        content.origins,
                        laid.paragraphs,
                        laid.obstacles,
                        pictures_only=bool(content.glyphs) and all(g.font.pictures for g in content.glyphs),
                    )
                )
    except DocumentError:
        raise
    except (decoding.DecodeLimit, interpret.PageTooLarge) as error:
        raise too_large(path, str(error)) from error
    except PDFEncryptionError as error:  # also a wrong password and "extraction not allowed"
        raise EncryptedDocument(path, f"{path} is password-protected; open it and save an unprotected copy.") from error
    except MemoryError:
        raise
    except Exception as error:  # pdfminer raises anything at all on a damaged file
        message = f"{path} is not a readable PDF: it is damaged or truncated ({describe(error)})."
        raise CorruptDocument(path, message) from error
    body = layout.body_size(p for page in found for p in page.paragraphs)
    layout.assign_roles(
        (p for page in found for p in page.paragraphs), body, {page.number: page.height for page in found}
    )
    return found


def _scanned_paragraphs(page: Page, recognised: scan.Recognised, crop: Box) -> list[Paragraph]:
    """OCR's lines as paragraphs in the page's coordinates (``crop``: the rendered box, as shown)."""
    left, _bottom, _right, top = crop
    out = []
    for rows in paragraph_rows(recognised.lines):
        text = FORBIDDEN.sub("", joined(rows)).strip()
        if not text:
            continue
        x0 = left + min(row.left for row in rows) / recognised.scale
        x1 = left + max(row.right for row in rows) / recognised.scale
        y1 = top - min(row.top for row in rows) / recognised.scale
        y0 = top - max(row.bottom for row in rows) / recognised.scale
        heights = sorted(row.height / recognised.scale for row in rows)
        size = heights[len(heights) // 2] * 0.8  # a recognised line's box is about 1.25 × its font size
        out.append(
            Paragraph(
                page.number, text, (x0, y0, x1, y1), Role.BODY, None, size, max(size * 1.2, (y1 - y0) / len(rows)),
                len(rows), (0.0, 0.0, 0.0), False, False, True, x1,
            )
        )  # fmt: skip
    return out


class PdfDocument:
    def __init__(
        self,
        path: Path,
        cancel: CancelToken | None = None,
        progress: Callable[[int, int], None] | None = None,
        *,
        output: Output = "pdf",
        bilingual: Bilingual = "side",
    ) -> None:
        self._path = path
        self._output = output
        self._bilingual = bilingual
        self._cancel = cancel
        self._progress = progress
        self.pages = _read(path, cancel)
        self.notes: list[str] = []
        # translated units the written PDF does not show (their glyphs could not be removed): the job counts them
        self.unplaced: list[tuple[Unit, str]] = []
        textless = [page for page in self.pages if not any(p.text.strip() for p in page.paragraphs)]
        if textless:
            self._recognise(textless, progress)
        if not any(p.text.strip() for page in self.pages for p in page.paragraphs):
            raise NoTextFound(
                path, f"{path} has no text layer (it looks like a scanned PDF), and OCR found no text on its pages."
            )

    def _recognise(self, textless: list[Page], progress: Callable[[int, int], None] | None) -> None:
        numbers = [page.number for page in textless]
        try:
            recognised = scan.recognise_pages(self._path, numbers, self._cancel, progress)
        except ocr.OcrUnavailable as error:
            if len(textless) == len(self.pages):
                raise NoTextFound(
                    self._path,
                    f"{self._path} has no text layer (it looks like a scanned PDF), and it cannot be recognised: "
                    f"{error}.",
                ) from error
            self.notes.append(said("pdf.no_ocr", pages=pages_named(numbers), error=str(error)))
            return
        by_number = {page.number: page for page in textless}
        read = []
        for found in recognised:
            page = by_number[found.page]
            page.paragraphs = _scanned_paragraphs(page, found, page.shown_crop())
            page.scanned = True
            if page.paragraphs:
                read.append(page.number)
        if read:
            self.notes.append(said("pdf.ocr", pages=pages_named(read)))

    def units(self) -> Iterator[Unit]:
        for page in self.pages:
            for paragraph in page.paragraphs:
                keep = paragraph.keep
                yield Unit(paragraph.text, f"page {page.number}", keep=keep, words_left=keep in layout.WORDS_LEFT)

    def write(self, out: BinaryIO, translations: Iterator[str | None], *, bilingual: bool, target_lang: str) -> None:
        texts = [[next(translations) for _ in page.paragraphs] for page in self.pages]
        if self._output == "docx":
            from . import todocx  # noqa: PLC0415 - python-docx only when a .docx is asked for

            todocx.write(
                out, self._path, self.pages, texts, bilingual=bilingual, notes=self.notes, target_lang=target_lang
            )
            return
        from . import rewrite  # noqa: PLC0415 - pikepdf and the fonts only when a PDF is written

        held = _HeldErrors(out)
        unplaced = rewrite.write(
            held,  # type: ignore[arg-type]  # write, flush, seek and tell are what pikepdf calls
            self._path,
            self.pages,
            texts,
            target_lang=target_lang,
            bilingual=self._bilingual if bilingual else None,
            notes=self.notes,
            cancel=self._cancel,
            progress=self._progress,
        )
        held.raise_held()
        self.unplaced = [(Unit(paragraph.text, f"page {paragraph.page}"), why) for paragraph, why in unplaced]


class _HeldErrors:
    """The output as pikepdf writes into it: the file's first error is held, the rest of the output discarded, and
    the error raised once pikepdf has returned (``raise_held``). QPDF finishes its output in a destructor when it
    writes a deterministic /ID (QPDFWriter::PipelinePopper), so an error thrown there — a full disk at the last
    flush — ends the process with std::terminate instead of reaching Python; through this object none is thrown."""

    def __init__(self, out: BinaryIO) -> None:
        self._out = out
        self._error: OSError | None = None

    def write(self, data: bytes) -> int:
        if self._error is None:
            try:
                self._out.write(data)
            except OSError as error:
                self._error = error
        return len(data)

    def flush(self) -> None:
        if self._error is None:
            try:
                self._out.flush()
            except OSError as error:
                self._error = error

    def seek(self, offset: int, whence: int = 0) -> int:
        return self._out.seek(offset, whence)

    def tell(self) -> int:
        return self._out.tell()

    def raise_held(self) -> None:
        if self._error is not None:
            raise self._error


def open_document(
    path: Path,
    cancel: CancelToken | None = None,
    progress: Callable[[int, int], None] | None = None,
    *,
    output: Output = "pdf",
    bilingual: Bilingual = "side",
) -> PdfDocument:
    return PdfDocument(path, cancel, progress, output=output, bilingual=bilingual)
