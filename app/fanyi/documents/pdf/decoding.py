"""Bounds on what pdfminer decodes: every stream filter that can expand its data is replaced by a bounded one.

pdfminer decodes a stream in ``PDFStream.decode`` by calling module-level functions of
``pdfminer.pdftypes``: ``zlib.decompress`` (and ``decompress_corrupted`` for a damaged flate
stream), ``lzwdecode``, ``rldecode`` and ``ccittfaxdecode``. Those are the cheapest safe hook: each
is swapped for a version that stops as soon as its output passes ``MAX_PDF_STREAM_BYTES`` (so a
flate bomb costs at most that much, not its full ~1,000×) and charges the output to the budget of
the document being read (``MAX_PDF_DECODED_BYTES``; pdfminer keeps decoded streams). Chained filters
are bounded stage by stage. CCITT fax data is a scanned image, never text, so it is left encoded as
pdfminer already leaves JPEG and JPEG 2000 data.
"""

from __future__ import annotations

import contextlib
import contextvars
import io
import zlib
from collections.abc import Iterator

from pdfminer import pdftypes
from pdfminer.lzw import LZWDecoder

from fanyi.limits import MAX_PDF_DECODED_BYTES, MAX_PDF_STREAM_BYTES

from ..bounds import size

_CHUNK = 1 << 16


class DecodeLimit(Exception):
    """A stream, or all the streams of a document, decode to more than the limits allow; ``str()`` says which."""


_spent: contextvars.ContextVar[list[int] | None] = contextvars.ContextVar("fanyi_pdf_decoded", default=None)


@contextlib.contextmanager
def decoding_budget() -> Iterator[None]:
    """Count every byte decoded while reading one document against ``MAX_PDF_DECODED_BYTES``."""
    token = _spent.set([0])
    try:
        yield
    finally:
        _spent.reset(token)


def _room(produced: int) -> None:
    if produced > MAX_PDF_STREAM_BYTES:
        raise DecodeLimit(f"a stream in it decodes to more than {size(MAX_PDF_STREAM_BYTES)}")


def _charge(data: bytes) -> bytes:
    _room(len(data))
    spent = _spent.get()
    if spent is not None:
        spent[0] += len(data)
        if spent[0] > MAX_PDF_DECODED_BYTES:
            raise DecodeLimit(f"its streams decode to more than {size(MAX_PDF_DECODED_BYTES)}")
    return data


def _inflate(data: bytes) -> bytes:
    """``zlib.decompress`` that stops past the stream limit (a truncated stream is an error, as there)."""
    out, complete = _inflated(data)
    if not complete:
        raise zlib.error("incomplete or truncated stream")
    return _charge(out)


def _salvage(data: bytes) -> bytes:
    """What a damaged flate stream decodes to before the damage (pdfminer's ``decompress_corrupted``, bounded)."""
    out, _ = _inflated(data, salvage=True)
    return _charge(out)


def _inflated(data: bytes, *, salvage: bool = False) -> tuple[bytes, bool]:
    """(output, whether the stream ended), inflated a piece at a time so no more than the limit is ever held."""
    inflater = zlib.decompressobj()
    out = bytearray()
    pending = data
    try:
        while not inflater.eof:
            piece = inflater.decompress(pending, _CHUNK)
            if not piece and len(inflater.unconsumed_tail) == len(pending):
                break  # no input left that makes progress: a truncated stream
            out += piece
            _room(len(out))
            pending = inflater.unconsumed_tail
    except zlib.error:
        if not salvage:
            raise
    return bytes(out), inflater.eof


def _lzwdecode(data: bytes) -> bytes:
    out = bytearray()
    for piece in LZWDecoder(io.BytesIO(data)).run():
        out += piece
        _room(len(out))
    return _charge(bytes(out))


def _rldecode(data: bytes) -> bytes:
    """RunLength (PDF 1.7 §7.4.5): a length byte, then length+1 literal bytes or one byte repeated 257-length times."""
    out = bytearray()
    position = 0
    while position < len(data) and data[position] != 128:
        length = data[position]
        if length < 128:
            out += data[position + 1 : position + 2 + length]
            position += 2 + length
        else:
            out += data[position + 1 : position + 2] * (257 - length)
            position += 2
        _room(len(out))
    return _charge(bytes(out))


def _image_data(data: bytes, params: object) -> bytes:
    return data


class _BoundedZlib:
    """What ``pdfminer.pdftypes`` sees as the ``zlib`` module."""

    error = zlib.error
    decompress = staticmethod(_inflate)
    decompressobj = staticmethod(zlib.decompressobj)


_REPLACEMENTS = {
    "zlib": _BoundedZlib,
    "decompress_corrupted": _salvage,
    "lzwdecode": _lzwdecode,
    "rldecode": _rldecode,
    "ccittfaxdecode": _image_data,
}


def install() -> None:
    """Bound pdfminer's decoders (idempotent). A pdfminer without these names must not run unbounded."""
    missing = [name for name in _REPLACEMENTS if not hasattr(pdftypes, name)]
    if missing:
        raise ImportError(f"pdfminer.pdftypes has no {', '.join(missing)}: Fanyi cannot bound PDF stream decoding")
    for name, replacement in _REPLACEMENTS.items():
        setattr(pdftypes, name, replacement)
