"""PDF with a text layer: its text, joined into paragraphs, translated into a new .docx.

The page layout is not kept (said in the document and in the report): each text box that the
layout analysis finds becomes a paragraph, its wrapped lines joined (``join_hard_wrapped``; a line
it keeps apart becomes a line break), and each page starts on a new page.
A PDF without text (a scan) is refused with a message.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

import docx
from docx.enum.text import WD_BREAK
from pdfminer.high_level import extract_pages
from pdfminer.layout import LAParams, LTTextContainer
from pdfminer.pdfdocument import PDFEncryptionError, PDFPasswordIncorrect
from pdfminer.pdfparser import PDFSyntaxError
from pdfminer.psexceptions import PSException

from fanyi.engine.segment import join_hard_wrapped

from .base import CorruptDocument, EncryptedDocument, NoTextFound, Unit

LAYOUT_NOTE = "the page layout of the PDF is not kept: this is its text, joined into paragraphs"


def _paragraphs(path: Path) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    try:
        for number, page in enumerate(extract_pages(path, laparams=LAParams()), 1):
            for box in page:
                if isinstance(box, LTTextContainer):
                    text = join_hard_wrapped(box.get_text().strip())
                    if text:
                        found.append((number, text))
    except (PDFPasswordIncorrect, PDFEncryptionError) as error:
        raise EncryptedDocument(path, f"{path} is password-protected; open it and save an unprotected copy.") from error
    except (PDFSyntaxError, PSException, ValueError, KeyError, TypeError) as error:
        raise CorruptDocument(path, f"{path} is not a readable PDF: it is damaged or truncated ({error}).") from error
    return found


class PdfDocument:
    notes = (LAYOUT_NOTE,)

    def __init__(self, path: Path) -> None:
        self._path = path
        self._paragraphs = _paragraphs(path)
        if not self._paragraphs:
            raise NoTextFound(
                path, f"{path} has no text layer (it looks like a scanned PDF); run it through OCR first."
            )

    def units(self) -> Iterator[Unit]:
        return (Unit(text, f"page {page}") for page, text in self._paragraphs)

    def write(self, out: BinaryIO, translations: Iterator[str | None], *, bilingual: bool, target_lang: str) -> None:
        document = docx.Document()
        note = document.add_paragraph(f"Translated from {self._path.name}; {LAYOUT_NOTE}.")
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


def open_document(path: Path) -> PdfDocument:
    return PdfDocument(path)
