"""A page's glyphs as paragraphs in reading order, each with its role and whether it is translated.

1. Lines: upright glyphs that follow one another on a baseline, cut where the gap is wider than
   ``LINE_GAP`` font sizes (a column's gutter, a table's cell); superscripts and subscripts join
   the line they stand on. Words are parted where the gap between glyphs is wider than
   ``WORD_GAP`` (a PDF rarely draws its spaces), Chinese characters never; a glyph drawn again on
   itself (fake bold) is read once.
2. Reading order: the lines go through OCR's reading order (``fanyi.ocr.layout``): rows, columns
   (a gutter of ``COLUMN_GAP`` line heights), and sections read column by column or across.
3. Paragraphs: inside a column, a new paragraph starts at a vertical gap, a change of size or
   weight, a first-line indent, a list marker, or after a short line that ends a sentence. In a
   section read across (a table, a form), every line is a cell of its own.
4. Roles and what is left: headings, captions, footnotes, running headers and footers, list items
   and table cells are told apart (the writer keeps one scale per role); formulas (maths fonts and
   symbols), code (monospaced), text inside figures (images, small form XObjects, clusters of
   drawn shapes), rotated and vertical text, and glyphs with no Unicode are kept as they are.
"""

from __future__ import annotations

import re
import statistics
import unicodedata
from array import array
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum

from fanyi.ocr.layout import Row, blocks

from .interpret import Box, Direction, Glyph, PageContent, Shape

LINE_GAP = 1.2  # font sizes: a wider gap between two glyphs of a baseline parts them into two lines
WORD_GAP = 0.18  # font sizes: a wider gap between glyphs is a space between words
COLUMN_GAP = 0.9  # line heights: a gutter at least this wide parts columns
PARAGRAPH_GAP = 0.5  # font sizes of white space between lines: a new paragraph
INDENT = 0.8  # font sizes: a line starting this far right of its column's left edge begins a paragraph
SHORT_LINE = 0.15  # of the column's width: a sentence-ending line this much short of the edge ends its paragraph
FIGURE_FORM = 0.6  # of the page's area: a smaller form XObject is a figure, a larger one holds the page
MARGIN_BAND = 0.07  # of the page's height: a single line wholly in this top or bottom band is a running head


class Role(Enum):
    BODY = "body"
    HEADING = "heading"
    CAPTION = "caption"
    FOOTNOTE = "footnote"
    HEADER = "header or footer"
    LIST_ITEM = "list item"
    CELL = "table cell"


# Why a paragraph is left as it is (said in the report).
FORMULA = "formula"
CODE = "code"
IN_FIGURE = "text in a figure"
ROTATED = "rotated text"
VERTICAL = "vertical text"
UNREADABLE = "text whose font maps no Unicode"

_LIST_MARKER = re.compile(
    r"^\s*(?:[•◦▪▫‣⁃∙·●○■□–—*-]\s|\(?(?:\d{1,3}|[a-zA-Z]|[ivxIVX]{1,4})[.)]\s|[一二三四五六七八九十]+、)"
)
_CAPTION = re.compile(r"^\s*(?:Figure|Fig\.|Table|Tab\.|Listing|Algorithm|Chart|Exhibit|图|表)\s*[\dIVXA-Z]", re.I)
_SENTENCE_END = re.compile(r"[.!?:;。！？：；…][\"'”’)）」』]*$")
_HYPHENS = "-\u00ad\u2010"
_MATHS_CHARS = re.compile(
    "[\u0370-\u03ff\u2100-\u214f\u2190-\u21ff\u2200-\u22ff\u2300-\u23ff\u27c0-\u27ef\u2980-\u2aff\U0001d400-\U0001d7ff"
    "=+<>^_|~√∞∫∑∏±×÷≈≠≤≥′″]"
)


@dataclass
class Line:
    glyphs: list[Glyph]  # left to right
    box: Box
    size: float
    text: str = ""

    @property
    def baseline(self) -> float:
        return self.glyphs[0].y


@dataclass
class Paragraph:
    """A unit of a page: its text, where it is, how it looks, and the glyphs that draw it."""

    page: int
    text: str
    box: Box
    role: Role
    keep: str | None
    size: float  # the font size of most of its glyphs
    leading: float  # baseline to baseline; the size × 1.2 for a single line
    lines: int
    colour: tuple[float, float, float]
    bold: bool
    centred: bool
    invisible: bool  # drawn in text render mode 3: a scan's hidden OCR layer; the writer paints over the scan
    column_right: float  # the right edge of its column: the room a longer translation may take
    glyphs: array[int] = field(default_factory=lambda: array("I"))  # Glyph.index of every glyph, fake bold too


def _wide(char: str) -> bool:
    return bool(char) and unicodedata.east_asian_width(char[0]) in ("W", "F")


def _union(boxes: Iterable[Box]) -> Box:
    x0s, y0s, x1s, y1s = zip(*boxes)
    return (min(x0s), min(y0s), max(x1s), max(y1s))


def _lines(glyphs: Sequence[Glyph]) -> list[Line]:
    """Upright glyphs as lines, in the order drawn: most PDFs draw a line's glyphs left to right."""
    lines: list[Line] = []
    current: list[Glyph] = []
    for glyph in glyphs:
        if current and _continues(current, glyph):
            current.append(glyph)
            continue
        if current:
            lines.append(_line(current))
        current = [glyph]
    if current:
        lines.append(_line(current))
    return _merged(lines)


def _continues(current: list[Glyph], glyph: Glyph) -> bool:
    last = current[-1]
    size = max(last.size, glyph.size, 1e-3)
    gap = glyph.box[0] - last.box[2]
    if not -0.5 * size <= gap <= LINE_GAP * size:
        return False
    if abs(glyph.y - last.y) <= 0.2 * size:
        return True
    # a superscript or subscript: smaller, and within the line's height
    top, bottom = max(g.box[3] for g in current[-4:]), min(g.box[1] for g in current[-4:])
    middle = (glyph.box[1] + glyph.box[3]) / 2
    return glyph.size < 0.85 * size and bottom <= middle <= top


def _line(glyphs: list[Glyph]) -> Line:
    glyphs = sorted(glyphs, key=lambda g: g.box[0])
    sizes = Counter(round(g.size, 1) for g in glyphs if g.text.strip())
    size = sizes.most_common(1)[0][0] if sizes else glyphs[0].size
    return Line(glyphs, _union(g.box for g in glyphs), size)


def _merged(lines: list[Line]) -> list[Line]:
    """Lines of one baseline drawn apart (a superscript drawn after its line, a line drawn in pieces) joined."""
    lines.sort(key=lambda ln: (-round(ln.baseline, 0), ln.box[0]))
    out: list[Line] = []
    for line in lines:
        for other in reversed(out[-8:]):
            size = max(line.size, other.size)
            same_baseline = abs(line.baseline - other.baseline) <= 0.2 * size
            gap = line.box[0] - other.box[2]
            small = line.size < 0.85 * other.size and other.box[1] <= (line.box[1] + line.box[3]) / 2 <= other.box[3]
            if (same_baseline or small) and -0.5 * size <= gap <= LINE_GAP * size:
                other.glyphs += line.glyphs
                other.box = _union((other.box, line.box))
                break
        else:
            out.append(line)
    for line in out:
        line.glyphs.sort(key=lambda g: g.box[0])
        line.text = _text(line.glyphs)
    return out


def _text(glyphs: list[Glyph]) -> str:
    out: list[str] = []
    previous: Glyph | None = None
    for glyph in glyphs:
        text = glyph.text
        if previous is not None:
            size = max(min(previous.size, glyph.size), 1e-3)
            if text == previous.text and abs(glyph.box[0] - previous.box[0]) < 0.1 * size:
                continue  # drawn again on itself: fake bold
            gap = glyph.box[0] - previous.box[2]
            if (
                gap > WORD_GAP * size
                and text.strip()
                and out
                and out[-1].strip()
                and not (_wide(out[-1][-1]) and _wide(text))
            ):
                out.append(" ")
        if text.isspace():
            text = " "
            if out and out[-1] == " ":
                continue
        out.append(text)
        previous = glyph
    return "".join(out).strip()


class _Boxed:
    """A line as OCR's reading order sees it: y downwards."""

    def __init__(self, line: Line, height: float) -> None:
        self.line = line
        self.text = line.text
        x0, y0, x1, y1 = line.box
        self.box = (x0, height - y1, x1, height - y0)


def _joined(lines: list[Line]) -> str:
    out = ""
    for line in lines:
        text = line.text
        if not out:
            out = text
        elif out[-1] in _HYPHENS and len(out) > 1 and out[-2].isalpha() and text[:1].islower():
            out = out[:-1] + text
        elif _wide(out[-1]) or _wide(text[:1]):
            out += text
        else:
            out += " " + text
    return out


def _breaks(previous: list[Line], line: Line, left: float, right: float) -> bool:
    """Whether ``line`` starts a new paragraph after ``previous``, in a column from ``left`` to ``right``."""
    last = previous[-1]
    size = max(last.size, line.size)
    if last.box[1] - line.box[3] > PARAGRAPH_GAP * size:
        return True
    if abs(last.size - line.size) > 0.15 * size:
        return True
    if _bold(last.glyphs) != _bold(line.glyphs):
        return True
    if _LIST_MARKER.match(line.text):
        return True
    hanging = _LIST_MARKER.match(previous[0].text) is not None
    if line.box[0] - left > INDENT * size and not (hanging and line.box[0] > previous[0].box[0]):
        return True
    width = right - left
    return width > 0 and right - last.box[2] > SHORT_LINE * width and bool(_SENTENCE_END.search(last.text))


def _bold(glyphs: list[Glyph]) -> bool:
    letters = [g for g in glyphs if g.text.strip()]
    return bool(letters) and sum(g.font.bold for g in letters) > len(letters) / 2


def _paragraphs(block: list[Row], height: float) -> list[list[Line]]:
    lines = [[item.line for item in row.lines if isinstance(item, _Boxed)] for row in block]
    if any(len(row) > 1 for row in lines):  # read across: a table's or a form's rows; each line a cell
        return [[line] for row in lines for line in row]
    column = [row[0] for row in lines if row]
    if not column:
        return []
    left = min(line.box[0] for line in column)
    right = max(line.box[2] for line in column)
    out: list[list[Line]] = [[column[0]]]
    for line in column[1:]:
        if _breaks(out[-1], line, left, right):
            out.append([line])
        else:
            out[-1].append(line)
    return out


def obstacles(page: PageContent) -> list[Box]:
    """What a translation must not be drawn over besides text: figures, images and rules (a table's lines)."""
    return _figures(page) + [shape.box for shape in page.shapes if shape.rule]


def _figures(page: PageContent) -> list[Box]:
    """Where figures are: images, small form XObjects, and clusters of drawn shapes other than rules."""
    area = page.width * page.height
    found = list(page.images)
    found += [form.box for form in page.forms if _area(form.box) < FIGURE_FORM * area]
    found += _clusters([shape for shape in page.shapes if not shape.rule], area)
    return found


def _clusters(shapes: list[Shape], page_area: float) -> list[Box]:
    """Boxes of groups of at least four touching shapes: a drawing, not a frame around a paragraph."""
    groups: list[tuple[Box, int]] = []
    for shape in sorted(shapes, key=lambda s: (-s.box[3], s.box[0])):
        box = shape.box
        if _area(box) > 0.5 * page_area:
            continue  # a page background
        merged = [g for g in groups if _near(g[0], box, 3.0)]
        for group in merged:
            groups.remove(group)
        groups.append((_union([box, *(g[0] for g in merged)]), 1 + sum(g[1] for g in merged)))
    return [box for box, count in groups if count >= 4]


def _area(box: Box) -> float:
    return max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])


def _near(a: Box, b: Box, margin: float) -> bool:
    return a[0] - margin <= b[2] and b[0] - margin <= a[2] and a[1] - margin <= b[3] and b[1] - margin <= a[3]


def _inside(box: Box, region: Box) -> bool:
    x = (box[0] + box[2]) / 2
    y = (box[1] + box[3]) / 2
    return region[0] <= x <= region[2] and region[1] <= y <= region[3]


def _maths_share(glyphs: list[Glyph]) -> float:
    letters = [g for g in glyphs if g.text.strip()]
    if not letters:
        return 0.0
    return sum(g.font.maths or bool(_MATHS_CHARS.search(g.text)) for g in letters) / len(letters)


def _keep(lines: list[Line], box: Box, figures: list[Box]) -> str | None:
    glyphs = [g for line in lines for g in line.glyphs]
    letters = [g for g in glyphs if g.text.strip()]
    if not letters:
        return None
    if any("(cid:" in g.text for g in letters):
        return UNREADABLE
    if any(_inside(box, figure) for figure in figures):
        return IN_FIGURE
    if sum(g.font.monospace for g in letters) >= 0.8 * len(letters):
        return CODE
    maths = _maths_share(glyphs)
    if maths >= 0.5 or (maths >= 0.25 and len(letters) < 40 and "=" in "".join(g.text for g in letters)):
        return FORMULA
    return None


def _centred(lines: list[Line], left: float, right: float) -> bool:
    if len(lines) > 3:
        return False
    margins = [(line.box[0] - left, right - line.box[2]) for line in lines]
    return all(a > 2 * line.size and abs(a - b) < line.size for (a, b), line in zip(margins, lines))


def _paragraph(page: PageContent, lines: list[Line], figures: list[Box], column: tuple[float, float]) -> Paragraph:
    glyphs = [g for line in lines for g in line.glyphs]
    letters = [g for g in glyphs if g.text.strip()] or glyphs
    box = _union(line.box for line in lines)
    sizes = Counter(round(g.size, 1) for g in letters)
    size = sizes.most_common(1)[0][0]
    baselines = [line.baseline for line in lines]
    leading = statistics.median(a - b for a, b in zip(baselines, baselines[1:])) if len(lines) > 1 else size * 1.2
    colours = Counter(g.colour for g in letters)
    indices = array("I", sorted(g.index for g in glyphs))
    return Paragraph(
        page=page.number,
        text=_joined(lines),
        box=box,
        role=Role.BODY,
        keep=_keep(lines, box, figures),
        size=size,
        leading=max(leading, size),
        lines=len(lines),
        colour=colours.most_common(1)[0][0],
        bold=_bold(glyphs),
        centred=_centred(lines, *column),
        invisible=sum(g.invisible for g in letters) > len(letters) / 2,
        column_right=column[1],
        glyphs=indices,
    )


def _other(page: PageContent, glyphs: list[Glyph], reason: str) -> list[Paragraph]:
    """Rotated or vertical text: runs of glyphs drawn one after another, left as they are."""
    runs: list[list[Glyph]] = []
    for glyph in glyphs:
        if runs and glyph.index == runs[-1][-1].index + 1:
            runs[-1].append(glyph)
        else:
            runs.append([glyph])
    out = []
    for run in runs:
        text = "".join(g.text for g in run).strip()
        if not text:
            continue
        box = _union(g.box for g in run)
        out.append(
            Paragraph(
                page.number, text, box, Role.BODY, reason, run[0].size, run[0].size * 1.2, 1,
                run[0].colour, False, False, False, box[2], array("I", (g.index for g in run)),
            )
        )  # fmt: skip
    return out


def paragraphs(page: PageContent) -> list[Paragraph]:
    """The page's paragraphs in reading order, with keep reasons; roles other than BODY are set by ``assign_roles``."""
    upright = [g for g in page.glyphs if g.direction is Direction.UPRIGHT]
    figures = _figures(page)
    lines = [line for line in _lines(upright) if line.text]
    found: list[Paragraph] = []
    if lines:
        boxed = [_Boxed(line, page.height) for line in lines]
        height = statistics.median(line.size for line in lines)
        for block in blocks(boxed, column_gap=COLUMN_GAP):
            members = [item.line for row in block for item in row.lines if isinstance(item, _Boxed)]
            column = (min(ln.box[0] for ln in members), max(ln.box[2] for ln in members))
            for group in _paragraphs(block, height):
                paragraph = _paragraph(page, group, figures, column)
                if any(len(row.lines) > 1 for row in block):
                    paragraph.role = Role.CELL
                found.append(paragraph)
    found += _other(page, [g for g in page.glyphs if g.direction is Direction.ROTATED], ROTATED)
    found += _other(page, [g for g in page.glyphs if g.direction is Direction.VERTICAL], VERTICAL)
    return found


def body_size(paragraphs: Iterable[Paragraph]) -> float:
    """The size most of a document's text is set in (counted in characters)."""
    sizes: Counter[float] = Counter()
    for paragraph in paragraphs:
        if paragraph.keep is None:
            sizes[paragraph.size] += len(paragraph.text)
    return sizes.most_common(1)[0][0] if sizes else 10.0


def assign_roles(paragraphs: Iterable[Paragraph], body: float, page_height: dict[int, float]) -> None:
    """Headings, captions, footnotes, running heads and list items, from size, weight, place and wording."""
    for paragraph in paragraphs:
        if paragraph.keep is not None or paragraph.role is Role.CELL:
            continue
        height = page_height[paragraph.page]
        _, y0, _, y1 = paragraph.box
        short = len(paragraph.text) <= 160 and paragraph.lines <= 3
        if _CAPTION.match(paragraph.text):
            paragraph.role = Role.CAPTION
        elif paragraph.lines == 1 and (y0 >= height * (1 - MARGIN_BAND) or y1 <= height * MARGIN_BAND):
            paragraph.role = Role.HEADER
        elif (
            paragraph.size >= 1.12 * body
            and short
            or paragraph.bold
            and short
            and not _SENTENCE_END.search(paragraph.text)
        ):
            paragraph.role = Role.HEADING
        elif paragraph.size <= 0.9 * body and y1 <= 0.35 * height:
            paragraph.role = Role.FOOTNOTE
        elif _LIST_MARKER.match(paragraph.text):
            paragraph.role = Role.LIST_ITEM
