"""Real PDFs with their ground truth, for the PDF reader's and writer's tests and for people to look at.

    from corpus import build_all, paper, render_png
    docs = build_all(tmp_path)           # {"paper": Document, "mixed_pages": …, "chinese": …, "scanned": …,
                                         #  "traps": …, "encrypted": …, "restricted": …}
    doc = paper(tmp_path)                # one of them: writes tmp_path/paper.pdf
    for unit in doc.units: unit.page, unit.role, unit.text, unit.translate, unit.bbox
    render_png(doc.path, 0, tmp_path / "p0.png", scale=1.5)

Every builder writes its file into the folder it is given and returns a ``Document`` (corpus_truth.py says
what each field means); the files are the same bytes on every run.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from corpus_pages import build_chinese as chinese
from corpus_pages import build_mixed_pages as mixed_pages
from corpus_pages import build_scanned as scanned
from corpus_paper import build_paper as paper
from corpus_traps import build_encrypted as encrypted
from corpus_traps import build_restricted as restricted
from corpus_traps import build_traps as traps
from corpus_truth import Annotation, Box, Document, Figure, Image, Page, Role, Span, Unit

BUILDERS: dict[str, Callable[[Path], Document]] = {
    "paper": paper,
    "mixed_pages": mixed_pages,
    "chinese": chinese,
    "scanned": scanned,
    "traps": traps,
    "encrypted": encrypted,
    "restricted": restricted,
}

__all__ = [
    "BUILDERS",
    "Annotation",
    "Box",
    "Document",
    "Figure",
    "Image",
    "Page",
    "Role",
    "Span",
    "Unit",
    "build_all",
    "chinese",
    "encrypted",
    "mixed_pages",
    "paper",
    "render_png",
    "restricted",
    "scanned",
    "traps",
]


def build_all(folder: Path) -> dict[str, Document]:
    folder.mkdir(parents=True, exist_ok=True)
    return {name: build(folder) for name, build in BUILDERS.items()}


def render_png(pdf_path: Path, page_index: int, out_png: Path, scale: float = 1.5, password: str | None = None) -> Path:
    """Draw one page with PDFium (as a viewer shows it: /Rotate applied, CropBox only) into a PNG."""
    import pypdfium2

    pdf = pypdfium2.PdfDocument(str(pdf_path), password=password)
    try:
        pdf[page_index].render(scale=scale).to_pil().save(out_png)
    finally:
        pdf.close()
    return out_png
