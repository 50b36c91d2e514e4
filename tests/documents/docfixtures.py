"""Helpers for the document tests: a deterministic fake translator and document builders."""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path

from fanyi.cancel import CancelToken
from fanyi.engine.degenerate import LOOP
from fanyi.engine.language_choice import LanguageChoice
from fanyi.engine.options import DecodeOptions
from fanyi.engine.results import Failure, Translation

_SENTENCE_END = re.compile(r"(?<=[.!?]) +")


def mark(text: str) -> str:
    """What the fake translator makes of a text: visibly translated, and checkable."""
    return "⟦" + text.upper() + "⟧"


class FakeTranslator:
    """Marks every text; can fail on chosen texts or cancel itself on a chosen call."""

    source_lang = "en"
    target_lang = "zh"

    def __init__(self, translate: Callable[[str], str] = mark, *, record: bool = True) -> None:
        self.translate = translate
        self.record = record
        self.calls: list[list[str]] = []
        self.options: list[DecodeOptions | None] = []
        self.fail_on: set[str] = set()  # a text containing one of these raises
        self.degenerate_on: set[str] = set()  # a sentence containing one of these cannot be translated
        self.cancel_on_call: int | None = None  # 1-based

    def translate_results(
        self,
        texts: list[str],
        options: DecodeOptions | None = None,
        progress: Callable[[int, int], None] | None = None,
        cancel: CancelToken | None = None,
    ) -> list[Translation]:
        if self.record:
            self.calls.append(list(texts))
            self.options.append(options)
        if self.cancel_on_call is not None and len(self.calls) >= self.cancel_on_call and cancel is not None:
            cancel.cancel()
        if cancel is not None:
            cancel.raise_if_cancelled()
        for text in texts:
            if any(bad in text for bad in self.fail_on):
                raise RuntimeError(f"model exploded on {text[:20]!r}")
        return [self._result(t) for t in texts]

    def _result(self, text: str) -> Translation:
        """As the engine does: a sentence the model loops on stays as it was and is listed as failed."""
        if not text.strip():
            return Translation("")
        sentences = _SENTENCE_END.split(text)
        looping = [s for s in sentences if any(bad in s for bad in self.degenerate_on)]
        if not looping:
            return Translation(self.translate(text))
        out = " ".join(s if s in looping else self.translate(s) for s in sentences)
        return Translation(out, tuple(Failure(s, LOOP) for s in looping))

    @property
    def texts(self) -> list[str]:
        return [text for call in self.calls for text in call]


class FormattedTranslator:
    """A translator that takes paragraphs with their formatted spans marked (HY-MT1.5's formatted prompt) and
    answers as that model does: <target>…</target>, the marks where it placed them."""

    source_lang, target_lang, takes_formatted = "en", "zh", True

    def __init__(self) -> None:
        self.seen: list[tuple[str, bool]] = []

    def languages(self, options):
        return LanguageChoice(None, None, "en", "zh")

    def translate_results(self, texts, options=None, progress=None, cancel=None, formatted=None):
        assert formatted is not None and len(formatted) == len(texts)
        self.seen += list(zip(texts, formatted))

        def upper(text: str) -> str:  # the words, not the marks
            return re.sub(r"[^<]+|<[^>]*>", lambda m: m[0] if m[0].startswith("<") else m[0].upper(), text)

        return [Translation(f"<target>{upper(t)}</target>" if f else upper(t)) for t, f in zip(texts, formatted)]


def leftovers(folder: Path) -> list[str]:
    """Temporary files that a failed or cancelled write would have left behind."""
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".part"))


def zip_bytes(entries: Sequence[tuple[str, bytes | str]], stored: Sequence[str] = ()) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries:
            archive.writestr(name, data, zipfile.ZIP_STORED if name in stored else zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def zip_entries(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def _pdf_string(text: str) -> str:
    return "(" + text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ")"


def make_pdf(pages: Sequence[Sequence[str]], *, encrypt: bool = False) -> bytes:
    """A PDF whose pages hold the given lines in Helvetica ("" is a paragraph gap); no lines = no text."""
    return pdf_with_contents([(page_text(lines), "") for lines in pages], encrypt=encrypt)


def page_text(lines: Sequence[str], x: int = 72, y: int = 720) -> bytes:
    """A content stream showing ``lines`` from (x, y) down."""
    shown = " ".join(f"{_pdf_string(line)} Tj T*" if line else "T* T*" for line in lines)
    return f"BT /F1 12 Tf 14 TL {x} {y} Td {shown} ET".encode("latin-1") if lines else b""


def pdf_with_contents(contents: Sequence[tuple[bytes, str]], *, encrypt: bool = False) -> bytes:
    """A PDF with one page per (content stream, filter names such as "/FlateDecode") pair."""
    objects: list[bytes] = []
    page_ids = [3 + 2 * i for i in range(len(contents))]
    font_id = 3 + 2 * len(contents)
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    kids = " ".join(f"{i} 0 R" for i in page_ids)
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {len(contents)} >>".encode())
    for page_id, (body, filters) in zip(page_ids, contents):
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {page_id + 1} 0 R "
            f"/Resources << /Font << /F1 {font_id} 0 R >> >> >>".encode()
        )
        filter_entry = f" /Filter [{filters}]" if filters else ""
        objects.append(f"<< /Length {len(body)}{filter_entry} >>\nstream\n".encode() + body + b"\nendstream")
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    return _pdf_file(objects, encrypt=encrypt)


def scanned_pdf(pages: Sequence[Sequence[str]], dpi: int = 150) -> bytes:
    """A PDF whose pages are only images (no text layer) of ``make_pdf(pages)``'s pages, as a scanner makes.

    PDFium draws the text pages (Helvetica is built into it, so no system font is involved) and the
    grey pixels become each page's one image.
    """
    import zlib

    import pypdfium2

    rendered = pypdfium2.PdfDocument(make_pdf(pages))
    images = [rendered[i].render(scale=dpi / 72, grayscale=True).to_numpy() for i in range(len(rendered))]
    rendered.close()
    objects: list[bytes] = [b"<< /Type /Catalog /Pages 2 0 R >>"]
    page_ids = [3 + 3 * i for i in range(len(images))]
    objects.append(f"<< /Type /Pages /Kids [{' '.join(f'{i} 0 R' for i in page_ids)}] /Count {len(images)} >>".encode())
    for page_id, image in zip(page_ids, images):
        pixels = zlib.compress(image.reshape(image.shape[0], image.shape[1]).tobytes())
        draw = b"q 612 0 0 792 0 0 cm /Im0 Do Q"
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {page_id + 1} 0 R "
            f"/Resources << /XObject << /Im0 {page_id + 2} 0 R >> >> >>".encode()
        )
        objects.append(f"<< /Length {len(draw)} >>\nstream\n".encode() + draw + b"\nendstream")
        objects.append(
            f"<< /Type /XObject /Subtype /Image /Width {image.shape[1]} /Height {image.shape[0]} "
            f"/ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length {len(pixels)} >>"
            f"\nstream\n".encode()
            + pixels
            + b"\nendstream"
        )
    return _pdf_file(objects)


def _pdf_file(objects: Sequence[bytes], *, encrypt: bool = False) -> bytes:
    """The objects (numbered from 1, the first the catalog) as a PDF file with its cross-reference table."""
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, obj in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + obj + b"\nendobj\n"
    trailer = f"/Size {len(objects) + 1} /Root 1 0 R"
    if encrypt:
        offsets.append(len(out))
        encryption = f"<< /Filter /Standard /V 1 /R 2 /O <{'11' * 32}> /U <{'22' * 32}> /P -44 >>"
        out += f"{len(objects) + 1} 0 obj\n{encryption}\nendobj\n".encode()
        trailer = (
            f"/Size {len(objects) + 2} /Root 1 0 R /Encrypt {len(objects) + 1} 0 R /ID [<{'ab' * 16}> <{'ab' * 16}>]"
        )
    xref = len(out)
    out += (
        f"xref\n0 {len(offsets) + 1}\n0000000000 65535 f \n".encode()
        + "".join(f"{o:010d} 00000 n \n" for o in offsets).encode()
    )
    out += f"trailer\n<< {trailer} >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def docx_bytes(paragraphs: Sequence[str] = ("Hello there.",)) -> bytes:
    """A real .docx (python-docx) with these paragraphs."""
    import docx

    document = docx.Document()
    for text in paragraphs:
        document.add_paragraph(text)
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def with_entries(package: bytes, entries: dict[str, bytes], level: int = 6) -> bytes:
    """``package`` rewritten with some entries replaced or added (deflated at ``level``)."""
    with zipfile.ZipFile(io.BytesIO(package)) as archive:
        kept = {name: archive.read(name) for name in archive.namelist()}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=level) as archive:
        for name, data in {**kept, **entries}.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def declare_size(package: bytes, name: str, file_size: int) -> bytes:
    """``package`` with the uncompressed size of ``name`` rewritten in its local and central headers (a lie)."""
    import struct

    data = bytearray(package)
    with zipfile.ZipFile(io.BytesIO(package)) as archive:
        info = archive.getinfo(name)
    struct.pack_into("<I", data, info.header_offset + 22, file_size)  # local file header
    position = data.find(b"PK\x01\x02")
    while position != -1:  # the central directory entry whose name is ``name``
        name_length = struct.unpack_from("<H", data, position + 28)[0]
        if data[position + 46 : position + 46 + name_length] == name.encode():
            struct.pack_into("<I", data, position + 24, file_size)
            return bytes(data)
        position = data.find(b"PK\x01\x02", position + 4)
    raise AssertionError(f"{name} is not in the central directory")
