"""Reading order and paragraphs of recognised lines: what is translated, in the order it is read.

1. Rows: lines whose boxes overlap vertically by half the lower one's height are one row, read
   left to right; rows are read top to bottom.
2. Columns: a row with a wide gap (COLUMN_GAP × its height) is cut into segments there. Rows
   below one another whose segments stand in the same columns form a section; a section whose
   columns are all wide (COLUMN_WIDTH line heights: text, not a form's labels and values) and
   two rows or more is read column by column, as a two-column page is. Any other row is read
   across.
3. Paragraphs: within a column, a vertical gap of PARAGRAPH_GAP line heights or a first-line
   indent of INDENT line heights starts a new paragraph; the lines of one are joined as a PDF's
   hard-wrapped lines are (``join_hard_wrapped``: a line ending a sentence, or short, keeps its
   break), unless even the widest is short (under WRAPPED_WIDTH line heights: a menu, a list
   of names), which is not wrapped text.
"""

from __future__ import annotations

import statistics
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar, cast

from fanyi.engine import join_hard_wrapped

COLUMN_GAP = 2.0
COLUMN_WIDTH = 10.0
PARAGRAPH_GAP = 0.8
INDENT = 1.5
WRAPPED_WIDTH = 12.0


class Boxed(Protocol):
    @property
    def text(self) -> str: ...
    @property
    def box(self) -> tuple[float, float, float, float]: ...  # left, top, right, bottom; y downwards


B = TypeVar("B", bound=Boxed)


@dataclass
class Row:
    """Lines of one row (or of one column's part of it), left to right."""

    lines: list[Boxed]

    @property
    def left(self) -> float:
        return min(line.box[0] for line in self.lines)

    @property
    def right(self) -> float:
        return max(line.box[2] for line in self.lines)

    @property
    def top(self) -> float:
        return min(line.box[1] for line in self.lines)

    @property
    def bottom(self) -> float:
        return max(line.box[3] for line in self.lines)

    @property
    def height(self) -> float:
        return max(1, self.bottom - self.top)

    def text(self) -> str:
        out = ""
        for line in self.lines:
            piece = line.text.strip()
            if out and piece and not (_wide(out[-1]) and _wide(piece[0])):
                out += " "
            out += piece
        return out


def _wide(char: str) -> bool:
    return unicodedata.east_asian_width(char) in ("W", "F")


def _rows(lines: Sequence[Boxed]) -> list[Row]:
    rows: list[Row] = []
    for line in sorted(lines, key=lambda ln: (ln.box[1] + ln.box[3], ln.box[0])):
        if rows:
            row = rows[-1]
            overlap = min(row.bottom, line.box[3]) - max(row.top, line.box[1])
            if overlap >= 0.5 * min(row.height, max(1, line.box[3] - line.box[1])):
                row.lines.append(line)
                continue
        rows.append(Row([line]))
    for row in rows:
        row.lines.sort(key=lambda ln: ln.box[0])
    return rows


def _segments(row: Row) -> list[Row]:
    """The row cut at gaps wider than COLUMN_GAP × its height."""
    parts = [Row([row.lines[0]])]
    for line in row.lines[1:]:
        if line.box[0] - parts[-1].right > COLUMN_GAP * row.height:
            parts.append(Row([line]))
        else:
            parts[-1].lines.append(line)
    return parts


def _overlaps(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return a[0] <= b[1] and b[0] <= a[1]


class _Section:
    """Rows below one another whose segments stand in the same columns."""

    def __init__(self, segments: list[Row]) -> None:
        self.spans = [(s.left, s.right) for s in segments]
        self.columns: list[list[Row]] = [[s] for s in segments]
        self.rows = 1

    def take(self, segments: list[Row]) -> bool:
        """Add the row if each segment stands in one column of its own, and in no other."""
        chosen = []
        for segment in segments:
            hits = [i for i, span in enumerate(self.spans) if _overlaps(span, (segment.left, segment.right))]
            if len(hits) != 1 or hits[0] in chosen:
                return False
            chosen.append(hits[0])
        for i, segment in zip(chosen, segments):
            self.columns[i].append(segment)
            self.spans[i] = (min(self.spans[i][0], segment.left), max(self.spans[i][1], segment.right))
        self.rows += 1
        return True

    def blocks(self, line_height: float) -> list[list[Row]]:
        """Each column as a block, or when this is not text in columns, one block of whole rows."""
        wide = all(right - left >= COLUMN_WIDTH * line_height for left, right in self.spans)
        if len(self.columns) == 1 or (wide and self.rows > 1):
            return self.columns
        pieces = sorted((s for column in self.columns for s in column), key=lambda s: (s.top + s.bottom, s.left))
        return [_rows([line for piece in pieces for line in piece.lines])]


def blocks(lines: Sequence[Boxed]) -> list[list[Row]]:
    """The lines as blocks (columns, or runs of rows read across) of rows, in reading order."""
    rows = _rows(lines)
    if not rows:
        return []
    line_height = statistics.median(row.height for row in rows)
    sections: list[_Section] = []
    for row in rows:
        segments = _segments(row)
        if not (sections and sections[-1].take(segments)):
            sections.append(_Section(segments))
    return [block for section in sections for block in section.blocks(line_height)]


def reading_order(lines: Sequence[B]) -> list[B]:
    """The lines in the order they are read."""
    return cast(list[B], [line for block in blocks(lines) for row in block for line in row.lines])


def paragraph_rows(lines: Sequence[Boxed]) -> list[list[Row]]:
    """The rows of each paragraph, in reading order."""
    out = []
    for block in blocks(lines):
        height = statistics.median(row.height for row in block)
        current: list[Row] = []
        for row in block:
            if current and (
                row.top - current[-1].bottom > PARAGRAPH_GAP * height or row.left - current[-1].left > INDENT * height
            ):
                out.append(current)
                current = []
            current.append(row)
        out.append(current)
    return out


def paragraphs(lines: Sequence[Boxed]) -> list[str]:
    """The text of the lines as paragraphs, in reading order."""
    return [text for text in map(joined, paragraph_rows(lines)) if text.strip()]


def joined(rows: list[Row]) -> str:
    """A paragraph's rows as its text."""
    lines = "\n".join(row.text() for row in rows)
    wrapped = max(row.right - row.left for row in rows) >= WRAPPED_WIDTH * rows[0].height
    return join_hard_wrapped(lines) if wrapped else lines


def text(lines: Sequence[Boxed]) -> str:
    """The paragraphs of ``paragraphs(lines)``, a blank line between them."""
    return "\n\n".join(paragraphs(lines))
