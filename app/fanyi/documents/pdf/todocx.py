"""A PDF's paragraphs, translated, as a new .docx (``fanyi file --to docx``): the text without the page layout.

Each paragraph becomes a Word paragraph in reading order, each page starting on a new page; the
document opens with a note saying where it came from, that the layout is not kept and which pages were
recognised by OCR, in the translation's language (English, or Simplified or Traditional Chinese).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import BinaryIO

import docx
from docx.enum.text import WD_BREAK

from fanyi.languages import SIMPLIFIED, language_of

from .page import Page, page_runs

LAYOUT_NOTE = "the page layout of the PDF is not kept: this is its text, joined into paragraphs"
# the opening note in Chinese: where it was translated from, the layout, the pages OCR read (their numbers)
_CHINESE_NOTE = {
    "Hans": (
        "译自 {name}。PDF 的版面没有保留，这是它的文字，连成了段落",
        "；第 {pages} 页没有文字层（扫描件），其文字由 OCR 识别，可能有认错的字",
    ),
    "Hant": (
        "譯自 {name}。PDF 的版面沒有保留，這是它的文字，連成了段落",
        "；第 {pages} 頁沒有文字層（掃描件），其文字由 OCR 識別，可能有認錯的字",
    ),
}


def _note(source: Path, pages: Sequence[Page], notes: list[str], target_lang: str) -> str:
    language = language_of(target_lang)
    if language.code != "zh":
        return f"Translated from {source.name}; {'; '.join(notes)}."
    opening, scanned = _CHINESE_NOTE["Hans" if language.variant in (None, SIMPLIFIED) else "Hant"]
    read = [page.number for page in pages if page.scanned and page.paragraphs]
    text = opening.format(name=source.name) + (scanned.format(pages=page_runs(read, "、")) if read else "")
    others = [note for note in notes if note != LAYOUT_NOTE and not note.startswith(("page ", "pages "))]
    return text + "".join(f"；{note}" for note in others) + "。"


def write(
    out: BinaryIO,
    source: Path,
    pages: Sequence[Page],
    texts: Sequence[Sequence[str | None]],
    *,
    bilingual: bool,
    notes: list[str],
    target_lang: str = "en",
) -> None:
    notes.insert(0, LAYOUT_NOTE)
    document = docx.Document()
    note = document.add_paragraph(_note(source, pages, notes, target_lang))
    note.runs[0].italic = True
    first = True
    for page, translations in zip(pages, texts):
        if not page.paragraphs:
            continue
        if not first:
            document.paragraphs[-1].add_run().add_break(WD_BREAK.PAGE)
        first = False
        for paragraph, translation in zip(page.paragraphs, translations):
            if translation is None or bilingual:
                document.add_paragraph(paragraph.text)
            if translation is not None:
                document.add_paragraph(translation)
    document.save(out)
