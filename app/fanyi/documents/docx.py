"""Word documents: body (tables, nested tables, text boxes), headers, footers, footnotes and endnotes."""

from __future__ import annotations

from pathlib import Path

from lxml import etree

from .ooxml import Dialect, OfficeDocument, numbered, part_number

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
W14 = "{http://schemas.microsoft.com/office/word/2010/wordml}"
MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"

# A bilingual copy of a paragraph must not repeat what is unique in a document: bookmarks, comment
# anchors, note references, drawings (their ids), a section break, paragraph ids.
_NOT_COPIED = tuple(
    W + name
    for name in (
        "bookmarkStart bookmarkEnd commentRangeStart commentRangeEnd commentReference footnoteReference "
        "endnoteReference drawing pict object sectPr permStart permEnd"
    ).split()
) + (MC + "AlternateContent",)


def _clean_copy(paragraph: etree._Element) -> None:
    for element in list(paragraph.iter(*_NOT_COPIED)):
        parent = element.getparent()
        if parent is not None:
            parent.remove(element)
    for name in (W14 + "paraId", W14 + "textId"):
        paragraph.attrib.pop(name, None)  # type: ignore[call-overload]  # lxml-stubs 0.5 lacks the default


DIALECT = Dialect(
    paragraph=W + "p",
    text=W + "t",
    breaks=frozenset({W + "tab", W + "br", W + "cr"}),
    kept=frozenset(),
    clean_copy=_clean_copy,
    space_attribute=True,
    run_properties=W + "rPr",
    links=frozenset({W + "hyperlink"}),
)


def _parts(names: list[str]) -> list[tuple[str, str]]:
    parts = [("word/document.xml", "body")]
    for kind in ("header", "footer"):
        parts += [(name, f"{kind} {part_number(name)}") for name in numbered(names, rf"word/{kind}(\d*)\.xml")]
    parts += [(f"word/{kind}.xml", kind) for kind in ("footnotes", "endnotes") if f"word/{kind}.xml" in names]
    return parts


def open_document(path: Path) -> OfficeDocument:
    return OfficeDocument(path, kind="Word document", required="word/document.xml", parts=_parts, dialect=DIALECT)
