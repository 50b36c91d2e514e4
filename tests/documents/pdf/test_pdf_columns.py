"""Two columns closer than a gutter is usually drawn: LaTeX sets them 10 points apart in a 10-point article (8 with
some classes), justified, baselines level, so a glyph gap alone does not tell the gutter from a wide space; and a
line that cannot be broken (a long file name) runs on across the gutter into the next column."""

from __future__ import annotations

import itertools

import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from fanyi.documents.pdf.document import PdfDocument

LEFT_WORDS = "alpha beta gamma delta epsilon zeta theta kappa lambda sigma omega".split()
RIGHT_WORDS = "apple cherry grape lemon mango melon olive peach pear plum quince".split()
SIZE = 10.0
LINES = 24


def _column_lines(words: list[str], seed: int) -> list[str]:
    cycle = itertools.cycle(words[seed:] + words[:seed])
    return [" ".join(next(cycle) for _ in range(5 + (i * 7 + seed) % 3)) for i in range(LINES)]


def _overfull(reach: float) -> str:
    """Left-column words that, drawn from x = 54, end past ``reach``."""
    words = itertools.cycle(LEFT_WORDS)
    text = next(words)
    while 54 + stringWidth(text, "Times-Roman", SIZE) < reach:
        text += " " + next(words)
    return text


def _justified(canvas: Canvas, x: float, y: float, text: str, width: float) -> None:
    line = canvas.beginText(x, y)
    line.setFont("Times-Roman", SIZE)
    line.setWordSpace(max(0.0, (width - stringWidth(text, "Times-Roman", SIZE)) / text.count(" ")))
    line.textOut(text)
    canvas.drawText(line)


def _two_columns(path, gutter: float, row_by_row: bool, overfull: bool = False) -> list[str]:
    """Two justified columns: the left one's lines from x = 54 to 300, the right one's ``gutter`` later; with
    ``overfull``, the left column's sixth line runs on 40 points into the right column. The lines drawn."""
    canvas = Canvas(str(path), pagesize=(612, 792))
    left, right = _column_lines(LEFT_WORDS, 0), _column_lines(RIGHT_WORDS, 3)
    if overfull:
        left[5] = _overfull(300 + gutter + 40)
    baselines = [720 - 12 * i for i in range(LINES)]
    drawn = [("left", y, text) for y, text in zip(baselines, left)] + [
        ("right", y, text) for y, text in zip(baselines, right)
    ]
    if row_by_row:  # both columns' text of a baseline one after the other
        drawn.sort(key=lambda item: (-item[1], item[0]))
    for side, y, text in drawn:
        if side == "left":
            _justified(canvas, 54, y, text, 246 if text != left[5] or not overfull else 0)
        else:
            _justified(canvas, 300 + gutter, y, text, 246)
    canvas.showPage()
    canvas.save()
    return left + right


@pytest.mark.parametrize("gutter", [7.0, 10.0])
@pytest.mark.parametrize("row_by_row", [False, True])
@pytest.mark.parametrize("overfull", [False, True])
def test_close_columns_are_read_one_after_the_other(tmp_path, gutter, row_by_row, overfull):
    path = tmp_path / "columns.pdf"
    drawn = _two_columns(path, gutter, row_by_row, overfull)
    units = [unit.text for unit in PdfDocument(path).units()]
    words = [set(text.split()) for text in units]
    assert all(w <= set(LEFT_WORDS) or w <= set(RIGHT_WORDS) for w in words), units
    sides = ["left" if w <= set(LEFT_WORDS) else "right" for w in words]
    assert sides == sorted(sides), units  # the left column read first, then the right
    assert sum(len(text.split()) for text in units) == sum(len(line.split()) for line in drawn)
