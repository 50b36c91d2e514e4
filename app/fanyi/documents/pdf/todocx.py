"""PDF with a text layer: its text, joined into paragraphs, translated into a new .docx.

The page layout is not kept (said in the document and in the report): each text box that the
layout analysis finds becomes a paragraph, its wrapped lines joined (``join_hard_wrapped``; a line
it keeps apart becomes a line break), and each page starts on a new page.
A page without text (a scan) is rendered and read by OCR (``scan``), which the document and
the report also say; a PDF in which neither finds text is refused with a message.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

import docx
from docx.enum.text import WD_BREAK
from pdfminer.converter import PDFPageAggregator
from pdfminer.layout import (
    LAParams,
    LTPage,
    LTTextBox,
    LTTextBoxHorizontal,
    LTTextBoxVertical,
    LTTextContainer,
    LTTextGroup,
    LTTextGroupLRTB,
    LTTextLineHorizontal,
)
from pdfminer.pdfdocument import PDFEncryptionError
from pdfminer.pdfinterp import PDFPageInterpreter, PDFResourceManager
from pdfminer.pdfpage import PDFPage

from fanyi import ocr
from fanyi.cancel import CancelToken
from fanyi.engine import join_hard_wrapped
from fanyi.limits import (
    MAX_PDF_PAGE_CHARS,
    MAX_PDF_PAGES,
    MAX_PDF_TEXT_CHARS,
    MAX_UNITS,
    PDF_LAYOUT_BOXES,
    PDF_LAYOUT_LINES,
)

from . import decoding, scan
from ..base import CorruptDocument, DocumentError, EncryptedDocument, NoTextFound, Unit, describe
from ..bounds import Tally, too_large
from ..characters import FORBIDDEN

LAYOUT_NOTE = "the page layout of the PDF is not kept: this is its text, joined into paragraphs"
OCR_NOTE = "{pages} no text layer (a scan): the text there was recognised by OCR and may hold misread characters"

decoding.install()
# pdfminer logs warnings about damaged files; with no handler of ours Python would print them on
# stderr. The one-line error (or the report) says what matters; an app's log handlers still see them.
logging.getLogger("pdfminer").addHandler(logging.NullHandler())


class _Page(LTPage):
    """A page whose layout analysis stays linear when a page holds more than a real page does.

    pdfminer groups text lines into boxes and boxes into a reading order by comparing every pair,
    which takes minutes and gigabytes for a page of thousands of scattered characters.
    """

    def group_textlines(self, laparams: LAParams, lines: Any) -> Iterator[LTTextBox]:
        lines = list(lines)
        if len(lines) <= PDF_LAYOUT_LINES:
            yield from super().group_textlines(laparams, lines)
            return
        for line in lines:  # each line a box of its own
            box = LTTextBoxHorizontal() if isinstance(line, LTTextLineHorizontal) else LTTextBoxVertical()
            box.add(line)
            yield box

    def group_textboxes(self, laparams: LAParams, boxes: Any) -> list[LTTextGroup]:
        if len(boxes) <= PDF_LAYOUT_BOXES:
            return super().group_textboxes(laparams, boxes)
        return [LTTextGroupLRTB(boxes)]  # top to bottom, left to right


class _PageTooLarge(Exception):
    pass


class _Aggregator(PDFPageAggregator):
    """pdfminer's layout device, with our page and a bound on the characters of one page."""

    def begin_page(self, page: PDFPage, ctm: Any) -> None:
        super().begin_page(page, ctm)
        assert isinstance(self.cur_item, LTPage)  # what begin_page made
        self.cur_item = _Page(self.cur_item.pageid, self.cur_item.bbox)
        self._chars = 0

    def render_char(self, *args: Any, **kwargs: Any) -> float:
        self._chars += 1
        if self._chars > MAX_PDF_PAGE_CHARS:
            raise _PageTooLarge(f"a page shows more than {MAX_PDF_PAGE_CHARS:,} characters")
        return super().render_char(*args, **kwargs)


def _paragraphs(path: Path) -> tuple[list[tuple[int, str]], list[int]]:
    """(page number, paragraph) of the text layer, and the numbers of the pages without text."""
    found: list[tuple[int, str]] = []
    textless: list[int] = []
    units = Tally(path, MAX_UNITS, "text boxes")
    chars = Tally(path, MAX_PDF_TEXT_CHARS, "characters of text")
    try:
        with decoding.decoding_budget(), path.open("rb") as handle:
            resources = PDFResourceManager()
            device = _Aggregator(resources, laparams=LAParams())
            interpreter = PDFPageInterpreter(resources, device)
            for number, page in enumerate(PDFPage.get_pages(handle), 1):
                if number > MAX_PDF_PAGES:
                    raise too_large(path, f"it has more than {MAX_PDF_PAGES:,} pages")
                interpreter.process_page(page)
                before = len(found)
                for box in device.get_result():
                    if isinstance(box, LTTextContainer):
                        # a damaged font's ToUnicode map can give characters XML cannot hold
                        text = join_hard_wrapped(FORBIDDEN.sub("", box.get_text()).strip())
                        if text:
                            units.add()
                            chars.add(len(text))
                            found.append((number, text))
                if len(found) == before:
                    textless.append(number)
    except DocumentError:
        raise
    except (decoding.DecodeLimit, _PageTooLarge) as error:
        raise too_large(path, str(error)) from error
    except PDFEncryptionError as error:  # also a wrong password and "extraction not allowed"
        raise EncryptedDocument(path, f"{path} is password-protected; open it and save an unprotected copy.") from error
    except MemoryError:
        raise
    except Exception as error:  # pdfminer raises anything at all on a damaged file
        message = f"{path} is not a readable PDF: it is damaged or truncated ({describe(error)})."
        raise CorruptDocument(path, message) from error
    return found, textless


def _pages(numbers: list[int]) -> str:
    """ "page 3 has" or "pages 1–4, 7 have": runs of consecutive numbers joined."""
    runs: list[list[int]] = []
    for number in numbers:
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    named = ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}–{r[-1]}" for r in runs)
    return f"page {named} has" if len(numbers) == 1 else f"pages {named} have"


class PdfDocument:
    def __init__(
        self, path: Path, cancel: CancelToken | None = None, progress: Callable[[int, int], None] | None = None
    ) -> None:
        self._path = path
        self._paragraphs, textless = _paragraphs(path)
        self.notes: tuple[str, ...] = (LAYOUT_NOTE,)
        if not textless:
            return
        try:
            recognised = scan.recognise_pages(path, textless, cancel, progress)
        except ocr.OcrUnavailable as error:
            if not self._paragraphs:
                raise NoTextFound(
                    path,
                    f"{path} has no text layer (it looks like a scanned PDF), and it cannot be recognised: {error}.",
                ) from error
            self.notes += (f"{_pages(textless)} no text layer and were left out: {error}",)
            return
        if recognised:
            self.notes += (OCR_NOTE.format(pages=_pages(sorted({page for page, _ in recognised}))),)
        cleaned = [(page, FORBIDDEN.sub("", text)) for page, text in recognised]
        self._paragraphs = sorted(self._paragraphs + cleaned, key=lambda item: item[0])
        if not self._paragraphs:
            raise NoTextFound(
                path, f"{path} has no text layer (it looks like a scanned PDF), and OCR found no text on its pages."
            )

    def units(self) -> Iterator[Unit]:
        return (Unit(text, f"page {page}") for page, text in self._paragraphs)

    def write(self, out: BinaryIO, translations: Iterator[str | None], *, bilingual: bool, target_lang: str) -> None:
        document = docx.Document()
        note = document.add_paragraph(f"Translated from {self._path.name}; {'; '.join(self.notes)}.")
        note.runs[0].italic = True
        page_of_last = 1
        for page, text in self._paragraphs:
            translation = next(translations)
            if page != page_of_last:
                document.paragraphs[-1].add_run().add_break(WD_BREAK.PAGE)
                page_of_last = page
            if translation is None or bilingual:
                document.add_paragraph(text)
            if translation is not None:
                document.add_paragraph(translation)
        document.save(out)


def open_document(
    path: Path, cancel: CancelToken | None = None, progress: Callable[[int, int], None] | None = None
) -> PdfDocument:
    return PdfDocument(path, cancel, progress)
