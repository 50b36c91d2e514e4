"""A small typesetter on reportlab's canvas for the PDF corpus: it knows where every glyph goes.

reportlab's Paragraph would set the text, but the ground truth needs each line as drawn, each unit's exact
box, soft hyphens it chose, and columns whose baselines line up; so lines are broken and justified here
(word spacing Tw for Latin, character spacing Tc for Chinese) and drawn with text objects.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from corpus_truth import Box, Page, Role, Span, Unit
from reportlab import rl_config
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

CJK_FONT = "STSong-Light"  # one of reportlab's CID fonts: referenced by name, never embedded
CJK_VERTICAL_FONT = "STSong-Light-V"  # the same face through the UniGB-UCS2-V CMap (vertical writing)
SANS = "Vera"  # Bitstream Vera, shipped with reportlab: an embedded, subset TrueType font
SANS_BOLD = "Vera-Bold"


def register_fonts() -> None:
    registered = set(pdfmetrics.getRegisteredFontNames())
    if CJK_FONT not in registered:
        pdfmetrics.registerFont(UnicodeCIDFont(CJK_FONT))
    if CJK_VERTICAL_FONT not in registered:
        vertical = UnicodeCIDFont(CJK_FONT, isVertical=True)
        vertical.name = vertical.fontName = CJK_VERTICAL_FONT  # its PDF /BaseFont stays STSong-Light
        pdfmetrics.registerFont(vertical)
    if SANS not in registered:
        pdfmetrics.registerFont(TTFont(SANS, "Vera.ttf"))
        pdfmetrics.registerFont(TTFont(SANS_BOLD, "VeraBd.ttf"))


def new_canvas(path: Path | BinaryIO, size: tuple[float, float], title: str) -> Canvas:
    """A canvas whose file is the same bytes on every run (no dates, a fixed /ID)."""
    register_fonts()
    rl_config.useA85 = 0  # streams Flate-compressed only, images as their codec wrote them (JPEG stays DCT)
    canvas = Canvas(str(path) if isinstance(path, Path) else path, pagesize=size, invariant=1, pageCompression=1)
    canvas.setTitle(title)
    canvas.setAuthor("Fanyi test corpus")
    return canvas


# ---------------------------------------------------------------------------------------------- text runs


@dataclass(frozen=True)
class Style:
    font: str
    size: float
    rise: float = 0.0
    kind: str = ""  # the Span kind a run in this style records ("" records none)
    mode: int = 0  # text render mode: 0 fill, 2 fill+stroke (simulated bold), 3 invisible


@dataclass(frozen=True)
class Run:
    text: str
    style: Style
    link: str = ""  # "https://…" or "#key" (an internal destination)
    formula: bool = False  # inline maths: never broken across lines, recorded as a "formula" span


class Styles:
    """The runs of one kind of paragraph: ``s("plain ", s.it("italic"), s.math(s.sym("α"), " = 1"))``."""

    def __init__(
        self,
        size: float,
        roman: str = "Times-Roman",
        italic: str = "Times-Italic",
        bold: str = "Times-Bold",
        mono: str = "Courier",
    ) -> None:
        self.base = Style(roman, size)
        self._italic = Style(italic, size, kind="italic")
        self._bold = Style(bold, size, kind="bold")
        self._mono = Style(mono, size * 0.9, kind="code")
        self._symbol = Style("Symbol", size)
        self._sup = Style(roman, size * 0.65, rise=size * 0.36, kind="superscript")

    def __call__(self, *parts: str | Run | Sequence[Run]) -> list[Run]:
        runs: list[Run] = []
        for part in parts:
            if isinstance(part, str):
                runs.append(Run(part, self.base))
            elif isinstance(part, Run):
                runs.append(part)
            else:
                runs.extend(part)
        return runs

    def it(self, text: str) -> Run:
        return Run(text, self._italic)

    def bf(self, text: str) -> Run:
        return Run(text, self._bold)

    def tt(self, text: str) -> Run:
        return Run(text, self._mono)

    def sym(self, text: str) -> Run:
        return Run(text, self._symbol)

    def sup(self, text: str, font: str = "") -> Run:
        return Run(text, Style(font or self.base.font, self._sup.size, self._sup.rise, "superscript"))

    def link(self, run: Run | str, target: str) -> Run:
        run = run if isinstance(run, Run) else Run(run, self.base)
        return Run(run.text, run.style, link=target, formula=run.formula)

    def math(self, *parts: str | Run) -> list[Run]:
        """An inline formula: variables in italic (plain strings), operators and Greek via ``sym``."""
        runs = []
        for part in parts:
            run = Run(part, self._italic) if isinstance(part, str) else part
            runs.append(Run(run.text, run.style, link=run.link, formula=True))
        return runs

    def op(self, text: str) -> Run:
        """An upright operator or digit inside ``math`` (roman, not italic)."""
        return Run(text, self.base)


# ----------------------------------------------------------------------------------------------- metrics

_SYMBOL_DEPTH = -0.22  # the Symbol font has no Descender in its AFM; ∑ and brackets reach this far down


def advance(text: str, style: Style, char_space: float = 0.0, word_space: float = 0.0) -> float:
    """How far the text cursor moves, as a PDF consumer computes it (Tc on every code, Tw on code 32)."""
    width = pdfmetrics.stringWidth(text, style.font, style.size)
    single_byte = style.font not in (CJK_FONT, CJK_VERTICAL_FONT)
    return width + char_space * len(text) + (word_space * text.count(" ") if single_byte else 0.0)


def vertical_extent(style: Style) -> tuple[float, float]:
    """Bottom and top of a run's glyph boxes relative to the baseline: pdfminer's character box (from the
    font's Descent, one em tall) joined with the font's own ascent and depth."""
    face = pdfmetrics.getFont(style.font).face
    descent = face.descent / 1000
    depth = min(descent, _SYMBOL_DEPTH) if style.font == "Symbol" else descent
    top = max(face.ascent / 1000, descent + 1.0)
    return style.rise + depth * style.size, style.rise + top * style.size


# ----------------------------------------------------------------------------------------- line breaking

# Where the long words of the corpus's text may break at a line end (a soft hyphen there is drawn as "-").
HYPHENATION = {
    word.replace("-", ""): word
    for word in """
    trans-la-tion trans-lat-ed trans-la-tions doc-u-ment doc-u-ments para-graphs in-for-ma-tion
    rep-re-sen-ta-tion com-pu-ta-tion con-struc-tion eval-u-a-tion eval-u-ate au-to-mat-ic au-to-mat-i-cal-ly
    ex-per-i-ment ex-per-i-ments ex-per-i-men-tal sci-en-tif-ic pre-serv-ing pre-serves ty-po-graph-ic
    ty-po-graph-i-cal re-con-struc-tion con-tent ex-trac-tion in-de-pen-dent-ly char-ac-ter char-ac-ters
    op-er-a-tors op-er-a-tor meth-od-ol-o-gy al-go-rithm al-go-rithms prob-a-bil-i-ty ar-chi-tec-ture
    com-par-i-son qual-i-ta-tive quan-ti-ta-tive ap-prox-i-mate-ly re-spec-tive-ly mea-sure-ments
    ob-ser-va-tions dis-tri-bu-tion con-fig-u-ra-tion pro-ce-dure in-ter-pre-ta-tion lay-out lay-outs head-ings
    for-mu-las for-mu-la ma-chine an-no-ta-tions an-no-ta-tion sub-stan-tial-ly con-sis-tent-ly re-mov-ing
    re-writ-ing re-mains im-ple-men-ta-tion com-pressed read-ing de-tect-ed con-sec-u-tive can-di-date
    can-di-dates di-rect-ly schol-ar-ly pub-li-ca-tions un-touched com-mer-cial hy-phen-ation ver-ti-cal
    struc-ture sig-nif-i-cant-ly de-scribed cap-tions sep-a-rates con-fi-dence in-di-vid-ual rec-og-nised
    rec-og-nises rec-og-ni-tion pro-fes-sion-al ref-er-ence con-fus-ing sur-round-ing pre-dict-able ex-pen-sive
    de-tec-tion col-lec-tions op-tion-al pro-cess-es frag-ment hor-i-zon-tal pro-ject-ing re-con-struct
    in-sti-tu-tions pub-lished un-pub-lished sen-tences dif-fi-cul-ty sym-bols ev-ery-thing un-der-neath
    clip-board to-geth-er pre-ci-sion an-no-tat-ed be-hav-iour sat-is-fy par-a-graph dis-tance mea-sured
    ad-dress doc-u-ment-ed con-tents com-pares re-ceives lan-guage lan-guages op-er-a-tion mean-ing neg-a-tion
    pro-ces-sor kilo-bytes de-pend-ing dis-tinct hand-ful su-per-script pipe-line con-tri-bu-tions re-writ-er
    un-changed over-flows de-rail con-vert-ed con-ver-sion im-proved sub-stan-tial mod-els ge-o-met-ric de-fault
    trans-la-tor re-port-ed per-mis-sion re-view-ers ear-li-er ver-sion care-ful
    """.split()
}

_PUNCT = ".,;:!?)\u201d\u2019"
_CJK_NO_START = set("，。、；：？！）」』》〉】”’…—·％")
_CJK_NO_END = set("（「『《〈【“‘")


def is_cjk(char: str) -> bool:
    code = ord(char)
    return 0x2E80 <= code <= 0x9FFF or 0xF900 <= code <= 0xFAFF or 0xFF00 <= code <= 0xFFEF or 0x3000 <= code <= 0x303F


@dataclass
class Piece:
    text: str
    style: Style
    link: str = ""
    formula: bool = False


@dataclass
class Line:
    """One line as drawn: its pieces (spaces included) and where it sits relative to its paragraph."""

    pieces: list[Piece]
    offset: float  # x from the paragraph's left edge
    natural: float  # width without justification
    word_space: float = 0.0
    char_space: float = 0.0
    ends: str = ""  # how it ends: "soft" (a hyphen that goes), "hard" (a compound's hyphen), "" (a space)

    @property
    def text(self) -> str:
        return "".join(piece.text for piece in self.pieces)

    @property
    def width(self) -> float:
        return sum(advance(p.text, p.style, self.char_space, self.word_space) for p in self.pieces)


@dataclass
class Laid:
    """A paragraph broken into lines, with the text a reader should give and its spans."""

    lines: list[Line]
    text: str
    spans: tuple[Span, ...]
    leading: float
    font: str
    size: float
    lang: str = "en"


@dataclass
class _Word:
    pieces: list[Piece]
    text: str = field(init=False)

    def __post_init__(self) -> None:
        self.text = "".join(p.text for p in self.pieces)


def _words(runs: Sequence[Run]) -> list[_Word]:
    """Runs split at the spaces outside formulas; each word's pieces keep their styles and links."""
    words: list[_Word] = []
    current: list[Piece] = []
    for run in runs:
        parts = [run.text] if run.formula else run.text.split(" ")
        for index, part in enumerate(parts):
            if index and current:
                words.append(_Word(current))
                current = []
            if part:
                current.append(Piece(part, run.style, run.link, run.formula))
    if current:
        words.append(_Word(current))
    for word in words:
        if len(word.pieces) == 1 and word.pieces[0].style.kind in ("", "italic") and "\xad" not in word.text:
            core = word.text.strip(_PUNCT + "(\u201c\u2018")
            if core.lower() in HYPHENATION and core.isalpha():
                hyphenated = HYPHENATION[core.lower()]
                marked = "".join(c if c != "-" else "\xad" for c in hyphenated)
                if core[0].isupper():
                    marked = marked[0].upper() + marked[1:]
                word.pieces[0].text = word.text.replace(core, marked, 1)
                word.text = word.pieces[0].text
    return words


def _spans_and_text(words: Sequence[_Word]) -> tuple[str, tuple[Span, ...]]:
    """The words joined with single spaces, soft hyphens gone, and the spans of their styled pieces (inside a
    formula only the formula itself)."""
    parts: list[str] = []
    spans: list[Span] = []
    position = 0
    for index, word in enumerate(words):
        if index:
            parts.append(" ")
            position += 1
        for piece in word.pieces:
            clean = piece.text.replace("\xad", "")
            end = position + len(clean)
            kinds = ["formula"] if piece.formula else [piece.style.kind] if piece.style.kind else []
            spans.extend(Span(position, end, kind) for kind in kinds + (["link"] if piece.link else []))
            parts.append(clean)
            position = end
    return "".join(parts), _merge(spans)


def _merge(spans: Iterable[Span]) -> tuple[Span, ...]:
    """Spans of one kind that touch or are one space apart become one span."""
    merged: list[Span] = []
    for span in sorted(spans, key=lambda s: (s.kind, s.start)):
        if merged and merged[-1].kind == span.kind and span.start - merged[-1].end <= 1:
            merged[-1] = Span(merged[-1].start, span.end, span.kind)
        else:
            merged.append(span)
    return tuple(sorted(merged))


def set_paragraph(
    runs: Sequence[Run],
    width: float,
    leading: float,
    *,
    indent: float = 0.0,
    align: str = "justify",
    lang: str = "en",
    hyphenate: bool = True,
) -> Laid:
    """Break ``runs`` into lines of ``width`` points; align "justify" (the last line left), "left", "center",
    "right". Chinese (lang "zh") breaks between Han characters and justifies with character spacing.
    ``hyphenate``: words may break at their soft hyphens and after a compound's hyphen."""
    if lang == "zh":
        return _set_chinese(runs, width, leading, indent=indent, align=align)
    words = _words(runs)
    base = runs[0].style
    space = pdfmetrics.stringWidth(" ", base.font, base.size)
    lines: list[Line] = []
    line: list[Piece] = []
    used = 0.0
    queue = list(words)

    def measure(pieces: Sequence[Piece]) -> float:
        return sum(advance(p.text.replace("\xad", ""), p.style) for p in pieces)

    def finish(ends: str) -> None:
        nonlocal line, used
        pieces = [Piece(p.text.replace("\xad", ""), p.style, p.link, p.formula) for p in line]
        offset = indent if not lines else 0.0
        lines.append(Line(pieces, offset, measure(pieces), ends=ends))
        line, used = [], 0.0

    while queue:
        word = queue.pop(0)
        room = width - (indent if not lines else 0.0)
        gap = space if line else 0.0
        word_width = measure(word.pieces)
        if used + gap + word_width <= room or not line and word_width > room:
            if line:
                line.append(Piece(" ", base))
            line.extend(
                Piece(p.text if hyphenate else p.text.replace("\xad", ""), p.style, p.link, p.formula)
                for p in word.pieces
            )
            used += gap + word_width
            continue
        split = _hyphenate(word, room - used - gap) if hyphenate and used + gap < room * 0.93 else None
        if split is not None:
            head, tail, ends = split
            if line:
                line.append(Piece(" ", base))
            line.append(head)
            finish(ends)
            queue.insert(0, _Word([tail]))
            continue
        finish("")
        queue.insert(0, word)
    if line:
        finish("")
    _align(lines, width, align, lang)
    text, spans = _spans_and_text(words)
    return Laid(lines, text, spans, leading, base.font, base.size)


def _hyphenate(word: _Word, room: float) -> tuple[Piece, Piece, str] | None:
    """The longest head of a one-piece word that fits ``room`` with its hyphen, at a soft hyphen or after a
    compound's own hyphen."""
    if len(word.pieces) != 1:
        return None
    piece = word.pieces[0]
    text = piece.text
    best: tuple[Piece, Piece, str] | None = None
    for index, char in enumerate(text):
        if char == "\xad":
            head = text[:index].replace("\xad", "") + "-"
            ends = "soft"
        elif char == "-" and 0 < index < len(text) - 1:
            head = text[: index + 1].replace("\xad", "")
            ends = "hard"
        else:
            continue
        if len(head) < 3 or len(text[index + 1 :].replace("\xad", "")) < 3:
            continue
        if advance(head, piece.style) <= room:
            best = (Piece(head, piece.style, piece.link), Piece(text[index + 1 :], piece.style, piece.link), ends)
    return best


def _align(lines: list[Line], width: float, align: str, lang: str) -> None:
    for index, line in enumerate(lines):
        room = width - line.offset
        slack = room - line.natural
        last = index == len(lines) - 1
        if align == "justify" and not last:
            if lang == "zh":
                count = sum(len(p.text) for p in line.pieces)
                line.char_space = slack / count if count else 0.0
            else:
                gaps = sum(p.text.count(" ") for p in line.pieces if p.style.font != CJK_FONT)
                line.word_space = slack / gaps if gaps else 0.0
        elif align == "center":
            line.offset += slack / 2
        elif align == "right":
            line.offset += slack


def _can_break(left: str, right: str) -> bool:
    if not (is_cjk(left) and is_cjk(right)):
        return False
    return right not in _CJK_NO_START and left not in _CJK_NO_END


def _set_chinese(runs: Sequence[Run], width: float, leading: float, *, indent: float, align: str) -> Laid:
    """Chinese: a line may end between two Han characters (never before ，。）…, never after （《…)."""
    style = runs[0].style
    text = "".join(run.text for run in runs)
    lines: list[Line] = []
    start = 0
    while start < len(text):
        room = width - (indent if not lines else 0.0)
        end, last_break = start, None
        while end < len(text) and advance(text[start : end + 1], style) <= room:
            end += 1
            if end < len(text) and _can_break(text[end - 1], text[end]):
                last_break = end
        if end < len(text):
            end = last_break if last_break is not None and last_break > start else end
        chunk = text[start:end]
        lines.append(Line([Piece(chunk, style)], indent if not lines else 0.0, advance(chunk, style)))
        start = end
    _align(lines, width, align, "zh")
    return Laid(lines, text, (), leading, style.font, style.size, lang="zh")


# ---------------------------------------------------------------------------------------- placed blocks


@dataclass
class Block:
    """Lines of one unit placed on a page: ``lines[i]`` sits on ``baselines[i]``, starting at ``left``."""

    laid: Laid
    lines: list[Line]
    left: float
    baselines: list[float]
    role: Role
    translate: bool = True
    frame_width: float = 0.0
    joins_previous: bool = False
    text: str = ""  # the part of laid.text these lines hold (a paragraph split across columns holds less)

    def line_boxes(self) -> list[Box]:
        boxes = []
        for line, baseline in zip(self.lines, self.baselines):
            x = self.left + line.offset
            bottom = top = baseline
            for piece in line.pieces:
                low, high = vertical_extent(piece.style)
                bottom, top = min(bottom, baseline + low), max(top, baseline + high)
            x1 = x + line.width
            if line.pieces and line.pieces[-1].text.endswith(" "):
                x1 -= advance(" ", line.pieces[-1].style, line.char_space, line.word_space)
            boxes.append(Box(x, bottom, x1, top))
        return boxes

    def bbox(self) -> Box:
        boxes = self.line_boxes()
        box = boxes[0]
        for other in boxes[1:]:
            box = box.union(other)
        return box

    def unit(self, page: int) -> Unit:
        box = self.bbox()
        frame = None
        if self.frame_width:
            lead = self.laid.leading
            frame = Box(self.left, box.y0, self.left + self.frame_width, max(box.y1, self.baselines[0] + lead * 0.8))
        text = self.text or self.laid.text
        spans = self.laid.spans
        if text != self.laid.text:  # a part of a paragraph split across columns
            offset = self.laid.text.find(text)
            spans = tuple(
                Span(max(s.start, offset) - offset, min(s.end, offset + len(text)) - offset, s.kind)
                for s in spans
                if offset >= 0 and s.end > offset and s.start < offset + len(text)
            )
        return Unit(
            page=page,
            role=self.role,
            text=text,
            translate=self.translate,
            bbox=box.rounded(),
            lines=tuple(line.text for line in self.lines),
            lang=self.laid.lang,
            font=self.laid.font,
            size=self.laid.size,
            spans=spans,
            frame=frame.rounded() if frame else None,
            joins_previous=self.joins_previous,
        )

    def link_rects(self) -> list[tuple[str, Box]]:
        """(target, rectangle) of every linked stretch, a rectangle per line."""
        found: list[tuple[str, Box]] = []
        for line, baseline in zip(self.lines, self.baselines):
            x = self.left + line.offset
            for piece in line.pieces:
                width = advance(piece.text, piece.style, line.char_space, line.word_space)
                if piece.link:
                    low, high = vertical_extent(piece.style)
                    rect = Box(x, baseline + low, x + width, baseline + high)
                    if found and found[-1][0] == piece.link and abs(found[-1][1].y0 - rect.y0) < 0.01:
                        rect = found[-1][1].union(rect)
                        found.pop()
                    found.append((piece.link, rect.rounded()))
                x += width
        return found


def place(
    laid: Laid,
    left: float,
    first_baseline: float,
    role: Role,
    *,
    translate: bool = True,
    frame_width: float = 0.0,
    lines: slice = slice(None),
    joins_previous: bool = False,
) -> Block:
    chosen = laid.lines[lines]
    baselines = [first_baseline - i * laid.leading for i in range(len(chosen))]
    text = laid.text
    if chosen != laid.lines:
        text = join_lines(chosen, laid.lang)
    return Block(laid, chosen, left, baselines, role, translate, frame_width, joins_previous, text)


def join_lines(lines: Sequence[Line], lang: str = "en") -> str:
    """The lines as a reader should join them (see Unit.text)."""
    out = ""
    for index, line in enumerate(lines):
        text = line.text
        if index + 1 < len(lines):
            if line.ends == "soft":
                text = text[:-1]
            elif line.ends != "hard" and lang != "zh":
                text += " "
        out += text
    return out


def draw_blocks(canvas: Canvas, blocks: Sequence[Block], *, per_line: bool = False) -> None:
    """Draw each block in one text object (``per_line``: each line in its own, in the order given)."""
    for block in blocks:
        pairs = list(zip(block.lines, block.baselines))
        groups = [[pair] for pair in pairs] if per_line else [pairs]
        for group in groups:
            _draw_lines(canvas, block.left, group)


def draw_line_order(canvas: Canvas, blocks: Sequence[Block]) -> None:
    """Draw the lines of all blocks row by row across columns (top to bottom, then left to right), each in
    its own text object, as some producers write two-column pages."""
    rows = [
        (baseline, block.left, block, line) for block in blocks for line, baseline in zip(block.lines, block.baselines)
    ]
    for baseline, left, _block, line in sorted(rows, key=lambda row: (-round(row[0], 1), row[1])):
        _draw_lines(canvas, left, [(line, baseline)])


def _draw_lines(canvas: Canvas, left: float, pairs: Sequence[tuple[Line, float]]) -> None:
    text = canvas.beginText()
    state: tuple[str, float, float, int] | None = None
    for line, baseline in pairs:
        text.setTextOrigin(left + line.offset, baseline)
        text.setWordSpace(line.word_space)
        text.setCharSpace(line.char_space)
        for piece in line.pieces:
            key = (piece.style.font, piece.style.size, piece.style.rise, piece.style.mode)
            if key != state:
                text.setFont(piece.style.font, piece.style.size)
                text.setRise(piece.style.rise)
                text.setTextRenderMode(piece.style.mode)
                state = key
            text.textOut(piece.text)
    modes = any(piece.style.mode for line, _ in pairs for piece in line.pieces)
    if modes:  # the render mode outlives ET: keep it inside q … Q
        canvas.saveState()
    canvas.drawText(text)
    if modes:
        canvas.restoreState()


# ------------------------------------------------------------------------------------------ single strings


def draw_string(
    canvas: Canvas,
    text: str,
    x: float,
    y: float,
    style: Style,
    *,
    angle: float = 0.0,
    align: str = "left",
) -> Box:
    """One line of text at (x, y), turned ``angle`` degrees about its origin; returns its glyph box."""
    width = advance(text, style)
    if align == "center":
        x -= width / 2 * math.cos(math.radians(angle))
        y -= width / 2 * math.sin(math.radians(angle))
    elif align == "right":
        x -= width * math.cos(math.radians(angle))
        y -= width * math.sin(math.radians(angle))
    cos, sin = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    obj = canvas.beginText()
    obj.setTextTransform(cos, sin, -sin, cos, x, y)
    obj.setFont(style.font, style.size)
    obj.setRise(style.rise)
    obj.setTextRenderMode(style.mode)
    obj.textOut(text)
    if style.mode:  # the render mode outlives ET: keep it inside q … Q
        canvas.saveState()
    canvas.drawText(obj)
    if style.mode:
        canvas.restoreState()
    low, high = vertical_extent(style)
    corners = [(0.0, low), (width, low), (0.0, high), (width, high)]
    return Box.around([(x + u * cos - v * sin, y + u * sin + v * cos) for u, v in corners]).rounded()


def string_unit(
    canvas: Canvas,
    page: int,
    text: str,
    x: float,
    y: float,
    style: Style,
    role: Role,
    *,
    translate: bool,
    angle: float = 0.0,
    align: str = "left",
    lang: str = "en",
) -> Unit:
    box = draw_string(canvas, text, x, y, style, angle=angle, align=align)
    return Unit(page, role, text, translate, box, (text,), lang, style.font, style.size, angle)


def draw_vertical(canvas: Canvas, page: int, text: str, x: float, top: float, size: float, role: Role) -> Unit:
    """Chinese set top to bottom with the vertical CMap: ``x`` is the column's centre, ``top`` the first
    character's top."""
    obj = canvas.beginText()
    obj.setTextOrigin(x, top)
    obj.setFont(CJK_VERTICAL_FONT, size)
    obj.textOut(text)
    canvas.drawText(obj)
    # A vertical CID font's glyph hangs below its origin, centred on it (PDF 32000 9.7.4.3, default /DW2).
    box = Box(x - size / 2, top - size * len(text) - size * 0.12, x + size / 2, top + size * 0.12).rounded()
    return Unit(page, role, text, False, box, (text,), "zh", CJK_FONT, size, 270.0)


def name_symbol_glyphs(path: Path) -> None:
    """Give every non-embedded Symbol font an /Encoding with /Differences naming its glyphs (alpha, summation…).

    reportlab writes Symbol with no /Encoding, meaning the font's built-in one; pdfminer then reads its codes
    through StandardEncoding ("a" for α, no width). Word and others write the names out, and so do we.
    """
    import pikepdf
    from reportlab.pdfbase._fontdata_enc_symbol import SymbolEncoding

    differences: list[object] = []
    previous = -2
    for code, name in enumerate(SymbolEncoding):
        if name:
            if not differences or code != previous + 1:
                differences.append(code)
            differences.append(pikepdf.Name("/" + name))
            previous = code
    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        for obj in pdf.objects:
            if isinstance(obj, pikepdf.Dictionary) and obj.get("/BaseFont") == "/Symbol" and "/Encoding" not in obj:
                obj.Encoding = pikepdf.Dictionary(Type=pikepdf.Name.Encoding, Differences=pikepdf.Array(differences))
        pdf.save(path, deterministic_id=True)


def set_page_boxes(path: Path, pages: Sequence[Page]) -> None:
    """Write each page's MediaBox, CropBox and /Rotate as the ground truth says.

    reportlab swaps a rotated page's MediaBox and keeps a CropBox for every later page; the truth is simpler.
    """
    import pikepdf

    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        for page, truth in zip(pdf.pages, pages):
            page.obj.MediaBox = pikepdf.Array([round(v, 4) for v in truth.mediabox])
            if truth.cropbox:
                page.obj.CropBox = pikepdf.Array([round(v, 4) for v in truth.cropbox])
            elif "/CropBox" in page.obj:
                del page.obj.CropBox
            if truth.rotate:
                page.obj.Rotate = truth.rotate
            elif "/Rotate" in page.obj:
                del page.obj.Rotate
        pdf.save(path, deterministic_id=True)
