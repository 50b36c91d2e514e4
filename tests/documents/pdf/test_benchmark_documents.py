"""benchmarks/pdf_documents.py writes what the PDF benchmarks say they run on, short versions of it here."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pikepdf
import pypdfium2
import pytest
from pdfminer.high_level import extract_pages
from pdfminer.layout import LTCurve, LTTextContainer

SCRIPT = Path(__file__).parents[3] / "benchmarks" / "pdf_documents.py"


@pytest.fixture(scope="module")
def generator():
    spec = importlib.util.spec_from_file_location("pdf_documents", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules["pdf_documents"] = module  # dataclasses and pickling look modules up by name
    spec.loader.exec_module(module)
    yield module
    del sys.modules["pdf_documents"]


def _pages(path: Path) -> list[tuple[str, int]]:
    """Each page's text and how many paths it draws."""
    found = []
    for page in extract_pages(path):
        text = " ".join(item.get_text() for item in _walk(page) if isinstance(item, LTTextContainer))
        found.append((re.sub(r"\s+", " ", text), sum(isinstance(item, LTCurve) for item in _walk(page))))
    return found


def _walk(item):
    yield item
    if hasattr(item, "__iter__") and not isinstance(item, LTTextContainer):
        for child in item:
            yield from _walk(child)


def test_the_paper_has_a_figure_a_table_a_formula_and_a_footnote_on_every_page(generator, tmp_path):
    path = generator.write_paper(tmp_path / "paper.pdf", pages=3, seed=5)
    pages = _pages(path)
    assert len(pages) == 3
    for number, (text, paths) in enumerate(pages, 1):
        assert f"Figure {number}:" in text and f"Table {number}:" in text, text[:200]
        assert re.search(r"\(\d+\)", text)  # a display formula's number
        assert paths >= 10  # the chart's bars, curve and markers, the table's rules
    first = pages[0][0]
    assert len(re.findall(r"[a-z]+", first)) > 400  # two columns of prose under the title


def test_the_manual_has_exact_pages_chapters_and_contents_links(generator, tmp_path):
    path = generator.write_manual(tmp_path / "manual.pdf", pages=12, seed=2)
    pages = _pages(path)
    assert len(pages) == 12
    assert all(f"Page {k} of 12" in text for k, (text, _) in enumerate(pages, 1))
    chapters = re.findall(r"Chapter (\d+) ", pages[0][0])
    assert chapters and chapters == [str(k) for k in range(1, len(chapters) + 1)]
    with pikepdf.open(path) as pdf, pdf.open_outline() as outline:
        assert [item.title.split()[1] for item in outline.root] == chapters
        links = [a for a in pdf.pages[0].obj.get("/Annots", []) if a.Subtype == "/Link"]
        assert len(links) == len(chapters)
    assert len(pypdfium2.PdfDocument(str(path))) == 12


def test_the_documents_are_the_same_bytes_for_the_same_seed(generator, tmp_path):
    for write in (generator.write_paper, generator.write_manual):
        first = write(tmp_path / "a.pdf", 2, 7).read_bytes()
        assert write(tmp_path / "b.pdf", 2, 7).read_bytes() == first
        assert write(tmp_path / "c.pdf", 2, 8).read_bytes() != first


def test_the_command_line_writes_both(generator, tmp_path, capsys):
    assert generator.main(["--out", str(tmp_path), "--paper-pages", "1", "--manual-pages", "2"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["manual.pdf", "paper.pdf"]
    assert "manual.pdf: 2 pages" in capsys.readouterr().out
