"""A page's glyphs as paragraphs in reading order, each with its role and whether it is translated.

1. Lines: upright glyphs that follow one another on a baseline, cut where the gap is wider than
   ``LINE_GAP`` font sizes (a column's gutter, a table's cell), or a space wide and where the next
   column starts (a column's left edge: ``COLUMN_EDGE_LINES`` lines start there); superscripts and
   subscripts join the line they stand on. Words are parted where the gap between glyphs is wider than
   ``WORD_GAP`` (a PDF rarely draws its spaces), Chinese characters never; a glyph drawn again on
   itself (fake bold) is read once.
2. Reading order, by recursive XY cuts over blocks of lines and the figures: a region is cut
   first at every gutter (a vertical gap at least ``COLUMN_GAP`` font sizes wide that nothing
   crosses), read left to right; a region without one is cut into slabs at every horizontal gap
   that runs across it, and consecutive slabs that together still have a gutter are read as one
   (columns of uneven length stay columns), top to bottom. A title, a figure or a page number
   across the gutter is so cut away first, and two columns are read one after the other. Regions
   narrower than ``CELL_WIDTH`` font sizes made by a vertical cut are a table's columns: each of
   their lines is a cell.
3. Paragraphs: inside a column, a new paragraph starts at a vertical gap, a change of size or
   weight, a first-line indent, a list marker, or after a short line that ends a sentence. A list
   marker (a bullet, "1.", "(a)") stays where it is, as its own unit, and the item's text beside it
   is the paragraph.
4. Roles and what is left: headings, captions, footnotes, running headers and footers, list items
   and table cells are told apart (the writer keeps one scale per role); formulas (maths fonts and
   symbols), code (monospaced or of one width), text inside figures (images, small form XObjects,
   clusters of drawn shapes; a drawing that holds lines of prose frames text and is no figure),
   rotated and vertical text, and glyphs with no Unicode are kept as they are. Leaders and the page
   numbers after them are no text; the entry before them is a paragraph of its own.
"""

from __future__ import annotations

import math
import re
import statistics
import unicodedata
from array import array
from bisect import bisect_left
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from enum import Enum

from fanyi.limits import PDF_LAYOUT_LINES

from .interpret import Box, Direction, Glyph, PageContent, Shape, transformed

LINE_GAP = 1.2  # font sizes: a wider gap between two glyphs of a baseline parts them into two lines
BACKSTEP = 0.6  # font sizes a glyph may start before the previous one ends: a CJK full stop set half-width (Word)
STRETCHED_GAP = 10.0  # font sizes: a justified line's space stretched before an unbreakable URL may be this wide
WORD_GAP = 0.12  # font sizes: a wider gap between glyphs is a space between words (tight Libertine lines: 0.18)
COLUMN_GAP = 0.8  # font sizes: a vertical gap at least this wide that nothing crosses is a gutter
COLUMN_EDGE_LINES = 5  # lines starting at one x (within half a point) make it a column's left edge
RIGHT_EDGE_LINES = 3  # lines ending at one x (within half a point) make it a right edge
COLUMN_EDGE_GAP = 0.4  # font sizes: a line's piece after a gap this wide may start a column at its edge (a space
# is ~0.3; the names ltxdoc sets in the margin end half an em before the column)
GUTTER_PIECE = 0.6  # font sizes: a line's piece after a gap this wide counts towards a column's edge (LaTeX's
# narrowest gutter is 0.7; a justified line's spaces rarely reach 0.6, and seldom five times at one x)
CELL_WIDTH = 12.0  # font sizes: a region narrower than this, cut from its neighbours by a gutter, is a table column
LEADING = 1.25  # font sizes from baseline to baseline where a page shows no leading of its own
PARAGRAPH_GAP = 0.3  # font sizes more than the page's leading between two lines: a new paragraph
INDENT = 0.8  # font sizes: a line starting this far right of its column's left edge begins a paragraph
SHORT_LINE = 0.15  # of the column's width: a sentence-ending line this much short of the edge ends its paragraph
FIGURE_FORM = 0.6  # of the page's area: a smaller form XObject is a figure, a larger one holds the page
DRAWING_CELL = 24.0  # points: the grid shapes are grouped on (touching shapes are found in neighbouring cells)
FIGURE_LABEL = 2.5  # font sizes: a short text this near a figure is one of its labels
SUBFIGURE_LABEL = 6.0  # font sizes: "(a)" this near a figure names a part of it
MARGIN_BAND = 0.07  # of the page's height: a single line wholly in this top or bottom band is a running head
HEAD_BAND = 0.12  # of the page's height: a line or two in this band, its words on three pages or more, is one too
FIGURE_THICKNESS = 6.0  # points: a drawing or form thinner than this is a band or a shadow, not a figure
BACKDROP_SHAPES = 8  # a drawing of fewer shapes with words of the usual size on it is a backdrop, not a figure
LEADER_DOTS = 4  # dots in a row along a baseline: a leader (a table of contents' or an index's)


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
MARKER = "list marker"
ROTATED = "rotated text"
VERTICAL = "vertical text"
UNREADABLE = "text whose font maps no Unicode"
REFERENCE = "reference list"
OFF_PAGE = "text outside the page"
SPECIMEN = "a type specimen"  # the same text shown twice or more, in the forms a font gives it
RIGHT_TO_LEFT = "right-to-left text"  # Hebrew, Arabic: read in the order drawn, not yet in the order written

# the reasons above that leave words a reader may miss (the rest leave code, formulas, markers, samples…): a report
# says where each is, and whether most of a document's words were left
WORDS_LEFT = frozenset({IN_FIGURE, ROTATED, VERTICAL, UNREADABLE, REFERENCE, RIGHT_TO_LEFT})

_SECTION_NUMBER = re.compile(r"\d{1,2}(?:\.\d{1,2})+\s+[^\W\d_]")  # "5.1 Title", "2.3.4 Results"
_BULLET = re.compile(r"\s*[•◦▪▫‣⁃∙●○■□]")
_LIST_MARKER = re.compile(
    r"^\s*(?:[•◦▪▫‣⁃∙·●○■□–—*-]\s|\(?(?:\d{1,3}|[a-zA-Z]|[ivxIVX]{1,4})[.)]\s|[一二三四五六七八九十]+、)"
)
# a list item's label: a bullet (a symbol font's private-use one, or a glyph with no Unicode, as TeX's bullets
# often are), a number or a letter
_MARKER_LABEL = re.compile(
    r"[•◦▪▫‣⁃∙·●○■□–—*\-\ue000-\uf8ff]|\(cid:\d+\)|\d{1,3}[.)]|\(\d{1,3}\)|\(?[a-z][.)]|\(?[ivx]{1,4}\)"
    r"|\d{1,2}(?:\.\d{1,2})*"  # a heading's or a table of contents' number: "5", "5.1", "2.3.4"
)
_REFERENCES = re.compile(
    r"^\s*(?:\d+\.?\s*)?(?:references|bibliography|works cited|literature cited|参考文献|参考资料|參考文獻)\s*$", re.I
)
_DOTS = frozenset(".·…․‥⋯")
_EQUATION_NUMBER = re.compile(r"\(\d{1,3}(?:\.\d{1,3})?[a-z]?\)")
_SENTENCE = re.compile(r"(?:[^\W\d_]{2,}\s+){5}[^\W\d_]{2,}")  # six words in a row: prose, not a formula
_HEAD_NUMBERS = re.compile(r"\b[ivxlcdm]+\b|\d+")  # a running head's page number, arabic or roman
_RIGHT_TO_LEFT = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]")  # Hebrew, Arabic, Syriac, Thaana…
_PROSE_WORD = re.compile(r"[^\W\d_]{2,}")
_PAGE_NUMBER = re.compile(r"[0-9ivxlcdmIVXLCDM,–-]")  # what follows a leader: page numbers, their ranges and lists
_SUBFIGURE = re.compile(r"^\(?[a-zA-Z]\)$")
# "Figure 3", "TABLE IV", "Fig. A.1", "图 2"; not "Figure out the appearance"
_CAPTION = re.compile(r"^\s*(?:(?i:Figure|Fig\.|Table|Tab\.|Listing|Algorithm|Chart|Exhibit)|图|表)\s*[\dIVXA-Z]")
_SENTENCE_END = re.compile(r"[.!?:;。！？：；…][\"'”’)）」』]*$")
_HYPHENS = "-\u00ad\u2010"
_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")  # letters, with a compound's inner hyphens
# Closed compounds' first parts: "some-thing", "with-out" and "there-fore" are words broken at a line end even
# where "some" and "thing" are words of the page.
_CLOSED_HEADS = frozenset(
    "any be else every for here in no out over some there to under up what when where with".split()
)
# spacing accents as fonts draw them apart from their letter, and the combining marks they stand for
_ACCENTS = {
    "\u00a8": "\u0308", "\u02dc": "\u0303", "\u00af": "\u0304", "\u00b4": "\u0301", "`": "\u0300",
    "\u02c6": "\u0302", "\u02c7": "\u030c", "\u02d8": "\u0306", "\u02d9": "\u0307", "\u02da": "\u030a",
    "\u00b8": "\u0327", "\u02db": "\u0328", "\u02dd": "\u030b",
}  # fmt: skip
_LONG_WORD = re.compile(r"[^\W\d_]{4,}")  # a word of prose (a formula's names are shorter: x, jml, sin)
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
    entry: bool = False  # it ends at a leader: a table of contents' or an index's entry, a paragraph of its own
    bulleted: bool = False  # a drawn bullet stands before it (a beamer ball, a filled square): it begins an item
    baseline: float = 0.0  # where most of its glyphs stand (not a footnote mark or a superscript that starts it)


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


def _lines(glyphs: Sequence[Glyph], rules: Sequence[Box]) -> list[Line]:
    """Upright glyphs as lines, in the order drawn (most PDFs draw a line's glyphs left to right); a vertical
    rule between two glyphs (a table's) parts them."""
    lines: list[Line] = []
    current: list[Glyph] = []
    for glyph in glyphs:
        if current and _continues(current, glyph) and not _ruled(current[-1], glyph, rules):
            current.append(glyph)
            continue
        if current:
            lines.append(_line(current))
        current = [glyph]
    if current:
        lines.append(_line(current))
    edges = _column_edges(lines)
    ends = _column_ends(lines)
    merged = _merged([piece for line in lines for piece in _parted(line, edges, ends)], rules, edges, ends)
    return _join_stretched(merged, rules, edges)


def _join_stretched(lines: list[Line], rules: Sequence[Box], edges: Sequence[float]) -> list[Line]:
    """Pieces of one baseline parted by a justified line's stretched space joined: TeX leaves several ems before a
    URL or a word it cannot break. The gap is no gutter when a line just above or below runs across it, the piece
    before it starts inside that line (not in the margin), and the piece after it does not start at a column's
    edge; a table's gap is as empty in the rows around it."""
    rows: list[list[Line]] = []
    for line in sorted(lines, key=lambda ln: (-ln.baseline, ln.box[0])):
        if rows and abs(rows[-1][0].baseline - line.baseline) <= 0.2 * line.size:
            rows[-1].append(line)
        else:
            rows.append([line])
    out: list[Line] = []
    for i, row in enumerate(rows):
        neighbours = [
            other
            for near in rows[max(0, i - 1) : i + 2]
            if near is not row
            for other in near
            if abs(other.baseline - row[0].baseline) <= 2 * row[0].size
        ]
        joined = [row[0]]
        for piece in row[1:]:
            last = joined[-1]
            gap = piece.box[0] - last.box[2]
            middle = (last.box[2] + piece.box[0]) / 2
            across = [other for other in neighbours if other.box[0] < middle < other.box[2]]
            if (
                LINE_GAP * last.size < gap <= STRETCHED_GAP * last.size
                and across
                and last.box[0] >= min(other.box[0] for other in across) - 0.5  # not a label in the margin
                and not _at_edge(piece.box[0], edges)
                and not _ruled(last.glyphs[-1], piece.glyphs[0], rules)
            ):
                joined[-1] = _line(last.glyphs + piece.glyphs)
            else:
                joined.append(piece)
        out += joined
    return out


def _continues(current: list[Glyph], glyph: Glyph) -> bool:
    last = current[-1]
    size = max(last.size, glyph.size, 1e-3)
    gap = glyph.box[0] - last.box[2]
    if glyph.text in _ACCENTS and -BACKSTEP * size <= gap <= LINE_GAP * size and 0 <= glyph.y - last.y <= 0.6 * size:
        return True  # an accent drawn apart, raised over the capital it stands on (TeX's \"U in OT1 fonts)
    if last.text in _ACCENTS and len(current) > 1 and glyph.box[0] <= last.box[0] <= glyph.box[2]:
        return abs(glyph.y - current[-2].y) <= 0.2 * size  # the letter under it, back on the line
    if gap > LINE_GAP * size:
        return False
    if gap < -BACKSTEP * size:
        return _stacked_script(current, glyph)
    if abs(glyph.y - last.y) <= 0.2 * size:
        return True
    base = statistics.median_low(g.y for g in current[-8:])
    shift = abs(glyph.y - base)
    if shift <= 0.2 * size:
        return True  # back on the line after a letter raised or lowered
    if gap <= 0.3 * size and shift <= 0.45 * size:
        return True  # raised or lowered in its line, set close: TeX's logos lower the E of TeX and LaTeX half an ex
    # a superscript or subscript: smaller, and within the line's height
    top, bottom = max(g.box[3] for g in current[-4:]), min(g.box[1] for g in current[-4:])
    middle = (glyph.box[1] + glyph.box[3]) / 2
    return glyph.size < 0.85 * size and bottom <= middle <= top


def _stacked_script(current: list[Glyph], glyph: Glyph) -> bool:
    """Whether ``glyph`` is a script set back under or over the scripts before it (b with ¹˒² over ₁˒₃₉: the pen
    goes back to where the scripts began), within half an em of the baseline of the letter they belong to."""
    full = max(g.size for g in current[-12:])
    first = len(current)
    while first > 0 and current[first - 1].size < 0.85 * full:
        first -= 1
    if first == 0 or first == len(current) or glyph.size >= 0.85 * full:
        return False
    nucleus = current[first - 1]
    return current[first].box[0] - 0.5 <= glyph.box[0] <= current[-1].box[2] and (
        abs(glyph.y - nucleus.y) <= 0.6 * nucleus.size
    )


def _ruled(left: Glyph, right: Glyph, rules: Sequence[Box]) -> bool:
    y = (right.box[1] + right.box[3]) / 2
    return any(left.box[2] - 0.5 <= (r[0] + r[2]) / 2 <= right.box[0] + 0.5 and r[1] <= y <= r[3] for r in rules)


def _line(glyphs: list[Glyph]) -> Line:
    glyphs = sorted(glyphs, key=lambda g: g.box[0])
    return Line(glyphs, _union(g.box for g in glyphs), _size(glyphs), _text(glyphs), baseline=_baseline(glyphs))


def _baseline(glyphs: list[Glyph]) -> float:
    return statistics.median_low(g.y for g in glyphs)


def _size(glyphs: list[Glyph]) -> float:
    """A line's font size: the largest of those a fifth of its glyphs or more are set in (an inline URL in a
    smaller typewriter font, a superscript, do not make a line smaller)."""
    sizes = Counter(round(g.size, 1) for g in glyphs if g.text.strip())
    if not sizes:
        return glyphs[0].size
    total = sum(sizes.values())
    return max(size for size, count in sizes.items() if count >= 0.2 * total)


def _aligned(lines: Sequence[Line], least: int, ends: bool) -> list[float]:
    """Where ``least`` or more lines start (or end, with ``ends``), counting the pieces of lines after (before) a gap
    of GUTTER_PIECE, to half a point."""
    found: Counter[float] = Counter()
    for line in lines:
        found[round(line.box[2 if ends else 0] * 2) / 2] += 1
        for left, right in zip(line.glyphs, line.glyphs[1:]):
            if right.box[0] - left.box[2] >= GUTTER_PIECE * line.size:
                found[round((left.box[2] if ends else right.box[0]) * 2) / 2] += 1
    return sorted(x for x in found if found[x - 0.5] + found[x] + found[x + 0.5] >= least)


def _column_edges(lines: Sequence[Line]) -> list[float]:
    """Where COLUMN_EDGE_LINES or more lines start, or pieces of lines after a gap of GUTTER_PIECE: a column's
    left edge (or a table column's). LaTeX's two columns are 10 points apart, one font size, with their baselines level,
    so a gap alone does not tell the gutter from a wide space; that the next column starts there on every line does."""
    return _aligned(lines, COLUMN_EDGE_LINES, ends=False)


def _edge_between(low: float, high: float, edges: Sequence[float]) -> bool:
    """Whether one of the sorted ``edges`` lies in [low, high]."""
    i = bisect_left(edges, low)
    return i < len(edges) and edges[i] <= high


def _at_edge(x: float, edges: Sequence[float]) -> bool:
    return _edge_between(x - 0.5, x + 0.5, edges)


def _column_ends(lines: Sequence[Line]) -> list[float]:
    """Where RIGHT_EDGE_LINES or more lines end, or pieces of lines before a gap of GUTTER_PIECE: a justified
    column's right edge, or the right edge of labels set flush right in a margin."""
    return _aligned(lines, RIGHT_EDGE_LINES, ends=True)


def _column_starts(right: float, left_end: float, size: float, edges: Sequence[float], ends: Sequence[float]) -> bool:
    """Whether text starting at x ``right`` on the baseline of text ending at ``left_end`` may be the next
    column's: it starts at a column's edge, past a gutter's width, or past a space's width where the text before
    it ends at a right edge too (a justified column, labels flush right in the margin). A word space that happens
    to end where a listing's or a table's lines start, elsewhere on the page, parts nothing."""
    gap = right - left_end
    if gap < COLUMN_EDGE_GAP * size or not _at_edge(right, edges):
        return False
    return gap >= COLUMN_GAP * size or _edge_between(left_end - 1.0, left_end + 1.0, ends)


def _marker(text: str, start: float, size: float, edges: Sequence[float]) -> bool:
    """Whether ``text``, starting at x ``start``, is a list's marker at the start of its line: its items' lines all
    start at one x too, as a column's do, but the item is no column (an equation's number at a line's end is no
    marker). Edges are kept to half a point, so one may lie just right of where its lines start."""
    return _edge_between(start - 3 * size, start + 0.5, edges) and bool(_MARKER_LABEL.fullmatch(text.strip()))


def _parted(line: Line, edges: Sequence[float], ends: Sequence[float]) -> list[Line]:
    """A line drawn across a gutter (both columns' text drawn row by row) as one line per column."""
    cuts = [0]
    for i, (left, right) in enumerate(zip(line.glyphs, line.glyphs[1:]), 1):
        if _column_starts(right.box[0], left.box[2], line.size, edges, ends):
            piece = line.glyphs[cuts[-1] : i]
            if not _marker("".join(g.text for g in piece), piece[0].box[0], line.size, edges):
                cuts.append(i)
    if len(cuts) == 1:
        return [line]
    return [_line(line.glyphs[a:b]) for a, b in zip(cuts, [*cuts[1:], len(line.glyphs)])]


def _merged(lines: list[Line], rules: Sequence[Box], edges: Sequence[float], ends: Sequence[float]) -> list[Line]:
    """Lines of one baseline drawn apart (a superscript drawn after its line, a line drawn in pieces) joined; but
    not across a gutter: a line that starts at a column's edge, a space or more after another, is the next
    column's."""
    lines.sort(key=lambda ln: (-round(ln.baseline, 0), ln.box[0]))
    out: list[Line] = []
    for line in lines:
        for other in reversed(out[-8:]):
            size = max(line.size, other.size)
            same_baseline = abs(line.baseline - other.baseline) <= 0.2 * size
            # either may be the left one: a bullet drawn after its item's text, its baseline a fraction lower
            left, right = (other, line) if other.box[0] <= line.box[0] else (line, other)
            gap = right.box[0] - left.box[2]
            small = line.size < 0.85 * other.size and other.box[1] <= (line.box[1] + line.box[3]) / 2 <= other.box[3]
            next_column = _column_starts(right.box[0], left.box[2], size, edges, ends) and not _marker(
                left.text, left.box[0], size, edges
            )
            near = -BACKSTEP * size <= gap <= LINE_GAP * size and not next_column
            overlap = min(line.box[2], other.box[2]) - max(line.box[0], other.box[0])
            drawn_again = same_baseline and overlap > 0.5 * min(line.box[2] - line.box[0], other.box[2] - other.box[0])
            if drawn_again or (
                (same_baseline or small) and near and not _ruled(left.glyphs[-1], right.glyphs[0], rules)
            ):
                other.glyphs += line.glyphs
                other.box = _union((other.box, line.box))
                break
        else:
            out.append(line)
    for line in out:
        line.glyphs.sort(key=lambda g: g.box[0])
        line.text = _text(line.glyphs)
        line.size = _size(line.glyphs)
        line.baseline = _baseline(line.glyphs)
    return out


def _accented(glyphs: list[Glyph]) -> dict[int, str]:
    """The text of each glyph with the accents drawn over it as combining marks (TeX's OT1 fonts draw "Ü" as ¨
    over U); an accent so placed has no text of its own (its index maps to "")."""
    texts = {i: glyph.text for i, glyph in enumerate(glyphs)}
    for i, glyph in enumerate(glyphs):
        if glyph.text not in _ACCENTS:
            continue
        middle = (glyph.box[0] + glyph.box[2]) / 2
        for j in (i + 1, i - 1):
            if 0 <= j < len(glyphs) and glyphs[j].text.isalpha() and glyphs[j].box[0] <= middle <= glyphs[j].box[2]:
                texts[j] += _ACCENTS[glyph.text]
                texts[i] = ""
                break
    return texts


def _text(glyphs: list[Glyph]) -> str:
    out: list[str] = []
    previous: Glyph | None = None
    texts = _accented(glyphs) if any(g.text in _ACCENTS for g in glyphs) else None
    for i, glyph in enumerate(glyphs):
        text = glyph.text if texts is None else texts[i]
        if not text:
            continue
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
    joined = "".join(out).strip()
    return joined if texts is None else unicodedata.normalize("NFC", joined)


def _add_words(words: set[str], lines: Iterable[Line]) -> None:
    """The words the lines use whole, lower case, added to ``words``: a line's first word and a hyphenated last
    one may be pieces."""
    for line in lines:
        found = _WORD.findall(line.text)
        if found and line.text.rstrip()[-1:] in _HYPHENS:
            found.pop()
        words.update(word.lower() for word in found[1:])


def _keeps_hyphen(head: str, tail: str, words: AbstractSet[str]) -> bool:
    """Whether the hyphen between ``head`` at a line's end and ``tail`` on the next is a compound's ("two-column",
    "text-showing") rather than a word's break ("para-graphs"): how the document writes the word elsewhere
    first, then whether both parts are words of it."""
    head, tail = head.lower(), tail.lower()
    if "-" in head or "-" in tail or f"{head}-{tail}" in words:
        return True  # state-of-the-art, out-of-range, or the compound written whole elsewhere
    if head + tail in words:
        return False
    return head not in _CLOSED_HEADS and head in words and tail in words


def _joined(lines: list[Line], words: AbstractSet[str] = frozenset()) -> str:
    if _style([g for line in lines for g in line.glyphs])[2]:
        return "\n".join(_indented(line, lines[0].box[0]) for line in lines)  # code keeps its lines
    out = ""
    for line in lines:
        text = line.text
        if not out:
            out = text
        elif out[-1] in _HYPHENS and len(out) > 1 and out[-2].isalpha() and text[:1].islower():
            head, tail = _WORD.findall(out[:-1])[-1], _WORD.match(text)
            keep = out[-1] != "\u00ad" and tail is not None and _keeps_hyphen(head, tail.group(), words)
            out = (out if keep else out[:-1]) + text
        elif _wide(out[-1]) or _wide(text[:1]):
            out += text
        else:
            out += " " + text
    return out


def _leadings(lines: list[Line]) -> dict[float, float]:
    """The distance from baseline to baseline most lines of each size have on the page (Chinese is often set
    at 1.5–2 ems, English at 1.2): what tells a line's successor in its paragraph from the next paragraph."""
    found: defaultdict[float, Counter[float]] = defaultdict(Counter)
    ordered = sorted(lines, key=lambda ln: -ln.baseline)
    for i, line in enumerate(ordered):
        for below in ordered[i + 1 : i + 12]:
            distance = line.baseline - below.baseline
            if distance > 3 * line.size:
                break
            overlap = min(line.box[2], below.box[2]) - max(line.box[0], below.box[0])
            if below.size == line.size and distance > 0.8 * line.size and overlap > 0:
                found[line.size][round(distance * 2) / 2] += 1
                break
    return {size: counts.most_common(1)[0][0] for size, counts in found.items() if counts.most_common(1)[0][1] >= 2}


def _next_line(last: Line, line: Line, leadings: dict[float, float]) -> bool:
    """Whether ``line`` stands where the line after ``last`` in one paragraph would."""
    size = max(last.size, line.size)
    leading = leadings.get(last.size, LEADING * last.size)
    return last.baseline - line.baseline <= leading + PARAGRAPH_GAP * size


def _indented(line: Line, left: float) -> str:
    """A line of code with its indentation as spaces, in the width of its font's glyphs."""
    letters = [g for g in line.glyphs if g.text.strip()]
    width = min((g.box[2] - g.box[0] for g in letters), default=line.size * 0.6) or line.size * 0.6
    return " " * max(0, round((line.box[0] - left) / width)) + line.text


def _breaks(previous: list[Line], line: Line, left: float, right: float, leadings: dict[float, float]) -> bool:
    """Whether ``line`` starts a new paragraph after ``previous``, in a column from ``left`` to ``right``."""
    last = previous[-1]
    size = max(last.size, line.size)
    if line.baseline > last.baseline - 0.5 * size or last.entry:  # beside it, or after an entry's leader
        return True
    if len(previous) == 1 and _EQUATION_NUMBER.fullmatch(last.text):
        return True  # a display formula's number ends its band: the text under it is a paragraph of its own
    if not _next_line(last, line, leadings):
        return True
    if abs(last.size - line.size) > max(0.5, 0.05 * size):
        return True
    before, after = _style(last.glyphs), _style(line.glyphs)
    width = right - left
    # broken at the column's right edge mid-sentence (a code line is ragged, and seldom reaches it)
    runs_on = right - last.box[2] <= size and not _SENTENCE_END.search(last.text)
    if before[:2] != after[:2] or (before[2] != after[2] and not runs_on):
        return True  # bold or italic, or a code block (a sentence running on into a URL is no code block)
    if after[2] and before[2]:  # code: its indentation and short lines are its own
        return False
    # a sentence run on from a full line to one starting at the column's edge with "4." is no list's item (one
    # starting with a bullet is)
    run_on = right - last.box[2] <= size and not _SENTENCE_END.search(last.text) and line.box[0] - left < 0.5 * size
    label = _split_marker(line)
    if line.bulleted or _BULLET.match(line.text) or (label is not None and not label[0].text.endswith(".")):
        return True  # a bullet, or a label and a gap wider than a space ("2  Obtaining…"): an item, an entry
    # ("4. By default" is not enough: TeX widens the space after a full stop)
    if (_LIST_MARKER.match(line.text) or _SECTION_NUMBER.match(line.text)) and not run_on:
        return True  # "3. Next", "5.1 Title": an item or a numbered heading, unless a sentence runs on into it
    hanging = _LIST_MARKER.match(previous[0].text) is not None
    centred = abs((last.box[0] + last.box[2]) - (line.box[0] + line.box[2])) < 2 * size  # a centred title's lines
    full = right - last.box[2] <= SHORT_LINE * (right - left)
    continued = full and line.box[0] > previous[0].box[0] + 0.5  # a hanging indent (a reference, a list item)
    if (
        line.box[0] - left > INDENT * size
        and not centred
        and not continued
        and not (hanging and line.box[0] > previous[0].box[0])
    ):
        return True
    return width > 0 and right - last.box[2] > SHORT_LINE * width and bool(_SENTENCE_END.search(last.text))


def _style(glyphs: list[Glyph]) -> tuple[bool, bool, bool]:
    """Whether nearly all the glyphs are bold, italic, monospaced: a line in another style is another paragraph."""
    letters = [g for g in glyphs if g.text.strip()] or glyphs
    most = 0.8 * len(letters)  # a line with a word in bold or a URL in a monospaced font is not another style
    return (
        sum(g.font.bold for g in letters) >= most,
        sum(g.font.italic for g in letters) >= most,
        sum(g.font.monospace for g in letters) >= most,
    )


def _bold(glyphs: list[Glyph]) -> bool:
    letters = [g for g in glyphs if g.text.strip()]
    return bool(letters) and sum(g.font.bold for g in letters) > len(letters) / 2


@dataclass
class _Region:
    """A leaf of the cuts: its lines top to bottom, the column it is part of, and whether they are a table's cells."""

    lines: list[Line]
    column: tuple[int, ...]  # the cuts that led here: a vertical cut's part (0, 1…) or a slab (-1, -2…)
    cells: bool


def _gaps(spans: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The empty stretches between the union of ``spans``, in order."""
    gaps = []
    ordered = sorted(spans)
    reach = ordered[0][1]
    for start, end in ordered[1:]:
        if start > reach:
            gaps.append((reach, start))
        reach = max(reach, end)
    return gaps


def _blocks(lines: list[Line], leadings: dict[float, float], rules: Sequence[Box]) -> list[list[Line]]:
    """Lines stacked close under one another, overlapping, in one size, with no rule between them: what the
    cuts treat as one piece, so that a paragraph's short last line is never cut away from it."""
    blocks: list[list[Line]] = []
    for line in sorted(lines, key=lambda ln: (-ln.box[3], ln.box[0])):
        best: list[Line] | None = None
        best_gap = 0.0
        for block in blocks[-40:]:
            last = block[-1]
            size = max(last.size, line.size)
            gap = last.box[1] - line.box[3]
            overlap = min(last.box[2], line.box[2]) - max(last.box[0], line.box[0])
            narrower = min(last.box[2] - last.box[0], line.box[2] - line.box[0])
            if (
                gap >= -0.3 * size
                and _next_line(last, line, leadings)
                and overlap >= 0.5 * narrower
                and abs(last.size - line.size) <= max(0.5, 0.05 * size)
                and not any(_between(rule, last, line) for rule in rules)
                and (best is None or gap < best_gap)
            ):
                best, best_gap = block, gap
        if best is None:
            blocks.append([line])
        else:
            best.append(line)
    return blocks


def _between(rule: Box, above: Line, below: Line) -> bool:
    """Whether a horizontal rule runs between two lines, under the one and over the other."""
    middle = (rule[1] + rule[3]) / 2
    reach = min(above.box[2], below.box[2]) - max(above.box[0], below.box[0])
    return (
        below.box[3] - 1 <= middle <= above.box[1] + 1
        and min(rule[2], above.box[2]) - max(rule[0], above.box[0]) > 0
        and reach > 0
    )


Piece = tuple[Box, list[Line]]  # a block of lines, or a figure (no lines), as the cuts see it


def _stacked(items: list[Piece]) -> bool:
    """Whether no two pieces stand side by side (overlap vertically): then nothing inside can be cut into columns."""
    ordered = sorted(items, key=lambda item: -item[0][3])
    return all(b[0][3] <= a[0][1] + 0.5 for a, b in zip(ordered, ordered[1:]))


def _slabs(items: list[Piece]) -> list[list[Piece]]:
    """The pieces cut at every horizontal gap that runs across all of them, top to bottom."""
    ordered = sorted(items, key=lambda item: -item[0][3])
    slabs = [[ordered[0]]]
    bottom = ordered[0][0][1]
    for item in ordered[1:]:
        if item[0][3] <= bottom:
            slabs.append([item])
        else:
            slabs[-1].append(item)
        bottom = min(bottom, item[0][1])
    return slabs


def _spans(items: list[Piece]) -> list[tuple[float, float]]:
    """The stretches of x the pieces cover, their gaps left out."""
    spans: list[tuple[float, float]] = []
    for x0, x1 in sorted((box[0], box[2]) for box, _lines in items):
        if spans and x0 <= spans[-1][1]:
            spans[-1] = (spans[-1][0], max(spans[-1][1], x1))
        else:
            spans.append((x0, x1))
    return spans


def _in_columns(items: list[Piece], spans: list[tuple[float, float]], slack: float) -> bool:
    """Whether each piece stands in one of the columns ``spans``: inside it, or starting at its left edge (a
    column's lines start together; their right ends are ragged) and not reaching the next column."""
    starts = [a for a, _b in spans] + [math.inf]
    return all(
        any(
            (a - slack <= box[0] and box[2] <= b + slack) or (abs(box[0] - a) <= slack and box[2] < after - slack)
            for (a, b), after in zip(spans, starts[1:])
        )
        for box, _lines in items
    )


@dataclass(frozen=True)
class _Gutter:
    """What parts columns: a vertical gap ``width`` wide, or a quarter of that where a column's left edge is
    (LaTeX's justified columns can come within 8 points of each other)."""

    width: float
    edges: tuple[float, ...]

    def gaps(self, items: list[Piece]) -> list[tuple[float, float]]:
        return [
            (a, b)
            for a, b in _gaps([(box[0], box[2]) for box, _lines in items])
            if b - a >= self.width or (b - a >= self.width / 4 and _at_edge(b, self.edges))
        ]


def _merged_slabs(slabs: list[list[Piece]], gutter: _Gutter) -> list[list[Piece]]:
    """Consecutive slabs joined into one section while they share columns: the union still has a gutter, and
    the pieces of one slab each stand in a column of the other (columns of uneven length, or where both
    columns happen to leave a gap at once, stay one section, read column by column; a centred line above
    them, a title or a date, does not)."""
    groups = [slabs[0]]
    for slab in slabs[1:]:
        union = groups[-1] + slab
        slack = gutter.width
        shared = _in_columns(slab, _spans(groups[-1]), slack) or _in_columns(groups[-1], _spans(slab), slack)
        if shared and gutter.gaps(union):
            groups[-1] = union
        else:
            groups.append(slab)
    return groups


def _cut(items: list[Piece], gutter: _Gutter, column: tuple[int, ...], cells: bool, out: list[_Region]) -> None:
    """Append ``items``' lines to ``out`` as regions in reading order (see the module's docstring)."""
    if not any(lines for _box, lines in items):
        return
    if len(items) > 1:
        gaps = gutter.gaps(items)
        if gaps:
            cuts = [(a + b) / 2 for a, b in gaps]
            parts: list[list[Piece]] = [[] for _ in range(len(cuts) + 1)]
            for item in items:
                parts[sum(item[0][0] > cut for cut in cuts)].append(item)
            for number, part in enumerate(parts):
                width = max(b[2] for b, _ in part) - min(b[0] for b, _ in part)
                _cut(part, gutter, (*column, number), width < CELL_WIDTH * gutter.width / COLUMN_GAP, out)
            return
        if not _stacked(items):
            slabs = _slabs(items)
            if len(slabs) > 1:
                for number, slab in enumerate(_merged_slabs(slabs, gutter)):
                    _cut(slab, gutter, (*column, -1 - number), cells, out)
                return
    lines = [line for _box, block in items for line in block]
    out.append(_Region(sorted(lines, key=lambda ln: (-ln.box[3], ln.box[0])), column, cells))


def _regions(
    lines: list[Line],
    figures: list[Box],
    rules: Sequence[Box],
    page_area: float,
    leadings: dict[float, float],
    edges: Sequence[float],
) -> list[_Region]:
    """The lines as regions in reading order: parts of columns of text, or a table's columns of cells."""
    if len(lines) > PDF_LAYOUT_LINES:  # a page of scattered glyphs: each line a unit, top to bottom, left to right
        return [_Region(sorted(lines, key=lambda ln: (-ln.box[3], ln.box[0])), (), True)]
    size = statistics.median(line.size for line in lines)
    _hold_overfull(lines, edges)
    items: list[Piece] = [(_union(line.box for line in block), block) for block in _blocks(lines, leadings, rules)]
    items += [(box, []) for box in figures if _area(box) < 0.5 * page_area]
    out: list[_Region] = []
    _cut(items, _Gutter(COLUMN_GAP * size, tuple(edges)), (), False, out)
    return out


def _hold_overfull(lines: list[Line], edges: Sequence[float]) -> None:
    """A column's line that runs on into the gutter and the next column (LaTeX's overfull line: a long URL or file
    name that cannot be broken) ends, as far as the layout goes, before the next column's edge: it would
    otherwise join the columns into one block and leave them no gutter. An edge is a column's when lines of the
    column to its left end just before it; a line is overfull when it starts at its column's edge and overruns
    the next by less than a quarter of that column's width (a title or a caption across both runs further)."""
    right = max(line.box[2] for line in lines)
    size = statistics.median(line.size for line in lines)
    ends = sorted(line.box[2] for line in lines)
    for edge in edges:
        if bisect_left(ends, edge - 0.2 * size) - bisect_left(ends, edge - 3 * size) < COLUMN_EDGE_LINES:
            continue
        for line in lines:
            overrun = line.box[2] - edge
            start = line.box[0]
            if (
                0 < overrun <= 0.25 * (right - edge)
                and start <= edge - 3 * size  # the column it starts is wider than the gutter the line is held at
                and _edge_between(start - 2 * line.size, start, edges)
            ):
                line.box = (line.box[0], line.box[1], edge - COLUMN_GAP * line.size, line.box[3])


def _split_marker(line: Line) -> tuple[Line, Line] | None:
    """A list item's marker (bullet, number, letter) and the text beside it, as two lines; None if it has none."""
    glyphs = [g for g in line.glyphs if g.text.strip()]
    if len(glyphs) < 2:
        return None
    label = ""
    for count, glyph in enumerate(glyphs[:6], 1):
        label += glyph.text
        if count == len(glyphs):
            break
        if _MARKER_LABEL.fullmatch(label) and glyphs[count].box[0] - glyph.box[2] > 0.45 * line.size:
            marker = [g for g in line.glyphs if g.box[2] <= glyph.box[2]]
            rest = [g for g in line.glyphs if g.box[2] > glyph.box[2]]
            return _line(marker), _line(rest)
    return None


def _column_of(region: _Region) -> tuple[int, ...]:
    """The column a region is part of: its cuts, but for the slabs cut last (the parts of one column above and below
    a figure are one column; the second column of an author grid and that of the text under it are not)."""
    column = region.column
    while column and column[-1] < 0:
        column = column[:-1]
    return column


def _edges(lines: list[Line]) -> tuple[float, float]:
    """A column's left and right edges: where most of its lines start and end (a running head across the page or
    a short line does not move them)."""
    wide = [line for line in lines if len(line.text) >= 10] or lines
    starts = sorted(line.box[0] for line in wide)
    ends = sorted(line.box[2] for line in wide)
    return starts[len(starts) // 5], ends[(len(ends) * 4) // 5]


def _paragraphs(
    regions: list[_Region], leadings: dict[float, float], rules: Sequence[Box]
) -> list[tuple[list[Line], bool, tuple[float, float]]]:
    """Each paragraph's lines, whether it is a table's cell, and its column's left and right edges; a rule between
    two lines (a table's row boundary) parts them."""
    members: defaultdict[tuple[int, ...], list[Line]] = defaultdict(list)
    for region in regions:
        members[_column_of(region)] += region.lines
    edges = {column: _edges(lines) for column, lines in members.items()}
    out: list[tuple[list[Line], bool, tuple[float, float]]] = []
    previous: tuple[int, ...] | None = None
    for region in regions:
        key = _column_of(region)
        column = edges[key]
        for line in region.lines:
            if (
                region.cells
                or previous != key
                or not out
                or _breaks(out[-1][0], line, *column, leadings)
                or any(_between(rule, out[-1][0][-1], line) for rule in rules)
            ):
                out.append(([line], region.cells, column))
            else:
                out[-1][0].append(line)
            previous = key
        if region.cells:
            previous = None
    return out


def _leaders(glyphs: Sequence[Glyph]) -> list[list[Glyph]]:
    """Leaders with what follows them on their baseline: LEADER_DOTS or more dots drawn one after another along a
    baseline, spaced or not (a table of contents' ". . . . 12", a LibreOffice tab leader "......."), or fewer spaced
    dots before a page number that ends the line ("Installation . . 3"; "\\ldots" in a sentence is spaced too);
    and the page numbers after them ("12", "xiv", "35, 47–49"). Then, where two leaders' page numbers end at one
    x, a page number that ends its line there after a dot or a wide gap is one too (a long title's one-dot leader,
    a chapter's entry, which has none). They are no text to translate: they stay where they are, and the entry
    before them is a paragraph of its own."""
    shown = [g for g in glyphs if not g.text.isspace()]
    taken: list[tuple[int, int]] = []  # [start, end) of each leader in ``shown``
    i = 0
    while i < len(shown):
        if shown[i].text not in _DOTS or shown[i].direction is not Direction.UPRIGHT:
            i += 1
            continue
        j = i + 1
        while j < len(shown) and shown[j].text in _DOTS and _after(shown[j - 1], shown[j], 0.0, 2.0, left=True):
            j += 1
        k = _tail(shown, j)
        dots = shown[i:j]
        spaced = len(dots) >= 2 and all(b.box[0] - a.box[0] >= 0.4 * b.size for a, b in zip(dots, dots[1:]))
        if len(dots) >= LEADER_DOTS or (spaced and k > j and shown[j].text.isdigit() and _ends_line(shown, k)):
            taken.append((i, k))
            i = k
        else:
            i = j
    ends = Counter(round(shown[k - 1].box[2]) for i, k in taken if shown[k - 1].text not in _DOTS)
    aligned = {x for x, count in ends.items() if count >= 2}
    if aligned:
        taken += _aligned_numbers(shown, aligned, {n for i, k in taken for n in range(i, k)})
    return [shown[i:k] for i, k in sorted(taken)]


def _tail(shown: list[Glyph], j: int) -> int:
    """Where the page numbers after the leader ending at ``j`` end."""
    k = j
    while (
        k < len(shown)
        and _PAGE_NUMBER.fullmatch(shown[k].text)
        and _after(shown[k - 1], shown[k], -0.2, 3.0 if k == j else 1.0)
    ):
        k += 1
    return k


def _ends_line(shown: list[Glyph], k: int) -> bool:
    return k == len(shown) or not _after(shown[k - 1], shown[k], -0.5, 3.0)


def _aligned_numbers(shown: list[Glyph], aligned: set[int], taken: set[int]) -> list[tuple[int, int]]:
    """Page numbers ending their lines where leaders' page numbers end (``aligned``), after a dot or a gap of an em
    or more, with the dots before them: [start, end) in ``shown``."""
    found = []
    for k in range(1, len(shown) + 1):
        last = shown[k - 1]
        if k - 1 in taken or not last.text.isdigit() or not _ends_line(shown, k):
            continue
        if not any(abs(last.box[2] - x) <= 1.0 for x in aligned):
            continue
        j = k - 1
        while j > 0 and shown[j - 1].text.isdigit() and _after(shown[j - 1], shown[j], -0.2, 0.3):
            j -= 1
        i = j
        while i > 0 and shown[i - 1].text in _DOTS and _after(shown[i - 1], shown[i], 0.0, 3.0):
            i -= 1
        if i == 0 or not _after(shown[i - 1], shown[i], -0.5, 100.0) or i - 1 in taken:
            continue  # the number starts its line, or follows nothing on it
        if i < j or _after(shown[i - 1], shown[i], 1.0, 100.0):  # after a dot, or a gap of an em
            found.append((i, k))
    return found


def _after(before: Glyph, glyph: Glyph, least: float, most: float, *, left: bool = False) -> bool:
    """Whether ``glyph`` follows ``before`` on its baseline, from ``least`` to ``most`` font sizes after its right
    edge (``left``: after its left edge)."""
    start = before.box[0] if left else before.box[2]
    return abs(glyph.y - before.y) < 0.1 * glyph.size and least * glyph.size <= glyph.box[0] - start <= (
        most * glyph.size
    )


def _drawn(page: PageContent) -> tuple[list[Box], list[Box]]:
    """Where figures may be: images; and small form XObjects and drawings (``_drawings``), which may also be frames
    around text (a beamer block, a callout)."""
    area = page.width * page.height
    images = [box for box in page.images if _area(box) < 0.5 * area]
    drawn = [box for box in page.forms if _area(box) < FIGURE_FORM * area] + _drawings(page.shapes, area)
    # a band a few points high (a slide's separator, a block's shadow) is a decoration, not a figure with labels
    return images, [box for box in drawn if min(box[2] - box[0], box[3] - box[1]) >= FIGURE_THICKNESS]


def _backdrop(box: Box, lines: Sequence[Line], shapes: Sequence[Shape], size: float) -> bool:
    """Whether a drawing or form is a backdrop to text rather than a figure: it holds prose (two lines of five words
    or more, or one in the page's usual ``size``: a beamer block, a shaded callout, a text box), or words in the
    usual size over fewer than BACKDROP_SHAPES shapes (a coloured band behind a slide's title). A figure's labels
    are words and numbers set small, or it is drawn with many shapes."""
    prose = 0
    worded = False
    for line in lines:
        if not _inside(line.box, box):
            continue
        words = len(_PROSE_WORD.findall(line.text))
        usual = line.size >= 0.95 * size
        if words >= 5:
            prose += 1
            if prose >= 2 or usual:
                return True
        worded = worded or (usual and words > 0)
    return worded and sum(_inside(shape.box, box) for shape in shapes) < BACKDROP_SHAPES


def _drawings(shapes: list[Shape], page_area: float) -> list[Box]:
    """Boxes of groups of touching shapes (rules, the axes and arrows, included) with a curve or several filled
    shapes in them: a chart or a diagram, not a table's grid or a frame around a paragraph."""
    shapes = [shape for shape in shapes if _area(shape.box) < 0.5 * page_area]  # not a page's background
    parent = list(range(len(shapes)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    cells: defaultdict[tuple[int, int], list[int]] = defaultdict(list)
    for i, shape in enumerate(shapes):
        x0, y0, x1, y1 = (
            int(v // DRAWING_CELL) for v in (shape.box[0] - 3, shape.box[1] - 3, shape.box[2] + 3, shape.box[3] + 3)
        )
        for cell in ((x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)):
            for j in cells[cell]:
                if _near(shape.box, shapes[j].box, 3.0):
                    parent[root(i)] = root(j)
            cells[cell].append(i)
    groups: defaultdict[int, list[Shape]] = defaultdict(list)
    for i, shape in enumerate(shapes):
        groups[root(i)].append(shape)
    return [
        _union(shape.box for shape in group)
        for group in groups.values()
        if any(shape.curved for shape in group)
        and len(group) >= 3
        or sum(shape.filled and not shape.rule for shape in group) >= 4
    ]


def _with_labels(figures: list[Box], blocks: list[list[Line]], edges: Sequence[float], size: float) -> list[Box]:
    """Each figure grown by the blocks of short lines at its edge (tick labels, a legend; an axis title beyond the
    labels: the figure grows twice, each time from where it stood before). A block is a label only when each of its
    lines is within reach: text that merely begins near a figure (the authors above a full-width teaser, the
    abstract and the columns under it) is not, nor is a caption, nor is a block across a column's edge (the figure
    of the right column does not take the equation number at the end of the left column's line). A label's words
    are set smaller than most of the page's lines (``size``), or it has none (numbers): a heading or a slide's
    title beside a figure or a coloured band is no label."""
    candidates = [
        (block, _union(line.box for line in block))
        for block in blocks
        if all(len(line.text) <= 80 for line in block)
        and not _CAPTION.match(block[0].text)
        and (max(line.size for line in block) < 0.95 * size or not any(_PROSE_WORD.search(ln.text) for ln in block))
    ]
    for _ in range(2):
        grown = []
        for figure in figures:
            reached = figure
            for block, box in candidates:
                reach = FIGURE_LABEL * max(line.size for line in block)
                around = (figure[0] - reach, figure[1] - reach, figure[2] + reach, figure[3] + reach)
                if all(_inside(line.box, around) for line in block) and not _edge_between(
                    box[2], figure[0] + 0.5, edges
                ):
                    reached = _union((reached, box))
            grown.append(reached)
        figures = grown
    return figures


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


def _repeated(text: str) -> bool:
    """Whether the text's letters are one run of them shown two or more times (a font's specimen: "Libertinus Font"
    above "LIBERTINUS FONT" in small capitals; "Qu, tief? (f)" with and without its ligatures)."""
    letters = "".join(c for c in text.casefold() if c.isalpha())
    for times in (2, 3, 4):
        length = len(letters) // times
        if length >= 4 and len(letters) % times == 0 and letters == letters[:length] * times:
            return True
    return False


def _coded(letters: list[Glyph]) -> int:
    """How many of ``letters`` are code's: monospaced, or a meta-variable of code's syntax (``\\toprule[⟨wd⟩]``: a
    manual's placeholder between angle brackets, set in italics, stands for what is typed there)."""
    count = 0
    inside = False
    for glyph in letters:
        if glyph.text == "\u27e8":
            inside = True
        count += glyph.font.monospace or inside
        if glyph.text == "\u27e9":
            inside = False
    return count if any(g.font.monospace for g in letters) else 0


def _keep(lines: list[Line], box: Box, figures: list[Box]) -> str | None:
    glyphs = [g for line in lines for g in line.glyphs]
    letters = [g for g in glyphs if g.text.strip()]
    if not letters:
        return None
    # a list's bullet set apart from its item (in a symbol font it would pass for maths); a page number alone is a
    # number, not a marker
    label = "".join(g.text for g in letters)
    if _MARKER_LABEL.fullmatch(label) and not label.isdigit():
        return MARKER
    if any("(cid:" in g.text for g in letters):
        return UNREADABLE
    text = "".join(g.text for g in letters)
    if len(lines) <= 3 and len(text) <= 80 and not _CAPTION.match(text) and any(_inside(box, f) for f in figures):
        return IN_FIGURE
    reach = SUBFIGURE_LABEL * lines[0].size
    if _SUBFIGURE.match(text) and any(
        _inside(box, (f[0] - reach, f[1] - reach, f[2] + reach, f[3] + reach)) for f in figures
    ):
        return IN_FIGURE
    if _coded(letters) >= 0.8 * len(letters):
        return CODE
    if len(_RIGHT_TO_LEFT.findall(text)) > len(letters) / 2:
        return RIGHT_TO_LEFT
    if len(lines) >= 2 and _repeated(text):
        return SPECIMEN
    maths = _maths_share(glyphs)
    if maths >= 0.5 or (maths >= 0.25 and len(letters) < 40 and "=" in "".join(g.text for g in letters)):
        return FORMULA
    if maths > 0 and not any(_LONG_WORD.search(line.text) for line in lines):
        return FORMULA  # maths glyphs and no word of four letters: a display's row set in a text font's italics
    return None


def _centred(lines: list[Line], left: float, right: float) -> bool:
    if len(lines) > 3:
        return False
    margins = [(line.box[0] - left, right - line.box[2]) for line in lines]
    return all(a > 2 * line.size and abs(a - b) < line.size for (a, b), line in zip(margins, lines))


def _paragraph(
    page: PageContent,
    lines: list[Line],
    figures: list[Box],
    column: tuple[float, float],
    keep: str | None = None,
    words: AbstractSet[str] = frozenset(),
) -> Paragraph:
    glyphs = [g for line in lines for g in line.glyphs]
    letters = [g for g in glyphs if g.text.strip()] or glyphs
    box = _union(line.box for line in lines)
    sizes = Counter(round(g.size, 1) for g in letters)
    size = sizes.most_common(1)[0][0]
    baselines = [line.baseline for line in lines]
    leading = statistics.median(a - b for a, b in zip(baselines, baselines[1:])) if len(lines) > 1 else size * 1.2
    # the colour of its text that is not a link's (a URL in a footnote does not colour the whole footnote)
    links = [link for link in page.links if _near(link, box, 0.0)]
    plain = [g for g in letters if not any(_inside(g.box, link) for link in links)] if links else letters
    colours = Counter(g.colour for g in plain or letters)
    indices = array("I", sorted(g.index for g in glyphs))
    return Paragraph(
        page=page.number,
        text=_joined(lines, words),
        box=box,
        role=Role.BODY,
        keep=keep or _keep(lines, box, figures),
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


@dataclass
class Laid:
    """A page laid out: its paragraphs in reading order, and what a translation must not be drawn over besides
    them (figures, rules, leaders)."""

    paragraphs: list[Paragraph]
    obstacles: list[Box]


def lay_out(page: PageContent, words: set[str] | None = None) -> Laid:
    """The page's paragraphs in reading order, with keep reasons; roles other than BODY are set by ``assign_roles``.
    ``words``: those of the pages read before, which this page's join (a compound the document writes whole on one
    page tells its hyphen at a line's end on a later one)."""
    words = set() if words is None else words
    leaders = _leaders(page.glyphs)
    dots = {g.index for run in leaders for g in run}
    # the spaces drawn between a leader's dots (reportlab's ". . . .") are the leader's too: left in its entry's line,
    # they carried the line to the page number, and the entry no longer ended where its leader began
    dots |= {i for run in leaders for i in range(run[0].index, run[-1].index + 1) if page.glyphs[i].text.isspace()}
    upright = [g for g in page.glyphs if g.direction is Direction.UPRIGHT and g.index not in dots]
    rules = [shape.box for shape in page.shapes if shape.rule]
    upright_rules = [box for box in rules if box[3] - box[1] > box[2] - box[0]]
    flat_rules = [box for box in rules if box[3] - box[1] <= box[2] - box[0]]
    lines = [line for line in _lines(upright, upright_rules) if line.text]
    _mark_entries(lines, leaders)
    _mark_bullets(lines, page)
    edges = _column_edges(lines)
    leadings = _leadings(lines)
    images, drawn = _drawn(page)
    figures = images + drawn
    if lines:
        size = statistics.median(line.size for line in lines)
        figures = images + [box for box in drawn if not _backdrop(box, lines, page.shapes, size)]
        figures = _with_labels(figures, _blocks(lines, leadings, flat_rules), edges, size)
    found: list[Paragraph] = []
    if lines:
        _add_words(words, lines)
        regions = _regions(lines, figures, flat_rules, page.width * page.height, leadings, edges)
        for group, cells, column in _paragraphs(regions, leadings, flat_rules):
            split = _split_marker(group[0])
            # a marker hangs when the item's other lines start past it; a run-in one ("a. Syntax The argument…",
            # the next lines back at the column's edge) is the paragraph's first word, and its box covers it
            if split is not None and all(ln.box[0] >= split[0].box[2] for ln in group[1:]):
                marker, rest = split
                found.append(_paragraph(page, [marker], figures, column, keep=MARKER))
                group = [rest, *group[1:]]
            paragraph = _paragraph(page, group, figures, column, words=words)
            if cells:
                paragraph.role = Role.CELL
            found.append(paragraph)
    _numbered_formulas(found, page.glyphs)
    _formula_pieces(found)
    found += _other(page, [g for g in page.glyphs if g.direction is Direction.ROTATED], ROTATED)
    found += _other(page, [g for g in page.glyphs if g.direction is Direction.VERTICAL], VERTICAL)
    shown = transformed(page.crop, page.ctm)
    for paragraph in found:
        if paragraph.keep is None and not _near(paragraph.box, shown, 0.0):
            paragraph.keep = OFF_PAGE  # a slide's hidden overlay, drawn where no viewer shows it
    obstacles = figures + [shape.box for shape in page.shapes if shape.rule]
    return Laid(found, obstacles + [_union(g.box for g in run) for run in leaders])


def _mark_bullets(lines: list[Line], page: PageContent) -> None:
    """The lines a drawn bullet stands at the start of: a form, an image or a filled shape no larger than an em and
    a half, before the line's first glyph or under it (beamer draws its balls so, a number inside some); a glyph
    bullet is the line's own text."""
    small = [
        box
        for box in [*page.forms, *page.images, *(s.box for s in page.shapes if s.filled and not s.rule)]
        if 0 < box[2] - box[0] <= 30 and 0 < box[3] - box[1] <= 30
    ]
    if not small:
        return
    small.sort(key=lambda box: box[1])
    bottoms = [box[1] for box in small]
    for line in lines:
        size = line.size
        i = bisect_left(bottoms, line.box[1] - 1.5 * size)
        while i < len(small) and small[i][1] <= line.box[3]:
            box = small[i]
            middle = (box[1] + box[3]) / 2
            if (
                box[2] - box[0] <= 1.5 * size
                and line.box[0] - 2 * size <= box[2] <= line.box[0] + 1.5 * size
                and box[0] <= line.box[0] + 0.5
                and line.box[1] <= middle <= line.box[3]
            ):
                line.bulleted = True
            i += 1


def _mark_entries(lines: list[Line], leaders: list[list[Glyph]]) -> None:
    """The line a leader follows on its baseline (the nearest to its left) is an entry (of a table of contents, an
    index): each ends its paragraph, so entries are never joined into one."""
    by_baseline = sorted(lines, key=lambda line: line.baseline)
    baselines = [line.baseline for line in by_baseline]
    for run in leaders:
        first = run[0]
        reach = 0.2 * first.size
        low, high = bisect_left(baselines, first.y - reach), bisect_left(baselines, first.y + reach)
        before = [line for line in by_baseline[low:high] if line.box[2] <= first.box[0] + 0.5]
        if before:
            max(before, key=lambda line: line.box[2]).entry = True


def _numbered_formulas(paragraphs: list[Paragraph], glyphs: Sequence[Glyph]) -> None:
    """A display formula's number, "(6)" alone at the right end of its band, and what stands left of it on that band
    with maths in it (a maths font or sign, not a sentence): formulas. A list's "(1)" has its item to its right."""
    for number in paragraphs:
        if number.lines != 1 or not _EQUATION_NUMBER.fullmatch(number.text):
            continue
        x0, y0, x1, y1 = number.box
        band = [p for p in paragraphs if p is not number and p.box[1] < y1 and y0 < p.box[3]]
        beside = [
            p
            for p in band
            if p.box[2] <= x0 + 0.5
            and p.lines <= 3
            and not _SENTENCE.search(p.text)
            and (p.keep == FORMULA or "=" in p.text or _maths_share([glyphs[i] for i in p.glyphs]) >= 0.15)
        ]
        if beside and not any(x1 - 0.5 < p.box[0] <= x1 + 1.2 * number.size for p in band):  # a list item's text
            for p in [number, *beside]:
                if p.keep in (None, MARKER):
                    p.keep = FORMULA


def _formula_pieces(paragraphs: list[Paragraph]) -> None:
    """A display formula set in pieces (a sum's limits, a fraction's parts): short text beside a formula, on its
    band of the page, is part of it."""
    formulas = [p.box for p in paragraphs if p.keep == FORMULA]
    for paragraph in paragraphs:
        if paragraph.keep is not None or paragraph.lines > 2 or len(paragraph.text) > 40:
            continue
        x0, y0, x1, y1 = paragraph.box
        reach = 4 * paragraph.size
        if any(b[1] < y1 and y0 < b[3] and b[0] - reach < x1 and x0 < b[2] + reach for b in formulas):
            paragraph.keep = FORMULA


def body_size(paragraphs: Iterable[Paragraph]) -> float:
    """The size most of a document's text is set in (counted in characters)."""
    sizes: Counter[float] = Counter()
    for paragraph in paragraphs:
        if paragraph.keep is None:
            sizes[paragraph.size] += len(paragraph.text)
    return sizes.most_common(1)[0][0] if sizes else 10.0


def assign_roles(paragraphs: Iterable[Paragraph], body: float, page_height: dict[int, float]) -> None:
    """Headings, captions, footnotes, running heads and list items, from size, weight, place and wording; the
    entries under a References heading are left as they are (a cited title stays as it was published)."""
    paragraphs = list(paragraphs)
    heads = _running_heads(paragraphs, page_height)
    references = False
    for paragraph in paragraphs:
        if id(paragraph) not in heads:
            _role(paragraph, body, page_height[paragraph.page])
        if paragraph.role is Role.HEADING:
            references = bool(_REFERENCES.match(paragraph.text))
        elif references and paragraph.keep is None and paragraph.role is not Role.HEADER:
            paragraph.keep = REFERENCE


def _running_heads(paragraphs: list[Paragraph], page_height: dict[int, float]) -> set[int]:
    """Running heads and feet: a line or two near the top or the foot of the page whose words (numbers aside) are
    on three pages or more. Each is treated as its fellows are on most pages (translated, or left as they are:
    beamer's navigation bar), whatever else stands near it on a page: a figure, the References. The ids of them."""
    groups: defaultdict[str, list[Paragraph]] = defaultdict(list)
    for paragraph in paragraphs:
        height = page_height[paragraph.page]
        if paragraph.lines <= 2 and (
            paragraph.box[1] >= height * (1 - HEAD_BAND) or paragraph.box[3] <= height * HEAD_BAND
        ):
            words = " ".join(_HEAD_NUMBERS.sub(" ", paragraph.text.casefold()).split())
            if len(words) >= 3:
                groups[words].append(paragraph)
    heads: set[int] = set()
    for found in groups.values():
        if len({paragraph.page for paragraph in found}) >= 3:
            keep = Counter(paragraph.keep for paragraph in found).most_common(1)[0][0]
            for paragraph in found:
                paragraph.role, paragraph.keep = Role.HEADER, keep
                heads.add(id(paragraph))
    return heads


def _role(paragraph: Paragraph, body: float, height: float) -> None:
    if paragraph.keep is not None:
        return
    _, y0, _, y1 = paragraph.box
    in_margin = paragraph.lines == 1 and (y0 >= height * (1 - MARGIN_BAND) or y1 <= height * MARGIN_BAND)
    short = len(paragraph.text) <= 160 and paragraph.lines <= 3
    if paragraph.role is Role.CELL:
        if in_margin:
            paragraph.role = Role.HEADER
    elif _CAPTION.match(paragraph.text):
        paragraph.role = Role.CAPTION
    elif in_margin:
        paragraph.role = Role.HEADER
    elif short and (paragraph.size >= 1.12 * body or (paragraph.bold and not _SENTENCE_END.search(paragraph.text))):
        paragraph.role = Role.HEADING
    elif paragraph.size <= 0.9 * body and y1 <= 0.35 * height:
        paragraph.role = Role.FOOTNOTE
    elif _LIST_MARKER.match(paragraph.text):
        paragraph.role = Role.LIST_ITEM
