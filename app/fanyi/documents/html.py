"""HTML and XHTML, rewritten in place: only text and a few attribute values change, byte for byte.

The markup is scanned (``html.parser``) for the source offsets of tags and text; every unit is then
spliced back at its offsets, so tags, attributes, comments, scripts and styles are kept exactly.
A unit is the text of a block element (p, li, td, h1 …, and runs split by <br>): inline elements
(b, a, span …) do not split it, so a sentence broken by <b> is translated whole and distributed
back over its text nodes (see ``inline``). Text in pre, script, style, textarea, svg, math and
anything marked translate="no" or class="notranslate" is left alone; inline code, kbd, samp and var
are carried through. Also translated: <title> and the alt and title attributes. The <html> lang
(and xml:lang) is set to the target language, or added when missing, unless bilingual.

Bilingual: each block is followed, inside its own element, by <br> and a translated copy of its
content (ids dropped from the copy); <title> and attributes hold the translation only.
"""

from __future__ import annotations

import bisect
import html
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import BinaryIO

from fanyi.limits import MAX_HTML_TAGS, MAX_MARKUP_BYTES, MAX_UNITS

from .base import Unit
from .bounds import Tally, size, too_large
from .inline import Kind, Piece, distribute, has_words, marked_text
from .textio import decode_bytes

INLINE = frozenset(
    "a abbr acronym b bdi bdo big cite code data del dfn em font i img input ins kbd label mark nobr q rp rt "
    "ruby s samp small span strike strong sub sup time tt u var wbr".split()
)
VOID = frozenset("area base br col embed hr img input link meta param source track wbr".split())
HIDDEN = frozenset("pre script style textarea svg math template".split())
CARRIED = frozenset("code kbd samp var".split())
NO_COPY = frozenset("head title select option optgroup".split())  # no room for a bilingual copy
TRANSLATED_ATTRIBUTES = ("alt", "title")
_ATTRIBUTE = re.compile(r"""\s([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?""")


@dataclass
class _Text:
    start: int
    end: int
    value: str  # unescaped
    kind: Kind
    styled: bool = False  # inside an inline element (<b>, <a>, <span>…)


@dataclass
class _Block:
    """The text between two block boundaries, with the inline tags it spans."""

    start: int
    end: int = -1
    texts: list[_Text] = field(default_factory=list)
    tags: list[tuple[int, int]] = field(default_factory=list)  # inline start tags, for the bilingual copy
    bilingual: bool = True

    def pieces(self) -> list[Piece]:
        return [Piece(t.value, t.kind, styled=t.styled) for t in self.texts]


@dataclass
class _Attribute:
    start: int  # of the value inside the quotes
    end: int
    value: str
    quote: str
    whole: tuple[int, int] = (0, 0)  # the attribute with its leading space, name and quotes


@dataclass
class _Slot:
    unit: Unit
    target: _Block | _Attribute | None  # None: kept, nothing to write


class _Scanner(HTMLParser):
    """Events of a document with their source offsets; an event ends where the next one starts."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.events: list[tuple[str, int, str, str]] = []  # (kind, offset, tag or data, raw start tag)
        self.feed(text)
        self.close()

    def _offset(self) -> int:
        line, column = self.getpos()
        return self.line_starts[line - 1] + column

    def handle_starttag(self, tag: str, attrs: object) -> None:
        self.events.append(("start", self._offset(), tag, self.get_starttag_text() or ""))

    def handle_startendtag(self, tag: str, attrs: object) -> None:
        self.events.append(("void", self._offset(), tag, self.get_starttag_text() or ""))

    def handle_endtag(self, tag: str) -> None:
        self.events.append(("end", self._offset(), tag, ""))

    def handle_data(self, data: str) -> None:
        self.events.append(("data", self._offset(), data, ""))

    def _other(self, data: str) -> None:
        self.events.append(("other", self._offset(), "", ""))

    handle_comment = handle_pi = unknown_decl = _other

    def handle_decl(self, decl: str) -> None:
        self._other(decl)


def attributes(raw_tag: str) -> dict[str, _Attribute]:
    """The attributes of a raw start tag that have a value, with the value's offsets inside the tag."""
    found: dict[str, _Attribute] = {}
    for match in _ATTRIBUTE.finditer(raw_tag):
        for group, quote in ((2, '"'), (3, "'"), (4, "")):
            if match.group(group) is not None:
                name = match.group(1).lower()
                value = html.unescape(match.group(group))
                span = (match.start(), match.end())
                found.setdefault(name, _Attribute(match.start(group), match.end(group), value, quote, span))
    return found


def _no_translate(raw_tag: str) -> bool:
    attrs = attributes(raw_tag)
    return ("translate" in attrs and attrs["translate"].value.strip().lower() == "no") or (
        "class" in attrs and "notranslate" in attrs["class"].value.split()
    )


class _Walker:
    """Turns scanner events into slots: blocks of text, translatable attributes, kept code blocks."""

    def __init__(self, text: str, scanner: _Scanner, where: str) -> None:
        self.slots: list[_Slot] = []
        self.html_tag: tuple[int, str] | None = None  # offset and raw text of <html>
        self._where = where
        self._scanner = scanner
        self._stack: list[tuple[str, str | None]] = []  # (tag, mode): None, "carried" or "hidden"
        self._block: _Block | None = None
        self._hidden_text: list[str] = []
        events = scanner.events
        ends = [offset for _, offset, _, _ in events[1:]] + [len(text)]
        for (kind, offset, name, raw), end in zip(events, ends):
            if kind == "data":
                self._data(offset, end, name)
            elif kind in ("start", "void"):
                self._start(offset, end, name, raw, opens=kind == "start" and name not in VOID)
            elif kind == "end":
                self._end(offset, name)
        self._boundary(len(text))

    def _mode(self) -> str | None:
        return self._stack[-1][1] if self._stack else None

    def _where_at(self, offset: int) -> str:
        return f"{self._where}line {bisect.bisect_right(self._scanner.line_starts, offset)}"

    def _open_block(self, offset: int) -> _Block:
        if self._block is None:
            self._block = _Block(offset, bilingual=not any(tag in NO_COPY for tag, _ in self._stack))
        return self._block

    def _boundary(self, offset: int) -> None:
        block, self._block = self._block, None
        if block is None:
            return
        block.end = offset
        pieces = block.pieces()
        if has_words(pieces):
            # Source whitespace and newlines mean nothing in HTML; the translator would take a
            # newline for a sentence break.
            text = " ".join("".join(p.text for p in pieces).split())
            marked = marked_text(pieces)
            unit = Unit(text, self._where_at(block.start), marked=" ".join(marked.split()) if marked else None)
            self.slots.append(_Slot(unit, block))

    def _data(self, offset: int, end: int, data: str) -> None:
        if self._mode() == "hidden":
            self._hidden_text.append(data)
            return
        if self._block is None and not data.strip():
            return
        block = self._open_block(offset)
        kind = Kind.KEEP if self._mode() == "carried" else Kind.TEXT
        styled = any(tag in INLINE for tag, _ in self._stack)
        last = block.texts[-1] if block.texts else None
        if last is not None and last.end == offset and last.kind is kind:  # text split by a stray "<"
            last.end, last.value = end, last.value + data
        else:
            block.texts.append(_Text(offset, end, data, kind, styled))

    def _start(self, offset: int, end: int, name: str, raw: str, *, opens: bool) -> None:
        hidden = self._mode() == "hidden"
        if name == "html" and self.html_tag is None:
            self.html_tag = (offset, raw)
        if not hidden:
            self._attribute_slots(offset, raw, name)
        if name not in INLINE:
            self._boundary(offset)
        elif not hidden:
            self._open_block(offset).tags.append((offset, end))
        if opens:
            self._stack.append((name, self._mode_of(name, raw)))

    def _mode_of(self, name: str, raw: str) -> str | None:
        inherited = self._mode()
        if inherited == "hidden" or name in HIDDEN or (name not in INLINE and _no_translate(raw)):
            if inherited != "hidden":
                self._hidden_text = []
            return "hidden"
        if inherited == "carried" or name in CARRIED or _no_translate(raw):
            return "carried"
        return None

    def _end(self, offset: int, name: str) -> None:
        if name not in INLINE:
            self._boundary(offset)
        if not any(tag == name for tag, _ in self._stack):
            return
        while self._stack:  # also closes elements left open inside it (<li>, <p>)
            tag, mode = self._stack.pop()
            if tag == name:
                break
        code = "".join(self._hidden_text)
        if name == "pre" and mode == "hidden" and self._mode() != "hidden" and code.strip():
            self.slots.append(_Slot(Unit(code, self._where_at(offset), keep="code block"), None))

    def _attribute_slots(self, offset: int, raw: str, tag: str) -> None:
        attrs = attributes(raw)
        for name in TRANSLATED_ATTRIBUTES:
            attribute = attrs.get(name)
            if attribute is not None and attribute.value.strip():
                located = _Attribute(offset + attribute.start, offset + attribute.end, attribute.value, attribute.quote)
                where = f"{self._where_at(offset)}, {name} of <{tag}>"
                self.slots.append(_Slot(Unit(attribute.value, where), located))


class HtmlText:
    """Parsed (X)HTML source: its units, and the source rewritten with their translations."""

    def __init__(self, text: str, *, xhtml: bool, where: str = "") -> None:
        self._text = text
        self._xhtml = xhtml
        walker = _Walker(text, _Scanner(text), where)
        self.slots = walker.slots
        self._html_tag = walker.html_tag

    def units(self) -> Iterator[Unit]:
        return (slot.unit for slot in self.slots)

    def rewrite(self, translations: Iterator[str | None], *, bilingual: bool, target_lang: str) -> str:
        edits: list[tuple[int, int, str]] = []
        for slot in self.slots:
            translation = next(translations)
            if translation is None or slot.target is None:
                continue
            if isinstance(slot.target, _Attribute):
                edits.append((slot.target.start, slot.target.end, _escape_attribute(translation, slot.target.quote)))
            elif bilingual and slot.target.bilingual:
                block = slot.target
                line_break = "<br/>" if self._xhtml else "<br>"
                edits.append((block.end, block.end, line_break + self._copy(block, translation)))
            else:
                edits.extend(self._text_edits(slot.target, translation))
        if not bilingual:
            edits.extend(self._lang_edits(target_lang))
        return _splice(self._text, edits)

    def _text_edits(self, block: _Block, translation: str) -> list[tuple[int, int, str]]:
        shares = iter(distribute(translation, block.pieces()))
        return [(t.start, t.end, html.escape(next(shares), quote=False)) for t in block.texts if t.kind is Kind.TEXT]

    def _copy(self, block: _Block, translation: str) -> str:
        """The block's source with its text translated and the ids of its tags dropped (ids are unique)."""
        edits = self._text_edits(block, translation)
        for start, end in block.tags:
            attrs = attributes(self._text[start:end])
            if "id" in attrs:
                whole = attrs["id"].whole
                edits.append((start + whole[0], start + whole[1], ""))
        return _splice(self._text, edits, block.start, block.end).strip()

    def _lang_edits(self, target_lang: str) -> list[tuple[int, int, str]]:
        if self._html_tag is None:
            return []
        offset, raw = self._html_tag
        attrs = attributes(raw)
        names = [name for name in ("lang", "xml:lang") if name in attrs]
        if not names:
            added = f' lang="{target_lang}"' + (f' xml:lang="{target_lang}"' if self._xhtml else "")
            return [(offset + len("<html"), offset + len("<html"), added)]
        return [(offset + attrs[n].start, offset + attrs[n].end, target_lang) for n in names]


def _escape_attribute(value: str, quote: str) -> str:
    escaped = html.escape(value, quote=False)
    return escaped.replace('"', "&quot;") if quote != "'" else escaped.replace("'", "&#x27;")


def _splice(text: str, edits: list[tuple[int, int, str]], start: int = 0, end: int | None = None) -> str:
    """``text[start:end]`` with the (non-overlapping, absolute-offset) edits applied."""
    out: list[str] = []
    position = start
    for edit_start, edit_end, replacement in sorted(edits, key=lambda e: (e[0], e[1])):
        out.append(text[position:edit_start])
        out.append(replacement)
        position = edit_end
    out.append(text[position:end])
    return "".join(out)


_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.IGNORECASE)
_XML_ENCODING = re.compile(rb"""<\?xml[^>]+encoding\s*=\s*["']([A-Za-z0-9_.:-]+)""")


def declared_charset(data: bytes) -> str | None:
    match = _XML_ENCODING.match(data[:200]) or _META_CHARSET.search(data[:4096])
    return match.group(1).decode("ascii") if match else None


class HtmlDocument:
    """A .html, .htm or .xhtml file, written back in its own encoding (characters it lacks as &#...;)."""

    notes: tuple[str, ...] = ()

    def __init__(self, path: Path) -> None:
        length = path.stat().st_size
        if length > MAX_MARKUP_BYTES:
            raise too_large(path, f"it holds {size(length)} of markup (limit {size(MAX_MARKUP_BYTES)})")
        data = path.read_bytes()
        Tally(path, MAX_HTML_TAGS, "tags").add(data.count(b"<"))
        text, self._codec = decode_bytes(path, data, declared_charset(data))
        self._markup = HtmlText(text, xhtml=path.suffix.lower() == ".xhtml")
        Tally(path, MAX_UNITS, "units").add(len(self._markup.slots))

    def units(self) -> Iterator[Unit]:
        return self._markup.units()

    def write(self, out: BinaryIO, translations: Iterator[str | None], *, bilingual: bool, target_lang: str) -> None:
        text = self._markup.rewrite(translations, bilingual=bilingual, target_lang=target_lang)
        out.write(text.encode(self._codec, errors="xmlcharrefreplace"))


def open_document(path: Path) -> HtmlDocument:
    return HtmlDocument(path)
