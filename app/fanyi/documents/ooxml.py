"""Paragraphs of Office Open XML (WordprocessingML and DrawingML), shared by .docx and .pptx.

A paragraph's text elements are the pieces of one unit; a paragraph nested inside it (a text box
anchored in a Word paragraph) is a unit of its own and is skipped. Writing only changes the text
of text elements, so run properties (bold, italic, font, colour), hyperlinks and paragraph styles
stay as they were (see ``inline`` for how the translation is spread over the runs).

A run whose look differs from the paragraph's usual one (its properties other than language and
proofing marks, or a hyperlink around it) is a styled piece: a pack that takes formatted text
(HY-MT1.5's formatted-translation prompt) is given the paragraph with those runs marked.
"""

from __future__ import annotations

import copy
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import BinaryIO

from lxml import etree

from fanyi.limits import MAX_UNITS

from .base import Unit
from .bounds import Tally
from .inline import Kind, Piece, distribute, has_words, marked_text, source_text
from .package import Package, serialize

XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
# run properties that do not show: the language (spell-checking), proofing and editing marks
UNSEEN = frozenset({"lang", "altLang", "noProof", "dirty", "err", "smtClean", "smtId", "bmk"})


@dataclass(frozen=True)
class Dialect:
    paragraph: str  # Clark names, e.g. "{…/wordprocessingml/2006/main}p"
    text: str
    breaks: frozenset[str]  # elements that separate words: tabs, line breaks
    kept: frozenset[str]  # text inside these is shown but never rewritten (fields)
    clean_copy: Callable[[etree._Element], None]  # makes a copied paragraph safe to insert
    space_attribute: bool  # whether edge spaces need xml:space="preserve" (WordprocessingML)
    run_properties: str  # a run's properties element (w:rPr, a:rPr)
    links: frozenset[str] = frozenset()  # elements around runs that make them a link (w:hyperlink)


@dataclass
class Paragraph:
    element: etree._Element
    texts: list[etree._Element] = field(default_factory=list)  # text elements of TEXT pieces, in order
    pieces: list[Piece] = field(default_factory=list)


def read_paragraph(element: etree._Element, dialect: Dialect) -> Paragraph:
    paragraph = Paragraph(element)
    looks: list[tuple[str, ...] | None] = []  # each piece's look; None for a piece that is no run's text

    def walk(node: etree._Element, kept: bool, linked: bool) -> None:
        for child in node:
            if child.tag == dialect.paragraph:
                continue
            if child.tag == dialect.text:
                kind = Kind.KEEP if kept else Kind.TEXT
                paragraph.pieces.append(Piece(child.text or "", kind))
                looks.append(_look(child, dialect, linked) if kind is Kind.TEXT else None)
                if kind is Kind.TEXT:
                    paragraph.texts.append(child)
            elif child.tag in dialect.breaks:
                paragraph.pieces.append(Piece(" ", Kind.SEP))
                looks.append(None)
            else:
                walk(child, kept or child.tag in dialect.kept, linked or child.tag in dialect.links)

    walk(element, False, False)
    usual = _usual(paragraph.pieces, looks)
    paragraph.pieces = [
        replace(piece, styled=True) if look is not None and look != usual else piece
        for piece, look in zip(paragraph.pieces, looks)
    ]
    return paragraph


def _look(text: etree._Element, dialect: Dialect, linked: bool) -> tuple[str, ...]:
    """How a run's text shows: its properties that show, and whether it is a link."""
    run = text.getparent()
    properties = run.find(dialect.run_properties) if run is not None else None
    shown: list[str] = ["link"] if linked else []
    if properties is not None:
        shown += sorted(
            etree.QName(k).localname + "=" + str(v)
            for k, v in properties.attrib.items()
            if etree.QName(k).localname not in UNSEEN
        )
        shown += sorted(
            etree.tostring(c, encoding="unicode")
            for c in properties
            if isinstance(c.tag, str) and etree.QName(c).localname not in UNSEEN
        )
    return tuple(shown)


def _usual(pieces: list[Piece], looks: list[tuple[str, ...] | None]) -> tuple[str, ...] | None:
    """The look most of the paragraph's text has (the first of equals)."""
    chars: Counter[tuple[str, ...]] = Counter()
    for piece, look in zip(pieces, looks):
        if look is not None:
            chars[look] += len(piece.text.strip())
    return max(chars, key=lambda look: chars[look], default=None)


def paragraphs(root: etree._Element, dialect: Dialect) -> Iterator[Paragraph]:
    """The paragraphs of a part that have words, in document order."""
    for element in root.iter(dialect.paragraph):
        paragraph = read_paragraph(element, dialect)
        if has_words(paragraph.pieces):
            yield paragraph


def unit_of(paragraph: Paragraph, where: str) -> Unit:
    return Unit(source_text(paragraph.pieces), where, marked=marked_text(paragraph.pieces))


def apply(paragraph: Paragraph, translation: str, dialect: Dialect, *, bilingual: bool) -> None:
    """Write the translation into the paragraph, or into a copy inserted after it when bilingual."""
    target = paragraph
    if bilingual:
        duplicate = copy.deepcopy(paragraph.element)
        dialect.clean_copy(duplicate)
        paragraph.element.addnext(duplicate)
        target = read_paragraph(duplicate, dialect)
    for element, share in zip(target.texts, distribute(translation, paragraph.pieces)):
        element.text = share
        if dialect.space_attribute and share != share.strip():
            element.set(XML_SPACE, "preserve")


class OfficeDocument:
    """A .docx or .pptx: the chosen XML parts of the package, their paragraphs as units."""

    notes: tuple[str, ...] = ()

    def __init__(
        self,
        path: Path,
        *,
        kind: str,
        required: str,
        parts: Callable[[list[str]], list[tuple[str, str]]],  # package names -> (part, label) in order
        dialect: Dialect,
    ) -> None:
        self._package = Package(path, kind)
        if required not in self._package.names:
            raise self._package.corrupt(f"it has no {required}")
        self._dialect = dialect
        self._roots: dict[str, etree._Element] = {}
        self._paragraphs: list[tuple[str, Paragraph, str]] = []
        units = Tally(path, MAX_UNITS, "paragraphs")
        for name, label in parts(self._package.names):
            root = self._roots[name] = self._package.xml(name)
            for number, paragraph in enumerate(paragraphs(root, dialect), 1):
                units.add()
                self._paragraphs.append((name, paragraph, f"{label}, paragraph {number}"))

    def units(self) -> Iterator[Unit]:
        return (unit_of(paragraph, where) for _, paragraph, where in self._paragraphs)

    def write(self, out: BinaryIO, translations: Iterator[str | None], *, bilingual: bool, target_lang: str) -> None:
        changed: set[str] = set()
        for name, paragraph, _ in self._paragraphs:
            translation = next(translations)
            if translation is not None:
                apply(paragraph, translation, self._dialect, bilingual=bilingual)
                changed.add(name)
        self._package.write(out, {name: serialize(self._roots[name]) for name in changed})


def numbered(names: list[str], pattern: str) -> list[str]:
    """The names matching ``pattern`` (one group: a number), in numeric order."""
    found = ((re.fullmatch(pattern, name), name) for name in names)
    return [name for _, name in sorted((int(m.group(1) or 0), name) for m, name in found if m)]


def part_number(name: str) -> str:
    """The number in a part's file name ("word/header2.xml" -> "2"), "1" when it has none."""
    return "".join(c for c in name.rsplit("/", 1)[-1] if c.isdigit()) or "1"
