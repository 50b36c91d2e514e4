"""Line-based formats (.txt, .md, .srt, .vtt) read as a stream of blocks, so memory stays bounded.

A format supplies ``parse(lines) -> blocks``. Each block is either raw text written back as it was,
or a unit with a ``render`` function that turns its translation into output text. The file is parsed
again for each pass (counting, translating, writing); parsing is cheap next to translation. A block
holds at most ``MAX_UNIT_CHARS`` (a parser cuts a longer one at a line end, see ``too_long``), and a
line at most ``MAX_LINE_CHARS``, so memory does not grow with the file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from fanyi.limits import MAX_UNIT_CHARS

from .base import Unit
from .textio import detect_encoding, read_lines, text_writer


@dataclass(frozen=True)
class Block:
    raw: str  # the source text of this block, line endings included
    unit: Unit | None = None
    render: Callable[[str, bool], str] | None = None  # (translation, bilingual) -> output text


Parser = Callable[[Iterable[str]], Iterator[Block]]


class StreamDocument:
    """A text file, decoded with its detected encoding and written back as UTF-8."""

    notes: tuple[str, ...] = ()

    def __init__(self, path: Path, parse: Parser) -> None:
        self._path = path
        self._parse = parse
        self._codec = detect_encoding(path)

    def _blocks(self) -> Iterator[Block]:
        return self._parse(read_lines(self._path, self._codec))

    def units(self) -> Iterator[Unit]:
        return (block.unit for block in self._blocks() if block.unit is not None)

    def write(self, out: BinaryIO, translations: Iterator[str | None], *, bilingual: bool, target_lang: str) -> None:
        with text_writer(out) as text:
            for block in self._blocks():
                translation = next(translations) if block.unit is not None else None
                if translation is None or block.render is None:
                    text.write(block.raw)
                else:
                    text.write(block.render(translation, bilingual))


def too_long(size: int, line: str) -> bool:
    """Whether a block of ``size`` characters must end before ``line``: it would hold too much text at once."""
    return size + len(line) > MAX_UNIT_CHARS


def line_ending(line: str) -> str:
    """The line ending of ``line`` ("" for a last line without one)."""
    return line[len(line.rstrip("\r\n")) :]
