"""Markdown, read line by line.

Translated: paragraphs (wrapped lines joined by ``join_hard_wrapped``), ATX and setext headings,
list items, block quotes, footnote definitions and table cells, each keeping its markers (``#``,
``-``, ``1.``, ``>``, ``|``); a translation is written on one line (a line break that the joining
kept stays, inside the same quote or list item).
Untouched: front matter, fenced and indented code, HTML blocks, link reference definitions,
thematic breaks, table delimiter rows. Inside a unit, inline code, URLs, link targets, inline
HTML and emphasis markers are carried across the translation (see ``inline``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from fanyi.engine import join_hard_wrapped

from .base import Unit
from .inline import Kind, Piece, has_words, marked_text, render, source_text
from .stream import Block, StreamDocument, line_ending, too_long

_QUOTE = re.compile(r"\s{0,3}(?:>\s?)+")
_FENCE = re.compile(r"\s{0,3}(`{3,}|~{3,})")
_HEADING = re.compile(r"(\s{0,3}#{1,6}\s+)(.*?)(\s+#+)?\s*$")
_BREAK = re.compile(r"\s{0,3}([-*_])(?:\s*\1){2,}\s*$")
_SETEXT = re.compile(r"\s{0,3}(?:=+|-+)\s*$")
_ITEM = re.compile(r"\s*(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?(?=\S)")
_FOOTNOTE = re.compile(r"\s{0,3}\[\^[^\]]+\]:\s*(?=\S)")
_LINK_DEF = re.compile(r"\s{0,3}\[[^\]]+\]:\s*\S")
_HTML_BLOCK = re.compile(
    r"\s{0,3}(?:<!--|<\?|<![A-Z]|</?(?:address|article|aside|blockquote|body|center|details|dialog|div|dl|"
    r"fieldset|figcaption|figure|footer|form|h[1-6]|head|header|hr|html|iframe|li|main|nav|ol|p|pre|"
    r"script|section|style|summary|table|tbody|td|tfoot|th|thead|tr|ul|video|picture|img)(?:[\s/>]|$))",
    re.IGNORECASE,
)
_DELIMITER_ROW = re.compile(r"\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$")
_INLINE = re.compile(
    r"(?P<code>(`+)(?P<code_text>.+?)(?<!`)\2(?!`))"
    r"|(?P<autolink><(?P<auto_text>https?://[^>\s]+|[^@\s<>]+@[^@\s<>]+)>)"
    r"|(?P<html></?[A-Za-z][^<>]*>|<!--.*?-->)"
    r"|(?P<footref>\[\^[^\]]+\])"
    r"|(?P<link>(?P<open>!?\[)(?P<label>(?:[^\[\]]|\[[^\]]*\])*)(?P<target>\]\([^)]*\)|\]\[[^\]]*\]))"
    r"|(?P<url>https?://[^\s<>()\[\]]*[^\s<>()\[\].,;:!?'\"])"
    r"|(?P<escape>\\(?P<escaped>[!-/:-@\[-`{-~]))"
    r"|(?P<emphasis>\*{1,3}|~~|(?<![A-Za-z0-9])_{1,3}|_{1,3}(?![A-Za-z0-9]))"
)


_NO_WORDS = "no text (code or markup only)"


def open_document(path: Path) -> StreamDocument:
    return StreamDocument(path, parse)


@dataclass
class _Line:
    number: int
    raw: str  # with its line ending
    quote: str  # the block-quote prefix, e.g. "> "
    content: str  # after the quote prefix, without the line ending


def _split(number: int, raw: str) -> _Line:
    body = raw.rstrip("\r\n")
    quote = _QUOTE.match(body)
    prefix = quote.group(0) if quote else ""
    return _Line(number, raw, prefix, body[len(prefix) :])


class _Reader:
    """Lines with look-ahead (a table is known by the row after its header)."""

    def __init__(self, lines: Iterable[str]) -> None:
        self._lines = (_split(n, raw) for n, raw in enumerate(lines, 1))
        self._ahead: list[_Line] = []

    def peek(self, offset: int = 0) -> _Line | None:
        while len(self._ahead) <= offset:
            line = next(self._lines, None)
            if line is None:
                return None
            self._ahead.append(line)
        return self._ahead[offset]

    def take(self) -> _Line:
        line = self.peek()
        assert line is not None
        return self._ahead.pop(0)


def parse(lines: Iterable[str]) -> Iterator[Block]:
    reader = _Reader(lines)
    first = reader.peek()
    if first is not None and first.raw.rstrip() in ("---", "+++"):
        yield from _front_matter(reader)
    after_blank, in_list = True, False
    while (line := reader.peek()) is not None:
        content = line.content
        if not content.strip():
            yield Block(reader.take().raw)
            after_blank = True
            continue
        if _FENCE.match(content):
            yield from _fenced_code(reader)
        elif after_blank and not in_list and content.startswith(("    ", "\t")):
            yield from _indented_code(reader)
        elif _HTML_BLOCK.match(content):
            yield from _raw_until_blank(reader)
        elif _BREAK.match(content) or (_LINK_DEF.match(content) and not _FOOTNOTE.match(content)):
            yield Block(reader.take().raw)
        elif heading := _HEADING.match(content):
            reader.take()
            yield _unit_block([line], heading.group(1), heading.group(2), heading.group(3) or "", heading=True)
        elif "|" in content and _is_table_start(reader):
            yield from _table(reader)
        else:
            marker = _ITEM.match(content) or _FOOTNOTE.match(content)
            if marker:
                in_list = True
            elif after_blank and not content[:1].isspace():
                in_list = False
            indent = content[: len(content) - len(content.lstrip())]
            yield from _paragraph(reader, marker.group(0) if marker else indent)
        after_blank = False


def _front_matter(reader: _Reader) -> Iterator[Block]:
    opening = reader.take()
    closers = ("---", "...") if opening.raw.rstrip() == "---" else ("+++",)
    chunks = _Chunks(opening)
    while (line := reader.peek()) is not None:
        yield from chunks.add(reader.take(), _kept_lines)
        if line.raw.rstrip() in closers:
            break
    yield _kept_lines(chunks.lines)


def _fenced_code(reader: _Reader) -> Iterator[Block]:
    opening = reader.take()
    fence = _FENCE.match(opening.content).group(1)  # type: ignore[union-attr]
    chunks = _Chunks(opening)
    while (line := reader.peek()) is not None:
        yield from chunks.add(reader.take(), _code_block)
        closing = _FENCE.match(line.content)
        if (
            closing
            and closing.group(1)[0] == fence[0]
            and len(closing.group(1)) >= len(fence)
            and not line.content[closing.end() :].strip()
        ):
            break
    yield _code_block(chunks.lines)


def _indented_code(reader: _Reader) -> Iterator[Block]:
    chunks = _Chunks(reader.take())
    while (line := reader.peek()) is not None and line.content.startswith(("    ", "\t")):
        yield from chunks.add(reader.take(), _code_block)
    yield _code_block(chunks.lines)


class _Chunks:
    """The lines of an untranslated block (code, front matter), given out in pieces of bounded size."""

    def __init__(self, first: _Line) -> None:
        self.lines = [first]
        self._size = len(first.raw)

    def add(self, line: _Line, block: Callable[[list[_Line]], Block]) -> Iterator[Block]:
        if too_long(self._size, line.raw):
            yield block(self.lines)
            self.lines, self._size = [], 0
        self.lines.append(line)
        self._size += len(line.raw)


def _kept_lines(lines: list[_Line]) -> Block:
    return Block("".join(line.raw for line in lines))


def _code_block(lines: list[_Line]) -> Block:
    raw = "".join(line.raw for line in lines)
    return Block(raw, Unit(raw, f"line {lines[0].number}", keep="code block"))


def _raw_until_blank(reader: _Reader) -> Iterator[Block]:
    while (line := reader.peek()) is not None and line.content.strip():
        yield Block(reader.take().raw)


def _starts_block(line: _Line) -> bool:
    content = line.content
    return bool(
        not content.strip()
        or _FENCE.match(content)
        or _HEADING.match(content)
        or _BREAK.match(content)
        or _ITEM.match(content)
        or _FOOTNOTE.match(content)
        or _HTML_BLOCK.match(content)
    )


def _paragraph(reader: _Reader, marker: str) -> Iterator[Block]:
    lines = [reader.take()]
    size = len(lines[0].raw)
    while (line := reader.peek()) is not None and line.quote == lines[0].quote:
        if _SETEXT.match(line.content) and not _ITEM.match(line.content):
            yield _unit_block(lines, marker, _joined(lines, marker), "", heading=True)
            yield Block(reader.take().raw)
            return
        if _starts_block(line) or too_long(size, line.raw):
            break
        size += len(line.raw)
        lines.append(reader.take())
    yield _unit_block(lines, marker, _joined(lines, marker), "", heading=False)


def _joined(lines: list[_Line], marker: str) -> str:
    contents = [lines[0].content[len(marker) :], *(line.content for line in lines[1:])]
    return join_hard_wrapped("\n".join(content.strip() for content in contents))


def _unit_block(lines: list[_Line], marker: str, text: str, suffix: str, *, heading: bool) -> Block:
    pieces = inline_pieces(text)
    raw = "".join(line.raw for line in lines)
    where = f"line {lines[0].number}"
    if not has_words(pieces):
        return Block(raw, Unit(text, where, keep=_NO_WORDS) if text.strip() else None)
    quote = lines[0].quote
    eol = line_ending(lines[-1].raw)
    sep = eol or "\n"
    setext = heading and not marker.lstrip().startswith("#")

    def render_unit(translation: str, bilingual: bool) -> str:
        # A line break the source kept stays inside the same quote and list item.
        body = render(pieces, translation).replace("\n", sep + quote + " " * len(marker)) + suffix
        if not bilingual:
            return quote + marker + body + eol
        if setext:  # the underline that follows makes one heading of both lines
            return raw + quote + body + eol
        # The translation is a paragraph of its own under the original: a heading of the same level,
        # or indented to stay inside the list item.
        repeat = marker if heading else " " * len(marker)
        return raw + ("" if eol else sep) + quote.rstrip() + sep + quote + repeat + body + eol

    return Block(raw, Unit(source_text(pieces), where, marked=marked_text(pieces)), render_unit)


def _is_table_start(reader: _Reader) -> bool:
    header, delimiter = reader.peek(), reader.peek(1)
    return (
        header is not None
        and delimiter is not None
        and delimiter.quote == header.quote
        and "-" in delimiter.content
        and _DELIMITER_ROW.match(delimiter.content) is not None
    )


def _table(reader: _Reader) -> Iterator[Block]:
    header = reader.take()
    yield from _row(header)
    yield Block(reader.take().raw)
    while (line := reader.peek()) is not None and line.quote == header.quote and "|" in line.content:
        yield from _row(reader.take())


def _row(line: _Line) -> Iterator[Block]:
    """A table row: pipes and padding stay as they were, each cell is a unit."""
    body = line.content
    lead, position = line.quote, 0
    for start, end in _cell_spans(body):
        yield Block(lead + body[position:start])
        yield _cell(body[start:end], f"line {line.number}")
        lead, position = "", end
    yield Block(lead + body[position:] + line_ending(line.raw))


def _cell_spans(row: str) -> list[tuple[int, int]]:
    """Where the (stripped, non-empty) cells of a row are; a pipe escaped or inside code does not split."""
    spans, start, in_code, i = [], 0, False, 0
    for i, char in enumerate(row + "|"):
        if char == "`":
            in_code = not in_code
        elif char == "|" and not in_code and (i == 0 or row[i - 1] != "\\"):
            cell = row[start:i]
            if cell.strip():
                lead = len(cell) - len(cell.lstrip())
                spans.append((start + lead, start + len(cell.rstrip())))
            start = i + 1
    return spans


def _cell(cell: str, where: str) -> Block:
    pieces = inline_pieces(cell)
    if not has_words(pieces):
        return Block(cell, Unit(cell, where, keep=_NO_WORDS))

    def render_cell(translation: str, bilingual: bool) -> str:
        translated = render(pieces, translation)
        return cell + "<br>" + translated if bilingual else translated

    return Block(cell, Unit(source_text(pieces), where, marked=marked_text(pieces)), render_cell)


def inline_pieces(text: str, styled: bool = False) -> list[Piece]:
    """A Markdown span cut into text to translate and markup to carry across; text inside emphasis, an
    inline HTML element or a link's label is styled."""
    pieces: list[Piece] = []
    position = 0
    opened: list[str] = []  # emphasis markers and HTML tags not closed yet
    for match in _INLINE.finditer(text):
        inside = styled or bool(opened)
        if match.start() > position:
            pieces.append(Piece(text[position : match.start()], styled=inside))
        pieces.extend(_markup_pieces(match))
        _track(match, opened)
        position = match.end()
    if position < len(text):
        pieces.append(Piece(text[position:], styled=styled or bool(opened)))
    return pieces


def _track(match: re.Match[str], opened: list[str]) -> None:
    """What a markup match opens or closes: an emphasis marker closes the same one, an end tag the last tag."""
    raw = match.group(0)
    if match.group("emphasis"):
        if opened and opened[-1] == raw:
            opened.pop()
        else:
            opened.append(raw)
    elif match.group("html") and not raw.startswith("<!--") and not raw.endswith("/>"):
        if raw.startswith("</"):
            if opened:
                opened.pop()
        elif raw[1:].split(">")[0].split()[0].lower() not in ("br", "img", "hr", "wbr"):
            opened.append(raw)


def _markup_pieces(match: re.Match[str]) -> list[Piece]:
    raw = match.group(0)
    if match.group("code"):
        return [Piece(match.group("code_text").strip(), Kind.KEEP, raw)]
    if match.group("autolink"):
        return [Piece(match.group("auto_text"), Kind.KEEP, raw)]
    if match.group("url"):
        return [Piece(raw, Kind.KEEP)]
    if match.group("link"):
        label = inline_pieces(match.group("label"), styled=True)
        return [Piece("", Kind.SEP, match.group("open")), *label, Piece("", Kind.SEP, match.group("target"))]
    if match.group("escape"):
        return [Piece(match.group("escaped"), Kind.SEP, raw)]
    return [Piece("", Kind.SEP, raw)]
