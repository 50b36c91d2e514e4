"""A hyphen at a line's end: a word's break goes, a compound's stays, as the document itself shows."""

from __future__ import annotations

from reportlab.pdfgen.canvas import Canvas

from fanyi.documents.pdf.document import PdfDocument


def _pages(path, pages: list[list[str]]) -> None:
    """Each page a paragraph of the given lines, drawn at one left edge, 12 points apart."""
    canvas = Canvas(str(path), pagesize=(612, 792))
    for lines in pages:
        canvas.setFont("Times-Roman", 10)
        for number, line in enumerate(lines):
            canvas.drawString(72, 720 - 12 * number, line)
        canvas.showPage()
    canvas.save()


def _texts(path) -> list[str]:
    return [unit.text for unit in PdfDocument(path).units()]


def test_a_compound_written_whole_on_an_earlier_page_keeps_its_hyphen_on_a_later_one(tmp_path):
    path = tmp_path / "compound.pdf"
    _pages(
        path,
        [
            ["We describe a layout-preserving translator for documents."],
            ["The method is fully layout-", "preserving and fast; its para-", "graphs are translated whole."],
        ],
    )
    assert _texts(path)[1] == "The method is fully layout-preserving and fast; its paragraphs are translated whole."


def test_a_word_broken_at_a_line_end_is_joined_and_a_chain_of_compounds_keeps_its_hyphens(tmp_path):
    """ "some" and "thing" may both be words of the page: "some-" "thing" is still one word."""
    path = tmp_path / "alone.pdf"
    lines = ["The method is fully trans-", "parent and gives out-", "of-range values some-", "thing of a some thing."]
    _pages(path, [lines])
    assert _texts(path) == ["The method is fully transparent and gives out-of-range values something of a some thing."]
