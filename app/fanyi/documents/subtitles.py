"""SubRip (.srt) and WebVTT (.vtt) subtitles.

A block is the lines up to a blank line. In a cue, everything up to the timing line (index or
identifier, timestamps and cue settings) is kept byte for byte; the text lines after it are one unit,
whatever their number, and the translation is written on one line. Blocks without a timing line
(the WEBVTT header, NOTE, STYLE and REGION blocks) are kept as they are. Tags such as <i>, <v Bob>,
<00:01.000> and {\\an8} are markup carried across the translation.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from .base import Unit
from .inline import Kind, Piece, has_words, marked_text, render, source_text
from .stream import Block, StreamDocument, line_ending, too_long

_TAG = re.compile(r"<[^>\n]*>|\{\\[^}\n]*\}")


def open_document(path: Path) -> StreamDocument:
    return StreamDocument(path, parse)


def parse(lines: Iterable[str]) -> Iterator[Block]:
    block: list[str] = []
    size = 0
    cues = 0
    for line in lines:
        if block and (not line.strip() or too_long(size, line)):
            cues += _is_cue(block)
            yield from _blocks(block, cues)
            block, size = [], 0
        if line.strip():
            block.append(line)
            size += len(line)
        else:
            yield Block(line)
    if block:
        yield from _blocks(block, cues + _is_cue(block))


def _timing_index(block: list[str]) -> int | None:
    return next((i for i, line in enumerate(block) if "-->" in line), None)


def _is_cue(block: list[str]) -> bool:
    return _timing_index(block) is not None


def _blocks(block: list[str], cue: int) -> Iterator[Block]:
    timing = _timing_index(block)
    if timing is None or timing == len(block) - 1:
        yield Block("".join(block))
        return
    yield Block("".join(block[: timing + 1]))
    text_lines = block[timing + 1 :]
    pieces: list[Piece] = []
    for n, line in enumerate(text_lines):
        if n:
            pieces.append(Piece(" ", Kind.SEP, ""))  # the translation is one line
        pieces.extend(tag_pieces(line.rstrip("\r\n")))
    raw = "".join(text_lines)
    if not has_words(pieces):
        yield Block(raw)
        return
    eol = line_ending(text_lines[-1])

    def render_cue(translation: str, bilingual: bool) -> str:
        translated = render(pieces, translation) + eol
        return raw + ("" if eol else "\n") + translated if bilingual else translated

    yield Block(raw, Unit(source_text(pieces), f"cue {cue}", marked=marked_text(pieces)), render_cue)


def tag_pieces(text: str) -> list[Piece]:
    """``text`` cut into TEXT pieces and SEP pieces for the tags between them; text inside a tag pair
    (<i>…</i>, <font …>…</font>) is styled."""
    pieces: list[Piece] = []
    position = depth = 0
    for match in _TAG.finditer(text):
        if match.start() > position:
            pieces.append(Piece(text[position : match.start()], styled=depth > 0))
        tag = match.group(0)
        if tag.startswith("</"):
            depth = max(0, depth - 1)
        elif tag.startswith("<") and not tag.endswith("/>"):
            depth += 1
        pieces.append(Piece("", Kind.SEP, tag))
        position = match.end()
    if position < len(text):
        pieces.append(Piece(text[position:], styled=depth > 0))
    return pieces
