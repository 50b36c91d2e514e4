"""The corpus's traps, written by hand with pikepdf: content streams as other producers write them.

Every page of traps.pdf holds one trap (its Page.trap says which); two more files are encrypted. Text is in
the standard fonts (Helvetica, Times) with WinAnsiEncoding, so its widths, and so its boxes, are the AFM's.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import pikepdf
from corpus_layout import Style, Styles, set_paragraph, vertical_extent
from corpus_pages import Column
from corpus_truth import Box, Document, Figure, Image, Page, Role, Unit
from pikepdf import Array, Dictionary, Name
from reportlab.lib.pagesizes import letter
from reportlab.pdfbase import pdfmetrics

WIDTH, HEIGHT = letter
LEFT = 72.0
MEASURE = WIDTH - 2 * LEFT
FONTS = {"/F1": "Helvetica", "/F2": "Times-Roman", "/F3": "Helvetica-Bold", "/F4": "Times-Bold"}
RESOURCE = {font: name for name, font in FONTS.items()}


def pdf_string(text: str) -> str:
    return "(" + text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ")"


def width(text: str, font: str, size: float, char_space: float = 0.0, word_space: float = 0.0) -> float:
    return pdfmetrics.stringWidth(text, font, size) + char_space * len(text) + word_space * text.count(" ")


def line_box(text: str, font: str, size: float, x: float, y: float, advance: float | None = None) -> Box:
    low, high = vertical_extent(Style(font, size))
    return Box(x, y + low, x + (width(text, font, size) if advance is None else advance), y + high)


def wrap(text: str, font: str, size: float, measure: float = MEASURE) -> list[str]:
    """Lines of ``text`` broken to ``measure`` (left-aligned, no hyphenation)."""
    laid = set_paragraph(Styles(size, roman=font)(text), measure, size * 1.2, align="left", hyphenate=False)
    return [line.text for line in laid.lines]


@dataclass
class RawPage:
    """A page being written operator by operator, with the units its text makes."""

    index: int
    parts: list[bytes] = field(default_factory=lambda: [b""])
    units: list[Unit] = field(default_factory=list)

    def emit(self, code: str | bytes) -> None:
        self.parts[-1] += (code.encode("latin-1") if isinstance(code, str) else code) + b"\n"

    def split(self) -> None:
        """Start the next content stream of the page's /Contents array."""
        self.parts.append(b"")

    def unit(
        self,
        role: Role,
        lines: list[str],
        boxes: list[Box],
        font: str,
        size: float,
        *,
        translate: bool = True,
        copies: int = 1,
        text: str | None = None,
    ) -> Unit:
        box = boxes[0]
        for other in boxes[1:]:
            box = box.union(other)
        unit = Unit(
            self.index,
            role,
            text if text is not None else " ".join(lines),
            translate,
            box.rounded(),
            tuple(lines),
            font=font,
            size=size,
            copies=copies,
        )
        self.units.append(unit)
        return unit

    def heading(self, text: str, y: float = HEIGHT - 90) -> None:
        self.emit(f"BT /F3 16 Tf {LEFT} {y} Td {pdf_string(text)} Tj ET")
        self.unit(Role.HEADING, [text], [line_box(text, "Helvetica-Bold", 16, LEFT, y)], "Helvetica-Bold", 16)

    def paragraph(
        self,
        text: str,
        y: float,
        *,
        font: str = "Times-Roman",
        size: float = 11,
        leading: float = 14,
        role: Role = Role.BODY,
        x: float = LEFT,
        measure: float = MEASURE,
    ) -> float:
        """Tj and T* lines in one BT … ET; returns the baseline below the paragraph."""
        lines = wrap(text, font, size, measure)
        shown = " T* ".join(f"{pdf_string(line)} Tj" for line in lines)
        self.emit(f"BT {RESOURCE[font]} {size} Tf {leading} TL {x} {y} Td {shown} ET")
        boxes = [line_box(line, font, size, x, y - k * leading) for k, line in enumerate(lines)]
        self.unit(role, lines, boxes, font, size)
        return y - len(lines) * leading


def _font_dictionary(pdf: pikepdf.Pdf) -> Dictionary:
    return Dictionary(
        {
            name: pdf.make_indirect(
                Dictionary(Type=Name.Font, Subtype=Name.Type1, BaseFont=Name("/" + font), Encoding=Name.WinAnsiEncoding)
            )
            for name, font in FONTS.items()
        }
    )


def _add_page(pdf: pikepdf.Pdf, raw: RawPage, resources: Dictionary) -> pikepdf.Page:
    streams = [pdf.make_stream(part) for part in raw.parts]
    page = pikepdf.Page(
        Dictionary(
            Type=Name.Page,
            MediaBox=Array([0, 0, WIDTH, HEIGHT]),
            Resources=resources,
            Contents=streams[0] if len(streams) == 1 else Array(streams),
        )
    )
    pdf.pages.append(page)
    return pdf.pages[-1]


# ----------------------------------------------------------------------------------------------- traps


def build_traps(folder: Path) -> Document:
    path = folder / "traps.pdf"
    doc = Document(
        "traps",
        path,
        pages=[],
        about="One trap a page, hand-written content streams: split "
        "streams, TJ kerning and quote operators, form XObjects, Type 3, overprinting, an inline "
        "image, shadings, unbalanced q/Q, a broken stream.",
    )
    pdf = pikepdf.new()
    fonts = _font_dictionary(pdf)
    figure_form = _figure_form(pdf, fonts)
    pages = [
        _split_streams,
        _kerning_and_quotes,
        _page_form,
        _shared_figure_first,
        _shared_figure_second,
        _type3_page,
        _overprinted,
        _inline_image_and_shadings,
        _unbalanced,
        _broken,
    ]
    for build in pages:
        raw = RawPage(len(doc.pages))
        trap, resources, kept = build(pdf, raw, fonts, figure_form, doc)
        _add_page(pdf, raw, resources)
        doc.pages.append(Page(raw.index, Box(0, 0, WIDTH, HEIGHT), trap=trap, rewritable=not kept))
        doc.units += raw.units
    pdf.save(path, deterministic_id=True, compress_streams=False)
    return doc


def _split_streams(pdf, raw: RawPage, fonts, form, doc):
    raw.heading("Content in Several Streams")
    text = (
        "This paragraph is drawn by one text object that begins in the first content stream of the page, "
        "continues in the second and ends in the third, as some producers write their pages."
    )
    lines = wrap(text, "Times-Roman", 12)
    y = HEIGHT - 130
    raw.emit(f"q BT /F2 12 Tf 15 TL {LEFT} {y} Td")
    raw.split()
    raw.emit(" T* ".join(f"{pdf_string(line)} Tj" for line in lines))
    raw.split()
    raw.emit("ET Q")
    raw.unit(
        Role.BODY,
        lines,
        [line_box(line, "Times-Roman", 12, LEFT, y - k * 15) for k, line in enumerate(lines)],
        "Times-Roman",
        12,
    )
    raw.paragraph(
        "A second paragraph lies wholly in the last stream, after the text object that spans all three has ended.",
        y - 15 * len(lines) - 14,
        size=12,
        leading=15,
    )
    return "/Contents is an array of three streams; one BT … ET block spans all three", Dictionary(Font=fonts), False


def _kerning_and_quotes(pdf, raw: RawPage, fonts, form, doc):
    raw.heading("Kerning Arrays and Quote Operators")
    # TeX's way: no space characters, words parted by TJ offsets, letters kerned inside words.
    text = (
        "Words in this paragraph are separated by kerning offsets in TJ arrays rather than by spaces, and "
        "some letter pairs such as AV, To and Wa are kerned as a typesetter would kern them."
    )
    size, leading, y = 11.0, 14.0, HEIGHT - 130
    gap = -333  # a third of an em: the width of a space in thousandths
    kerns = {"AV": 80, "To": 60, "Wa": 50, "Te": 40}
    lines = wrap(text, "Times-Roman", size)
    code, boxes = [], []
    for k, line in enumerate(lines):
        items: list[str] = []
        advance = 0.0
        for w_index, word in enumerate(line.split(" ")):
            if w_index:
                items.append(str(gap))
                advance -= gap / 1000 * size
            pieces, start = [], 0
            for i in range(1, len(word)):
                if word[i - 1 : i + 1] in kerns:
                    pieces.append(word[start:i])
                    start = i
            pieces.append(word[start:])
            for p_index, piece in enumerate(pieces):
                if p_index:
                    kern = kerns[pieces[p_index - 1][-1] + piece[0]]
                    items.append(str(kern))
                    advance -= kern / 1000 * size
                items.append(pdf_string(piece))
                advance += width(piece, "Times-Roman", size)
        code.append(f"[{' '.join(items)}] TJ")
        boxes.append(line_box(line, "Times-Roman", size, LEFT, y - k * leading, advance))
    raw.emit(f"BT /F2 {size} Tf {leading} TL {LEFT} {y} Td " + " T* ".join(code) + " ET")
    raw.unit(Role.BODY, lines, boxes, "Times-Roman", size)
    # ' moves to the next line and shows; " also sets word and character spacing, which outlive the text object.
    y -= len(lines) * leading + 14
    first = "The first line is shown with Tj, the next ones with the quote operators:"
    second = "this line with the single quote, which moves down a line before it shows,"
    third = "and this one with the double quote, which also sets word and character spacing."
    raw.emit(
        f"BT /F2 {size} Tf {leading} TL {LEFT} {y} Td {pdf_string(first)} Tj {pdf_string(second)} ' "
        f'3 0.4 {pdf_string(third)} " ET 0 Tw 0 Tc'
    )
    boxes = [
        line_box(first, "Times-Roman", size, LEFT, y),
        line_box(second, "Times-Roman", size, LEFT, y - leading),
        line_box(third, "Times-Roman", size, LEFT, y - 2 * leading, width(third, "Times-Roman", size, 0.4, 3)),
    ]
    raw.unit(Role.BODY, [first, second, third], boxes, "Times-Roman", size)
    return (
        "TJ arrays whose words are parted by offsets (no space characters); the ' and \" operators",
        Dictionary(Font=fonts),
        False,
    )


def _page_form(pdf, raw: RawPage, fonts, form, doc):
    """All the page's text inside one form XObject, placed with a translation."""
    inner = RawPage(raw.index)
    inner.heading("A Page Inside a Form")
    y = inner.paragraph(
        "Everything on this page is drawn by a single form XObject, as tools that import or "
        "stamp pages produce them. The page's own content stream only places the form.",
        HEIGHT - 130,
    )
    y = inner.paragraph(
        "A writer that looks for text only in the page's content stream finds none here; the "
        "paragraphs must be removed from the form, and the form is used by this page alone.",
        y - 12,
    )
    inner.emit(f"0.5 w {LEFT} {y - 6} m {WIDTH - LEFT} {y - 6} l S")
    fm = pdf.make_stream(
        inner.parts[0],
        Type=Name.XObject,
        Subtype=Name.Form,
        BBox=Array([0, 0, WIDTH, HEIGHT]),
        Resources=Dictionary(Font=fonts),
    )
    dx, dy = 6.0, -24.0
    raw.emit(f"q 1 0 0 1 {dx} {dy} cm /Fm0 Do Q")
    for unit in inner.units:
        b = unit.bbox
        raw.units.append(replace(unit, bbox=Box(b.x0 + dx, b.y0 + dy, b.x1 + dx, b.y1 + dy).rounded()))
    return (
        "the page's text is in a full-page form XObject drawn with a translation (cm)",
        Dictionary(XObject=Dictionary(Fm0=fm)),
        False,
    )


FIGURE_LABELS = [("Input", 8.0, 62.0), ("Filter", 64.0, 62.0), ("Output", 116.0, 62.0), ("signal path", 8.0, 30.0)]


def _figure_form(pdf: pikepdf.Pdf, fonts: Dictionary) -> pikepdf.Stream:
    """A small diagram (160 × 100) with labels, used on two pages."""
    code = ["0.6 w 0.93 0.95 1 rg"]
    for x in (4.0, 56.0, 108.0):
        code.append(f"{x} 50 46 30 re B")
    code.append("0 g 50 65 m 56 65 l S 102 65 m 108 65 l S")
    code.append("80 20 m 100 0 140 40 130 48 c S")  # a curve under the boxes
    code.append("0.8 0.2 0.2 rg 130 48 m 126 42 l 134 43 l f 0 g")
    for text, x, y in FIGURE_LABELS:
        code.append(f"BT /F1 8 Tf {x} {y} Td {pdf_string(text)} Tj ET")
    return pdf.make_stream(
        "\n".join(code).encode(),
        Type=Name.XObject,
        Subtype=Name.Form,
        BBox=Array([0, 0, 160, 100]),
        Resources=Dictionary(Font=fonts),
    )


def _place_figure(raw: RawPage, doc: Document, a: float, e: float, f: float) -> None:
    raw.emit(f"q {a} 0 0 {a} {e} {f} cm /Fig Do Q")
    for text, x, y in FIGURE_LABELS:
        box = line_box(text, "Helvetica", 8, x, y)
        raw.unit(
            Role.FIGURE_TEXT,
            [text],
            [Box(e + a * box.x0, f + a * box.y0, e + a * box.x1, f + a * box.y1)],
            "Helvetica",
            8 * a,
            translate=False,
        )
    doc.figures.append(
        Figure(
            raw.index,
            Box(e, f, e + 160 * a, f + 100 * a).rounded(),
            "a form XObject diagram: boxes, a curve, an arrow, labels",
            form="/Fig",
        )
    )


def _shared_figure_first(pdf, raw: RawPage, fonts, form, doc):
    raw.heading("One Figure, Drawn Three Times")
    y = raw.paragraph(
        "The two diagrams below are one form XObject drawn twice, at full size and scaled down; "
        "the next page draws it once more. Its labels belong to the figure and stay as they are.",
        HEIGHT - 130,
    )
    _place_figure(raw, doc, 1.0, LEFT, y - 130)
    _place_figure(raw, doc, 0.75, 340, y - 105)
    raw.paragraph(
        "A writer that edited the form to translate text in it would change all three drawings at once.", y - 160
    )
    return (
        "a form XObject (a figure with labels) drawn twice on this page and once on the next",
        Dictionary(Font=fonts, XObject=Dictionary(Fig=form)),
        False,
    )


def _shared_figure_second(pdf, raw: RawPage, fonts, form, doc):
    raw.heading("The Same Figure Again")
    y = raw.paragraph("This page draws the same form XObject as the previous page, from the same object.", HEIGHT - 130)
    _place_figure(raw, doc, 1.2, LEFT, y - 150)
    return (
        "the previous page's figure form, drawn again from the same object",
        Dictionary(Font=fonts, XObject=Dictionary(Fig=form)),
        False,
    )


def _type3_page(pdf, raw: RawPage, fonts, form, doc):
    text = (
        "This page is set in a Type 3 font whose glyphs are small bitmaps, as old TeX output was. The "
        "glyph names in its encoding give the text, but no outline font can draw a translation in its "
        "style, so a writer keeps such a page as it is."
    )
    heading = "Bitmap Glyphs"
    font, widths = _type3_font(pdf, sorted(set(text + heading)))
    size, leading, y = 11.0, 15.0, HEIGHT - 130

    def shown(line: str, font_size: float) -> float:
        return sum(widths[c] for c in line) / 1000 * font_size

    raw.emit(f"BT /T3 16 Tf {LEFT} {HEIGHT - 90} Td {pdf_string(heading)} Tj ET")
    raw.unit(Role.HEADING, [heading], [_t3_box(heading, LEFT, HEIGHT - 90, 16, shown(heading, 16))], "Type3", 16)
    lines = _t3_wrap(text, size, widths)
    raw.emit(
        f"BT /T3 {size} Tf {leading} TL {LEFT} {y} Td " + " T* ".join(f"{pdf_string(t)} Tj" for t in lines) + " ET"
    )
    raw.unit(
        Role.BODY,
        lines,
        [_t3_box(t, LEFT, y - k * leading, size, shown(t, size)) for k, t in enumerate(lines)],
        "Type3",
        size,
    )
    return (
        "only Type 3 text (bitmap glyphs drawn by inline image masks): the page is kept",
        Dictionary(Font=Dictionary(T3=font)),
        True,
    )


def _t3_box(text: str, x: float, y: float, size: float, advance: float) -> Box:
    return Box(x, y - 0.24 * size, x + advance, y + size)


def _t3_wrap(text: str, size: float, widths: dict[str, float]) -> list[str]:
    lines, current = [], ""
    for word in text.split(" "):
        candidate = f"{current} {word}".strip()
        if sum(widths[c] for c in candidate) / 1000 * size > MEASURE and current:
            lines.append(current)
            current = word
        else:
            current = candidate
    return [*lines, current]


def _type3_font(pdf: pikepdf.Pdf, chars: list[str]) -> tuple[Dictionary, dict[str, float]]:
    """Glyphs of Bitstream Vera rendered at 100 pixels an em, each a 1-bit image mask in its CharProc."""
    import reportlab
    from PIL import Image as PILImage
    from PIL import ImageDraw, ImageFont
    from reportlab.pdfbase._fontdata_enc_winansi import WinAnsiEncoding

    vera = ImageFont.truetype(os.path.join(os.path.dirname(reportlab.__file__), "fonts", "Vera.ttf"), 100)
    procs, differences, widths, by_char = Dictionary(), Array(), {}, {}
    for char in chars:
        code = ord(char)
        name = WinAnsiEncoding[code]
        advance = round(vera.getlength(char) * 10)
        widths[code] = by_char[char] = advance
        left, top, right, bottom = vera.getbbox(char, anchor="ls")
        if char == " " or right <= left:
            proc = f"{advance} 0 0 0 0 0 d1".encode()
        else:
            image = PILImage.new("L", (right - left, bottom - top), 0)
            ImageDraw.Draw(image).text((-left, -top), char, font=vera, anchor="ls", fill=255)
            ink = np.asarray(image) > 127
            bits = np.packbits(~ink, axis=1).tobytes()  # 0 paints in an image mask
            proc = (
                (
                    f"{advance} 0 {left * 10} {-bottom * 10} {right * 10} {-top * 10} d1\n"
                    f"q {(right - left) * 10} 0 0 {(bottom - top) * 10} {left * 10} {-bottom * 10} cm\n"
                    f"BI /IM true /W {right - left} /H {bottom - top} /BPC 1 ID\n"
                ).encode()
                + bits
                + b"\nEI Q"
            )
        procs[Name("/" + name)] = pdf.make_stream(proc)
        differences.append(code)
        differences.append(Name("/" + name))
    first, last = min(widths), max(widths)
    font = pdf.make_indirect(
        Dictionary(
            Type=Name.Font,
            Subtype=Name.Type3,
            FontBBox=Array([-200, -250, 1300, 950]),
            FontMatrix=Array([0.001, 0, 0, 0.001, 0, 0]),
            CharProcs=procs,
            Encoding=Dictionary(Type=Name.Encoding, Differences=differences),
            FirstChar=first,
            LastChar=last,
            Widths=Array([widths.get(code, 0) for code in range(first, last + 1)]),
            Resources=Dictionary(),
        )
    )
    return font, by_char


def _overprinted(pdf, raw: RawPage, fonts, form, doc):
    heading = "Drawn Twice for Weight"
    y = HEIGHT - 90
    raw.emit(f"BT /F1 16 Tf {LEFT} {y} Td {pdf_string(heading)} Tj ET")
    raw.emit(f"BT /F1 16 Tf {LEFT} {y} Td {pdf_string(heading)} Tj ET")  # the same glyphs at the same spot
    raw.unit(Role.HEADING, [heading], [line_box(heading, "Helvetica", 16, LEFT, y)], "Helvetica", 16, copies=2)
    warning = "Warning: unplug the reader before you open its cover."
    y = HEIGHT - 130
    for dx in (0.0, 0.35, 0.7):  # three passes a hair apart: fake bold as some drivers print it
        raw.emit(f"BT /F2 12 Tf {LEFT + dx} {y} Td {pdf_string(warning)} Tj ET")
    raw.unit(
        Role.BODY,
        [warning],
        [line_box(warning, "Times-Roman", 12, LEFT, y, width(warning, "Times-Roman", 12) + 0.7)],
        "Times-Roman",
        12,
        copies=3,
    )
    raw.paragraph(
        "The heading above is two identical text objects and the warning three, each a fraction of a "
        "point to the right of the last. A reader should find each once; a writer must remove every "
        "copy, or the original shows through its translation.",
        y - 26,
    )
    return (
        "overprinted fake bold: a heading drawn twice at one spot, a line three times 0.35 pt apart",
        Dictionary(Font=fonts),
        False,
    )


def _inline_image_and_shadings(pdf, raw: RawPage, fonts, form, doc):
    raw.heading("Inline Image and Shadings")
    y = raw.paragraph(
        "The picture below is an inline image, written into the content stream between this "
        "paragraph and the next rather than stored as a separate object.",
        HEIGHT - 130,
    )
    ramp = np.tile(np.linspace(0x50, 0xF0, 24).astype(np.uint8), (12, 1))
    ramp[ramp == ord("E")] += 1
    ramp[ramp == ord("I")] += 1
    data = ramp.tobytes()
    assert b"EI" not in data
    top = y - 8
    raw.emit(f"q 144 0 0 72 {LEFT} {top - 72} cm BI /W 24 /H 12 /BPC 8 /CS /G ID ".encode() + data + b" EI Q")
    doc.images.append(Image(raw.index, "", Box(LEFT, top - 72, LEFT + 144, top), (24, 12), "", inline=True))
    y = raw.paragraph(
        "This paragraph follows the inline image. Below it, an axial shading is painted with the "
        "sh operator inside a clipping path, and a radial one fills a rectangle as a pattern.",
        top - 90,
    )
    sh_box, pattern_box = Box(LEFT, y - 100, LEFT + 200, y - 20), Box(330, y - 100, 530, y - 20)
    raw.emit(f"q {sh_box.x0} {sh_box.y0} {sh_box.width} {sh_box.height} re W n /Sh0 sh Q")
    raw.emit(f"q /Pattern cs /P0 scn {pattern_box.x0} {pattern_box.y0} {pattern_box.width} {pattern_box.height} re f Q")
    raw.paragraph("Figure A: the axial shading (sh).", sh_box.y0 - 16, size=10, leading=12, role=Role.CAPTION)
    raw.paragraph(
        "Figure B: the radial shading, a pattern fill.",
        pattern_box.y0 - 16,
        size=10,
        leading=12,
        role=Role.CAPTION,
        x=330,
        measure=200,
    )
    doc.figures.append(Figure(raw.index, sh_box, "an axial shading painted by sh in a clip", shading=True))
    doc.figures.append(Figure(raw.index, pattern_box, "a radial shading pattern filling a rectangle", shading=True))
    function = Dictionary(
        FunctionType=2, Domain=Array([0, 1]), C0=Array([0.15, 0.35, 0.7]), C1=Array([1, 0.85, 0.4]), N=1
    )
    axial = Dictionary(
        ShadingType=2,
        ColorSpace=Name.DeviceRGB,
        Function=function,
        Extend=Array([True, True]),
        Coords=Array([sh_box.x0, 0, sh_box.x1, 0]),
    )
    cx, cy = (pattern_box.x0 + pattern_box.x1) / 2, (pattern_box.y0 + pattern_box.y1) / 2
    radial = Dictionary(
        ShadingType=3,
        ColorSpace=Name.DeviceRGB,
        Function=function,
        Extend=Array([True, True]),
        Coords=Array([cx, cy, 0, cx, cy, 100]),
    )
    pattern = Dictionary(Type=Name.Pattern, PatternType=2, Shading=radial)
    return (
        "an inline image (binary BI … ID … EI) between paragraphs; an sh shading and a shading pattern fill",
        Dictionary(Font=fonts, Shading=Dictionary(Sh0=axial), Pattern=Dictionary(P0=pattern)),
        False,
    )


def _unbalanced(pdf, raw: RawPage, fonts, form, doc):
    raw.emit(f"q q 0.95 0.95 0.88 rg {LEFT - 12} {HEIGHT - 200} {MEASURE + 24} 130 re f 0 g")  # one q never restored
    raw.heading("Unbalanced Save and Restore")
    raw.emit("Q")
    y = raw.paragraph(
        "This page saves the graphics state twice and restores it once, and at its end restores "
        "it three more times, which viewers forgive. A writer that wraps the page's content in "
        "its own save and restore must not be thrown by either.",
        HEIGHT - 130,
    )
    raw.emit(f"0.2 0.4 0.8 RG 2 w {LEFT} {y - 4} m {WIDTH - LEFT} {y - 4} l S")
    raw.emit("Q Q Q")
    return "unbalanced q/Q: one q never restored, three Q too many at the end", Dictionary(Font=fonts), False


def _broken(pdf, raw: RawPage, fonts, form, doc):
    raw.heading("A Broken Content Stream")
    raw.paragraph(
        "The content stream of this page ends in the middle of an operator, as a file cut short "
        "by a failed download ends. The text above the break is drawn; the page cannot be rewritten "
        "safely and is kept as it is.",
        HEIGHT - 130,
    )
    raw.emit(b"BT /F2 12 Tf 72 560 Td (This sentence is never sh")
    return "the content stream stops inside a string operand: the page is kept", Dictionary(Font=fonts), True


# ---------------------------------------------------------------------------------------------- encrypted


def _simple(folder: Path, name: str, title: str) -> Document:
    from corpus_layout import new_canvas, string_unit

    path = folder / f"{name}.pdf"
    c = new_canvas(path, letter, title)
    doc = Document(name, path, pages=[Page(0, Box(0, 0, WIDTH, HEIGHT))])
    doc.units.append(
        string_unit(c, 0, title, LEFT, HEIGHT - 90, Style("Helvetica-Bold", 16), Role.HEADING, translate=True)
    )
    column = Column(c, doc, 0, LEFT, MEASURE, HEIGHT - 124)
    column.para(
        Styles(11)(
            "This report describes the results of the spring inspection of the east wing. All doors, windows and "
            "fire escapes were checked, and the findings are listed by floor in the appendix."
        ),
        leading=14,
        after=8,
    )
    column.para(
        Styles(11)(
            "No fault was found that needs urgent repair. The lift on the second floor should be serviced before "
            "the end of the year."
        ),
        leading=14,
    )
    c.showPage()
    c.save()
    return doc


def build_encrypted(folder: Path) -> Document:
    """AES-256 with a user password: nothing opens it without "secret"."""
    doc = _simple(folder, "encrypted", "Inspection Report")
    with pikepdf.open(doc.path, allow_overwriting_input=True) as pdf:
        pdf.save(doc.path, encryption=pikepdf.Encryption(user="secret", owner="owner-secret", R=6), static_id=True)
    doc.password, doc.owner_password = "secret", "owner-secret"
    doc.pages[0] = replace(doc.pages[0], rewritable=False, trap="encrypted with a user password (AES-256)")
    doc.about = "Encrypted: the user password is 'secret'."
    return doc


def build_restricted(folder: Path) -> Document:
    """AES-128 with an empty user password: it opens without one, but its permissions forbid changes."""
    doc = _simple(folder, "restricted", "Inspection Summary")
    allow = pikepdf.Permissions(
        modify_annotation=False,
        modify_assembly=False,
        modify_form=False,
        modify_other=False,
        extract=False,
        print_highres=True,
        print_lowres=True,
    )
    with pikepdf.open(doc.path, allow_overwriting_input=True) as pdf:
        pdf.save(
            doc.path, encryption=pikepdf.Encryption(user="", owner="owner-secret", R=4, allow=allow), static_id=True
        )
    doc.password, doc.owner_password, doc.restricted = "", "owner-secret", True
    doc.pages[0] = replace(doc.pages[0], trap="encrypted with an empty user password and restrictions (AES-128)")
    doc.about = "Opens without a password; changing or extracting is forbidden by its permissions."
    return doc
