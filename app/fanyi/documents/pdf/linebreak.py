"""A translation broken into lines and fitted into its paragraph's box: pure functions (no PDF, no Qt).

API (everything else is private):

    Measure = Callable[[str, float], float]
        The width in points of a text at a size: additive over concatenation and proportional to the size, as a
        PDF advances glyph by glyph (fonts.Face.advance is one).
    spaced(text) -> str
        ``text`` with a half-width space between a Han character and a Latin letter or digit where none is written.
    break_lines(text, width, size, measure) -> list[str]
        ``spaced(text)`` as lines no wider than ``width`` points at ``size``: Chinese breaks between any two Han
        characters, but no line starts with a closing mark (，。、；：？！）」』】》〉…” and the like) or ends with an
        opening one (（「『【《〈“ …); Latin words are not split, unless one is wider than a line; written
        spaces and newlines are kept, and a line broken at spaces neither ends nor (after the first) starts
        with them.
    Box(x0, y0, x1, y1)
        A rectangle in PDF user space (y upwards).
    fit(text, box, room, size, measure, *, floor=FLOOR, leading=None, largest=1.0, minimum=MINIMUM_SIZE,
        ascent=ASCENT, descent=DESCENT) -> Fit
        The translation laid out in the paragraph's ``box`` at its original ``size``, else in ``room`` (a larger
        box around it the caller found free), else in ``room`` at sizes shrinking in steps of STEP down to
        ``floor`` × size, and below that down to ``minimum`` points (Fit.overflowed: the caller counts it). What
        does not fit even then is left out (Fit.cut, the last line kept ends with "…"). Fit.lines never leave
        the box they were fitted into (Fit.box), glyphs' ascent and descent included. Lines are ``leading``
        apart (the original paragraph's baseline distance at ``size``, scaled with the size; LEADING × size when
        unknown). ``largest`` caps the scale (common_scale's answer, for the second pass below).
    common_scale(needed, floor=FLOOR) -> float
        One scale for all paragraphs of a role (body, heading, caption, footnote, list item, table cell...).

The rule for one scale per role: fit every paragraph of the role alone (largest=1.0) and pass their Fit.scale
to common_scale; it answers the largest scale that nine paragraphs in ten fit at (the smallest scale of all of
them when the role has fewer than ten; never below ``floor``, never above 1). Then fit again with
largest=common for every paragraph whose own scale reached it, so the role is drawn at one size; the few that
need less than the common scale keep their own fit, smaller (the caller counts them as shrunk on their own). A
single long paragraph therefore cannot shrink a whole document's body text, and body text does not jump
between sizes from paragraph to paragraph.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

Measure = Callable[[str, float], float]

STEP = 0.05  # shrink in steps of 5 % of the original size
FLOOR = 0.7  # the scale a paragraph is shrunk to before it counts as overflowed
MINIMUM_SIZE = 4.0  # points: the hard minimum an overflowing paragraph is shrunk to
LEADING = 1.2  # baseline distance in ems when the original paragraph's is unknown (it was one line)
ASCENT, DESCENT = 0.88, 0.12  # the ideographic em box of CJK faces (fonts.Face.ascent/descent say a face's own)
ELLIPSIS = "…"

# no line starts with these (closing brackets and quotes, pause and stop marks, iteration marks)
NO_START = frozenset("，。、；：？！）］｝〕〗〙〛」』】》〉”’…‥·・％‰℃°,.;:?!)]}%｡､〃々ゝゞヽヾー")
# no line ends with these (opening brackets and quotes)
NO_END = frozenset("（［｛〔〖〘〚「『【《〈“‘([{")
_EPSILON = 1e-6  # points: what a box's edge may be crossed by (rounding)
_SLACK = 1e-9  # the same at size 1, where lines are broken


def _is_han(char: str) -> bool:
    code = ord(char)
    return (
        0x4E00 <= code <= 0x9FFF
        or 0x3400 <= code <= 0x4DBF
        or 0xF900 <= code <= 0xFAFF
        or 0x20000 <= code <= 0x3FFFF
        or code == 0x3007
    )


def _is_cjk(char: str) -> bool:
    """Characters a line may break before or after without a space: Han, kana, bopomofo, CJK symbols and
    punctuation, full-width forms."""
    code = ord(char)
    return (
        _is_han(char)
        or 0x2E80 <= code <= 0x2FFF  # radicals, ideographic description
        or 0x3000 <= code <= 0x33FF  # CJK symbols and punctuation, kana, bopomofo, enclosed and compatibility
        or 0xFE30 <= code <= 0xFE4F  # CJK compatibility forms
        or 0xFF00 <= code <= 0xFFEF  # full-width and half-width forms
    )


_ALNUM = "0-9A-Za-z\u00c0-\u024f"
_HAN = "\u3007\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003ffff"
_HAN_THEN_LATIN = re.compile(f"(?<=[{_HAN}])(?=[{_ALNUM}])|(?<=[{_ALNUM}])(?=[{_HAN}])")
_NEWLINE = re.compile("\r\n|[\r\n\u2028\u2029\x0b\x0c\x85]")
_SPACE = re.compile(r"[^\S\n]+")
# runs that are one unit: dashes and ellipses (——, ……) are never split
_RUN = re.compile("—+|…+|⋯+|‥+")


def spaced(text: str) -> str:
    """A half-width space between Han and Latin letters or digits where none is written (中文English → 中文 English)."""
    return _HAN_THEN_LATIN.sub(" ", text)


def _atoms(paragraph: str) -> Iterator[str]:
    """The paragraph cut into units no line break may enter: whitespace runs, single CJK characters, dash and
    ellipsis runs, and runs of anything else (a Latin word with the punctuation written against it)."""
    i, n = 0, len(paragraph)
    while i < n:
        char = paragraph[i]
        if match := (_SPACE.match(paragraph, i) or _RUN.match(paragraph, i)):
            end = match.end()
        elif _is_cjk(char):
            end = i + 1
        else:
            end = i + 1
            while end < n and not (_is_cjk(paragraph[end]) or paragraph[end].isspace() or _RUN.match(paragraph, end)):
                end += 1
        yield paragraph[i:end]
        i = end


def _breakable(before: str, after: str) -> bool:
    """May a line end with the unit ``before`` and the next start with the unit ``after`` (no space between)?"""
    return (
        (_is_cjk(before[-1]) or _is_cjk(after[0]) or bool(_RUN.fullmatch(before)) or bool(_RUN.fullmatch(after)))
        and after[0] not in NO_START
        and before[-1] not in NO_END
    )


def _segments(paragraph: str) -> list[tuple[str, str]]:
    """(whitespace before, text) pieces between the places a line may break. A space is a place to break unless
    the kinsoku rules forbid it there; then it stays inside the piece."""
    segments: list[tuple[str, str]] = []
    space, last = "", ""
    for atom in _atoms(paragraph):
        if atom[0].isspace():
            space += atom
            continue
        if not segments or (space and last[-1] not in NO_END and atom[0] not in NO_START):
            segments.append((space, atom))
        elif space or not _breakable(last, atom):
            before, text = segments[-1]
            segments[-1] = (before, text + space + atom)
        else:
            segments.append(("", atom))
        space, last = "", atom
    return segments


# (whitespace before, text, the whitespace's width, the text's width): widths at size 1, since a measure is
# proportional to the size; a paragraph is measured once, then broken at every size tried
_Segments = list[tuple[str, str, float, float]]


def _measured(paragraph: str, measure: Measure) -> _Segments:
    return [(space, text, measure(space, 1.0), measure(text, 1.0)) for space, text in _segments(paragraph)]


def _paragraphs(text: str, measure: Measure) -> list[_Segments]:
    return [_measured(paragraph.replace("\t", " "), measure) for paragraph in _NEWLINE.split(spaced(text))]


def _split_word(text: str, width: float, measure: Measure) -> list[str]:
    """A piece wider than a line cut by characters into lines of ``width`` (at size 1); each holds one character
    at least."""
    pieces, current, current_width = [], "", 0.0
    for char in text:
        char_width = measure(char, 1.0)
        if current and current_width + char_width > width + _SLACK:
            pieces.append(current)
            current, current_width = "", 0.0
        current += char
        current_width += char_width
    pieces.append(current)
    return pieces


def _break_paragraph(segments: _Segments, width: float, measure: Measure) -> list[str]:
    """Greedy, ``width`` at size 1: each line takes as many pieces as fit. A piece wider than a line starts a line
    of its own and is cut by characters (a long URL), as browsers do with overflow-wrap."""
    lines: list[str] = []
    line, line_width = "", 0.0
    for index, (space, text, space_width, text_width) in enumerate(segments):
        if index == 0:
            line, line_width = space, space_width  # the first line keeps its indent
        joined = bool(line.strip())
        added = (space_width if joined else 0.0) + text_width
        if line_width + added <= width + _SLACK:
            line, line_width = line + (space if joined else "") + text, line_width + added
            continue
        if joined:
            lines.append(line.rstrip())
        *full, line = _split_word(text, width, measure)
        lines += full
        line_width = measure(line, 1.0)
    lines.append(line.rstrip())
    return lines


def _lines(paragraphs: list[_Segments], width: float, size: float, measure: Measure) -> list[str]:
    return [line for segments in paragraphs for line in _break_paragraph(segments, width / size, measure)]


def break_lines(text: str, width: float, size: float, measure: Measure) -> list[str]:
    """``spaced(text)`` in lines no wider than ``width`` at ``size`` (see the module's docstring); a paragraph
    break (a newline) is kept as a line break, an empty line for an empty paragraph. Only a character wider than
    ``width`` on its own makes a line wider."""
    return _lines(_paragraphs(text, measure), width, size, measure)


# --- fitting -----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Box:
    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.y1 - self.y0


@dataclass(frozen=True)
class Line:
    text: str
    x: float  # where the baseline starts
    y: float  # the baseline
    width: float  # points


@dataclass(frozen=True)
class Fit:
    lines: tuple[Line, ...]
    size: float  # points
    scale: float  # size / the original size
    leading: float  # baseline to baseline, points
    box: Box  # what the lines were fitted into: the paragraph's box or the room
    overflowed: bool  # shrunk below the floor
    cut: bool  # did not fit even at the minimum size: lines were left out


def _scales(largest: float, floor: float, smallest: float) -> list[float]:
    """``largest``, then down in steps of STEP to ``floor`` (itself included), then on to ``smallest``."""
    scales, scale = [], largest
    while scale > floor + _EPSILON:
        scales.append(scale)
        scale = round(scale - STEP, 6)
    scales.append(floor)
    scale = round(floor - STEP, 6)
    while scale > smallest + _EPSILON:
        scales.append(scale)
        scale = round(scale - STEP, 6)
    if smallest < floor - _EPSILON:
        scales.append(smallest)
    return scales


def _height(lines: int, size: float, leading: float, ascent: float, descent: float) -> float:
    return (ascent + descent) * size + (lines - 1) * leading if lines else 0.0


def _placed(
    lines: Iterable[str], box: Box, size: float, leading: float, ascent: float, measure: Measure
) -> tuple[Line, ...]:
    top = box.y1 - ascent * size
    return tuple(Line(text, box.x0, top - i * leading, measure(text, size)) for i, text in enumerate(lines))


def _clipped(line: str, width: float, size: float, measure: Measure, mark: str = "") -> str:
    """``line`` cut short to fit in ``width`` with ``mark`` after it (the mark alone if nothing else fits, nothing
    if not even the mark fits)."""
    line = line.rstrip() if mark else line
    while line and measure(line + mark, size) > width + _EPSILON:
        line = line[:-1].rstrip() if mark else line[:-1]
    return line + mark if measure(line + mark, size) <= width + _EPSILON else line


def fit(
    text: str,
    box: Box,
    room: Box,
    size: float,
    measure: Measure,
    *,
    floor: float = FLOOR,
    leading: float | None = None,
    largest: float = 1.0,
    minimum: float = MINIMUM_SIZE,
    ascent: float = ASCENT,
    descent: float = DESCENT,
) -> Fit:
    """``text`` laid out in ``box`` or ``room`` at the largest size that fits (see the module's docstring)."""
    if size <= 0 or largest <= 0:
        raise ValueError("the size and the largest scale must be positive")
    # the original baseline distance in ems, never closer than the glyphs' own height
    ratio = max(leading / size if leading else LEADING, ascent + descent)
    floor = min(floor, largest)
    smallest = min(minimum / size, floor)
    if not text.strip():
        return Fit((), size * largest, largest, ratio * size * largest, box, False, False)
    paragraphs = _paragraphs(text, measure)

    def lay_out(scale: float, target: Box) -> Fit | None:
        points = size * scale
        if target.width <= 0:
            return None
        lines = _lines(paragraphs, target.width, points, measure)
        wide = any(measure(line, points) > target.width + _EPSILON for line in lines)
        if wide or _height(len(lines), points, ratio * points, ascent, descent) > target.height + _EPSILON:
            return None
        placed = _placed(lines, target, points, ratio * points, ascent, measure)
        return Fit(placed, points, scale, ratio * points, target, scale < floor - _EPSILON, False)

    for target in (box, room):
        if (found := lay_out(largest, target)) is not None:
            return found
    # the largest scale of the rest that fits in the room, by bisection: a smaller size never needs more lines
    # (each line holds at least as much), so what fits at one scale fits at every smaller one
    scales = _scales(largest, floor, smallest)[1:]
    best: Fit | None = None
    low, high = 0, len(scales)
    while low < high:
        middle = (low + high) // 2
        if (found := lay_out(scales[middle], room)) is not None:
            best, high = found, middle
        else:
            low = middle + 1
    if best is not None:
        return best
    # not even the smallest size fits all: the lines that fit, the last ending with an ellipsis
    points = size * smallest
    lines = _lines(paragraphs, room.width, points, measure) if room.width > 0 else []
    spare = room.height - (ascent + descent) * points
    keep = math.floor(spare / (ratio * points) + _EPSILON) + 1 if spare >= -_EPSILON else 0
    kept = [_clipped(line, room.width, points, measure) for line in lines[:keep]]  # a glyph wider than the room
    if kept and len(lines) > len(kept):
        kept[-1] = _clipped(kept[-1], room.width, points, measure, ELLIPSIS)
    placed = _placed(kept, room, points, ratio * points, ascent, measure)
    return Fit(placed, points, smallest, ratio * points, room, True, True)


def common_scale(needed: Iterable[float], floor: float = FLOOR) -> float:
    """The scale a role's paragraphs are drawn at, from the scale each one needs alone (see the module's
    docstring): the largest that nine in ten of them fit at, between ``floor`` and 1."""
    scales = sorted(needed)
    if not scales:
        return 1.0
    return min(1.0, max(floor, scales[len(scales) // 10]))
