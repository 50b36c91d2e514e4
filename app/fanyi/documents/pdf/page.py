"""A page as read for translation: what the writer needs of it once the reader is done."""

from __future__ import annotations

from dataclasses import dataclass

from pdfminer.utils import Matrix

from .interpret import Box, Origins, transformed
from .layout import Paragraph


@dataclass
class Page:
    number: int  # from 1
    width: float  # as shown, rotation applied
    height: float
    ctm: Matrix  # the page's user space → the coordinates of its paragraphs
    crop: Box  # the crop box, in user space
    origins: Origins
    paragraphs: list[Paragraph]
    obstacles: list[Box]  # figures, images and rules: the room a translation may take ends at them
    pictures_only: bool = False  # all its text is in Type 3 fonts: kept as it is (see rewrite)
    scanned: bool = False  # its paragraphs were read by OCR: drawn over boxes of its paper colour

    def shown_crop(self) -> Box:
        """The crop box in the coordinates of the paragraphs: what a viewer shows, and PDFium renders."""
        return transformed(self.crop, self.ctm)


def page_runs(numbers: list[int], joiner: str = ", ") -> str:
    """ "1–4, 7": runs of consecutive page numbers joined."""
    runs: list[list[int]] = []
    for number in numbers:
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    return joiner.join(str(r[0]) if len(r) == 1 else f"{r[0]}–{r[-1]}" for r in runs)
