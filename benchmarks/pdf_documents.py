"""Documents for the PDF writer's benchmarks: a 20-page two-column paper and a 200-page manual.

    python benchmarks/pdf_documents.py --out /tmp/fanyi-pdf-bench          # paper.pdf and manual.pdf
    python benchmarks/pdf_documents.py --out DIR --paper-pages 5 --manual-pages 12 --seed 3

Both are typeset with reportlab (platypus flowables poured into frames page by page, so the page count is exact)
from English that a small grammar writes out of the word lists below: no copied text, the same bytes for the
same seed. Every page of the paper has a vector figure, a ruled table, a display formula in Symbol and italics
and a footnote; the manual has chapters opening on new pages, numbered sections, lists, tables, code listings,
figures, running headers and page numbers, an outline and a contents page whose entries link to the chapters.
"""

from __future__ import annotations

import argparse
import io
import random
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
from PIL import Image as PILImage
from reportlab import rl_config
from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY, TA_LEFT
from reportlab.lib.pagesizes import A4, letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Frame, Image, PageBreak, Paragraph, Preformatted, Spacer, Table, TableStyle
from reportlab.platypus.flowables import ListFlowable, ListItem

# --------------------------------------------------------------------------------------- English, made up

NOUNS = """system model method device sensor signal value result table figure page layout document paragraph
reader writer translator column margin font image chart setting option menu cable battery screen button file
folder report error message network server request response memory process thread queue buffer record field
measure sample estimate variance threshold parameter window filter label caption heading section
manual procedure step operator instrument survey dataset baseline experiment""".split()
ADJECTIVES = """small large simple careful accurate robust default optional new previous following main
different similar common typical useful reliable fast slow early late final initial external internal
visible hidden complete partial strong weak precise noisy stable narrow wide local remote manual automatic""".split()
VERBS = """reduces improves measures records stores reads writes checks compares keeps removes adds changes
controls shows describes produces requires uses replaces moves selects finds opens closes extends limits
supports follows reports explains protects""".split()
ADVERBS = """usually often rarely always quickly slowly carefully clearly directly simply mostly""".split()
PREPOSITIONS = """of for in on with from under after before near""".split()
CONNECTIVES = ["because", "while", "although", "when", "since", "so that", "unless", "whereas"]
OPENERS = [
    "In practice,",
    "As a rule,",
    "For this reason,",
    "In most cases,",
    "By contrast,",
    "In addition,",
    "At the same time,",
    "As expected,",
    "In the first step,",
    "Finally,",
]
# Soft hyphens (U+00AD) in long words: reportlab breaks a word there when a line would otherwise be loose.
HYPHENATED = {
    "translator": "trans\xadla\xadtor",
    "paragraph": "para\xadgraph",
    "procedure": "pro\xadce\xaddure",
    "experiment": "ex\xadper\xadi\xadment",
    "instrument": "in\xadstru\xadment",
    "automatic": "au\xadto\xadmat\xadic",
    "different": "dif\xadfer\xadent",
    "document": "doc\xadu\xadment",
    "parameter": "pa\xadram\xade\xadter",
    "threshold": "thresh\xadold",
    "operator": "op\xader\xada\xadtor",
}


class Prose:
    """English sentences from a seeded grammar: determiners, adjectives, nouns, verbs, clauses."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def noun_phrase(self) -> str:
        words = [self.rng.choice(["the", "the", "a", "each", "every", "this"])]
        if self.rng.random() < 0.55:
            words.append(self.rng.choice(ADJECTIVES))
        words.append(self.rng.choice(NOUNS))
        if words[0] == "a" and words[1][0] in "aeiou":
            words[0] = "an"
        if self.rng.random() < 0.3:
            words += [self.rng.choice(PREPOSITIONS), "the", self.rng.choice(NOUNS)]
        return " ".join(words)

    def clause(self) -> str:
        adverb = self.rng.choice(ADVERBS) + " " if self.rng.random() < 0.25 else ""
        return f"{self.noun_phrase()} {adverb}{self.rng.choice(VERBS)} {self.noun_phrase()}"

    def sentence(self) -> str:
        text = self.clause()
        roll = self.rng.random()
        if roll < 0.35:
            text += f" {self.rng.choice(CONNECTIVES)} {self.clause()}"
        elif roll < 0.5:
            text += f", and {self.clause()}"
        if self.rng.random() < 0.2:
            text = f"{self.rng.choice(OPENERS)} {text}"
        return text[0].upper() + text[1:] + "."

    def paragraph(self, sentences: tuple[int, int] = (3, 7)) -> str:
        words = " ".join(self.sentence() for _ in range(self.rng.randint(*sentences))).split(" ")
        return " ".join(HYPHENATED.get(word, word) for word in words)

    def title(self, words: tuple[int, int] = (2, 4)) -> str:
        """A heading of about ``words`` words: "Remote Sensor", "Stable Filter for the Noisy Signal"."""
        count = self.rng.randint(*words)
        a, n = self.rng.choice(ADJECTIVES), self.rng.choice(NOUNS)
        if count <= 1:
            text = n
        elif count == 2:
            text = f"{a} {n}"
        elif count == 3:
            text = f"{n} {self.rng.choice(['and', 'or'])} {self.rng.choice(NOUNS)}"
        else:
            text = (
                f"{a} {n} {self.rng.choice(['for', 'in', 'with'])} the {self.rng.choice(ADJECTIVES)} "
                f"{self.rng.choice(NOUNS)}"
            )
        return " ".join(w if w in ("and", "or", "for", "in", "with", "the") else w.capitalize() for w in text.split())


# ------------------------------------------------------------------------------------------- page filling


def pour(frame: Frame, story: list[Flowable], canvas: Canvas) -> bool:
    """Draw flowables from the front of ``story`` into ``frame``, splitting the one that does not fit;
    returns False when a PageBreak ends the frame early (the PageBreak is consumed)."""
    while story:
        head = story[0]
        if isinstance(head, PageBreak):
            story.pop(0)
            return False
        if frame.add(head, canvas):
            story.pop(0)
            continue
        parts = frame.split(head, canvas)
        if len(parts) > 1 and frame.add(parts[0], canvas):
            story[0:1] = parts[1:]
        return True
    return True


def fill_pages(
    canvas: Canvas,
    pages: int,
    frames: Callable[[int], list[tuple[Frame, list[Flowable]]]],
    story: Iterator[Flowable],
    decorate: Callable[[Canvas, int], None],
    ahead: int = 40,
) -> None:
    """Exactly ``pages`` pages: each frame gets its own flowables first (a page's figure, its table), then the
    never-ending ``story``; then the page is decorated (headers naming what it holds, footers)."""
    queue: list[Flowable] = []
    for page in range(pages):
        for frame, first in frames(page):
            pour(frame, first, canvas)
            while len(queue) < ahead:
                queue.append(next(story))
            if not pour(frame, queue, canvas):
                break
        decorate(canvas, page)
        canvas.showPage()


def new_canvas(path: Path | io.BytesIO, size: tuple[float, float], title: str) -> Canvas:
    rl_config.useA85 = 0
    canvas = Canvas(str(path) if isinstance(path, Path) else path, pagesize=size, invariant=1, pageCompression=1)
    canvas.setTitle(title)
    canvas.setAuthor("Fanyi benchmarks")
    return canvas


# ------------------------------------------------------------------------------------------------ figures


class Chart(Flowable):
    """A line chart with bars, a curve, markers and labels, drawn with paths."""

    def __init__(self, width: float, height: float, rng: random.Random, label: str) -> None:
        super().__init__()
        self.width, self.height = width, height
        self.values = [rng.uniform(0.2, 1.0) for _ in range(8)]
        self.curve = [rng.uniform(0.1, 0.9) for _ in range(8)]
        self.label = label

    def draw(self) -> None:
        c = self.canv
        x0, y0, w, h = 28, 18, self.width - 36, self.height - 28
        c.setLineWidth(0.6)
        c.line(x0, y0, x0 + w, y0)
        c.line(x0, y0, x0, y0 + h)
        step = w / len(self.values)
        c.setFillColor(colors.HexColor("#9DB7D5"))
        for i, value in enumerate(self.values):
            c.rect(x0 + i * step + step * 0.2, y0, step * 0.6, value * h * 0.9, stroke=0, fill=1)
        c.setStrokeColor(colors.HexColor("#C0392B"))
        c.setLineWidth(1.2)
        path = c.beginPath()
        points = [(x0 + (i + 0.5) * step, y0 + v * h * 0.9) for i, v in enumerate(self.curve)]
        path.moveTo(*points[0])
        for a, b in zip(points, points[1:]):
            path.curveTo(a[0] + step / 3, a[1], b[0] - step / 3, b[1], *b)
        c.drawPath(path, stroke=1, fill=0)
        c.setFillColor(colors.HexColor("#C0392B"))
        for x, y in points:
            c.circle(x, y, 1.6, stroke=0, fill=1)
        c.setFillColor(colors.black)
        c.setStrokeColor(colors.black)
        c.setFont("Helvetica", 6.5)
        for i in range(len(self.values)):
            c.drawCentredString(x0 + (i + 0.5) * step, y0 - 8, str(i + 1))
        for k in range(5):
            c.drawRightString(x0 - 3, y0 + k * h / 4 - 2, f"{k * 25}")
        c.setFont("Helvetica", 7)
        c.drawCentredString(x0 + w / 2, 1, self.label)


class Formula(Flowable):
    """A display formula: italic variables, Symbol operators and Greek, a fraction bar, a number on the right."""

    def __init__(self, width: float, number: int, rng: random.Random) -> None:
        super().__init__()
        self.width, self.height = width, 30
        self.number = number
        self.greek = rng.choice(["α", "β", "γ", "λ", "σ", "θ"])
        self.var = rng.choice(["x", "y", "z", "w"])

    def draw(self) -> None:
        c = self.canv
        x = self.width / 2 - 60
        base = 11
        parts = [
            ("Times-Italic", 11, "E", 0),
            ("Times-Roman", 11, "(", 0),
            ("Symbol", 11, self.greek, 0),
            ("Times-Roman", 11, ") = ", 0),
            ("Times-Roman", 9, "1", 7),
            ("Times-Italic", 9, "n", -7),
            ("Symbol", 16, "∑", -3),
            ("Times-Italic", 11, self.var, 0),
            ("Times-Italic", 7, "i", -3),
            ("Symbol", 11, " − ", 0),
            ("Times-Italic", 11, "c", 0),
            ("Times-Roman", 7, "2", 5),
        ]
        fraction_x = None
        for font, size, text, dy in parts:
            c.setFont(font, size)
            if text == "1":
                fraction_x = x
                c.drawString(x + 1.5, base + dy, text)
                continue
            if text == "n" and fraction_x is not None:
                c.drawString(fraction_x + 1, base + dy, text)
                c.setLineWidth(0.5)
                c.line(fraction_x, base + 3.2, fraction_x + 8, base + 3.2)
                x = fraction_x + 10
                continue
            c.drawString(x, base + dy, text)
            x += c.stringWidth(text, font, size) + (1.5 if font == "Symbol" and size > 12 else 0)
        c.setFont("Times-Roman", 10)
        c.drawRightString(self.width, base, f"({self.number})")


def raster(rng: np.random.Generator, width: int = 160, height: int = 100) -> io.BytesIO:
    """A smooth, photograph-like picture (JPEG), different for every seed."""
    y, x = np.mgrid[0:height, 0:width] / max(width, height)
    field = np.zeros((height, width))
    for _ in range(6):
        cx, cy, r = rng.random(), rng.random() * 0.6, 0.05 + rng.random() * 0.2
        field += np.exp(-((x - cx) ** 2 + (y - cy) ** 2) / r**2)
    field /= field.max()
    rgb = np.stack([0.3 + 0.6 * field, 0.35 + 0.4 * field, 0.6 - 0.3 * field], axis=-1)
    buffer = io.BytesIO()
    PILImage.fromarray((rgb * 255).astype(np.uint8), "RGB").save(buffer, format="JPEG", quality=85)
    buffer.seek(0)
    return buffer


# -------------------------------------------------------------------------------------------------- paper

BODY = ParagraphStyle(
    "body",
    fontName="Times-Roman",
    fontSize=9.5,
    leading=11.5,
    alignment=TA_JUSTIFY,
    firstLineIndent=10,
    embeddedHyphenation=1,
    uriWasteReduce=0.3,
)
HEADING = ParagraphStyle("heading", fontName="Times-Bold", fontSize=11, leading=14, spaceBefore=8, spaceAfter=3)
CAPTION = ParagraphStyle(
    "caption", fontName="Times-Roman", fontSize=8.5, leading=10, alignment=TA_JUSTIFY, spaceBefore=3, spaceAfter=6
)
CELL = ParagraphStyle("cell", fontName="Times-Roman", fontSize=8.5, leading=10)


def write_paper(path: Path, pages: int = 20, seed: int = 0) -> Path:
    """A two-column Letter paper of exactly ``pages`` pages."""
    rng = random.Random(seed)
    prose = Prose(rng)
    images = np.random.default_rng(seed)
    canvas = new_canvas(path, letter, "A Study of " + prose.title())
    width, height = letter
    margin, gutter = 54.0, 16.0
    column = (width - 2 * margin - gutter) / 2
    title = prose.title((4, 7))
    footnote_height = 30.0

    def decorate(c: Canvas, page: int) -> None:
        c.setFont("Times-Italic", 8)
        if page:
            c.drawCentredString(width / 2, height - 36, title)
            c.setLineWidth(0.4)
            c.line(margin, height - 42, width - margin, height - 42)
        c.setFont("Times-Roman", 9)
        c.drawCentredString(width / 2, 30, str(page + 1))
        top = _paper_top(page, height)
        if page == 0:
            front = [
                Paragraph(
                    title, ParagraphStyle("t", fontName="Times-Bold", fontSize=17, leading=21, alignment=TA_CENTER)
                ),
                Spacer(1, 6),
                Paragraph(
                    "Ana Brandt, Jun Park and Omar Haddad",
                    ParagraphStyle("a", fontName="Times-Roman", fontSize=11, leading=14, alignment=TA_CENTER),
                ),
                Spacer(1, 10),
                Paragraph(
                    "<b>Abstract.</b> " + prose.paragraph((5, 6)),
                    ParagraphStyle(
                        "abs", parent=BODY, fontSize=9, leading=11, leftIndent=30, rightIndent=30, firstLineIndent=0
                    ),
                ),
            ]
            Frame(margin, top, width - 2 * margin, height - 50 - top).addFromList(front, c)
        # A footnote closes every page (its mark is in the caption of the page's figure).
        c.setLineWidth(0.5)
        c.line(margin, 44 + footnote_height, margin + 60, 44 + footnote_height)
        Frame(margin, 40, width - 2 * margin, footnote_height, leftPadding=0, bottomPadding=0).addFromList(
            [
                Paragraph(
                    f"<super>{page + 1}</super> {prose.sentence()} {prose.sentence()}",
                    ParagraphStyle("fn", fontName="Times-Roman", fontSize=7.5, leading=9),
                )
            ],
            c,
        )

    def frames(page: int) -> list[tuple[Frame, list[Flowable]]]:
        """Two columns; a vector figure opens the left one and a table the right one on every page."""
        top = _paper_top(page, height)
        bottom = 44 + footnote_height + 6
        figure = [
            Chart(column, 150, rng, prose.title((1, 2))),
            Paragraph(
                f"<b>Figure {page + 1}:</b> {prose.sentence()} {prose.sentence()}<super>{page + 1}</super>", CAPTION
            ),
        ]
        table = [
            Paragraph(f"<b>Table {page + 1}:</b> {prose.sentence()}", CAPTION),
            _table(rng, prose, column),
            Spacer(1, 10),
        ]
        return [
            (Frame(x, bottom, column, top - bottom, leftPadding=0, rightPadding=0), first)
            for x, first in ((margin, figure), (margin + column + gutter, table))
        ]

    fill_pages(canvas, pages, frames, _paper_story(prose, rng, images, column), decorate)
    canvas.save()
    return path


def _paper_top(page: int, height: float) -> float:
    return height - (215 if page == 0 else 54)


def _table(rng: random.Random, prose: Prose, width: float) -> Table:
    header = [prose.title((1, 1)) for _ in range(4)]
    rows = [header] + [
        [Paragraph(prose.title((1, 2)), CELL)] + [f"{rng.uniform(0, 100):.1f}" for _ in range(3)]
        for _ in range(rng.randint(5, 7))
    ]
    table = Table(rows, colWidths=[width * 0.4] + [width * 0.2] * 3)
    table.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, 0), "Times-Bold", 8.5),
                ("FONT", (0, 1), (-1, -1), "Times-Roman", 8.5),
                ("ALIGN", (1, 1), (-1, -1), "RIGHT"),
                ("LINEABOVE", (0, 0), (-1, 0), 0.9, colors.black),
                ("LINEBELOW", (0, 0), (-1, 0), 0.5, colors.black),
                ("LINEBELOW", (0, -1), (-1, -1), 0.9, colors.black),
                ("LINEAFTER", (0, 0), (0, -1), 0.5, colors.black),
                ("TOPPADDING", (0, 0), (-1, -1), 1.5),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
            ]
        )
    )
    return table


def _paper_story(prose: Prose, rng: random.Random, images: np.random.Generator, column: float) -> Iterator[Flowable]:
    section, formula = 0, 0
    while True:
        section += 1
        yield Paragraph(f"{section} {prose.title()}", HEADING)
        for index in range(rng.randint(3, 5)):
            style = BODY if index else ParagraphStyle("first", parent=BODY, firstLineIndent=0)
            text = prose.paragraph()
            if rng.random() < 0.3:  # an inline formula
                words = text.split(" ")
                at = rng.randrange(1, len(words))
                words.insert(
                    at,
                    f"<i>x</i><sub>{rng.randint(1, 9)}</sub> <font face='Symbol'>≤</font> "
                    f"<font face='Symbol'>{rng.choice('αβγδ')}</font>",
                )
                text = " ".join(words)
            yield Paragraph(text, style)
            if rng.random() < 0.45:
                formula += 1
                yield Formula(column, formula, rng)
        if section % 3 == 0:
            yield Image(raster(images), width=column, height=column * 0.55)
            yield Paragraph(f"<b>Figure {section}b:</b> {prose.sentence()}", CAPTION)


# ------------------------------------------------------------------------------------------------- manual

MANUAL_BODY = ParagraphStyle(
    "mbody", fontName="Helvetica", fontSize=10, leading=13.5, alignment=TA_LEFT, spaceAfter=6, embeddedHyphenation=1
)
CHAPTER = ParagraphStyle("chapter", fontName="Helvetica-Bold", fontSize=22, leading=28, spaceAfter=18)
SECTION = ParagraphStyle("section", fontName="Helvetica-Bold", fontSize=13, leading=16, spaceBefore=10, spaceAfter=6)
CODE = ParagraphStyle(
    "code",
    fontName="Courier",
    fontSize=8.5,
    leading=10.5,
    backColor=colors.HexColor("#F0F0F0"),
    borderPadding=4,
    leftIndent=6,
    spaceBefore=6,
    spaceAfter=10,
)


def write_manual(path: Path, pages: int = 200, seed: int = 0) -> Path:
    """A single-column A4 manual of exactly ``pages`` pages, its first a contents page.

    Written twice: the first pass finds on which page each chapter starts, the second lists them on the
    contents page (with links); both passes draw the same pages after the first.
    """
    chapters = _manual_pass(io.BytesIO(), pages, seed, [])
    _manual_pass(path, pages, seed, chapters)
    return path


def _manual_pass(
    target: Path | io.BytesIO, pages: int, seed: int, contents: list[tuple[str, int]]
) -> list[tuple[str, int]]:
    rng = random.Random(seed + 1)
    prose = Prose(rng)
    images = np.random.default_rng(seed + 1)
    canvas = new_canvas(target, A4, "Operating Manual")
    width, height = A4
    margin = 64.0
    running = ["Contents"]
    started: list[tuple[str, int]] = []  # (chapter title, page index) as they are drawn

    def decorate(c: Canvas, page: int) -> None:
        c.setFont("Helvetica", 8)
        c.setFillColor(colors.HexColor("#555555"))
        c.drawString(margin, height - 40, "Operating Manual")
        c.drawRightString(width - margin, height - 40, running[0])
        c.setLineWidth(0.3)
        c.line(margin, height - 45, width - margin, height - 45)
        c.drawCentredString(width / 2, 30, f"Page {page + 1} of {pages}")
        c.setFillColor(colors.black)
        if page == 0:
            _contents(c, contents, margin, width - margin, height - 110)

    def frames(page: int) -> list[tuple[Frame, list[Flowable]]]:
        return [(Frame(margin, 50, width - 2 * margin, height - 110), [])] if page else []

    def story() -> Iterator[Flowable]:
        number = 0
        while True:
            number += 1
            name = f"Chapter {number}   {prose.title((2, 3))}"
            yield PageBreak()
            yield _ChapterStart(running, started, name, f"ch{number}")
            yield Paragraph(name.replace("   ", "<br/>"), CHAPTER)
            yield from _chapter(prose, rng, images, number, width - 2 * margin)

    stream = story()
    next(stream)  # the contents page is drawn by decorate; the first chapter starts on page 2
    fill_pages(canvas, pages, frames, stream, decorate)
    canvas.save()
    return started


def _contents(c: Canvas, chapters: list[tuple[str, int]], left: float, right: float, top: float) -> None:
    """The contents: each chapter with its page number and a link to it, in two columns if need be."""
    c.setFont("Helvetica-Bold", 22)
    c.drawString(left, top, "Contents")
    rows = int((top - 40 - 70) // 15)
    half = (right - left) / 2
    for index, (name, page) in enumerate(chapters[: 2 * rows]):
        x, y = left + (index // rows) * half, top - 40 - (index % rows) * 15
        end = x + (half - 16 if len(chapters) > rows else right - left)
        c.setFont("Helvetica", 9.5)
        c.drawString(x, y, name)
        c.drawRightString(end, y, str(page + 1))
        c.linkRect("", f"ch{name.split()[1]}", (x, y - 3, end, y + 10), relative=0, thickness=0)


class _ChapterStart(Flowable):
    """Where a chapter begins: its outline entry and link target, its name for the running header."""

    def __init__(self, running: list[str], started: list[tuple[str, int]], name: str, key: str) -> None:
        super().__init__()
        self.running, self.started, self.name, self.key = running, started, name, key
        self.width = self.height = 0

    def draw(self) -> None:
        self.canv.bookmarkPage(self.key)
        self.canv.addOutlineEntry(self.name.replace("   ", " "), self.key, level=0)
        self.running[0] = self.name.split("   ", 1)[1]
        self.started.append((self.name, self.canv.getPageNumber() - 1))


def _chapter(
    prose: Prose, rng: random.Random, images: np.random.Generator, number: int, width: float
) -> Iterator[Flowable]:
    for section in range(1, rng.randint(5, 9) + 1):
        yield Paragraph(f"{number}.{section} {prose.title()}", SECTION)
        for _ in range(rng.randint(2, 4)):
            yield Paragraph(prose.paragraph(), MANUAL_BODY)
        roll = rng.random()
        if roll < 0.3:
            items = [ListItem(Paragraph(prose.sentence(), MANUAL_BODY)) for _ in range(rng.randint(3, 5))]
            if rng.random() < 0.5:
                yield ListFlowable(items, bulletType="1", leftIndent=18, bulletFontName="Helvetica")
            else:
                yield ListFlowable(items, bulletType="bullet", start="•", leftIndent=18, bulletFontName="Helvetica")
        elif roll < 0.5:
            rows = [["Setting", "Default", "Minimum", "Maximum"]] + [
                [prose.title((1, 2)), str(rng.randint(1, 50)), str(rng.randint(0, 5)), str(rng.randint(60, 900))]
                for _ in range(rng.randint(4, 8))
            ]
            table = Table(rows, colWidths=[width * 0.4] + [width * 0.2] * 3, hAlign="LEFT")
            table.setStyle(
                TableStyle(
                    [
                        ("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 9),
                        ("FONT", (0, 1), (-1, -1), "Helvetica", 9),
                        ("GRID", (0, 0), (-1, -1), 0.5, colors.HexColor("#777777")),
                        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#DDE4EE")),
                        ("ALIGN", (1, 1), (-1, -1), "RIGHT"),
                    ]
                )
            )
            yield table
            yield Spacer(1, 8)
        elif roll < 0.7:
            command = rng.choice(["configure", "status", "reset", "export", "calibrate"])
            lines = [
                f"$ device {command} --{rng.choice(NOUNS)} {rng.randint(1, 99)}",
                f"{rng.choice(NOUNS)}: {rng.choice(ADJECTIVES)}",
                f"{rng.choice(NOUNS)}: {rng.randint(100, 999)} ms",
                "done",
            ]
            yield Preformatted("\n".join(lines), CODE)
        elif roll < 0.85:
            yield Chart(width * 0.7, 150, rng, prose.title((1, 2)))
            yield Paragraph(f"<i>Figure {number}.{section}: {prose.sentence()}</i>", MANUAL_BODY)
        else:
            yield Image(raster(images), width=width * 0.5, height=width * 0.3)
            yield Paragraph(f"<i>Figure {number}.{section}: {prose.sentence()}</i>", MANUAL_BODY)


# ---------------------------------------------------------------------------------------------------- CLI


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="folder to write paper.pdf and manual.pdf into")
    parser.add_argument("--paper-pages", type=int, default=20)
    parser.add_argument("--manual-pages", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for name, write, pages in (("paper", write_paper, args.paper_pages), ("manual", write_manual, args.manual_pages)):
        start = time.perf_counter()
        path = write(args.out / f"{name}.pdf", pages, args.seed)
        seconds = time.perf_counter() - start
        print(f"{path}: {pages} pages, {path.stat().st_size / 1e6:.2f} MB, written in {seconds:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
