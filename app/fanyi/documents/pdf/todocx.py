"""A PDF's paragraphs, translated, as a new .docx (``fanyi file --to docx``): the text without the page layout.

Each paragraph becomes a Word paragraph in reading order, each page starting on a new page; the
document opens with a note saying where it came from and that the layout is not kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import BinaryIO

import docx
from docx.enum.text import WD_BREAK

from .page import Page

LAYOUT_NOTE = "the page layout of the PDF is not kept: this is its text, joined into paragraphs"


def write(
    out: BinaryIO,
    source: Path,
    pages: Sequence[Page],
    texts: Sequence[Sequence[str | None]],
    *,
    bilingual: bool,
    notes: list[str],
) -> None:
    notes.insert(0, LAYOUT_NOTE)
    document = docx.Document()
    note = document.add_paragraph(f"Translated from {source.name}; {'; '.join(notes)}.")
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
