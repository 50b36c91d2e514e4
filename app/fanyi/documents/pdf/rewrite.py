"""The translated PDF: every page kept, each translated paragraph's glyphs removed and its translation drawn in place.

1. A face is chosen for the target's script (``fonts.find_face``: Noto Sans SC for Simplified
   Chinese and for Latin text, Noto Sans TC for Traditional) and embedded once, as a subset of the
   glyphs drawn.
2. Every translation is fitted into its paragraph's box, or into the free room below and beside it
   (``linebreak.fit``); each role (body, heading, caption…) is drawn at one scale
   (``linebreak.common_scale``), so body text does not change size from paragraph to paragraph.
3. Page by page: the glyphs of the paragraphs to replace are removed (``strip``); a paragraph whose
   glyphs cannot all be removed is left as it was, untranslated, and said so. The page's content is
   wrapped in q … Q and followed by a stream drawing the translations (over boxes of the paper's colour
   where the original is a scan, or a scan's hidden OCR text). A page that cannot be rewritten at all keeps
   its original.
4. Bilingual output pairs each page with its original (``bilingual``). The file is saved with
   object streams and a deterministic /ID.

The report gets one line for each page where something was left, drawn smaller or could not be
rewritten; the unit counts are the job's.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
import pikepdf
from pdfminer.utils import Matrix

from fanyi.cancel import CancelToken
from fanyi.languages import SIMPLIFIED, language_of

from ..base import CorruptDocument, NotWritable, describe
from ..said import said
from . import fonts, linebreak
from .bilingual import Originals
from .interpret import Box
from .layout import Paragraph, Role
from .page import Page
from .strip import Stripper, operator_name

log = logging.getLogger(__name__)

FONT_RESOURCE = "FyFont"
GAP = 0.3  # font sizes kept free between a translation and what is below or beside it
PAPER_MARGIN = 1.0  # points the box painted over scanned text reaches past it
PAPER_SCALE = 0.5  # pixels a point a scanned page is rendered at to find the colour of its paper


class PageKept(Exception):
    """A page that cannot be rewritten: it keeps its original; ``str()`` says why."""


@dataclass
class _Planned:
    paragraph: Paragraph
    text: str
    box: Box  # the paragraph's, kept on the page
    room: Box
    alone: linebreak.Fit | None = None  # how it fits on its own, at the largest size that does


NOT_REMOVABLE = "its text is drawn in a way that cannot be edited, so it is left as it was"
PAGE_KEPT = "its page could not be rewritten ({why}) and is kept as it was"


@dataclass
class _PageTally:
    unplaced: list[tuple[Paragraph, str]] = field(default_factory=list)  # translated, but not drawn: why
    shrunk: int = 0  # below its role's common scale
    overflowed: int = 0  # below the floor
    cut: int = 0  # not even the smallest size held it all
    failed: str | None = None  # why the page kept its original


def script_of(target_lang: str) -> str:
    """ "Hans" or "Hant": the face Chinese in ``target_lang`` is drawn with (any other language: Hans, whose Latin
    letters match it)."""
    variant = language_of(target_lang).variant
    return "Hant" if variant not in (None, SIMPLIFIED) else "Hans"


def _invert(m: Matrix) -> Matrix:
    a, b, c, d, e, f = m
    det = a * d - b * c
    return (d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det)


def _overlaps(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def _room(paragraph: Paragraph, obstacles: Sequence[Box], floor: float, page: Box) -> Box:
    """The paragraph's box grown to its column's right edge and down to what is below it (or ``floor``), and kept
    on the ``page`` as shown (an overfull line of the original may run off it; its translation does not)."""
    x0, y0, x1, y1 = _on_page(paragraph.box, page)
    gap = GAP * paragraph.size
    right = max(x1, paragraph.column_right)
    for box in obstacles:
        if box is not paragraph.box and _overlaps((box[1], box[3]), (y0, y1)) and box[0] >= x1 - 0.5:
            right = min(right, box[0] - gap)
    right = min(max(right, x1), page[2])
    bottom = floor
    for box in obstacles:
        if box is not paragraph.box and _overlaps((box[0], box[2]), (x0, right)) and box[3] <= y0 + 0.5:
            bottom = max(bottom, box[3] + gap)
    return (x0, max(min(bottom, y0), page[1]), right, y1)


def _on_page(box: Box, page: Box) -> Box:
    """``box`` cut to ``page``; a box wholly off it keeps its own (nothing better is known)."""
    x0, y0, x1, y1 = max(box[0], page[0]), max(box[1], page[1]), min(box[2], page[2]), min(box[3], page[3])
    return (x0, y0, x1, y1) if x0 < x1 and y0 < y1 else box


def _fit(planned: _Planned, face: fonts.Face, largest: float = 1.0) -> linebreak.Fit:
    paragraph = planned.paragraph
    box = linebreak.Box(*planned.box)
    room = linebreak.Box(*planned.room)
    leading = paragraph.leading if paragraph.lines > 1 else None
    return linebreak.fit(
        planned.text,
        box,
        room,
        paragraph.size,
        face.advance,
        leading=leading,
        largest=largest,
        ascent=face.ascent,
        descent=face.descent,
    )


def _plan(pages: Sequence[Page], texts: Sequence[Sequence[str | None]]) -> list[list[_Planned]]:
    planned: list[list[_Planned]] = []
    for page, translations in zip(pages, texts):
        obstacles = [p.box for p in page.paragraphs] + page.obstacles
        floor = min((p.box[1] for p in page.paragraphs), default=0.0)
        planned.append(
            [
                _Planned(
                    paragraph,
                    text,
                    _on_page(paragraph.box, page.shown_crop()),
                    _room(paragraph, obstacles, floor, page.shown_crop()),
                )
                for paragraph, text in zip(page.paragraphs, translations)
                if text is not None and paragraph.keep is None
            ]
        )
    return planned


def _scales(planned: list[list[_Planned]], face: fonts.Face) -> dict[Role, float]:
    needed: defaultdict[Role, list[float]] = defaultdict(list)
    for page in planned:
        for item in page:
            item.alone = _fit(item, face)
            needed[item.paragraph.role].append(item.alone.scale)
    return {role: linebreak.common_scale(scales) for role, scales in needed.items()}


class _Scans:
    """The source opened in PDFium once, when a scanned page first needs to be seen."""

    def __init__(self, source: Path) -> None:
        self._source = source
        self._document: Any = None

    def pixels(self, number: int) -> np.ndarray:
        """Page ``number`` (from 1) rendered at PAPER_SCALE, RGB."""
        if self._document is None:
            import pypdfium2

            self._document = pypdfium2.PdfDocument(str(self._source))
        pixels: np.ndarray = self._document[number - 1].render(scale=PAPER_SCALE).to_numpy()[..., :3]
        return pixels.astype(np.float32)

    def close(self) -> None:
        if self._document is not None:
            self._document.close()


def _papers(scans: _Scans, read: Page, paragraphs: Sequence[Paragraph]) -> list[tuple[float, float, float]]:
    """The colour of the paper around each paragraph of a scan: what its box is painted with, so a grey or
    yellowed scan is not patched with white. The page is rendered small; in each box, the lightest third of
    the pixels (the paper between the letters) gives the colour."""
    left, _bottom, _right, top = read.shown_crop()
    pixels = scans.pixels(read.number)
    colours = []
    for paragraph in paragraphs:
        x0, y0, x1, y1 = paragraph.box
        columns = slice(max(0, int((x0 - left) * PAPER_SCALE)), max(1, int((x1 - left) * PAPER_SCALE) + 1))
        rows = slice(max(0, int((top - y1) * PAPER_SCALE)), max(1, int((top - y0) * PAPER_SCALE) + 1))
        region = pixels[rows, columns].reshape(-1, 3)
        if not len(region):
            colours.append((1.0, 1.0, 1.0))
            continue
        light = region[region.sum(axis=1) >= np.percentile(region.sum(axis=1), 66)]
        red, green, blue = (float(v) / 255 for v in np.median(light, axis=0))
        colours.append((red, green, blue))
    return colours


def _drawing(
    fits: Sequence[tuple[_Planned, linebreak.Fit]],
    font: fonts.EmbeddedFont,
    ctm: Matrix,
    papers: dict[int, tuple[float, float, float]],
) -> bytes:
    """The operators that draw a page's translations, in the coordinates its paragraphs were read in
    (``papers``: the colour each scanned paragraph's box is painted with first, by the paragraph's id)."""
    a, b, c, d, e, f = _invert(ctm)
    out = [f"q {a:.6g} {b:.6g} {c:.6g} {d:.6g} {e:.4f} {f:.4f} cm\n".encode()]
    for planned, fitted in fits:
        paragraph = planned.paragraph
        if paragraph.invisible:
            x0, y0, x1, y1 = paragraph.box
            m = PAPER_MARGIN
            paper = " ".join(f"{v:.3f}" for v in papers.get(id(paragraph), (1.0, 1.0, 1.0)))
            out.append(
                f"q {paper} rg {x0 - m:.2f} {y0 - m:.2f} {x1 - x0 + 2 * m:.2f} {y1 - y0 + 2 * m:.2f} re f Q\n".encode()
            )
        runs = []
        for line in fitted.lines:
            x = line.x
            if paragraph.centred:
                x = (planned.box[0] + planned.box[2] - line.width) / 2
            runs.append((x, line.y, font.encode(line.text)))
        colour = (0.0, 0.0, 0.0) if paragraph.invisible else paragraph.colour
        out.append(fonts.show_text(FONT_RESOURCE, fitted.size, runs, bold=paragraph.bold, rgb=colour))
    out.append(b"Q\n")
    return b"".join(out)


def _depth(instructions: Sequence[pikepdf.ContentStreamInstruction | pikepdf.ContentStreamInlineImage]) -> int:
    """How many q are still open at the end of a content stream (its Q are not always balanced)."""
    depth = 0
    for instruction in instructions:
        operator = operator_name(instruction)
        if operator == "q":
            depth += 1
        elif operator == "Q":
            depth = max(0, depth - 1)
    return depth


def _rewrite_page(
    scans: _Scans,
    pdf: pikepdf.Pdf,
    page: pikepdf.Page,
    read: Page,
    planned: list[_Planned],
    scales: dict[Role, float],
    font: fonts.EmbeddedFont,
    tally: _PageTally,
) -> None:
    if read.pictures_only:
        raise PageKept("its text is drawn only in Type 3 fonts, pictures of glyphs that are not replaced")
    stripper = Stripper(pdf, page, read.origins, f"Fy{read.number}")
    own = stripper.stream(())
    if own is None:
        raise PageKept("its content stream is damaged, or two PDF parsers read it differently")
    fits: list[tuple[_Planned, linebreak.Fit]] = []
    for item in planned:
        paragraph = item.paragraph
        if not read.scanned and not paragraph.invisible:
            if not stripper.removable(paragraph.glyphs):
                tally.unplaced.append((paragraph, NOT_REMOVABLE))
                continue
            stripper.remove(paragraph.glyphs)
        common = scales.get(paragraph.role, 1.0)
        alone = item.alone or _fit(item, font.face)
        # drawn at its role's scale; one that needs less keeps its own, smaller fit
        fitted = _fit(item, font.face, largest=common) if alone.scale > common + 1e-9 else alone
        tally.shrunk += fitted.scale < common - 1e-6
        tally.overflowed += fitted.overflowed
        tally.cut += fitted.cut
        fits.append((item, fitted))
    if not fits:
        return
    edited = stripper.apply()
    instructions = edited if edited is not None else own.instructions
    body = pikepdf.unparse_content_stream(instructions)
    closing = b"\nQ" * _depth(instructions)
    scanned = [item.paragraph for item, _fit in fits if item.paragraph.invisible]
    papers = dict(zip(map(id, scanned), _papers(scans, read, scanned))) if scanned else {}
    drawing = _drawing(fits, font, read.ctm, papers)
    page.obj.Contents = pdf.make_stream(b"q\n" + body + closing + b"\nQ\n" + drawing)
    resources = page.obj.get("/Resources")
    fonts_dict = resources.get("/Font") if isinstance(resources, pikepdf.Dictionary) else None
    if not isinstance(resources, pikepdf.Dictionary):
        resources = page.obj.Resources = pikepdf.Dictionary()
    fresh_fonts = (
        pikepdf.Dictionary({k: v for k, v in fonts_dict.items()})
        if isinstance(fonts_dict, pikepdf.Dictionary)
        else pikepdf.Dictionary()
    )
    fresh_fonts[pikepdf.Name("/" + FONT_RESOURCE)] = font.ref
    page.obj.Resources = pikepdf.Dictionary({**{k: v for k, v in resources.items()}, "/Font": fresh_fonts})


def _rewrite_pages(
    pdf: pikepdf.Pdf,
    pages: Sequence[Page],
    planned: list[list[_Planned]],
    scales: dict[Role, float],
    font: fonts.EmbeddedFont,
    scans: _Scans,
    contents_before: Sequence[pikepdf.Object | None],
    cancel: CancelToken | None,
    progress: Callable[[int, int], None] | None,
) -> list[_PageTally]:
    """Each page rewritten (``_rewrite_page``), or kept as it was when it cannot be, with what happened to it."""
    tallies = [_PageTally() for _ in pages]
    for read, page_plan, page, tally in zip(pages, planned, pdf.pages, tallies):
        if cancel is not None:
            cancel.raise_if_cancelled()
        if progress is not None:
            progress(read.number - 1, len(pages))  # pages written, after the units translated
        resources = page.obj.get("/Resources")
        try:
            _rewrite_page(scans, pdf, page, read, page_plan, scales, font, tally)
        except (PageKept, pikepdf.PdfError, ValueError, TypeError, KeyError, AttributeError) as error:
            log.info("PDF page %d kept as it was: %s", read.number, error)
            for key, value in (("/Contents", contents_before[read.number - 1]), ("/Resources", resources)):
                if value is not None:
                    page.obj[key] = value
            tally.failed = describe(error)
            why = PAGE_KEPT.format(why=tally.failed)
            tally.unplaced = [(item.paragraph, why) for item in page_plan]
    return tallies


def write(
    out: BinaryIO,
    source: Path,
    pages: Sequence[Page],
    texts: Sequence[Sequence[str | None]],
    *,
    target_lang: str,
    bilingual: str | None,
    notes: list[str],
    cancel: CancelToken | None,
    progress: Callable[[int, int], None] | None = None,
) -> list[tuple[Paragraph, str]]:
    """The translated PDF of ``source`` into ``out``; ``texts`` holds each paragraph's translation (None: left).
    Returns the translated paragraphs that could not be drawn, each with why."""
    drawn = "".join(text for page in texts for text in page if text)
    choice = fonts.find_face(script_of(target_lang), drawn)
    if choice.face is None:
        raise NotWritable(
            source,
            "No font that draws the translation was found, so a PDF cannot be written; reinstall Fanyi "
            "(it brings its fonts) or write a .docx instead (--to docx).",
        )
    try:
        pdf = pikepdf.open(source)
    except pikepdf.PdfError as error:
        raise CorruptDocument(source, f"{source} cannot be rewritten as a PDF ({describe(error)}).") from error
    with pdf:
        font = fonts.EmbeddedFont(choice.face, pdf)
        originals = Originals(pdf, bilingual) if bilingual else None
        if originals is not None:
            originals.keep()
        contents_before = [page.obj.get("/Contents") for page in pdf.pages]
        planned = _plan(pages, texts)
        scales = _scales(planned, choice.face)
        scans = _Scans(source)
        try:
            tallies = _rewrite_pages(pdf, pages, planned, scales, font, scans, contents_before, cancel, progress)
        finally:
            scans.close()
        font.finish()
        if originals is not None:
            originals.pair(contents_before, [read.crop for read in pages])
        notes += _notes(tallies, choice.missing + "".join(sorted(font.missing)))
        pdf.remove_unreferenced_resources()
        pdf.save(
            out,
            deterministic_id=True,
            object_stream_mode=pikepdf.ObjectStreamMode.generate,
            compress_streams=True,
            encryption=False,
        )
    return [unplaced for tally in tallies for unplaced in tally.unplaced]


def _notes(tallies: Sequence[_PageTally], missing: str) -> list[str]:
    """The report's lines (documents.said: their kind and numbers, which the app says in its language)."""
    out: list[str] = []
    for number, tally in enumerate(tallies, 1):
        facts = []
        if tally.failed:
            facts.append(said("pdf.kept", reason=tally.failed))
        if tally.shrunk:
            facts.append(said("pdf.shrunk", count=tally.shrunk))
        if tally.overflowed:
            facts.append(said("pdf.overflowed", count=tally.overflowed))
        if tally.cut:
            facts.append(said("pdf.cut", count=tally.cut))
        if facts:
            out.append(said("pdf.page", page=number, facts=tuple(facts)))
    if missing:
        out.append(said("pdf.no_glyph", characters="".join(sorted(set(missing)))))
    return out
