"""The PDF corpus is sound: every file opens in four readers, and its ground truth is what is on the pages."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections import Counter

import pikepdf
import pypdf
import pypdfium2
import pytest
from corpus import BUILDERS, Box, Document, Role, render_png
from pdfminer.converter import PDFPageAggregator
from pdfminer.layout import LTChar, LTComponent, LTCurve, LTImage
from pdfminer.pdfinterp import PDFPageInterpreter, PDFResourceManager
from pdfminer.pdfpage import PDFPage

SLACK = 1.0  # points a pdfminer box may stray outside a ground-truth box (rounding, AFM and descriptor metrics)


def _layout_objects(doc: Document) -> list[list[LTComponent]]:
    """pdfminer's characters, images and paths of each page (no layout analysis), in user space."""
    pages: list[list[LTComponent]] = []
    with open(doc.path, "rb") as file:
        manager = PDFResourceManager()
        device = PDFPageAggregator(manager, laparams=None)
        interpreter = PDFPageInterpreter(manager, device)
        for page in PDFPage.get_pages(file, password=doc.password or ""):
            interpreter.process_page(page)
            found: list[LTComponent] = []
            _walk(device.get_result(), found)
            truth = doc.pages[len(pages)]
            for item in found:
                corners = [truth.from_displayed(x, y) for x, y in ((item.x0, item.y0), (item.x1, item.y1))]
                item.set_bbox(Box.around(corners))
            pages.append(found)
    return pages


def _walk(item: LTComponent, found: list[LTComponent]) -> None:
    if isinstance(item, (LTChar, LTImage, LTCurve)):
        found.append(item)
    if hasattr(item, "__iter__") and not isinstance(item, LTChar):
        for child in item:
            _walk(child, found)


def _ink(text: str) -> str:
    return re.sub(r"\s", "", text)


def _box(item: LTComponent) -> Box:
    return Box(item.x0, item.y0, item.x1, item.y1)


@pytest.fixture(scope="module")
def layouts(pdf_corpus):
    return {name: _layout_objects(doc) for name, doc in pdf_corpus.items()}


def test_every_builder_ran_and_wrote_its_file(pdf_corpus):
    assert set(pdf_corpus) == set(BUILDERS)
    for name, doc in pdf_corpus.items():
        assert doc.path.name == f"{name}.pdf" and doc.path.stat().st_size > 1000
        assert doc.units and [page.index for page in doc.pages] == list(range(len(doc.pages)))
        assert all(0 <= unit.page < len(doc.pages) for unit in doc.units)


# ------------------------------------------------------------------------------------------ four readers


def test_pdfium_opens_and_draws_every_page(pdf_corpus):
    for doc in pdf_corpus.values():
        pdf = pypdfium2.PdfDocument(str(doc.path), password=doc.password)
        assert len(pdf) == len(doc.pages), doc.name
        for truth in doc.pages:
            page = pdf[truth.index]
            assert page.get_size() == pytest.approx(truth.displayed_size, abs=0.01), (doc.name, truth.index)
            grey = page.render(scale=0.25, grayscale=True).to_numpy()
            assert grey.min() < 160, f"{doc.name} page {truth.index} renders blank"
        pdf.close()


def test_pdfminer_reads_every_page(pdf_corpus, layouts):
    for name, doc in pdf_corpus.items():
        assert len(layouts[name]) == len(doc.pages)
        for truth, objects in zip(doc.pages, layouts[name]):
            chars = [o for o in objects if isinstance(o, LTChar)]
            if truth.text_layer == "none":
                assert not chars, f"{name} page {truth.index} should have no text layer"
            else:
                assert chars, f"{name} page {truth.index} has no text for pdfminer"


def test_pypdf_reads_every_page_with_its_boxes(pdf_corpus):
    """pypdf reads every page's text but the broken one's, which it refuses (the content stream ends early)."""
    for doc in pdf_corpus.values():
        reader = pypdf.PdfReader(doc.path)
        if reader.is_encrypted:
            assert reader.decrypt(doc.password or "") != pypdf.PasswordType.NOT_DECRYPTED
        assert len(reader.pages) == len(doc.pages)
        for truth, page in zip(doc.pages, reader.pages):
            assert tuple(float(v) for v in page.mediabox) == pytest.approx(tuple(truth.mediabox), abs=0.01)
            assert page.rotation == truth.rotate
            crop = tuple(float(v) for v in page.cropbox)
            assert crop == pytest.approx(tuple(truth.cropbox or truth.mediabox), abs=0.01)
            if "content stream stops" in truth.trap:
                with pytest.raises(pypdf.errors.PdfStreamError):
                    page.extract_text()
            else:
                page.extract_text()


def test_ghostscript_reads_every_file(pdf_corpus):
    gs = shutil.which("gs")
    if gs is None:
        pytest.skip("Ghostscript is not installed (apt-get install ghostscript)")
    for doc in pdf_corpus.values():
        command = [gs, "-dNOPAUSE", "-dBATCH", "-dSAFER", "-o", "/dev/null", "-sDEVICE=nullpage"]
        if doc.password:
            command.append(f"-sPDFPassword={doc.password}")
        result = subprocess.run([*command, str(doc.path)], capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, (doc.name, result.stdout, result.stderr)
        complaints = [line for line in (result.stdout + result.stderr).splitlines() if "****" in line]
        if doc.name == "traps":  # the page with a truncated stream: repaired, said once at the end
            assert any("had errors that were repaired" in line for line in complaints), complaints
        else:
            assert not complaints, (doc.name, complaints)


# -------------------------------------------------------------------------------------- the ground truth


def test_every_character_lies_in_a_unit(pdf_corpus, layouts):
    for name, doc in pdf_corpus.items():
        for truth, objects in zip(doc.pages, layouts[name]):
            boxes = [unit.bbox for unit in doc.units_on(truth.index)]
            misplaced = "".join(
                _ink(line) for u in doc.units_on(truth.index) if _pdfminer_misplaces(u) for line in u.lines[-1:]
            )
            chars = [o for o in objects if isinstance(o, LTChar) and o.get_text().strip()]
            if misplaced:  # the " line's characters, wherever pdfminer put them
                text = "".join(c.get_text() for c in chars)
                start = text.index(misplaced)
                chars = chars[:start] + chars[start + len(misplaced) :]
            for char in chars:
                assert any(box.contains(_box(char), SLACK) for box in boxes), (
                    f"{name} page {truth.index}: {char.get_text()!r} at {_box(char).rounded()} is in no unit"
                )


def _pdfminer_misplaces(unit) -> bool:
    """pdfminer.six (20260107) runs the " operator without its T*: the line lands on the previous one's
    baseline (PDFPageInterpreter.do__w). test_the_double_quote_line_is_on_its_own_line holds it with PDFium."""
    return any(line.startswith("and this one with the double quote") for line in unit.lines)


def test_each_unit_holds_its_own_characters_in_order(pdf_corpus, layouts):
    for name, doc in pdf_corpus.items():
        for unit in doc.units:
            if unit.in_image and unit.visible or _pdfminer_misplaces(unit):
                continue  # pixels of a scan; a line pdfminer puts elsewhere
            chars = [o for o in layouts[name][unit.page] if isinstance(o, LTChar) and o.get_text().strip()]
            inside = "".join(c.get_text() for c in chars if unit.bbox.contains(_box(c), SLACK))
            expected = _ink("".join(unit.lines)) * unit.copies
            assert inside == expected, f"{name} page {unit.page} {unit.role.value}: {unit.text[:40]!r}"


def test_the_double_quote_line_is_on_its_own_line(pdf_corpus):
    doc = pdf_corpus["traps"]
    unit = next(u for u in doc.units if _pdfminer_misplaces(u))
    pdf = pypdfium2.PdfDocument(str(doc.path))
    text = pdf[unit.page].get_textpage()
    boxes = [Box(*text.get_charbox(i)) for i in range(text.count_chars()) if text.get_text_range(i, 1).strip()]
    found = "".join(
        text.get_text_range(i, 1)
        for i in range(text.count_chars())
        if text.get_text_range(i, 1).strip() and unit.bbox.contains(Box(*text.get_charbox(i)), SLACK)
    )
    pdf.close()
    assert found == _ink("".join(unit.lines)) and len(boxes) > len(found)


def test_text_is_the_lines_joined(pdf_corpus):
    """``text`` differs from ``lines`` only by the spaces and soft hyphens that joining takes away."""
    for doc in pdf_corpus.values():
        for unit in doc.units:
            joined = "".join(unit.lines)
            if unit.role in (Role.FORMULA, Role.VERTICAL):
                assert _ink(unit.text) == _ink(joined)
                continue
            assert _ink(unit.text).replace("-", "") == _ink(joined).replace("-", ""), unit.text
            if unit.role != Role.CODE:
                assert unit.text == unit.text.strip() and "  " not in unit.text, unit.text
            for span in unit.spans:
                assert 0 <= span.start < span.end <= len(unit.text), (unit.text, span)


def test_a_continued_paragraph_follows_its_start_in_another_column(pdf_corpus):
    for doc in pdf_corpus.values():
        for index, unit in enumerate(doc.units):
            if unit.joins_previous:
                start = next(u for u in reversed(doc.units[:index]) if u.role == unit.role)
                assert start.page < unit.page or start.bbox.x1 < unit.bbox.x0, unit.text
                assert not start.lines[-1].endswith("-")  # no word is split across the break


def test_the_paper_has_what_a_paper_has(pdf_corpus):
    paper = pdf_corpus["paper"]
    roles = Counter(unit.role for unit in paper.units)
    for role in (
        Role.TITLE,
        Role.HEADING,
        Role.BODY,
        Role.CAPTION,
        Role.FOOTNOTE,
        Role.LIST_ITEM,
        Role.TABLE_CELL,
        Role.FORMULA,
        Role.CODE,
        Role.FIGURE_TEXT,
        Role.HEADER,
        Role.FOOTER,
        Role.ROTATED,
        Role.REFERENCE,
    ):
        assert roles[role], role
    body = [unit for unit in paper.units if unit.role == Role.BODY]
    soft = hard = 0
    for unit in body:
        for line, following in zip(unit.lines, unit.lines[1:]):
            if line.endswith("-"):
                head, tail = line.split()[-1][:-1], following.split()[0]
                soft += f"{head}{tail}" in unit.text
                hard += f"{head}-{tail}" in unit.text
    assert soft >= 3 and hard >= 1, (soft, hard)  # hyphens that go and hyphens of compounds that stay
    assert "two-column" in " ".join(u.text for u in body)
    assert any(unit.joins_previous for unit in paper.units), "no paragraph continues across a column"
    inline = [unit for unit in body if any(span.kind == "formula" for span in unit.spans)]
    assert any("mc2" in unit.text[s.start : s.end] for unit in inline for s in unit.spans if s.kind == "formula")
    numbers = [u for u in paper.units if u.role == Role.TABLE_CELL and not u.translate]
    assert numbers and all(re.fullmatch(r"[\d.]+", u.text) for u in numbers)


def test_the_paper_columns_share_their_baselines(pdf_corpus, layouts):
    """A reader sorting lines by height alone joins the left column's line with the right one's."""
    for page in (0, 1):  # the third page's right column holds only references, in 8 points
        chars = [o for o in layouts["paper"][page] if isinstance(o, LTChar) and round(o.size) == 10]
        left = {round(c.y0, 1) for c in chars if c.x1 < 300}
        right = {round(c.y0, 1) for c in chars if c.x0 > 312}
        assert len(left & right) >= 10, page


def test_images_are_where_the_truth_says(pdf_corpus, layouts):
    for name, doc in pdf_corpus.items():
        with pikepdf.open(doc.path, password=doc.password or "") as pdf:
            for image in doc.images:
                drawn = [_box(o) for o in layouts[name][image.page] if isinstance(o, LTImage)]
                assert any(_close(box, image.bbox) for box in drawn), (name, image)
                if image.inline:
                    operators = pikepdf.parse_content_stream(pdf.pages[image.page])
                    inline = [op.operands[0] for op in operators if op.operator == pikepdf.Operator("INLINE IMAGE")]
                    assert any((i.width, i.height) == image.pixels for i in inline)
                    continue
                xobject = pdf.pages[image.page].Resources.XObject[image.name]
                assert xobject.Subtype == "/Image" and (int(xobject.Width), int(xobject.Height)) == image.pixels
                filters = xobject.get("/Filter")
                assert str(filters[0] if isinstance(filters, pikepdf.Array) else filters or "") == image.filter
                assert ("/SMask" in xobject) == image.smask


def _close(a: Box, b: Box, tolerance: float = 0.5) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


def test_figures_are_drawn_with_paths(pdf_corpus, layouts):
    for name, doc in pdf_corpus.items():
        for figure in doc.figures:
            paths = [o for o in layouts[name][figure.page] if isinstance(o, LTCurve)]
            inside = [p for p in paths if figure.bbox.contains(_box(p), SLACK)]
            if not figure.shading or figure.form:
                assert len(inside) >= 3, (name, figure)
        with pikepdf.open(doc.path, password=doc.password or "") as pdf:
            for figure in (f for f in doc.figures if f.shading):
                operators = {str(op.operator) for op in pikepdf.parse_content_stream(pdf.pages[figure.page])}
                assert "sh" in operators or "scn" in operators, (name, figure)


def test_figure_labels_lie_in_figures_and_stay(pdf_corpus):
    for doc in pdf_corpus.values():
        for unit in (u for u in doc.units if u.role == Role.FIGURE_TEXT):
            regions = [f.bbox for f in doc.figures if f.page == unit.page]
            assert not unit.translate and any(region.contains(unit.bbox, SLACK) for region in regions), unit


def test_annotations_are_there(pdf_corpus):
    paper = pdf_corpus["paper"]
    assert {a.action for a in paper.annotations} == {"URI", "GoTo", ""}  # a URI, a GoTo action, a bare /Dest
    for doc in pdf_corpus.values():
        with pikepdf.open(doc.path, password=doc.password or "") as pdf:
            pages = {page.objgen: index for index, page in enumerate(pdf.pages)}
            found = []
            for index, page in enumerate(pdf.pages):
                for annot in page.obj.get("/Annots", []):
                    action = annot.get("/A", {})
                    dest = annot.get("/Dest", action.get("/D"))
                    found.append(
                        (
                            index,
                            str(annot.Subtype)[1:],
                            Box(*(float(v) for v in annot.Rect)),
                            str(action.URI) if "/URI" in action else None,
                            pages[dest[0].objgen] if dest is not None else None,
                            str(action.S)[1:] if "/S" in action else "",
                        )
                    )
            truth = [(a.page, a.subtype, a.rect, a.uri, a.dest_page, a.action) for a in doc.annotations]
            assert len(found) == len(truth), doc.name
            for got, want in zip(found, truth):
                assert got[:2] == want[:2] and got[3:] == want[3:] and _close(got[2], want[2], 0.01), (got, want)


def test_links_lie_over_their_text(pdf_corpus):
    paper = pdf_corpus["paper"]
    for annotation in paper.annotations:
        under = [u for u in paper.units_on(annotation.page) if u.bbox.contains(annotation.rect, SLACK)]
        assert any(s.kind == "link" for u in under for s in u.spans), annotation


def test_outline_points_at_the_headings(pdf_corpus):
    paper = pdf_corpus["paper"]
    headings = {(u.text, u.page) for u in paper.units if u.role == Role.HEADING}
    assert paper.outline and set(paper.outline) <= headings
    with pikepdf.open(paper.path) as pdf, pdf.open_outline() as outline:
        titles, todo = [], list(outline.root)
        while todo:
            item = todo.pop(0)
            titles.append(item.title)
            todo[:0] = item.children
    assert titles == [title for title, _ in paper.outline]


# ------------------------------------------------------------------------------------------- the others


def test_mixed_pages_differ_in_size_and_turn(pdf_corpus):
    doc = pdf_corpus["mixed_pages"]
    sizes = {(round(p.width), round(p.height)) for p in doc.pages}
    assert {(595, 842), (792, 612), (612, 792)} <= sizes
    rotated = [p for p in doc.pages if p.rotate == 90]
    assert len(rotated) == 1 and rotated[0].displayed_size[0] > rotated[0].displayed_size[1]
    turned = doc.units_on(rotated[0].index)
    assert turned and all(u.angle == 90 for u in turned)  # upright once the page is turned
    assert all(u.translate for u in turned if u.role in (Role.HEADING, Role.BODY))
    assert [u.angle for u in doc.units if u.role == Role.ROTATED] == [45]
    vertical = [u for u in doc.units if u.role == Role.VERTICAL]
    assert vertical and vertical[0].lang == "zh" and not vertical[0].translate
    with pikepdf.open(doc.path) as pdf:
        fonts = [f for page in pdf.pages for f in page.Resources.Font.values()]
        assert any(str(f.get("/Encoding")) == "/UniGB-UCS2-V" for f in fonts)
        assert any("/FontFile2" in f.get("/FontDescriptor", {}) for f in fonts)  # the embedded TrueType subset


def test_chinese_lines_join_without_spaces(pdf_corpus):
    doc = pdf_corpus["chinese"]
    body = [u for u in doc.units if u.role == Role.BODY]
    assert len(body) >= 4 and all(u.lang == "zh" and len(u.lines) >= 2 for u in body)
    for unit in body:
        assert unit.text == "".join(unit.lines)
        assert not any(
            line[0] in "，。、；：？！）」》" for line in unit.lines
        )  # no line starts with closing punctuation


def test_the_scan_shows_its_text_where_the_truth_says(pdf_corpus, tmp_path):
    doc = pdf_corpus["scanned"]
    assert doc.pages[0].text_layer == "none" and doc.pages[1].text_layer == "ocr"
    png = render_png(doc.path, 0, tmp_path / "scan.png", scale=1.0)
    from PIL import Image as PILImage

    grey = 255 - __import__("numpy").asarray(PILImage.open(png).convert("L"), dtype=float)
    height = grey.shape[0]
    covered = grey.copy()
    for unit in doc.units_on(0):
        assert unit.in_image
        x0, y0, x1, y1 = (int(v) for v in unit.bbox)
        region = grey[height - y1 : height - y0, x0:x1]
        assert (region > 128).mean() > 0.05, unit.text  # dark strokes of letters in the box
        covered[height - y1 - 2 : height - y0 + 2, x0 - 2 : x1 + 2] = 0
    assert (covered > 128).mean() < 0.001  # and nowhere else
    ocr = [u for u in doc.units_on(1) if not u.visible]
    assert ocr and all(u.in_image for u in ocr)
    with pikepdf.open(doc.path) as pdf:
        operators = pikepdf.parse_content_stream(pdf.pages[1])
        assert any(op.operator == pikepdf.Operator("Tr") and op.operands[0] == 3 for op in operators)


def test_traps_are_what_they_say(pdf_corpus):
    doc = pdf_corpus["traps"]
    kept = [p.index for p in doc.pages if not p.rewritable]
    assert kept == [5, 9]
    with pikepdf.open(doc.path) as pdf:
        pages = pdf.pages
        streams = pages[0].obj.Contents
        assert isinstance(streams, pikepdf.Array) and len(streams) == 3
        first, middle, last = (s.read_bytes() for s in streams)
        assert first.rfind(b"BT") > first.rfind(b"ET") and b"Tj" in middle and b"BT" not in middle
        assert b"ET" not in middle
        assert last.lstrip().startswith(b"ET")

        def operators(index: int) -> list[str]:
            return [str(op.operator) for op in pikepdf.parse_content_stream(pages[index])]

        tj = [op for op in pikepdf.parse_content_stream(pages[1]) if str(op.operator) == "TJ"]
        assert tj and all(any(isinstance(i, int) and i < -300 for i in op.operands[0]) for op in tj)
        assert {"'", '"'} <= set(operators(1))
        assert operators(2).count("Do") == 1 and len(operators(2)) <= 6
        assert pages[3].Resources.XObject.Fig.objgen == pages[4].Resources.XObject.Fig.objgen
        assert operators(3).count("Do") == 2 and operators(4).count("Do") == 1
        assert [str(f.Subtype) for f in pages[5].Resources.Font.values()] == ["/Type3"]
        assert "INLINE IMAGE" in operators(7) and {"sh", "scn"} <= set(operators(7))
        ops = operators(8)
        assert ops.count("q") != ops.count("Q")
        assert pages[9].Contents.read_bytes().rstrip().endswith(b"(This sentence is never sh")
    assert [u.copies for u in doc.units_on(6)][:2] == [2, 3]


def test_encrypted_files_ask_for_what_they_say(pdf_corpus):
    locked, restricted = pdf_corpus["encrypted"], pdf_corpus["restricted"]
    with pytest.raises(pikepdf.PasswordError):
        pikepdf.open(locked.path)
    with pikepdf.open(locked.path, password=locked.password) as pdf:
        assert pdf.is_encrypted and len(pdf.pages) == 1
    with pikepdf.open(restricted.path) as pdf:  # no password needed
        assert pdf.is_encrypted and not pdf.allow.modify_other and not pdf.allow.extract
    with pikepdf.open(restricted.path, password=restricted.owner_password) as pdf:
        assert pdf.owner_password_matched


def test_render_png_draws_a_page_as_a_viewer_shows_it(pdf_corpus, tmp_path):
    from PIL import Image as PILImage

    doc = pdf_corpus["mixed_pages"]
    for page in doc.pages:
        png = render_png(doc.path, page.index, tmp_path / f"{page.index}.png", scale=0.5)
        width, height = page.displayed_size
        assert PILImage.open(png).size == (round(width * 0.5), round(height * 0.5))


def test_builders_write_the_same_bytes_every_time(pdf_corpus, tmp_path):
    for name in ("paper", "mixed_pages", "chinese", "traps"):
        again = BUILDERS[name](tmp_path)
        assert again.path.read_bytes() == pdf_corpus[name].path.read_bytes(), name
        assert again.units == pdf_corpus[name].units
