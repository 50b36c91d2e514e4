"""PDFs made by hand (docfixtures): text joined into paragraphs, a PDF or a .docx written, scans read by OCR.

The corpus tests (tests/documents/pdf/) check the PDF writer on real layouts; these check the simple cases,
the .docx output and the scanned pages."""

import re
import subprocess
import sys

import docx
import pytest
from docfixtures import make_pdf, mark, scanned_pdf
from pdfminer.high_level import extract_text

from fanyi.cancel import Cancelled, CancelToken
from fanyi.documents import CorruptDocument, DocumentTooLarge, EncryptedDocument, NoTextFound, translate_document

PAGES = [
    ["Hello world, this is a", "wrapped para-", "graph of text.", "", "Second paragraph."],
    ["Page two text."],
]


def _words(text: str) -> str:
    """The translation's words as a PDF shows them: the marks ⟦ ⟧ have no glyph in a CJK font, lines are wrapped."""
    return " ".join(text.replace("⟦", " ").replace("⟧", " ").split())


def test_text_is_joined_into_paragraphs_and_translated_into_a_pdf(tmp_path, translator):
    src = tmp_path / "paper.pdf"
    src.write_bytes(make_pdf(PAGES))
    result = translate_document(src, translator)
    assert result.output.name == "paper.zh.pdf"
    assert sorted(translator.texts) == [
        "Hello world, this is a wrapped paragraph of text.",
        "Page two text.",
        "Second paragraph.",
    ]
    pages = [_words(extract_text(result.output, page_numbers=[n])) for n in range(2)]
    assert pages == [_words(mark(PAGES_TEXT[0]) + " " + mark("Second paragraph.")), _words(mark("Page two text."))]
    assert any("the font has no glyph for ⟦⟧" in note for note in result.report.notes)


PAGES_TEXT = ["Hello world, this is a wrapped paragraph of text."]


def test_text_is_joined_into_paragraphs_and_translated_into_a_docx(tmp_path, translator):
    src = tmp_path / "paper.pdf"
    src.write_bytes(make_pdf(PAGES))
    result = translate_document(src, translator, to="docx")
    assert result.output.name == "paper.zh.docx"
    paragraphs = [p.text for p in docx.Document(result.output).paragraphs]
    assert "PDF 的版面没有保留" in paragraphs[0]  # the note in the translation's language
    assert paragraphs[1:] == [
        mark("Hello world, this is a wrapped paragraph of text."),
        mark("Second paragraph."),
        mark("Page two text."),
    ]
    assert any("page layout" in note for note in result.report.notes)
    assert "page layout" in result.report.summary()
    assert '<w:br w:type="page"/>' in _document_xml(result.output)


def test_a_bilingual_docx_of_a_pdf_has_the_source_then_the_translation(tmp_path, translator):
    src = tmp_path / "paper.pdf"
    src.write_bytes(make_pdf(PAGES[1:]))
    result = translate_document(src, translator, bilingual=True, to="docx")
    assert [p.text for p in docx.Document(result.output).paragraphs][1:] == ["Page two text.", mark("Page two text.")]


def test_a_scanned_pdf_gets_a_clear_message(tmp_path, translator):
    src = tmp_path / "scan.pdf"
    src.write_bytes(make_pdf([[], []]))
    with pytest.raises(NoTextFound, match="scan.pdf has no text layer"):
        translate_document(src, translator)
    assert [p.name for p in tmp_path.iterdir()] == ["scan.pdf"]


def test_a_password_protected_pdf_is_named(tmp_path, translator):
    src = tmp_path / "locked.pdf"
    src.write_bytes(make_pdf(PAGES, encrypt=True))
    with pytest.raises(EncryptedDocument, match="locked.pdf is password-protected"):
        translate_document(src, translator)


def test_a_truncated_pdf_is_refused(tmp_path, translator):
    src = tmp_path / "cut.pdf"
    src.write_bytes(make_pdf(PAGES)[:60])
    with pytest.raises(CorruptDocument, match="cut.pdf is not a readable PDF"):
        translate_document(src, translator)
    assert [p.name for p in tmp_path.iterdir()] == ["cut.pdf"]


def _document_xml(path):
    import zipfile

    with zipfile.ZipFile(path) as archive:
        return archive.read("word/document.xml").decode()


SCANNED = [["Good morning. The weather is fine today.", "", "Please translate this page."], ["Page two text."]]


def test_a_scanned_pdf_is_translated_over_its_paper_on_its_pages(tmp_path, translator, ocr_models):
    import pikepdf

    src = tmp_path / "scan.pdf"
    src.write_bytes(scanned_pdf(SCANNED))
    result = translate_document(src, translator)
    assert result.output.suffix == ".pdf"
    assert _words(extract_text(result.output, page_numbers=[0])) == _words(
        mark("Good morning. The weather is fine today.") + " " + mark("Please translate this page.")
    )
    with pikepdf.open(src) as before, pikepdf.open(result.output) as after:
        for old, new in zip(before.pages, after.pages):
            assert list(new.images) == list(old.images)  # the scan is still the page
            drawn = new.Contents.read_bytes()
            paper = re.search(rb"q ([\d.]+) ([\d.]+) ([\d.]+) rg [\d. -]+ re f Q", drawn)
            assert paper and all(float(v) > 0.9 for v in paper.groups())  # the scan's white paper, then the text
    assert any("pages 1–2 have no text layer" in note for note in result.report.notes)


def test_a_scanned_pdf_is_recognised_by_ocr_and_translated_into_a_docx(tmp_path, translator, ocr_models):
    src = tmp_path / "scan.pdf"
    src.write_bytes(scanned_pdf(SCANNED))
    pages = []
    result = translate_document(src, translator, to="docx", progress=lambda done, total: pages.append((done, total)))
    paragraphs = [p.text for p in docx.Document(result.output).paragraphs]
    assert "第 1–2 页没有文字层（扫描件），其文字由 OCR 识别" in paragraphs[0]
    assert paragraphs[1:] == [
        mark("Good morning. The weather is fine today."),
        mark("Please translate this page."),
        mark("Page two text."),
    ]
    assert any("pages 1–2 have no text layer" in note for note in result.report.notes)
    assert pages[:3] == [(0, 2), (1, 2), (2, 2)]  # pages recognised, then the translation's own progress


def test_only_the_pages_without_text_are_recognised(tmp_path, translator, ocr_models):
    import pypdfium2

    text, scan = (
        pypdfium2.PdfDocument(make_pdf([["Typed page."]])),
        pypdfium2.PdfDocument(scanned_pdf([["Scanned page."]])),
    )
    text.import_pages(scan)
    text.save(tmp_path / "mixed.pdf")
    result = translate_document(tmp_path / "mixed.pdf", translator, to="docx")
    assert [p.text for p in docx.Document(result.output).paragraphs][1:] == [mark("Typed page."), mark("Scanned page.")]
    assert any(note.startswith("page 2 has no text layer") for note in result.report.notes)


def test_a_pdf_of_blank_images_is_refused_after_ocr_finds_nothing(tmp_path, translator, ocr_models):
    src = tmp_path / "blank.pdf"
    src.write_bytes(scanned_pdf([[]]))
    with pytest.raises(NoTextFound, match="blank.pdf has no text layer .*and OCR found no text on its pages"):
        translate_document(src, translator)
    assert [p.name for p in tmp_path.iterdir()] == ["blank.pdf"]


def test_without_the_ocr_models_a_scan_is_refused_saying_so(tmp_path, translator, monkeypatch):
    monkeypatch.setattr("fanyi.ocr.models_dir", lambda: tmp_path / "nowhere")
    src = tmp_path / "scan.pdf"
    src.write_bytes(scanned_pdf(SCANNED[1:]))
    with pytest.raises(NoTextFound, match="scan.pdf has no text layer .*the OCR models are not installed"):
        translate_document(src, translator)


def test_too_many_scanned_pages_are_refused_before_any_is_recognised(tmp_path, translator, monkeypatch):
    monkeypatch.setattr("fanyi.documents.pdf.scan.MAX_OCR_PAGES", 1)
    monkeypatch.setattr("fanyi.ocr.Recogniser", lambda: pytest.fail("no page may be recognised"))
    src = tmp_path / "scan.pdf"
    src.write_bytes(scanned_pdf(SCANNED))
    with pytest.raises(DocumentTooLarge, match="2 of its pages have no text layer; Fanyi recognises at most 1"):
        translate_document(src, translator)


def test_recognising_pages_stops_when_the_job_is_cancelled(tmp_path, translator, ocr_models):
    token = CancelToken()
    src = tmp_path / "scan.pdf"
    src.write_bytes(scanned_pdf(SCANNED))
    seen = []

    def progress(done, total):
        seen.append(done)
        if done == 1:
            token.cancel()

    with pytest.raises(Cancelled):
        translate_document(src, translator, progress=progress, cancel=token)
    assert seen == [0, 1]  # page 2 was never recognised
    assert [p.name for p in tmp_path.iterdir()] == ["scan.pdf"]


def test_ocr_past_its_time_limit_is_refused(tmp_path, translator, ocr_models, monkeypatch):
    monkeypatch.setattr("fanyi.documents.pdf.scan.MAX_OCR_SECONDS", -1)
    src = tmp_path / "scan.pdf"
    src.write_bytes(scanned_pdf(SCANNED))
    with pytest.raises(DocumentTooLarge, match="took longer than .*1 of 2 done"):
        translate_document(src, translator)


@pytest.mark.parametrize(
    ("target", "opening"),
    [("ja", "Translated from paper.pdf; the page layout"), ("zh", "译自 paper.pdf。PDF 的版面没有保留"),
     ("zh_Hant", "譯自 paper.pdf。PDF 的版面沒有保留")],
)  # fmt: skip
def test_the_docx_note_is_in_the_translations_language(tmp_path, translator, target, opening):
    src = tmp_path / "paper.pdf"
    src.write_bytes(make_pdf(PAGES))
    translator.target_lang = target
    result = translate_document(src, translator, to="docx")
    assert docx.Document(result.output).paragraphs[0].text.startswith(opening)


@pytest.mark.parametrize(
    ("font", "bold"),
    [
        ("CMBX12", True),
        ("SFBX1200", True),
        ("NimbusRomNo9L-Medi", True),
        ("CMR10", False),
        ("NimbusRomNo9L-Regu", False),
    ],
)
def test_bold_fonts_that_do_not_say_bold_are_read_as_bold(tmp_path, font, bold):
    """pdflatex's headings are set in CMBX (Computer Modern bold extended) and its Times bold is URW's "Medi": the
    translation of a paragraph in them is drawn bold."""
    import pikepdf

    from fanyi.documents.pdf.document import PdfDocument

    path = tmp_path / "bold.pdf"
    path.write_bytes(make_pdf([["1 Introduction"]]))
    with pikepdf.open(path, allow_overwriting_input=True) as pdf:  # the font named as pdflatex embeds it
        name = pikepdf.Name("/ABCDEF+" + font)
        pdf.pages[0].Resources.Font.F1.BaseFont = name
        pdf.pages[0].Resources.Font.F1.FontDescriptor = pdf.make_indirect(
            pikepdf.Dictionary(
                Type=pikepdf.Name.FontDescriptor, FontName=name, Flags=34, ItalicAngle=0, Ascent=700, Descent=-200
            )
        )
        pdf.save(path)
    [page] = PdfDocument(path).pages
    assert [p.bold for p in page.paragraphs] == [bold]


# QPDF finishes its output in a destructor when it writes a deterministic /ID (QPDFWriter::PipelinePopper), so a
# write that failed there ended the process (std::terminate, exit 134) and left the temporary file behind.
FULL_AT_FLUSH = """
import contextlib, errno
from fanyi.documents import job
real = job.staged
class Full:  # takes every write into its buffer, as a buffered file does, and finds the disk full when flushed
    def __init__(self, file): self.file = file
    def write(self, data): return len(data)
    def flush(self): raise OSError(errno.ENOSPC, "No space left on device")
    def __getattr__(self, name): return getattr(self.file, name)
@contextlib.contextmanager
def staged(path):
    with real(path) as stage:
        stage.file = Full(stage.file)
        yield stage
job.staged = staged
"""
# a file that cannot grow past 4 KB, as on a quota: the write fails with EFBIG (SIGXFSZ ignored, as a shell may)
CANNOT_GROW = """
import resource, signal
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (4096, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))
"""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX resource limits")
@pytest.mark.parametrize(
    "failing, said",
    [(FULL_AT_FLUSH, "No space left on device"), (CANNOT_GROW, "File too large")],
    ids=["disk-full-at-the-last-flush", "file-cannot-grow"],
)
def test_a_pdf_that_cannot_be_written_is_one_line_and_leaves_nothing(tmp_path, tiny_pack, bundled_fonts, failing, said):
    src = tmp_path / "paper.pdf"
    src.write_bytes(make_pdf(PAGES))
    command = ["file", "--model", str(tiny_pack), str(src)]
    run = failing + f"import sys\nfrom fanyi.cli import main\nsys.exit(main({command!r}))\n"
    done = subprocess.run([sys.executable, "-c", run], capture_output=True, text=True, timeout=300)
    errors = [line for line in done.stderr.splitlines() if not line.startswith("paper.pdf: ")]  # progress aside
    assert done.returncode == 1 and errors == [f"error: Could not write {tmp_path / 'paper.zh.pdf'}: {said}."], done
    assert sorted(p.name for p in tmp_path.iterdir()) == ["paper.pdf"]
