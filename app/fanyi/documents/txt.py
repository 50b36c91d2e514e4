"""Plain text: a paragraph is a run of non-blank lines; a list item or an indented first line starts a new one.

A paragraph's hard-wrapped lines are joined before translation (``join_hard_wrapped``: a line
break after a sentence end or a short line stays), and its translation is written after the
paragraph's indent and list marker without re-wrapping (a wrap width means nothing for Chinese).
Blank lines and line endings are kept as they were. A paragraph longer than ``MAX_UNIT_CHARS`` (a
book with no blank lines is one paragraph) is cut at a line end, so memory stays bounded.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from fanyi.engine import join_hard_wrapped

from .base import Unit
from .stream import Block, StreamDocument, line_ending, too_long

_MARKER = re.compile(r"\s*(?:[-*•·]|\(?\d{1,3}[.)]|\(?[a-zA-Z][.)])\s+(?=\S)")
_INDENT = re.compile(r"\s*")


def open_document(path: Path) -> StreamDocument:
    return StreamDocument(path, parse)


def parse(lines: Iterable[str]) -> Iterator[Block]:
    paragraph: list[str] = []
    size = 0
    count = 0
    for line in lines:
        if paragraph and (not line.strip() or _starts_paragraph(line, paragraph) or too_long(size, line)):
            count += 1
            yield paragraph_block(paragraph, f"paragraph {count}")
            paragraph, size = [], 0
        if line.strip():
            paragraph.append(line)
            size += len(line)
        else:
            yield Block(line)
    if paragraph:
        yield paragraph_block(paragraph, f"paragraph {count + 1}")


def _starts_paragraph(line: str, paragraph: list[str]) -> bool:
    if _MARKER.match(line):
        return True
    # First-line-indent style: an indented line after a flush one opens the next paragraph,
    # except inside a list item, whose continuation lines are indented.
    return line[:1].isspace() and not paragraph[-1][:1].isspace() and not _MARKER.match(paragraph[0])


def paragraph_block(lines: list[str], where: str) -> Block:
    prefix = (_MARKER.match(lines[0]) or _INDENT.match(lines[0])).group(0)  # type: ignore[union-attr]
    text = join_hard_wrapped("\n".join(line.strip() for line in [lines[0][len(prefix) :], *lines[1:]]))
    eol = line_ending(lines[-1])
    raw = "".join(lines)
    indent = " " * len(prefix)

    def render(translation: str, bilingual: bool) -> str:
        body = translation.replace("\n", (eol or "\n") + indent)  # lines the source kept apart
        if not bilingual:
            return prefix + body + eol
        return raw + ("" if eol else "\n") + indent + body + eol

    return Block(raw, Unit(text, where), render)
