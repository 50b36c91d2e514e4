"""Bilingual PDFs: the original page and its translation side by side on one page, or one after the other.

Both start from the pages as they were before the writer touched them (``Originals.keep`` is
called first): side by side, each page becomes one twice as wide, the original drawn on its left
half and the translation on its right as form XObjects, each clipped to its crop box, with the
links and other annotations of both halves; alternating, a copy of the original page goes before
each translated page. The translated pages keep their page objects, so links, bookmarks and named
destinations that pointed to a page point to its translation.
"""

from __future__ import annotations

from collections.abc import Sequence

import pikepdf
from pdfminer.utils import Matrix, apply_matrix_pt

from .interpret import Box, transformed

_BOXES = ("/CropBox", "/TrimBox", "/BleedBox", "/ArtBox")


class Originals:
    """The pages as they were, kept before they are translated."""

    def __init__(self, pdf: pikepdf.Pdf, layout: str) -> None:
        self._pdf = pdf
        self._layout = layout
        self._forms: list[pikepdf.Object] = []
        self._annotations: list[list[pikepdf.Dictionary]] = []

    def keep(self) -> None:
        if self._layout == "alternate":
            return  # the copies are inserted at the end, from the original content streams the pages still name
        for page in self._pdf.pages:
            self._forms.append(_form_of(page))
            self._annotations.append([pikepdf.Dictionary(dict(a.items())) for a in _annotations(page)])

    def pair(self, contents_before: Sequence[pikepdf.Object | None], crops: Sequence[Box]) -> None:
        """Pair each translated page with its original (``contents_before``: each page's /Contents as it was;
        ``crops``: each page's crop box)."""
        if self._layout == "alternate":
            self._alternate(contents_before)
        else:
            self._side_by_side(crops)

    def _alternate(self, contents_before: Sequence[pikepdf.Object | None]) -> None:
        pdf = self._pdf
        count = len(pdf.pages)
        for number in reversed(range(count)):
            translated = pdf.pages[number]
            pdf.pages.insert(number, translated)  # a copy of the page object before it
            original = pdf.pages[number]
            if contents_before[number] is not None:
                original.obj.Contents = contents_before[number]
            if "/Annots" in original.obj:
                original.obj.Annots = pikepdf.Array(
                    [pikepdf.Dictionary(dict(a.items())) for a in _annotations(original)]
                )

    def _side_by_side(self, crops: Sequence[Box]) -> None:
        for page, original, drawn_over, crop in zip(self._pdf.pages, self._forms, self._annotations, crops):
            translated = _form_of(page)
            matrix = original.get("/Matrix")  # the page's rotation and user unit, as pikepdf placed them
            ctm: Matrix = tuple(float(v) for v in matrix) if isinstance(matrix, pikepdf.Array) else (1, 0, 0, 1, 0, 0)  # type: ignore[assignment]
            left, bottom, right, top = transformed(crop, ctm)
            width, height = right - left, top - bottom
            for form in (original, translated):
                form.BBox = pikepdf.Array([float(v) for v in crop])
            page.obj.Resources = pikepdf.Dictionary(
                XObject=pikepdf.Dictionary(FyOriginal=original, FyTranslated=translated)
            )
            placed = (
                f"q 1 0 0 1 {-left:.4f} {-bottom:.4f} cm /FyOriginal Do Q "
                f"q 1 0 0 1 {width - left:.4f} {-bottom:.4f} cm /FyTranslated Do Q"
            )
            page.obj.Contents = self._pdf.make_stream(placed.encode())
            for key in (*_BOXES, "/Rotate", "/UserUnit"):
                if key in page.obj:
                    del page.obj[key]
            page.obj.MediaBox = pikepdf.Array([0, 0, round(2 * width, 4), round(height, 4)])
            moved = [_moved(a, ctm, -left, -bottom) for a in drawn_over]
            moved += [_moved(a, ctm, width - left, -bottom) for a in _annotations(page)]
            if moved:
                page.obj.Annots = pikepdf.Array(moved)


def _form_of(page: pikepdf.Page) -> pikepdf.Object:
    """The page as a form XObject holding its content as it is now: qpdf's form reads the page's content
    when the file is saved, by which time the page draws the two forms (a form drawing itself)."""
    form = page.as_form_xobject()
    form.write(form.read_bytes())
    return form


def _annotations(page: pikepdf.Page) -> list[pikepdf.Dictionary]:
    found = page.obj.get("/Annots")
    if not isinstance(found, pikepdf.Array):
        return []
    return [a for a in found if isinstance(a, pikepdf.Dictionary)]


def _moved(annotation: pikepdf.Dictionary, ctm: Matrix, dx: float, dy: float) -> pikepdf.Dictionary:
    """A copy of ``annotation`` placed on the bilingual page: its page's matrix applied, then moved by dx, dy."""
    copy = pikepdf.Dictionary(dict(annotation.items()))
    rect = annotation.get("/Rect")
    if isinstance(rect, pikepdf.Array) and len(rect) == 4:
        x0, y0, x1, y1 = transformed(tuple(float(v) for v in rect), ctm)  # type: ignore[arg-type]
        copy.Rect = pikepdf.Array([round(v, 4) for v in (x0 + dx, y0 + dy, x1 + dx, y1 + dy)])
    quads = annotation.get("/QuadPoints")
    if isinstance(quads, pikepdf.Array) and len(quads) % 2 == 0:
        points = [apply_matrix_pt(ctm, (float(quads[i]), float(quads[i + 1]))) for i in range(0, len(quads), 2)]
        copy.QuadPoints = pikepdf.Array([round(v, 4) for x, y in points for v in (x + dx, y + dy)])
    if "/P" in copy:
        del copy["/P"]  # the page it names is now one half of another
    return copy
