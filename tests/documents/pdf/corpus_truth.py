"""The ground truth of the PDF corpus: what a reader should find on each page of each document.

Coordinates are PDF user space of the page as its content stream draws it (points, y up, the MediaBox's
system, before the page's /Rotate is applied): what a content-stream writer works in. pdfminer reports a
rotated page's characters in the displayed orientation; ``Page.from_displayed`` maps them back.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple


class Box(NamedTuple):
    """A rectangle in user space: left, bottom, right, top (x0 < x1, y0 < y1)."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.y1 - self.y0

    def contains(self, other: Box, tolerance: float = 0.0) -> bool:
        return (
            other.x0 >= self.x0 - tolerance
            and other.y0 >= self.y0 - tolerance
            and other.x1 <= self.x1 + tolerance
            and other.y1 <= self.y1 + tolerance
        )

    def overlaps(self, other: Box) -> bool:
        return self.x0 < other.x1 and other.x0 < self.x1 and self.y0 < other.y1 and other.y0 < self.y1

    def union(self, other: Box) -> Box:
        return Box(min(self.x0, other.x0), min(self.y0, other.y0), max(self.x1, other.x1), max(self.y1, other.y1))

    def rounded(self, digits: int = 2) -> Box:
        return Box(*(round(v, digits) for v in self))

    @staticmethod
    def around(points: list[tuple[float, float]]) -> Box:
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        return Box(min(xs), min(ys), max(xs), max(ys))


class Role(str, enum.Enum):
    """What a paragraph-level unit is on its page."""

    TITLE = "title"
    HEADING = "heading"
    BYLINE = "byline"  # authors, affiliation, e-mail under a title
    BODY = "body"
    CAPTION = "caption"
    FOOTNOTE = "footnote"
    LIST_ITEM = "list item"
    REFERENCE = "reference"  # a bibliography entry: left as it is (cited titles stay in their language)
    TABLE_CELL = "table cell"
    FORMULA = "formula"
    CODE = "code"
    FIGURE_TEXT = "figure text"  # labels inside a figure: left untouched
    HEADER = "header"  # running header
    FOOTER = "footer"  # running footer, page number
    ROTATED = "rotated"  # text at an angle on the page (a stamp, a margin note): left and counted
    VERTICAL = "vertical"  # vertical writing (a -V CMap): left and counted


class Span(NamedTuple):
    """A stretch of a unit's ``text`` (``text[start:end]``) that a translation must treat apart.

    kind: "formula" (inline maths: keep verbatim), "superscript" / "subscript" (a raised or lowered run: a
    footnote mark, an exponent), "link" (the text under a link annotation), "italic", "bold", "code" (a
    typewriter run), "label" (a list bullet, a section number).
    """

    start: int
    end: int
    kind: str


@dataclass(frozen=True)
class Unit:
    """One paragraph-level unit of text, in reading order within its document.

    ``text`` is what a reader should give: the lines joined with one space, a soft end-of-line hyphen
    removed (a hyphen of a compound word kept, with no space after it), Chinese lines joined without a space;
    code keeps its line breaks ("\\n"). Sub- and superscripts are their plain characters where they are drawn.
    ``lines`` are the lines exactly as drawn, hyphens included. ``bbox`` holds every glyph of the unit
    (pdfminer's character boxes, with a point of slack); ``frame`` is the room the text was set in (its column
    slice, table cell or full measure), None where there is none to speak of.
    """

    page: int  # 0-based page index
    role: Role
    text: str
    translate: bool
    bbox: Box
    lines: tuple[str, ...]
    lang: str = "en"  # "en" or "zh"
    font: str = ""  # the BaseFont most of the text is set in
    size: float = 0.0  # its size in points
    angle: float = 0.0  # the text direction in user space, degrees counter-clockwise (90: bottom to top)
    spans: tuple[Span, ...] = ()
    frame: Box | None = None
    copies: int = 1  # how many times the same glyphs are drawn (overprinted fake bold: 2)
    visible: bool = True  # False: text render mode 3 (an OCR layer over a scan)
    joins_previous: bool = False  # continues the paragraph of the nearest earlier unit of its role (a column or
    # page break split it there)
    in_image: bool = False  # no text layer: the text is pixels of a scanned page (OCR finds it)


@dataclass(frozen=True)
class Image:
    """A raster image drawn on a page. ``name`` is its /XObject resource name ("" for an inline image)."""

    page: int
    name: str
    bbox: Box
    pixels: tuple[int, int]  # width, height
    filter: str  # "/FlateDecode", "/DCTDecode", ... ("" unfiltered)
    smask: bool = False  # has a soft mask (alpha channel)
    inline: bool = False  # BI … ID … EI in the content stream


@dataclass(frozen=True)
class Figure:
    """A region drawn with vector operators (paths, curves, fills, shadings, forms); labels in it are units."""

    page: int
    bbox: Box
    what: str  # a short description, e.g. "line chart: axes, bezier curves, filled markers, legend"
    shading: bool = False  # uses the sh operator or a shading pattern
    form: str = ""  # the /XObject name of the form XObject drawing it, if any


@dataclass(frozen=True)
class Annotation:
    page: int
    subtype: str  # "Link"
    rect: Box
    uri: str | None = None
    dest_page: int | None = None  # 0-based target of an internal link
    action: str = ""  # the /A action's /S ("URI", "GoTo"); "" for a link with a /Dest and no action


@dataclass(frozen=True)
class Page:
    index: int
    mediabox: Box
    rotate: int = 0  # the page's /Rotate: 0, 90, 180, 270
    cropbox: Box | None = None  # set when it differs from the MediaBox
    text_layer: str = "text"  # "text", "none" (a scan), "ocr" (a scan with an invisible OCR layer)
    rewritable: bool = True  # False: a writer must keep this page as it is and name it in its report
    trap: str = ""  # what this page tests, in a sentence

    @property
    def width(self) -> float:
        return self.mediabox.width

    @property
    def height(self) -> float:
        return self.mediabox.height

    @property
    def displayed_size(self) -> tuple[float, float]:
        """Width and height as a viewer shows the page (after /Rotate)."""
        box = self.cropbox or self.mediabox
        return (box.height, box.width) if self.rotate % 180 else (box.width, box.height)

    def from_displayed(self, x: float, y: float) -> tuple[float, float]:
        """User-space point of a point in pdfminer's displayed coordinates of this page.

        pdfminer turns a rotated page with a ctm built from the MediaBox (PDFPageInterpreter.process_page);
        this inverts it.
        """
        x0, y0, x1, y1 = self.mediabox
        rotate = self.rotate % 360
        if rotate == 90:
            return x1 - y, x + y0
        if rotate == 180:
            return x1 - x, y1 - y
        if rotate == 270:
            return y + x0, y1 - x
        return x + x0, y + y0


@dataclass
class Document:
    """A corpus file and everything a reader or writer should find in it."""

    name: str
    path: Path
    pages: list[Page]
    units: list[Unit] = field(default_factory=list)
    images: list[Image] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    annotations: list[Annotation] = field(default_factory=list)
    outline: list[tuple[str, int]] = field(default_factory=list)  # bookmarks: (title, 0-based page)
    password: str | None = None  # the user password that opens it ("" opens it without one)
    owner_password: str | None = None
    restricted: bool = False  # encrypted with permissions that forbid changes
    about: str = ""

    def units_on(self, page: int) -> list[Unit]:
        return [unit for unit in self.units if unit.page == page]

    def translatable(self) -> list[Unit]:
        return [unit for unit in self.units if unit.translate]
