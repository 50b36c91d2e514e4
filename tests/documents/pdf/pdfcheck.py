"""What the PDF writer's tests look at in a PDF: glyphs, drawings, images and annotations per page, as pdfminer and
pikepdf read them, and a deterministic stand-in for a translation into Chinese."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pikepdf
from pdfminer.converter import PDFPageAggregator
from pdfminer.layout import LTChar, LTCurve, LTFigure, LTImage, LTPage
from pdfminer.pdfinterp import PDFPageInterpreter, PDFResourceManager
from pdfminer.pdfpage import PDFPage

# common characters the stand-in translation is written in
_HAN = (
    "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后"
    "多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合"
    "还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只"
)
_PUNCTUATION = {".": "。", ",": "，", ":": "：", ";": "；", "?": "？", "!": "！", "(": "（", ")": "）"}


def hanzi(text: str, characters: str = _HAN) -> str:
    """Each word as two Han characters of ``characters`` (the same two for the same word), digits kept,
    punctuation full-width: shorter than the English, as Chinese is, and checkable glyph by glyph."""
    out = []
    for piece in re.findall(r"[A-Za-z]+|\d+|\S", text):
        if piece.isalpha():
            digest = int(hashlib.md5(piece.lower().encode()).hexdigest(), 16)
            out.append(characters[digest % len(characters)] + characters[(digest // 97) % len(characters)])
        else:
            out.append(_PUNCTUATION.get(piece, piece))
    return "".join(out)


@dataclass(frozen=True)
class Glyph:
    text: str
    font: str
    box: tuple[float, float, float, float]  # as pdfminer lays the page out (its /Rotate applied)
    upright: bool
    size: float = 0.0
    advance: float = 0.0  # in font sizes: one width for every glyph of a monospaced font

    def key(self) -> tuple[str, float, float]:
        """Where it is drawn: a glyph kept by the writer is at the same place in the output."""
        return (self.text, round(self.box[0], 1), round(self.box[1], 1))


@dataclass
class PageView:
    glyphs: list[Glyph]
    drawings: list[tuple[float, ...]]  # boxes of painted paths, rounded
    images: list[tuple[str, tuple[float, ...]]]  # name and box, rounded
    crop: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)

    def drawn_with(self, font: str) -> list[Glyph]:
        return [g for g in self.glyphs if g.font == font]


def translation_font(path: Path) -> str:
    """The BaseFont of the font the writer draws translations with (the resource it names /FyFont)."""
    with pikepdf.open(path) as pdf:
        for page in pdf.pages:
            font = page.obj.get("/Resources", {}).get("/Font", {}).get("/FyFont")
            if font is not None:
                return str(font.BaseFont)[1:]
    raise AssertionError(f"{path} has no translation font")


def _rounded(box: tuple[float, ...]) -> tuple[float, ...]:
    return tuple(round(v, 1) for v in box)


def _walk(item: object, view: PageView) -> None:
    if isinstance(item, LTChar):
        a, b, c, d, _e, _f = item.matrix
        size = item.size or 1.0
        view.glyphs.append(
            Glyph(
                item.get_text(),
                item.fontname,
                (item.x0, item.y0, item.x1, item.y1),
                b == 0 == c,
                round(size, 2),
                round(item.adv / size, 3) if a > 0 else 0.0,
            )
        )
    elif isinstance(item, LTImage):
        view.images.append(("" if item.name.isdigit() else item.name, _rounded(item.bbox)))  # inline: pdfminer's id()
    elif isinstance(item, LTCurve):
        view.drawings.append(_rounded(item.bbox))
    if isinstance(item, (LTPage, LTFigure)):
        for child in item:
            _walk(child, view)


def pages(path: Path, password: str = "") -> list[PageView]:
    """Every page of ``path`` as pdfminer draws it (no layout analysis)."""
    resources = PDFResourceManager()
    device = PDFPageAggregator(resources, laparams=None)
    interpreter = PDFPageInterpreter(resources, device)
    views = []
    with path.open("rb") as handle:
        for page in PDFPage.get_pages(handle, password=password):
            interpreter.process_page(page)
            result = device.get_result()
            view = PageView([], [], [], (result.x0, result.y0, result.x1, result.y1))
            _walk(result, view)
            views.append(view)
    return views


def lines_of(glyphs: Iterable[Glyph]) -> list[list[Glyph]]:
    """Glyphs drawn one after another along a baseline, in the order drawn, as lines."""
    out: list[list[Glyph]] = []
    for glyph in glyphs:
        if out:
            last = out[-1][-1]
            size = glyph.size or 1.0
            if abs(last.box[1] - glyph.box[1]) < 0.3 * size and -size < glyph.box[0] - last.box[2] < 3 * size:
                out[-1].append(glyph)
                continue
        out.append([glyph])
    return out


def _span(glyphs: list[Glyph]) -> tuple[float, float, float, float]:
    """A line's box, its middle 60 % in height: lines of tight leading touch without overlapping."""
    x0, y0 = min(g.box[0] for g in glyphs), min(g.box[1] for g in glyphs)
    x1, y1 = max(g.box[2] for g in glyphs), max(g.box[3] for g in glyphs)
    return (x0, y0 + 0.2 * (y1 - y0), x1, y1 - 0.2 * (y1 - y0))


def _cross(a: tuple[float, float, float, float], b: tuple[float, float, float, float], slack: float) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > slack and min(a[3], b[3]) - max(a[1], b[1]) > 0


def overlaps(view: PageView, fonts: set[str]) -> list[tuple[str, str]]:
    """Each line drawn in ``fonts`` (a translation's) that crosses another such line or text still on the page, with
    what it crosses."""
    ours = lines_of(g for g in view.glyphs if g.font in fonts and g.text.strip())
    kept = [(_span([g]), g) for g in view.glyphs if g.font not in fonts and g.text.strip()]
    spans = [_span(line) for line in ours]
    found = []
    for i, (line, span) in enumerate(zip(ours, spans)):
        slack = 0.1 * (line[0].size or 1.0)
        crossed = [ours[j] for j in range(len(ours)) if j != i and _cross(span, spans[j], slack)]
        crossed += [[g] for box, g in kept if _cross(span, box, slack)]
        if crossed:
            found.append(("".join(g.text for g in line), " | ".join("".join(g.text for g in c) for c in crossed)))
    return found


def inside(box: tuple[float, float, float, float], region: tuple[float, float, float, float], slack: float) -> bool:
    x = (box[0] + box[2]) / 2
    y = (box[1] + box[3]) / 2
    return region[0] - slack <= x <= region[2] + slack and region[1] - slack <= y <= region[3] + slack


def annotations(path: Path) -> list[list[tuple[str, tuple[float, ...], str]]]:
    """Each page's annotations: subtype, rectangle and target (URI or destination page number)."""
    out = []
    with pikepdf.open(path) as pdf:
        numbers = {page.obj.objgen: n for n, page in enumerate(pdf.pages)}
        for page in pdf.pages:
            found = []
            for annotation in page.obj.get("/Annots", []):
                action = annotation.get("/A", {})
                target = str(action.get("/URI", "")) if "/URI" in action else ""
                destination = annotation.get("/Dest", action.get("/D") if "/D" in action else None)
                if isinstance(destination, pikepdf.Array) and len(destination):
                    target = f"page {numbers.get(destination[0].objgen, '?')}"
                rect = tuple(round(float(v), 1) for v in annotation.get("/Rect", []))
                found.append((str(annotation.get("/Subtype")), rect, target))
            out.append(found)
    return out


def image_digests(path: Path) -> list[str]:
    """The sha256 of every image XObject's stream as stored (its bytes, not decoded), sorted."""
    with pikepdf.open(path) as pdf:
        return sorted(
            hashlib.sha256(obj.read_raw_bytes()).hexdigest()
            for obj in pdf.objects
            if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Image"
        )
