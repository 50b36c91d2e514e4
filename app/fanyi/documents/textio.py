"""Telling the encoding of a text file and reading it as a stream of lines.

Tried in order: a BOM (UTF-8, UTF-16), a declared charset (HTML), strict UTF-8, strict GB18030. A
file with NUL bytes and no UTF-16 BOM is binary. The whole file is checked in chunks, so a large file
is never held in memory.

Almost any Latin-1 or Windows-1252 text is also valid GB18030 ("Zürich" reads as "Z黵ich": an
accented letter and the letter after it make one rare ideograph), so a guess of GB18030 must also
look like Chinese: enough of its non-ASCII characters must be among GB2312's common ones. Real
Chinese text scores ~99% (traditional characters in GBK ~45%); misread Latin-1 scores ~0-10%.
"""

from __future__ import annotations

import codecs
import contextlib
import io
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO

from fanyi.limits import MAX_LINE_CHARS

from .base import DocumentTooLarge, NotTextFile

_CHUNK = 1 << 16
_BOMS = ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))
_FALLBACKS = ("utf-8", "gb18030")


def detect_encoding(path: Path) -> str:
    """The codec that decodes all of ``path``, read in chunks."""
    with path.open("rb") as handle:
        head = handle.read(4096)

    def chunks() -> Iterator[bytes]:
        with path.open("rb") as handle:
            while chunk := handle.read(_CHUNK):
                yield chunk

    return _detect(path, head, chunks, None)


def decode_bytes(path: Path, data: bytes, declared: str | None = None) -> tuple[str, str]:
    """``data`` (read from ``path``) decoded: (text, codec); ``declared`` (a meta charset) is tried first."""
    codec = _detect(path, data[:4096], lambda: iter((data,)), declared)
    return data.decode(codec), codec


def _detect(path: Path, head: bytes, chunks: Callable[[], Iterator[bytes]], declared: str | None) -> str:
    for bom, codec in _BOMS:
        if head.startswith(bom):
            return codec
    if b"\x00" in head:
        raise NotTextFile(path, f"{path} does not look like a text file: it contains binary data.")
    if declared and _known(declared) and _decodes(chunks(), declared.lower(), guessed=False):
        return declared.lower()
    for codec in _FALLBACKS:
        if _decodes(chunks(), codec, guessed=True):
            return codec
    raise NotTextFile(
        path,
        f"{path} is in an encoding Fanyi does not read: it is neither UTF-8, UTF-16 nor GB18030 Chinese text "
        "(Latin-1 or Windows-1252, perhaps); save it as UTF-8 and try again.",
    )


def _known(codec: str) -> bool:
    try:
        codecs.lookup(codec)
    except LookupError:
        return False
    return True


def _decodes(chunks: Iterator[bytes], codec: str, *, guessed: bool) -> bool:
    decoder = codecs.getincrementaldecoder(codec)("strict")
    chinese = _ChineseShare() if guessed and codecs.lookup(codec).name == "gb18030" else None
    try:
        for chunk in chunks:
            text = decoder.decode(chunk)
            if _has_control_bytes(text):
                return False
            if chinese is not None:
                chinese.add(text)
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    return chinese is None or chinese.plausible()


class _ChineseShare:
    """How many of a text's non-ASCII characters are common Chinese ones (GB2312), counted at C speed."""

    MINIMUM = 1 / 3  # between traditional Chinese in GBK (~0.45) and misread Latin-1 (~0.1)

    def __init__(self) -> None:
        self.non_ascii = 0
        self.common = 0

    def add(self, text: str) -> None:
        non_ascii = len(text) - len(text.encode("ascii", "ignore"))
        uncommon = text.encode("gb2312", "replace").count(b"?") - text.count("?")
        self.non_ascii += non_ascii
        self.common += non_ascii - uncommon

    def plausible(self) -> bool:
        return self.common >= self.MINIMUM * self.non_ascii


# Text files carry tabs, newlines, form feeds and the odd escape; other C0 controls mean binary data.
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1a\x1c-\x1f]")


def _has_control_bytes(text: str) -> bool:
    return _CONTROL.search(text) is not None


def read_lines(path: Path, codec: str) -> Iterator[str]:
    """The lines of ``path`` with their own line endings, decoded; a BOM is not part of the text.

    A line longer than ``MAX_LINE_CHARS`` is refused rather than read into memory whole (its ending
    may take two more characters).
    """
    with path.open("r", encoding=codec, newline="") as handle:
        for number, line in enumerate(iter(lambda: handle.readline(MAX_LINE_CHARS + 2), ""), 1):
            if len(line.rstrip("\r\n")) > MAX_LINE_CHARS:
                raise DocumentTooLarge(
                    path,
                    f"{path} has a line longer than {MAX_LINE_CHARS:,} characters (line {number}); "
                    "Fanyi reads text files a line at a time.",
                )
            yield line


@contextlib.contextmanager
def text_writer(out: BinaryIO, codec: str = "utf-8", errors: str = "strict") -> Iterator[io.TextIOWrapper]:
    """A text view of a binary output that leaves line endings as given and never closes ``out``."""
    writer = io.TextIOWrapper(out, encoding=codec, errors=errors, newline="")
    try:
        yield writer
        writer.flush()
    finally:
        writer.detach()
