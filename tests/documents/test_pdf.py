import docx
import pytest

from fanyi.documents import CorruptDocument, EncryptedDocument, NoTextFound, translate_document

from docfixtures import make_pdf, mark

PAGES = [
    ["Hello world, this is a", "wrapped para-", "graph of text.", "", "Second paragraph."],
    ["Page two text."],
]


def test_text_is_joined_into_paragraphs_and_translated_into_a_docx(tmp_path, translator):
    src = tmp_path / "paper.pdf"
    src.write_bytes(make_pdf(PAGES))
    result = translate_document(src, translator)
    assert result.output.name == "paper.zh.docx"
    paragraphs = [p.text for p in docx.Document(result.output).paragraphs]
    assert "page layout of the PDF is not kept" in paragraphs[0]
    assert paragraphs[1:] == [
        mark("Hello world, this is a wrapped paragraph of text."),
        mark("Second paragraph."),
        mark("Page two text."),
    ]
    assert any("page layout" in note for note in result.report.notes)
    assert "page layout" in result.report.summary()
    assert '<w:br w:type="page"/>' in _document_xml(result.output)


def test_bilingual_pdf_output_has_the_source_then_the_translation(tmp_path, translator):
    src = tmp_path / "paper.pdf"
    src.write_bytes(make_pdf(PAGES[1:]))
    result = translate_document(src, translator, bilingual=True)
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
