"""Hostile and oversized documents: refused with one line before the expensive work, or read in bounded pieces."""

from __future__ import annotations

import importlib
import os
import tracemalloc
import zipfile
import zlib

import pytest
from docfixtures import declare_size, docx_bytes, leftovers, mark, page_text, pdf_with_contents, with_entries

from fanyi import limits
from fanyi.documents import CorruptDocument, DocumentError, DocumentTooLarge, translate_document
from fanyi.documents.registry import format_for


def blocks_of(path):
    """The blocks a streamed format holds one at a time."""
    module = importlib.import_module(f"fanyi.documents.{format_for(path).module}")
    return list(module.parse(path.read_text(encoding="utf-8").splitlines(keepends=True)))


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("unclosed-fence.md", "Intro.\n\n```\n" + "x = 1\n" * 20_000, "x = 1\n" * 20_000),
        ("front-matter.md", "---\n" + "key: value\n" * 5_000 + "---\n\nText.\n", "key: value\n" * 5_000),
        ("indented.md", "Intro.\n\n" + "    code line\n" * 5_000, "    code line\n" * 5_000),
        ("list.md", "- item\n" + "  continued line of the same item\n" * 3_000, "- ⟦ITEM CONTINUED LINE"),
        (
            "no-blank-lines.srt",
            "1\n00:00:01,000 --> 00:00:02,000\n" + "Hello there.\n" * 5_000,
            "⟦HELLO THERE. HELLO THERE.",
        ),
    ],
)
def test_no_block_of_a_streamed_format_holds_more_than_the_unit_limit(tmp_path, translator, name, text, expected):
    src = tmp_path / name
    src.write_text(text, encoding="utf-8")
    assert len(text) > 2 * limits.MAX_UNIT_CHARS
    blocks = blocks_of(src)
    assert "".join(block.raw for block in blocks) == text
    assert max(len(block.raw) for block in blocks) <= limits.MAX_UNIT_CHARS
    out = translate_document(src, translator).output.read_text(encoding="utf-8")
    assert expected in out


@pytest.mark.parametrize("suffix", [".txt", ".md", ".srt"])
def test_a_line_longer_than_the_limit_is_refused_in_one_line(tmp_path, translator, suffix):
    src = tmp_path / f"one-line{suffix}"
    src.write_text("Hello there. " * (limits.MAX_LINE_CHARS // 13 + 10), encoding="utf-8")
    with pytest.raises(DocumentTooLarge, match=r"has a line longer than 1,048,576 characters \(line 1\)") as caught:
        translate_document(src, translator)
    assert "\n" not in str(caught.value)
    assert translator.calls == [] and leftovers(tmp_path) == [] and len(list(tmp_path.iterdir())) == 1


def test_a_line_just_at_the_limit_is_read_with_its_crlf(tmp_path, translator):
    line = "a" * (limits.MAX_LINE_CHARS - 1) + "."
    src = tmp_path / "edge.txt"
    src.write_bytes(f"{line}\r\n\r\nNext.\r\n".encode())
    out = translate_document(src, translator).output.read_bytes().decode()
    assert out == f"{mark(line)}\r\n\r\n{mark('Next.')}\r\n"


# --- ZIP packages ----------------------------------------------------------------------------------

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def document_xml(body: str) -> bytes:
    declaration = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    return f'{declaration}<w:document xmlns:w="{W_NS}"><w:body>{body}</w:body></w:document>'.encode()


def peak_memory(call):
    """The peak of Python allocations during ``call()`` and what it raised (lxml's own memory is not seen)."""
    tracemalloc.start()
    try:
        with pytest.raises(DocumentError) as caught:
            call()
        return tracemalloc.get_traced_memory()[1], caught.value
    finally:
        tracemalloc.stop()


def test_a_docx_of_millions_of_empty_paragraphs_is_refused_before_it_is_inflated(tmp_path, translator):
    src = tmp_path / "empty-paragraphs.docx"
    src.write_bytes(with_entries(docx_bytes(), {"word/document.xml": document_xml("<w:p></w:p>" * 1_500_000)}, 9))
    assert src.stat().st_size < 200_000  # 16.5 MB of XML inside
    peak, error = peak_memory(lambda: translate_document(src, translator))
    assert isinstance(error, DocumentTooLarge) and peak < 4 << 20, peak
    assert "word/document.xml unpacks to 15.7 MB from" in str(error) and "ZIP bomb" in str(error)
    assert translator.calls == [] and len(list(tmp_path.iterdir())) == 1


def test_an_entry_declaring_2_gib_is_refused_from_the_central_directory(tmp_path, translator, monkeypatch):
    package = with_entries(docx_bytes(), {"word/media/zeros.bin": bytes(1 << 20)}, 9)
    src = tmp_path / "declared.docx"
    src.write_bytes(declare_size(package, "word/media/zeros.bin", 2 << 30))
    opened = []
    real_open = zipfile.ZipFile.open

    def spy(self, name, *args, **kwargs):
        opened.append(name)
        return real_open(self, name, *args, **kwargs)

    monkeypatch.setattr(zipfile.ZipFile, "open", spy)
    with pytest.raises(DocumentTooLarge, match=r"word/media/zeros.bin unpacks to 2 GB \(limit 1 GB\)"):
        translate_document(src, translator)
    assert opened == []  # nothing was inflated


def test_an_entry_that_inflates_past_its_declared_size_is_not_read_past_it(tmp_path, translator):
    package = with_entries(docx_bytes(), {"word/media/zeros.bin": bytes(40 << 20)}, 9)
    src = tmp_path / "lying.docx"
    src.write_bytes(declare_size(package, "word/media/zeros.bin", 1024))  # ratio and size look harmless
    peak, error = peak_memory(lambda: translate_document(src, translator))
    assert isinstance(error, CorruptDocument) and "damaged" in str(error) and peak < 4 << 20, peak


_PARAGRAPH = "<w:p><w:r><w:t>Hi.</w:t></w:r></w:p>"


@pytest.mark.parametrize(
    ("limit", "value", "entries", "message"),
    [
        (
            "package.MAX_ZIP_ENTRIES",
            20,
            {f"extra/{n}.bin": b"x" for n in range(20)},
            r"has \d+ entries, more than the limit of 20",
        ),
        (
            "package.MAX_ZIP_TOTAL_BYTES",
            1 << 20,
            {"word/media/a.bin": os.urandom(300_000)},
            r"it unpacks to 1.\d+ MB \(limit 1 MB\)",
        ),
        (
            "package.MAX_ZIP_ENTRY_BYTES",
            500_000,
            {"word/media/a.bin": os.urandom(600_000)},
            r"a.bin unpacks to 586 KB \(limit 488 KB\)",
        ),
        (
            "package.MAX_MARKUP_BYTES",
            50_000,
            {"word/document.xml": document_xml(_PARAGRAPH * 2_000)},
            r"word/document.xml holds 70.5 KB \(limit 48.8 KB\)",
        ),
        (
            "package.MAX_XML_TAGS",
            1_000,
            {"word/document.xml": document_xml(_PARAGRAPH * 200)},
            r"more than 1,000 tags in its XML parts",
        ),
        ("ooxml.MAX_UNITS", 50, {"word/document.xml": document_xml(_PARAGRAPH * 60)}, r"more than 50 paragraphs"),
    ],
    ids=["entries", "total bytes", "entry bytes", "markup bytes", "tags", "units"],
)
def test_each_package_limit_refuses_with_one_line(tmp_path, translator, monkeypatch, limit, value, entries, message):
    module, name = limit.rsplit(".", 1)
    monkeypatch.setattr(importlib.import_module(f"fanyi.documents.{module}"), name, value)
    src = tmp_path / "big.docx"
    src.write_bytes(with_entries(docx_bytes(), entries))
    with pytest.raises(DocumentTooLarge, match=message) as caught:
        translate_document(src, translator)
    assert str(caught.value).startswith(f"{src} is too large to translate: ") and "\n" not in str(caught.value)
    assert translator.calls == [] and len(list(tmp_path.iterdir())) == 1


@pytest.mark.parametrize(
    ("limit", "value", "message"),
    [
        ("MAX_MARKUP_BYTES", 1_000, r"it holds 2.\d+ KB of markup \(limit 1000 bytes\)"),
        ("MAX_HTML_TAGS", 100, "more than 100 tags"),
        ("MAX_UNITS", 50, "more than 50 units"),
    ],
)
def test_each_html_limit_refuses_with_one_line(tmp_path, translator, monkeypatch, limit, value, message):
    monkeypatch.setattr(importlib.import_module("fanyi.documents.html"), limit, value)
    src = tmp_path / "page.html"
    src.write_text("<html><body>" + "<p>Hello there.</p>" * 120 + "</body></html>", encoding="utf-8")
    with pytest.raises(DocumentTooLarge, match=message):
        translate_document(src, translator)
    assert translator.calls == []


# --- PDF -------------------------------------------------------------------------------------------


def _flate(data: bytes) -> bytes:
    return zlib.compress(data, 9)


def flate_bomb(size: int) -> bytes:
    """A valid zlib stream of ``size`` spaces (a multiple of 1 MiB), built without compressing them all."""
    chunk = b" " * (1 << 20)
    compressor = zlib.compressobj(9)
    head = compressor.compress(chunk) + compressor.flush(zlib.Z_FULL_FLUSH)
    body = compressor.compress(chunk) + compressor.flush(zlib.Z_FULL_FLUSH)  # the same for every further MiB
    tail = compressor.flush()[:-4]  # the final block, without the checksum of two MiB
    checksum = 1
    for _ in range(size >> 20):
        checksum = zlib.adler32(chunk, checksum)
    return head + body * ((size >> 20) - 1) + tail + checksum.to_bytes(4, "big")


def test_a_flate_bomb_is_refused_after_inflating_at_most_the_stream_limit(tmp_path, translator):
    bomb = flate_bomb(2 * limits.MAX_PDF_STREAM_BYTES)
    src = tmp_path / "bomb.pdf"
    src.write_bytes(pdf_with_contents([(page_text(["Hello there."]), ""), (bomb, "/FlateDecode")]))
    assert src.stat().st_size < 200_000
    peak, error = peak_memory(lambda: translate_document(src, translator))
    assert isinstance(error, DocumentTooLarge) and "a stream in it decodes to more than 64 MB" in str(error)
    assert peak < limits.MAX_PDF_STREAM_BYTES * 1.25, peak  # a bytearray grows by an eighth
    assert translator.calls == [] and len(list(tmp_path.iterdir())) == 1


@pytest.mark.parametrize(
    ("stream", "filters"),
    [
        (_flate(_flate(b"\0" * (3 << 20))), "/FlateDecode /FlateDecode"),  # each stage is bounded
        (_flate(b"\0" * (3 << 20))[:-40], "/FlateDecode"),  # damaged: pdfminer's salvage path
        (bytes([129, 0]) * 30_000 + bytes([128]), "/RunLengthDecode"),  # 60 KB → 3.7 MB
    ],
    ids=["nested flate", "truncated flate", "run length"],
)
def test_every_expanding_filter_is_bounded(tmp_path, translator, monkeypatch, stream, filters):
    monkeypatch.setattr(importlib.import_module("fanyi.documents.pdf.decoding"), "MAX_PDF_STREAM_BYTES", 1 << 20)
    src = tmp_path / "filters.pdf"
    src.write_bytes(pdf_with_contents([(page_text(["Hello there."]), ""), (stream, filters)]))
    with pytest.raises(DocumentTooLarge, match="a stream in it decodes to more than 1 MB"):
        translate_document(src, translator)


def test_the_run_length_decoder_decodes_as_the_pdf_reference_says():
    from fanyi.documents.pdf.decoding import _rldecode

    assert _rldecode(bytes([2]) + b"abc" + bytes([254]) + b"z" + bytes([128]) + b"ignored") == b"abczzz"
    assert _rldecode(bytes([0]) + b"a" + bytes([255, 0x21])) == b"a!!"


@pytest.mark.parametrize(
    ("limit", "value", "message"),
    [
        ("pdf.decoding.MAX_PDF_DECODED_BYTES", 300, "its streams decode to more than 300 bytes"),
        ("pdf.document.MAX_PDF_PAGES", 3, "it has more than 3 pages"),
        ("pdf.interpret.MAX_PDF_PAGE_CHARS", 50, "a page shows more than 50 characters"),
        ("pdf.document.MAX_UNITS", 4, "it has more than 4 text boxes"),
        ("pdf.document.MAX_PDF_TEXT_CHARS", 100, "it has more than 100 characters of text"),
    ],
)
def test_each_pdf_limit_refuses_with_one_line(tmp_path, translator, monkeypatch, limit, value, message):
    module, name = limit.rsplit(".", 1)
    monkeypatch.setattr(importlib.import_module(f"fanyi.documents.{module}"), name, value)
    src = tmp_path / "long.pdf"
    page = ["A paragraph of text on this page, long enough to count.", "", "And a second one."]
    src.write_bytes(pdf_with_contents([(_flate(page_text(page)), "/FlateDecode")] * 5))
    with pytest.raises(DocumentTooLarge, match=message) as caught:
        translate_document(src, translator)
    assert "\n" not in str(caught.value) and translator.calls == []


def test_a_page_of_scattered_characters_is_laid_out_without_comparing_every_pair(tmp_path, translator, monkeypatch):
    layout = importlib.import_module("fanyi.documents.pdf.layout")
    monkeypatch.setattr(layout, "PDF_LAYOUT_LINES", 40)
    cut = []  # how many pieces the reading order's cuts were given, page by page

    def counting(real):
        def cuts(items, *args):
            cut.append(len(items))
            return real(items, *args)

        return cuts

    monkeypatch.setattr(layout, "_cut", counting(layout._cut))
    words = [f"word{n}" for n in range(60)]
    scattered = b" ".join(page_text([word], x=50 + 97 * (n % 5), y=740 - 12 * n) for n, word in enumerate(words))
    small = page_text(["One short page.", "", "Two paragraphs."])
    src = tmp_path / "scattered.pdf"
    src.write_bytes(pdf_with_contents([(scattered, ""), (small, "")]))
    result = translate_document(src, translator)
    assert sorted(translator.texts) == sorted(words + ["One short page.", "Two paragraphs."])
    assert cut and max(cut) <= 40  # the big page was read top to bottom, never cut
    assert result.report.translated == 62
