"""ZIP packages (.docx, .pptx, .epub): checked before any work, rewritten with only some parts replaced.

Untouched entries are streamed across unchanged (same names, order, compression and timestamps),
so images and fonts never sit in memory and come out byte for byte the same. Only a name that
would reach outside the folder the copy is unpacked into is changed (``../../evil`` becomes
``evil``); an entry that is a symbolic link, or whose name is then empty or taken, is left out.

What a package may cost is bounded twice (``fanyi.limits``): by the sizes its central directory
declares, checked before anything is inflated, and by the bytes actually inflated, counted while
reading, so a package that lies about its sizes gets no further.
"""

from __future__ import annotations

import re
import stat
import struct
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, BinaryIO

from lxml import etree

from fanyi.limits import (
    MAX_MARKUP_BYTES,
    MAX_XML_TAGS,
    MAX_ZIP_ENTRIES,
    MAX_ZIP_ENTRY_BYTES,
    MAX_ZIP_RATIO,
    MAX_ZIP_TOTAL_BYTES,
    ZIP_RATIO_FLOOR,
)

from .base import CorruptDocument, DocumentError, EncryptedDocument, UnsupportedFormat, describe
from .bounds import Tally, size, too_large

_OLE_SIGNATURE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_ENCRYPTION_INFO = "EncryptionInfo".encode("utf-16-le")
_CHUNK = 1 << 20
# Internal entities are resolved (Word refuses a part that uses one without its DOCTYPE, and the
# DOCTYPE is not written back); libxml2's limits stay on (no huge_tree), so an entity expansion
# bomb is refused; external entities and the network are never touched.
_PARSER = etree.XMLParser(
    resolve_entities="internal",  # type: ignore[arg-type]  # lxml 5 has it; lxml-stubs 0.5 not
    no_network=True,
    load_dtd=False,
    remove_blank_text=False,
)
# What zipfile raises on a damaged archive (a bad header, an unknown compression method, a bad CRC,
# a name that is not UTF-8 although flagged so, a truncated stream; an offset that cannot be
# sought is an OSError, which while writing the copy is the output's problem instead).
_ZIP_ERRORS = (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, ValueError, struct.error)
_READ_ERRORS = (*_ZIP_ERRORS, OSError)


class Package:
    """A ZIP package on disk; ``kind`` names it in messages ("Word document", "EPUB book")."""

    def __init__(self, path: Path, kind: str) -> None:
        self.path = path
        self.kind = kind
        self._tags = Tally(path, MAX_XML_TAGS, "tags in its XML parts")
        self._check()

    @contextmanager
    def _zip(self, damaged: tuple[type[Exception], ...] = _READ_ERRORS) -> Iterator[zipfile.ZipFile]:
        try:
            with zipfile.ZipFile(self.path) as archive:
                yield archive
        except DocumentError:
            raise
        except damaged as error:
            raise self.corrupt(f"the archive is damaged or truncated ({describe(error)})") from error

    def corrupt(self, why: str) -> CorruptDocument:
        return CorruptDocument(self.path, f"{self.path} is not a valid {self.kind}: {why}.")

    def _check(self) -> None:
        with self.path.open("rb") as handle:
            ole = handle.read(8) == _OLE_SIGNATURE
            head = handle.read(1 << 24) if ole else b""
        if ole:
            # Encrypted Office files and old binary .doc/.ppt files are both OLE containers.
            if _ENCRYPTION_INFO in head:
                raise EncryptedDocument(
                    self.path, f"{self.path} is password-protected; save an unprotected copy and try again."
                )
            raise UnsupportedFormat(
                self.path, f"{self.path} is in an old binary Office format; save it as .docx or .pptx first."
            )
        if not zipfile.is_zipfile(self.path):
            raise self.corrupt("it is not a ZIP archive (damaged, truncated or renamed)")
        with self._zip() as archive:
            infos = archive.infolist()
            if any(info.flag_bits & 0x1 for info in infos):
                raise EncryptedDocument(self.path, f"{self.path} is password-protected (encrypted ZIP entries).")
            self._check_declared(infos)
            inflated = Tally(self.path, MAX_ZIP_TOTAL_BYTES, "bytes in its entries, unpacked")
            for info in infos:  # every entry inflated once (its CRC checked), within the limits
                for chunk in self._inflate(archive, info, MAX_ZIP_ENTRY_BYTES):
                    inflated.add(len(chunk))
            self.names = [info.filename for info in infos]

    def _check_declared(self, infos: list[zipfile.ZipInfo]) -> None:
        """The central directory's sizes, before anything is inflated."""
        if len(infos) > MAX_ZIP_ENTRIES:
            raise too_large(self.path, f"it has {len(infos):,} entries, more than the limit of {MAX_ZIP_ENTRIES:,}")
        for info in infos:
            if info.file_size > MAX_ZIP_ENTRY_BYTES:
                raise too_large(
                    self.path, f"{info.filename} unpacks to {size(info.file_size)} (limit {size(MAX_ZIP_ENTRY_BYTES)})"
                )
            if info.file_size > ZIP_RATIO_FLOOR and info.file_size > MAX_ZIP_RATIO * max(info.compress_size, 1):
                raise too_large(
                    self.path,
                    f"{info.filename} unpacks to {size(info.file_size)} from {size(info.compress_size)} "
                    f"(more than {MAX_ZIP_RATIO}× compressed: a ZIP bomb?)",
                )
        total = sum(info.file_size for info in infos)
        if total > MAX_ZIP_TOTAL_BYTES:
            raise too_large(self.path, f"it unpacks to {size(total)} (limit {size(MAX_ZIP_TOTAL_BYTES)})")

    def _inflate(self, archive: zipfile.ZipFile, info: zipfile.ZipInfo, limit: int) -> Iterator[bytes]:
        """The bytes of an entry, counted as they are inflated: more than ``limit`` is refused."""
        done = 0
        with archive.open(info) as source:
            while chunk := source.read(_CHUNK):
                done += len(chunk)
                if done > limit:
                    raise too_large(self.path, f"{info.filename} unpacks to more than {size(limit)}")
                yield chunk

    def read(self, name: str) -> bytes:
        """A part that will be parsed in memory: at most ``MAX_MARKUP_BYTES``."""
        with self._zip() as archive:
            try:
                info = archive.getinfo(name)
            except KeyError:
                raise self.corrupt(f"it has no {name}") from None
            if info.file_size > MAX_MARKUP_BYTES:
                raise too_large(self.path, f"{name} holds {size(info.file_size)} (limit {size(MAX_MARKUP_BYTES)})")
            return b"".join(self._inflate(archive, info, MAX_MARKUP_BYTES))

    def xml(self, name: str) -> etree._Element:
        data = self.read(name)
        self._tags.add(data.count(b"<"))
        try:
            return etree.fromstring(data, _PARSER)
        except etree.XMLSyntaxError as error:
            raise self.corrupt(f"{name} is not well-formed XML ({describe(error)})") from error

    def write(self, out: BinaryIO, replaced: dict[str, bytes], first: str | None = None) -> None:
        """A copy of the package with ``replaced`` parts; ``first`` (EPUB's mimetype) goes first, stored."""
        with self._zip(_ZIP_ERRORS) as archive, zipfile.ZipFile(out, "w") as copy:
            infos = archive.infolist()
            if first is not None:
                infos.sort(key=lambda info: info.filename != first)
            written: set[str] = set()
            for info in infos:
                name = safe_member_name(info.filename)
                if name is None or name in written or stat.S_ISLNK(info.external_attr >> 16):
                    continue
                written.add(name)
                entry = _entry_like(info, name, stored=info.filename == first)
                if info.filename in replaced:
                    copy.writestr(entry, replaced[info.filename])
                    continue
                with copy.open(entry, "w") as target:
                    for chunk in self._inflate(archive, info, MAX_ZIP_ENTRY_BYTES):
                        target.write(chunk)


def safe_member_name(name: str) -> str | None:
    """``name`` as one that stays inside the folder it is unpacked into: no drive, no root, ``..``
    resolved and never above the top, forward slashes; None when nothing is left."""
    parts: list[str] = []
    for part in name.replace("\\", "/").split("/"):
        if part == "..":
            if parts:
                parts.pop()
        elif part not in ("", ".") and (parts or not re.fullmatch(r"[A-Za-z]:", part)):  # a drive only first
            parts.append(part)
    if not parts:
        return None
    return "/".join(parts) + ("/" if name.endswith(("/", "\\")) else "")


def _entry_like(info: zipfile.ZipInfo, name: str, *, stored: bool) -> zipfile.ZipInfo:
    """A new entry named ``name`` with the time, attributes and compression of ``info`` (or stored)."""
    entry = zipfile.ZipInfo(name, info.date_time)
    entry.compress_type = zipfile.ZIP_STORED if stored else info.compress_type
    entry.external_attr = info.external_attr
    entry.create_system = info.create_system
    entry.comment = info.comment
    entry.file_size = info.file_size  # lets zipfile decide up front whether ZIP64 is needed
    return entry


def serialize(root: etree._Element) -> bytes:
    """An XML part as Office writes it: UTF-8 with a standalone declaration, and no DOCTYPE."""
    tree = root.getroottree()
    standalone: Any = tree.docinfo.standalone  # None (not declared) too, which lxml takes and lxml-stubs 0.5 not
    serialized: bytes = etree.tostring(tree, xml_declaration=True, encoding="UTF-8", standalone=standalone)
    return serialized
