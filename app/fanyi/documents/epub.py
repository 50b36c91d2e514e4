"""EPUB books: every XHTML content document (the navigation document too) through the HTML rules.

The package stays valid: the mimetype entry is written first and stored, the manifest, spine and
every other entry are copied unchanged; only the content documents and the OPF's dc:language
(set to the target, unless bilingual) are rewritten.
"""

from __future__ import annotations

import contextlib
import posixpath
import re
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO
from urllib.parse import unquote

from fanyi.limits import MAX_HTML_TAGS, MAX_UNITS

from .base import NotTextFile, Unit
from .bounds import Tally
from .html import HtmlText, declared_charset
from .package import Package
from .textio import decode_bytes

CONTAINER = "{urn:oasis:names:tc:opendocument:xmlns:container}"
OPF = "{http://www.idpf.org/2007/opf}"
CONTENT_TYPES = ("application/xhtml+xml", "text/html")
_LANGUAGE = re.compile(r"(<(?:[\w-]+:)?language\b[^>]*>)[^<]*(</(?:[\w-]+:)?language>)")


class EpubDocument:
    notes: tuple[str, ...] = ()

    def __init__(self, path: Path) -> None:
        self._package = Package(path, "EPUB book")
        if "mimetype" not in self._package.names or self._package.read("mimetype").strip() != b"application/epub+zip":
            raise self._package.corrupt("its mimetype entry does not say application/epub+zip")
        rootfile = self._package.xml("META-INF/container.xml").find(f".//{CONTAINER}rootfile")
        if rootfile is None or not rootfile.get("full-path"):
            raise self._package.corrupt("META-INF/container.xml names no package document")
        self._opf_name = rootfile.get("full-path", "")
        self._documents: list[tuple[str, HtmlText, str]] = []  # (entry, markup, codec)
        tags = Tally(path, MAX_HTML_TAGS, "tags in its XHTML documents")
        units = Tally(path, MAX_UNITS, "units")
        for name in self._content_documents():
            data = self._package.read(name)
            tags.add(data.count(b"<"))
            try:
                text, codec = decode_bytes(path, data, declared_charset(data))
            except NotTextFile:
                raise self._package.corrupt(f"{name} is not text") from None
            markup = HtmlText(text, xhtml=True, where=f"{name}, ")
            units.add(len(markup.slots))
            self._documents.append((name, markup, codec))

    def _content_documents(self) -> list[str]:
        """Content documents in reading order (the spine), then any other XHTML in the manifest."""
        opf = self._package.xml(self._opf_name)
        base = posixpath.dirname(self._opf_name)
        items = {
            item.get("id"): posixpath.normpath(posixpath.join(base, unquote(item.get("href", ""))))
            for item in opf.iter(f"{OPF}item")
            if item.get("media-type") in CONTENT_TYPES
        }
        spine = [items[ref.get("idref")] for ref in opf.iter(f"{OPF}itemref") if ref.get("idref") in items]
        ordered = list(dict.fromkeys(spine + list(items.values())))
        return [name for name in ordered if name in self._package.names]

    def units(self) -> Iterator[Unit]:
        for _, markup, _ in self._documents:
            yield from markup.units()

    def write(self, out: BinaryIO, translations: Iterator[str | None], *, bilingual: bool, target_lang: str) -> None:
        replaced = {
            name: markup.rewrite(translations, bilingual=bilingual, target_lang=target_lang).encode(
                codec, errors="xmlcharrefreplace"
            )
            for name, markup, codec in self._documents
        }
        if not bilingual:
            opf = self._package.read(self._opf_name)
            with contextlib.suppress(UnicodeDecodeError):  # a non-UTF-8 OPF keeps its language
                language = _LANGUAGE.sub(rf"\g<1>{target_lang}\g<2>", opf.decode("utf-8"), count=1)
                replaced[self._opf_name] = language.encode("utf-8")
        self._package.write(out, replaced, first="mimetype")


def open_document(path: Path) -> EpubDocument:
    return EpubDocument(path)
