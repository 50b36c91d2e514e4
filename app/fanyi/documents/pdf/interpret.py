"""Everything a PDF page shows, and for each glyph where it is drawn in the content streams.

pdfminer interprets the page (fonts, encodings, ToUnicode maps, text state, form XObjects); this
module listens to it. Each glyph is told apart by its *origin*: the content stream it is in (the
page's own, or a form XObject reached through a chain of ``Do`` operators, named by their
operation numbers), the number of its text-showing operation there, and its place among that
operation's glyphs. The writer (``strip``) later parses the same streams with pikepdf, checks that
it sees the same operators pdfminer saw, and removes exactly those glyphs.

For every text-showing operation it also keeps what removing one glyph needs: how many bytes of
the string its code takes, and the ``TJ`` adjustment that moves the pen as far as the glyph did
(``-(w0·Tfs + Tc + Tw)·1000/Tfs``, PDF 32000-1 §9.4.4), so that the glyphs kept after it stay
exactly where they were.

Coordinates are pdfminer's: the page as it is shown (its /Rotate applied), in points, y upwards.
"""

from __future__ import annotations

import hashlib
import math
import re
from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, BinaryIO

from pdfminer.cmapdb import CMap, IdentityCMap, IdentityCMapByte
from pdfminer.converter import PDFPageAggregator
from pdfminer.layout import LTChar, LTImage, LTPage
from pdfminer.pdfcolor import PDFColorSpace
from pdfminer.pdffont import PDFCIDFont, PDFFont, PDFSimpleFont, PDFType1Font, PDFType3Font
from pdfminer.pdfinterp import PDFGraphicState, PDFPageInterpreter, PDFResourceManager, PDFTextState
from pdfminer.pdfpage import PDFPage
from pdfminer.pdftypes import dict_value, list_value, resolve1
from pdfminer.psparser import PSEOF, PSKeyword, keyword_name
from pdfminer.utils import Matrix, PathSegment, apply_matrix_pt, mult_matrix

from fanyi.documents.pdf import glyphnames
from fanyi.limits import MAX_PDF_PAGE_CHARS

MAX_SHAPES = 20_000  # painted paths kept from one page (a figure of many thousands counts by its first ones)

Path = tuple[int, ...]  # the Do operations leading to a form XObject's stream; () is the page's own content
Box = tuple[float, float, float, float]  # x0, y0, x1, y1

# How far a glyph's matrix may turn before its text counts as rotated (sin of ~1°).
_UPRIGHT = 0.02


def transformed(box: Box, matrix: Matrix) -> Box:
    """The box around ``box`` carried through ``matrix`` (a page's rotation: its corners trade places)."""
    corners = [apply_matrix_pt(matrix, (x, y)) for x in (box[0], box[2]) for y in (box[1], box[3])]
    xs, ys = zip(*corners)
    return (min(xs), min(ys), max(xs), max(ys))


class PageTooLarge(Exception):
    pass


class Direction(Enum):
    UPRIGHT = "upright"
    ROTATED = "rotated"
    VERTICAL = "vertical"


@dataclass(frozen=True)
class FontStyle:
    """What the layout needs to know of a font, shared by its glyphs."""

    name: str  # without a subset tag ("Times-Bold", not "ABCDEF+Times-Bold")
    bold: bool
    italic: bool
    monospace: bool
    maths: bool
    pictures: bool  # a Type 3 font: each glyph a little drawing of its own


@dataclass(slots=True)
class Glyph:
    text: str
    box: Box  # pdfminer's: the advance times the font's height, at the baseline's descent
    y: float  # the baseline: the pen's height at the glyph's origin
    size: float  # the font size as drawn (text matrix and CTM applied)
    direction: Direction
    font: FontStyle
    index: int  # its number on the page: ``Origins`` arrays are indexed by it
    invisible: bool  # text render mode 3 or 7: the hidden text layer of an OCR'd scan
    colour: tuple[float, float, float]  # its fill colour as RGB, 0–1


@dataclass(frozen=True)
class Shape:
    """A painted path: a rule (a thin straight line or bar, as tables and underlines have) or any other shape."""

    box: Box
    rule: bool
    filled: bool
    curved: bool


@dataclass
class Origins:
    """Per glyph of a page, in ``Glyph.index`` order: its stream, operation, code length and removal adjustment."""

    paths: list[Path] = field(default_factory=list)
    path_of: array[int] = field(default_factory=lambda: array("H"))
    op_of: array[int] = field(default_factory=lambda: array("I"))
    code_bytes: array[int] = field(default_factory=lambda: array("B"))  # 0: the operation cannot be split
    adjust: array[float] = field(default_factory=lambda: array("f"))
    # every operator of every stream, in order, as a digest: the writer parses the same stream
    # with pikepdf and touches it only when it finds the same operators
    digests: dict[Path, str] = field(default_factory=dict)

    def add(self, path: Path, op: int, size: int, adjust: float) -> None:
        try:
            number = self.paths.index(path)
        except ValueError:
            number = len(self.paths)
            self.paths.append(path)
        self.path_of.append(number)
        self.op_of.append(op)
        self.code_bytes.append(size)
        self.adjust.append(adjust)

    def where(self, index: int) -> tuple[Path, int]:
        return self.paths[self.path_of[index]], self.op_of[index]


@dataclass
class PageContent:
    number: int  # from 1
    width: float  # as shown (rotation applied)
    height: float
    ctm: Matrix  # user space → the coordinates here (pdfminer's page matrix)
    crop: Box  # the crop box, in user space: what a viewer shows
    glyphs: list[Glyph]
    shapes: list[Shape]
    images: list[Box]
    forms: list[Box]  # where form XObjects land (figures, or a whole page's content)
    origins: Origins
    links: list[Box] = field(default_factory=list)  # the rectangles of its link annotations


def operator_digest(names: Sequence[str]) -> str:
    """The digest ``Origins.digests`` holds of a stream's operators, for the writer to compare with."""
    return hashlib.sha1("\n".join(names).encode(), usedforsecurity=False).hexdigest()


def _segments(font: PDFFont, data: bytes) -> list[int] | None:
    """The byte length of each code in ``data`` as ``font.decode`` reads it, or None when that cannot be told."""
    if not isinstance(font, PDFCIDFont):
        return [1] * len(data)
    cmap = font.cmap
    if isinstance(cmap, IdentityCMapByte):
        return [1] * len(data)
    if isinstance(cmap, IdentityCMap):
        return [2] * (len(data) // 2)
    if isinstance(cmap, CMap):
        lengths: list[int] = []
        node: Any = cmap.code2cid
        start = 0
        for i, byte in enumerate(data):
            if byte in node:
                found = node[byte]
                if isinstance(found, int):
                    lengths.append(i + 1 - start)  # bytes no code took go with the code after them
                    start = i + 1
                    node = cmap.code2cid
                else:
                    node = found
            else:
                node = cmap.code2cid
        return lengths
    return None


def _style(font: PDFFont) -> FontStyle:
    name = str(font.fontname or "")
    base = name.split("+", 1)[1] if len(name) > 7 and name[6] == "+" else name
    lowered = base.lower()
    flags = getattr(font, "flags", 0) or 0
    weight = font.descriptor.get("FontWeight", 0) if isinstance(font.descriptor, dict) else 0
    bold = (
        any(w in lowered for w in ("bold", "black", "heavy", "semibold", "demi"))
        or bool(_BOLD_NAMES.search(lowered))
        or (isinstance(weight, (int, float)) and weight >= 600)
    )
    angle = font.descriptor.get("ItalicAngle", 0) if isinstance(font.descriptor, dict) else 0
    italic = (
        bool(flags & 64)
        or any(w in lowered for w in ("italic", "oblique"))
        or bool(_ITALIC_NAMES.search(lowered))
        or (isinstance(angle, (int, float)) and angle < -1)
    )
    monospace = bool(flags & 1) or any(w in lowered for w in _MONOSPACE_NAMES) or _fixed_pitch(font)
    maths = any(w in lowered for w in _MATHS_FONTS)
    return FontStyle(base, bold, italic, monospace, maths, isinstance(font, PDFType3Font))


def _fixed_pitch(font: PDFFont) -> bool:
    """Whether every glyph the font declares advances by one width, as a typewriter's do (a code font whose name
    and flags do not say so: cm-super's SFTT, Inconsolata as acmart embeds it). A width near the em is a CJK
    font's, whose Han characters are all one width too; a subset of a dozen glyphs or fewer (figures alone are
    often all one width) says nothing."""
    widths = getattr(font, "widths", None)
    if not isinstance(widths, dict):
        return False
    found = [float(w) for w in widths.values() if isinstance(w, (int, float)) and w > 0]
    return len(found) >= 12 and max(found) - min(found) < 1 and 300 <= found[0] <= 750


# Bold fonts that do not say "bold": TeX's Computer Modern bold extended (CMBX12, the sans CMSSBX10, cm-super's
# SFBX1200, the EC fonts' ECBX1200) and bold (CMB10), URW's "Medium" (NimbusRomNo9L-Medi, pdflatex's Times bold),
# and Linux Libertine's and Biolinum's B (LinLibertineTB, LinBiolinumOB: acmart's headings).
_BOLD_NAMES = re.compile(r"^(?:cm(?:ss)?bx|cmb\d|sfbx|ecbx)|-medi(?:ital)?$|^lin(?:libertine|biolinum)[to]bi?$")
# Italics that do not say so where the flags and angle are silent: TeX's CMTI/CMSL, cm-super's SFTI/SFSL, EC's ECTI,
# Libertine's I.
_ITALIC_NAMES = re.compile(r"^(?:cm(?:ti|sl|bxti|ssi)|sfti|sfsl|ecti|ecsl)\d|^lin(?:libertine|biolinum)[to]b?i$")
# Typewriter and code fonts by name: TeX's (CMTT, cm-super's SFTT, EC's ECTT, Latin Modern's LMMono and LMTT,
# txfonts' txtt, Inconsolata), URW's Nimbus Mono, and the systems' (Courier, Consolas, Menlo, Monaco, Cousine,
# DejaVu Sans Mono, Source Code Pro…).
_MONOSPACE_NAMES = tuple(
    "courier mono consol code cmtt sftt ectt lmtt txtt inconsolata nimbusmon menlo monaco cousine".split()
)

# Font names of maths: TeX's (CMMI, CMSY, CMEX, AMS's MSAM/MSBM, their Type 1 and OpenType
# successors), and the system maths fonts.
_MATHS_FONTS = tuple(
    "cmmi cmsy cmex cmbsy cmmib msam msbm eufm rsfs esint stmary wasy math stix euclid mtextra lmmath symbol"
    " txmi txsy txex pxmi pxsy pxex ntxmi ntxsy ntxex eurm eusm bbold dsrom xits asana".split()
)


def _rgb(colour: Any, space: PDFColorSpace | None) -> tuple[float, float, float]:
    """A fill colour as RGB; an unknown colour space counts as black (the writer draws the translation in it)."""
    values = colour if isinstance(colour, (list, tuple)) else (colour,)
    try:
        numbers = [float(v) for v in values]
    except (TypeError, ValueError):
        return (0.0, 0.0, 0.0)
    if len(numbers) == 1:
        return (numbers[0], numbers[0], numbers[0])
    if len(numbers) == 3:
        return (numbers[0], numbers[1], numbers[2])
    if len(numbers) == 4:
        c, m, y, k = numbers
        return ((1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k))
    return (0.0, 0.0, 0.0)


def _drawn_matrix(matrix: Matrix, font: PDFFont) -> Matrix:
    """How a glyph is drawn on the page. pdfminer's matrix leaves out a Type 3 font's FontMatrix, which may turn
    its glyphs upside down: Ghostscript's bitmap fonts (dvips's) have [s 0 0 -s], drawn with a text matrix flipped
    back, and read alone they looked rotated and were left out of their line."""
    if not isinstance(font, PDFType3Font):
        return matrix
    a, b, c, d, _e, _f = font.matrix
    scale = math.hypot(a, b) or 1.0
    return mult_matrix((a / scale, b / scale, c / scale, d / scale, 0.0, 0.0), matrix)


def _direction(matrix: Matrix, font: PDFFont) -> Direction:
    if font.is_vertical():
        return Direction.VERTICAL
    a, b, c, d, _e, _f = matrix
    scale = math.hypot(a, b) or 1.0
    # a glyph mirrored left to right stands in its line (the reversed E of XeTeX's logo)
    if a != 0 and d > 0 and abs(b) / scale < _UPRIGHT and abs(c) / (math.hypot(c, d) or 1.0) < _UPRIGHT:
        return Direction.UPRIGHT
    return Direction.ROTATED


class _Device(PDFPageAggregator):
    """pdfminer's layout device, keeping glyphs, shapes, images and forms in compact form with their origins."""

    def __init__(self, resources: PDFResourceManager) -> None:
        super().__init__(resources, laparams=None)
        self.where: tuple[Path, int] = ((), 0)
        self.page_ctm: Matrix = (1, 0, 0, 1, 0, 0)
        self._styles: dict[int, FontStyle] = {}
        self.reset()

    def reset(self) -> None:
        self.glyphs: list[Glyph] = []
        self.shapes: list[Shape] = []
        self.images: list[Box] = []
        self.forms: list[Box] = []  # where the form XObjects drawn on the page land
        self.origins = Origins()
        self.operators: dict[Path, list[str]] = {}
        self._pending: list[tuple[int, float]] = []  # (code bytes, adjustment) of the string being shown
        self._invisible = False

    def begin_page(self, page: PDFPage, ctm: Matrix) -> None:
        super().begin_page(page, ctm)
        self.page_ctm = ctm
        self.reset()

    def render_string(
        self, textstate: PDFTextState, seq: Any, ncs: PDFColorSpace, graphicstate: PDFGraphicState
    ) -> None:
        font = textstate.font
        if font is None:
            return
        self._invisible = textstate.render in (3, 7)
        size = textstate.fontsize
        pending: list[tuple[int, float]] = []
        splittable = bool(size) and not font.is_vertical()
        for item in seq:
            if not isinstance(item, bytes):
                continue
            lengths = _segments(font, item)
            cids = list(font.decode(item))
            if lengths is None or len(lengths) != len(cids):
                splittable = False
                lengths = [0] * len(cids)
            for cid, length in zip(cids, lengths):
                spacing = textstate.charspace + (textstate.wordspace if cid == 32 and not font.is_multibyte() else 0.0)
                width = font.char_width(cid)
                adjust = -(width * size + spacing) * 1000.0 / size if size else math.nan
                pending.append((length, adjust))
        if not splittable:
            pending = [(0, math.nan) for _ in pending]
        self._pending = pending
        self._next = 0
        super().render_string(textstate, seq, ncs, graphicstate)

    def render_char(
        self,
        matrix: Matrix,
        font: PDFFont,
        fontsize: float,
        scaling: float,
        rise: float,
        cid: int,
        ncs: PDFColorSpace,
        graphicstate: PDFGraphicState,
    ) -> float:
        advance = super().render_char(matrix, font, fontsize, scaling, rise, cid, ncs, graphicstate)
        char = self.cur_item._objs.pop()  # kept here in compact form, not in pdfminer's tree
        assert isinstance(char, LTChar)
        if len(self.glyphs) >= MAX_PDF_PAGE_CHARS:
            raise PageTooLarge(f"a page shows more than {MAX_PDF_PAGE_CHARS:,} characters")
        style = self._styles.get(id(font))
        if style is None:
            style = self._styles[id(font)] = _style(font)
        if self._next < len(self._pending):
            length, adjust = self._pending[self._next]
        else:  # pdfminer drew more glyphs than the string's codes: this operation is not split
            length, adjust = 0, math.nan
        self._next += 1
        index = len(self.glyphs)
        path, op = self.where
        self.origins.add(path, op, length, adjust)
        matrix = _drawn_matrix(char.matrix, font)
        _a, _b, c, d, _e, f = char.matrix
        box = (char.x0, char.y0, char.x1, char.y1)
        if matrix[3] * d < 0:  # pdfminer placed a flipped Type 3 glyph's box below its baseline: mirror it back
            box = (char.x0, 2 * f - char.y1, char.x1, 2 * f - char.y0)
        self.glyphs.append(
            Glyph(
                text=char.get_text(),
                box=box,
                y=f,
                size=fontsize * math.hypot(c, d),
                direction=_direction(matrix, font),
                font=style,
                index=index,
                invisible=self._invisible,
                colour=_rgb(graphicstate.ncolor, ncs),
            )
        )
        return advance

    def paint_path(
        self, gstate: PDFGraphicState, stroke: bool, fill: bool, evenodd: bool, path: Sequence[PathSegment]
    ) -> None:
        if len(self.shapes) >= MAX_SHAPES:
            return  # a page drawn with more paths than any figure has: the rest do not count as obstacles
        ctm = self.ctm
        subpath: list[tuple[float, float]] = []
        curved = False
        for segment in [*path, ("m",)]:
            operator = segment[0]
            if operator == "m" and subpath:
                xs, ys = zip(*subpath)
                box = (min(xs), min(ys), max(xs), max(ys))
                thin = min(box[2] - box[0], box[3] - box[1]) <= max(2.0, (gstate.linewidth or 0) * 1.5)
                self.shapes.append(Shape(box, rule=thin and not curved, filled=fill, curved=curved))
                subpath, curved = [], False
            coordinates = [float(v) for v in segment[1:] if isinstance(v, (int, float))]
            subpath += [apply_matrix_pt(ctm, (x, y)) for x, y in zip(coordinates[::2], coordinates[1::2])]
            curved = curved or operator in ("c", "v", "y")

    def end_figure(self, name: str) -> None:
        figure = self.cur_item
        super().end_figure(name)
        self.cur_item._objs.pop()  # its glyphs and shapes were taken as they came
        box = (figure.x0, figure.y0, figure.x1, figure.y1)
        if any(isinstance(item, LTImage) for item in figure._objs):
            self.images.append(box)
        else:
            self.forms.append(box)


class _Interpreter(PDFPageInterpreter):
    """pdfminer's interpreter, numbering the operations of each stream and telling the device which one runs."""

    def __init__(self, resources: PDFResourceManager, device: _Device, path: Path = ()) -> None:
        super().__init__(resources, device)
        self.path = path
        self.op = 0
        self._device = device

    def dup(self) -> _Interpreter:
        return _Interpreter(self.rsrcmgr, self._device, self.path + (self.op,))

    def execute(self, streams: Sequence[object]) -> None:
        names = self._device.operators.setdefault(self.path, [])
        counting = not names  # a form drawn twice by one Do is counted once
        self.op = 0
        for keyword in self._keywords(streams):
            name = keyword_name(keyword)
            if counting:
                names.append(name)
            self._device.where = (self.path, self.op)
            self._run(name)
            self.op += 1

    def _keywords(self, streams: Sequence[object]) -> Iterator[PSKeyword]:
        # pdfminer's own loop (PDFPageInterpreter.execute), which pushes operands and yields operators
        from pdfminer.pdfinterp import PDFContentParser  # noqa: PLC0415 - beside the loop it feeds
        from pdfminer.pdftypes import list_value, stream_value  # noqa: PLC0415

        valid = []
        self.stream_ids.clear()
        for obj in list_value(streams):
            stream = stream_value(obj)
            if stream.objid is None or stream.objid in self.parent_stream_ids:
                continue
            valid.append(stream)
            self.stream_ids.add(stream.objid)
        try:
            parser = PDFContentParser(valid)
        except PSEOF:
            return
        while True:
            try:
                _pos, obj = parser.nextobject()
            except PSEOF:
                return
            if isinstance(obj, PSKeyword):
                yield obj
            else:
                self.push(obj)

    def do__w(self, aw: Any, ac: Any, s: Any) -> None:
        """The " operator: word and character spacing, then a new line (pdfminer forgets it), then the string."""
        self.do_Tw(aw)
        self.do_Tc(ac)
        self.do_T_a()
        self.do_TJ([s])

    def _run(self, name: str) -> None:
        method = getattr(self, "do_" + name.replace("*", "_a").replace('"', "_w").replace("'", "_q"), None)
        if method is None:
            return
        nargs = method.__code__.co_argcount - 1
        if nargs:
            args = self.pop(nargs)
            if len(args) == nargs:
                method(*args)
        else:
            method()


class _Resources(PDFResourceManager):
    """pdfminer's fonts, with the glyph names it does not know read as TeX's fonts name them (glyphnames.py)."""

    def get_font(self, objid: object, spec: Any) -> PDFFont:
        cached = bool(objid) and objid in self._cached_fonts
        font = super().get_font(objid, spec)
        if not cached and isinstance(font, PDFSimpleFont):
            _name_tex_glyphs(font, spec)
        return font


def _name_tex_glyphs(font: PDFSimpleFont, spec: Any) -> None:
    """Add to ``font``'s codes the characters of the glyph names pdfminer could not read."""
    encoding = resolve1(spec.get("Encoding")) if isinstance(spec, dict) else None
    names: list[tuple[int, str]] = []
    if isinstance(encoding, dict):
        names = list(glyphnames.differences(list_value(encoding.get("Differences", []))))
    elif encoding is None and isinstance(font, PDFType1Font) and hasattr(font, "fontfile"):
        length = resolve1(dict_value(font.fontfile.attrs).get("Length1", 0))
        names = list(glyphnames.built_in(font.fontfile.get_data()[: length if isinstance(length, int) else 0]))
    for code, name in names:
        if code not in font.cid2unicode and (text := glyphnames.unicode_of(name)) is not None:
            font.cid2unicode[code] = text


def pages(handle: BinaryIO) -> Iterator[PageContent]:
    """Each page of the PDF in ``handle``, interpreted; pdfminer's exceptions pass through."""
    resources = _Resources(caching=True)
    device = _Device(resources)
    interpreter = _Interpreter(resources, device)
    for number, page in enumerate(PDFPage.get_pages(handle), 1):
        interpreter.process_page(page)
        layout = device.get_result()
        assert isinstance(layout, LTPage)
        origins = device.origins
        origins.digests = {path: operator_digest(names) for path, names in device.operators.items()}
        yield PageContent(
            number=number,
            width=layout.width,
            height=layout.height,
            ctm=device.page_ctm,
            crop=(page.cropbox[0], page.cropbox[1], page.cropbox[2], page.cropbox[3]),
            glyphs=device.glyphs,
            shapes=device.shapes,
            images=device.images,
            forms=device.forms,
            origins=origins,
            links=_links(page, device.page_ctm),
        )


def _links(page: PDFPage, ctm: Matrix) -> list[Box]:
    """The rectangles of the page's link annotations, in the coordinates of its glyphs; a damaged one is skipped."""
    found = []
    for annotation in resolve1(page.annots) or []:
        annotation = resolve1(annotation)
        if not isinstance(annotation, dict) or getattr(resolve1(annotation.get("Subtype")), "name", None) != "Link":
            continue
        rect = resolve1(annotation.get("Rect"))
        try:
            x0, y0, x1, y1 = (float(resolve1(v)) for v in rect)
        except (TypeError, ValueError):
            continue
        found.append(transformed((min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)), ctm))
    return found
