"""ZIP packages (.docx, .pptx, .epub): checked before any work, rewritten with only some parts replaced.

Untouched entries are streamed across unchanged (same names, order, compression and timestamps),
so images and fonts never sit in memory and come out byte for byte the same.
"""

from __future__ import annotations

import shutil
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from lxml import etree

from .base import CorruptDocument, EncryptedDocument, UnsupportedFormat

_OLE_SIGNATURE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_ENCRYPTION_INFO = "EncryptionInfo".encode("utf-16-le")
MAX_PART_SIZE = 256 << 20  # an XML part larger than this is not a real document part
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True, remove_blank_text=False)


class Package:
    """A ZIP package on disk; ``kind`` names it in messages ("Word document", "EPUB book")."""

    def __init__(self, path: Path, kind: str) -> None:
        self.path = path
        self.kind = kind
        self._check()

    @contextmanager
    def _zip(self) -> Iterator[zipfile.ZipFile]:
        try:
            with zipfile.ZipFile(self.path) as archive:
                yield archive
        except (zipfile.BadZipFile, zlib.error, EOFError) as error:
            raise self.corrupt(f"the archive is damaged or truncated ({error})") from error

    def corrupt(self, why: str) -> CorruptDocument:
        return CorruptDocument(self.path, f"{self.path} is not a valid {self.kind}: {why}.")

    def _check(self) -> None:
        with self.path.open("rb") as handle:
            head = handle.read(8)
        if head == _OLE_SIGNATURE:
            # Encrypted Office files and old binary .doc/.ppt files are both OLE containers.
            if _ENCRYPTION_INFO in self.path.read_bytes()[: 1 << 24]:
                raise EncryptedDocument(
                    self.path, f"{self.path} is password-protected; save an unprotected copy and try again."
                )
            raise UnsupportedFormat(
                self.path, f"{self.path} is in an old binary Office format; save it as .docx or .pptx first."
            )
        if not zipfile.is_zipfile(self.path):
            raise self.corrupt("it is not a ZIP archive (damaged, truncated or renamed)")
        with self._zip() as archive:
            if any(info.flag_bits & 0x1 for info in archive.infolist()):
                raise EncryptedDocument(self.path, f"{self.path} is password-protected (encrypted ZIP entries).")
            bad = archive.testzip()
            if bad is not None:
                raise self.corrupt(f"the entry {bad} is damaged")
            self.names = archive.namelist()

    def read(self, name: str) -> bytes:
        with self._zip() as archive:
            try:
                info = archive.getinfo(name)
            except KeyError:
                raise self.corrupt(f"it has no {name}") from None
            if info.file_size > MAX_PART_SIZE:
                raise self.corrupt(f"{name} is implausibly large")
            return archive.read(info)

    def xml(self, name: str) -> etree._Element:
        try:
            return etree.fromstring(self.read(name), _PARSER)
        except etree.XMLSyntaxError as error:
            raise self.corrupt(f"{name} is not well-formed XML ({error})") from error

    def write(self, out: BinaryIO, replaced: dict[str, bytes], first: str | None = None) -> None:
        """A copy of the package with ``replaced`` parts; ``first`` (EPUB's mimetype) goes first, stored."""
        with self._zip() as archive, zipfile.ZipFile(out, "w") as copy:
            infos = archive.infolist()
            if first is not None:
                infos.sort(key=lambda info: info.filename != first)
            for info in infos:
                entry = _entry_like(info, stored=info.filename == first)
                if info.filename in replaced:
                    copy.writestr(entry, replaced[info.filename])
                    continue
                with archive.open(info) as source, copy.open(entry, "w") as target:
                    shutil.copyfileobj(source, target, 1 << 20)


def _entry_like(info: zipfile.ZipInfo, *, stored: bool) -> zipfile.ZipInfo:
    """A new entry with the name, time, attributes and compression of ``info`` (or stored)."""
    entry = zipfile.ZipInfo(info.filename, info.date_time)
    entry.compress_type = zipfile.ZIP_STORED if stored else info.compress_type
    entry.external_attr = info.external_attr
    entry.create_system = info.create_system
    entry.comment = info.comment
    entry.file_size = info.file_size  # lets zipfile decide up front whether ZIP64 is needed
    return entry


def serialize(root: etree._Element) -> bytes:
    """An XML part as Office writes it: UTF-8 with a standalone declaration."""
    tree = root.getroottree()
    return etree.tostring(tree, xml_declaration=True, encoding="UTF-8", standalone=tree.docinfo.standalone)
