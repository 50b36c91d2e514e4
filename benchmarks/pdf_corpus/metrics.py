"""What a translated PDF shows a reader, page by page, measured on the output against the source.

The measures do not ask the reader (``fanyi.documents.pdf.layout``) what it decided, except to say *why* a glyph
was left: they look at the glyphs of both files as pdfminer draws them, with no layout analysis.

- **overlaps**: translated lines (glyphs in the translation's font) drawn over another translated line, or over
  text of the original still on the page. Two lines overlap when the middle 60 % of their heights cross and their
  spans cross by more than a tenth of a font size (a glyph's box is its advance times the font's height, so
  lines of tight leading touch without overlapping).
- **outside**: translated glyphs drawn outside the page's crop box.
- **body prose left**: the page's body text is its most used font and size (Latin letters counted, in lines of
  three words or more: a chart's labels are not prose); its letters still on the output page are "left". Each
  is put down to the reason the reader gave for leaving its paragraph; the reasons a reader expects (code,
  formulas, references, list markers, rotated text, unreadable glyphs…) are *declared*, every other left letter
  (an untranslated paragraph, text taken for a figure's label, a paragraph that could not be drawn) counts
  against the page.
- **code translated**: lines of a listing (two or more, or one standing apart from prose) whose glyphs are nearly
  all in a monospaced font — told by the font's own advances,
  all equal, independently of the reader's test — that are gone from the output.
- **failed units** (translated but not drawn) and the seconds a page takes to read and to write (no model: a
  stand-in translation of realistic length answers at once).
"""

from __future__ import annotations

import re
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from pdfcheck import Glyph, PageView, lines_of, overlaps, pages

from fanyi.documents.job import translate_document
from fanyi.documents.pdf import interpret
from fanyi.documents.pdf.document import PdfDocument
from fanyi.documents.policy import keep_reason
from fanyi.engine.results import Translation

# The reasons a report gives for leaving text as it was that a reader expects (the PDF reader's and the document
# job's, as the report words them; strings rather than the modules' names, so that a tree from before a reason was
# added can be measured with this harness too).
DECLARED = {
    "code", "formula", "reference list", "list marker", "rotated text", "vertical text",
    "text whose font maps no Unicode", "right-to-left text", "a type specimen",
    "text outside the page",
    "numbers or symbols only", "code or URL", "already Chinese", "already in Latin script", "a letter alone",
}  # fmt: skip
UNTRANSLATED = "untranslated"  # in a paragraph the reader translated, yet still on the page
UNREAD = "in no paragraph"  # a glyph the reader did not make part of any paragraph

_LATIN = re.compile(r"[A-Za-z]")
_HAN = re.compile(r"[\u3400-\u9fff]")


def monospaced_fonts(views: Iterable[PageView]) -> set[str]:
    """Fonts whose glyphs (at least eight distinct letters or signs) all advance by one width, narrower than an em
    (a CJK font's Han characters are all one em wide)."""
    advances: defaultdict[str, set[float]] = defaultdict(set)
    chars: defaultdict[str, set[str]] = defaultdict(set)
    for view in views:
        for glyph in view.glyphs:
            if glyph.text.strip() and glyph.upright:
                advances[glyph.font].add(round(glyph.advance, 2))
                chars[glyph.font].add(glyph.text)
    return {
        font
        for font, found in advances.items()
        if len(chars[font]) >= 8 and max(found) - min(found) <= 0.011 and max(found) < 0.8
    }


@dataclass
class PageMetrics:
    number: int
    translated_lines: int = 0
    overlaps: int = 0  # translated lines over another translated line or over text left on the page
    overlap_examples: list[str] = field(default_factory=list)
    outside: int = 0  # translated glyphs outside the page
    body_letters: int = 0  # letters of the page's body font and size in the source
    left: Counter[str] = field(default_factory=Counter)  # body letters still on the page, by why
    left_examples: dict[str, str] = field(default_factory=dict)
    code_lines: int = 0
    code_translated: int = 0
    code_examples: list[str] = field(default_factory=list)

    @property
    def undeclared(self) -> int:
        return sum(n for why, n in self.left.items() if why not in DECLARED)


@dataclass
class DocumentMetrics:
    pages: int = 0
    seconds: float = 0.0  # the whole job but the model: reading, deciding, writing
    units: int = 0
    failed_units: int = 0
    error: str = ""  # the document failed to read or write: why
    report: list[str] = field(default_factory=list)  # the job's report, as `fanyi file` prints it
    page_metrics: list[PageMetrics] = field(default_factory=list)

    def as_dict(self) -> dict[str, object]:
        out = asdict(self)
        for page, metrics in zip(out["page_metrics"], self.page_metrics):
            page["undeclared"] = metrics.undeclared
            page["left"] = dict(metrics.left)
        return out


def _why_left(document: PdfDocument, source: Path, target: str) -> list[dict[tuple[str, float, float], str]]:
    """For each page, each glyph (by ``Glyph.key``) of a paragraph the reader left: its reason; translated: ""."""
    reasons: list[dict[tuple[str, float, float], str]] = []
    with source.open("rb") as handle:
        for content, page in zip(interpret.pages(handle), document.pages):
            by_index = {g.index: g for g in content.glyphs}
            found: dict[tuple[str, float, float], str] = {}
            for paragraph in page.paragraphs:
                for index in paragraph.glyphs:
                    glyph = by_index.get(index)
                    if glyph is not None:
                        key = (glyph.text, round(glyph.box[0], 1), round(glyph.box[1], 1))
                        found[key] = paragraph.keep or keep_reason(paragraph.text, target) or ""
            reasons.append(found)
    return reasons


def _body_font(views: Iterable[PageView]) -> Counter[tuple[str, float]]:
    counts: Counter[tuple[str, float]] = Counter()
    for view in views:
        for glyph in view.glyphs:
            if glyph.upright and _LATIN.match(glyph.text):
                counts[(glyph.font, round(glyph.size, 1))] += 1
    return counts


class StandIn:
    """A translator that answers at once (``translate``: text → text), as the document job calls one."""

    def __init__(self, translate: Callable[[str], str], source_lang: str, target_lang: str) -> None:
        self._translate = translate
        self.source_lang = source_lang
        self.target_lang = target_lang

    def translate_results(
        self, texts: list[str], options: object = None, progress: object = None, cancel: object = None
    ) -> list[Translation]:
        return [Translation(self._translate(text)) for text in texts]


def measure(source: Path, out: Path, translator: StandIn) -> DocumentMetrics:
    """Translate ``source`` into ``out`` as ``fanyi file`` does, with the stand-in ``translator``, and measure every
    page of the output."""
    metrics = DocumentMetrics()
    began = time.perf_counter()
    try:
        result = translate_document(source, translator, dst=out, overwrite=True)  # type: ignore[arg-type]
    except Exception as error:  # noqa: BLE001 - a corpus document that fails is counted, not fatal
        metrics.error = f"{type(error).__name__}: {error}"
        return metrics
    metrics.seconds = time.perf_counter() - began
    report = result.report
    metrics.report = report.summary().splitlines()
    metrics.units = report.total
    metrics.failed_units = report.failed_count
    document = PdfDocument(source)
    metrics.pages = len(document.pages)
    before, after = pages(source), pages(out)
    reasons = _why_left(document, source, translator.target_lang)
    monospaced = monospaced_fonts(before)
    translation_fonts = {g.font for page in after for g in page.glyphs} - {
        g.font for page in before for g in page.glyphs
    }
    whole = _body_font(before)
    for number, (old, new, why) in enumerate(zip(before, after, reasons), 1):
        metrics.page_metrics.append(_page(number, old, new, why, translation_fonts, monospaced, whole))
    return metrics


def _page(
    number: int,
    old: PageView,
    new: PageView,
    why: dict[tuple[str, float, float], str],
    translation_fonts: set[str],
    monospaced: set[str],
    whole: Counter[tuple[str, float]],
) -> PageMetrics:
    page = PageMetrics(number)
    ours = [g for g in new.glyphs if g.font in translation_fonts]
    kept = [g for g in new.glyphs if g.font not in translation_fonts and g.text.strip()]
    page.translated_lines = len(lines_of(g for g in ours if g.text.strip()))
    x0, y0, x1, y1 = new.crop
    page.outside = sum(
        not (x0 - 1 <= g.box[0] and g.box[2] <= x1 + 1 and y0 - 1 <= g.box[1] and g.box[3] <= y1 + 1) for g in ours
    )
    crossing = overlaps(new, translation_fonts)
    page.overlaps = len(crossing)
    page.overlap_examples = [f"{line[:30]!r} over {crossed[:30]!r}" for line, crossed in crossing[:3]]
    # body prose: the page's most used font and size, or the document's where the page has little text
    counts = _body_font([old])
    body = counts.most_common(1)[0][0] if counts else None
    if body is None or counts[body] < 200:
        body = whole.most_common(1)[0][0] if whole else None
    remaining = {g.key() for g in kept}
    prose = _prose(old)
    for glyph in old.glyphs:
        if body is None or (glyph.font, round(glyph.size, 1)) != body or not _LATIN.match(glyph.text):
            continue
        if glyph.key() not in prose:
            continue
        page.body_letters += 1
        if glyph.key() in remaining:
            reason = why.get(glyph.key())
            label = UNREAD if reason is None else reason or UNTRANSLATED
            page.left[label] += 1
            if label not in page.left_examples:
                page.left_examples[label] = _context(old.glyphs, glyph)
    for line in _code_lines(old, monospaced):
        mono = [g for g in line if g.font in monospaced]
        page.code_lines += 1
        if sum(g.key() not in remaining for g in mono) >= 0.5 * len(mono):
            page.code_translated += 1
            if len(page.code_examples) < 3:
                page.code_examples.append("".join(g.text for g in line)[:60])
    return page


def _code_lines(view: PageView, monospaced: set[str]) -> list[list[Glyph]]:
    """Lines of code: lines nearly all in a monospaced font that are a listing's (another such line right above or
    below) or stand apart (no line of prose within two font sizes above or below); a line of a URL or a command
    inside a paragraph of prose is the prose's."""
    lines = lines_of(g for g in view.glyphs if g.text.strip() and g.upright)
    mono = [len(line) >= 3 and sum(g.font in monospaced for g in line) >= 0.8 * len(line) for line in lines]
    found = []
    for i, line in enumerate(lines):
        if not mono[i]:
            continue
        x0, x1 = min(g.box[0] for g in line), max(g.box[2] for g in line)
        y, size = line[0].box[1], line[0].size or 1.0
        neighbours = [
            mono[j]
            for j, other in enumerate(lines)
            if j != i
            and 0.5 * size < abs(other[0].box[1] - y) <= 2 * size
            and min(x1, max(g.box[2] for g in other)) > max(x0, min(g.box[0] for g in other))
        ]
        if any(neighbours) or not neighbours:
            found.append(line)
    return found


def _prose(view: PageView) -> set[tuple[str, float, float]]:
    """The glyphs of the page's lines of prose, three words or more (a chart's labels and a table's cells of one
    word are not the prose a reader would miss)."""
    found: set[tuple[str, float, float]] = set()
    for line in lines_of(g for g in view.glyphs if g.upright and g.text.strip()):
        words = 1 + sum(b.box[0] - a.box[2] > 0.12 * (b.size or 1.0) for a, b in zip(line, line[1:]))
        if words >= 3:
            found.update(g.key() for g in line)
    return found


def _context(glyphs: list[Glyph], glyph: Glyph) -> str:
    """The text of the line a glyph stands on, from it on: where a reader would find it."""
    for line in lines_of(g for g in glyphs if g.upright):
        if glyph in line:
            found = line[line.index(glyph) :]
            text = found[0].text
            for a, b in zip(found, found[1:]):
                text += (" " if b.box[0] - a.box[2] > 0.12 * b.size else "") + b.text
            return text[:50]
    return glyph.text
