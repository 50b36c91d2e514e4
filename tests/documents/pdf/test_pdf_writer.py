"""A PDF comes back as a PDF: the same pages, every drawing, image, link and formula kept, each paragraph's text
replaced by its translation where it was, in an embedded subset font; bilingual side by side or alternating.

The corpus (corpus.py) is translated once per module with a stand-in translator that writes Chinese
(``pdfcheck.hanzi``), and the outputs are read back with pdfminer, pikepdf, pypdf, PDFium and Ghostscript.
"""

from __future__ import annotations

import hashlib
import io
import re
import shutil
import subprocess

import numpy as np
import pikepdf
import pypdfium2
import pytest
from corpus import Role
from docfixtures import FakeTranslator, leftovers
from pdfcheck import annotations, hanzi, image_digests, inside, pages, translation_font

from fanyi.cancel import Cancelled, CancelToken
from fanyi.documents import EncryptedDocument, translate_document

WRITTEN = ("paper", "mixed_pages", "traps", "restricted")


@pytest.fixture(scope="module")
def corpus(pdf_corpus):
    return pdf_corpus


@pytest.fixture(scope="module")
def written(corpus, tmp_path_factory):
    """Each document translated into a PDF: (the translator that saw its texts, the job's result)."""
    folder = tmp_path_factory.mktemp("written")
    out = {}
    for name in WRITTEN:
        translator = FakeTranslator(hanzi)
        out[name] = translator, translate_document(corpus[name].path, translator, dst=folder)
    return out


def _boxes(pdf_path):
    with pikepdf.open(pdf_path) as pdf:
        return [
            (
                [round(float(v), 2) for v in page.mediabox],
                [round(float(v), 2) for v in page.cropbox],
                int(page.obj.get("/Rotate", 0)),
            )
            for page in pdf.pages
        ]


@pytest.mark.parametrize("name", WRITTEN)
def test_a_pdf_becomes_a_pdf_with_the_same_pages(corpus, written, name):
    _, result = written[name]
    assert result.output.suffix == ".pdf" and result.output.name == f"{name}.zh.pdf"
    assert _boxes(result.output) == _boxes(corpus[name].path)
    assert result.report.translated > 0


@pytest.mark.parametrize("name", ["paper", "mixed_pages", "traps"])
def test_drawings_images_and_links_are_kept(corpus, written, name):
    _, result = written[name]
    before, after = pages(corpus[name].path), pages(result.output)
    for number, (old, new) in enumerate(zip(before, after)):
        assert sorted(new.drawings) == sorted(old.drawings), f"page {number + 1}: the vector drawing changed"
        assert sorted(new.images) == sorted(old.images), f"page {number + 1}: an image moved or went"
    assert annotations(result.output) == annotations(corpus[name].path)
    assert image_digests(result.output) == image_digests(corpus[name].path)


def test_shadings_inline_images_and_marked_operators_are_written_back(corpus, written):
    """The content of a rewritten page is its own operators, text ones excepted, in order (nothing redrawn)."""
    _, result = written["traps"]

    def operators(path):
        with pikepdf.open(path) as pdf:
            found = []
            for page in pdf.pages:
                names = [str(i.operator) for i in pikepdf.parse_content_stream(page)]
                found.append([n for n in names if n in ("sh", "INLINE IMAGE", "Do", "cm", "re", "f", "S", "scn")])
            return found

    old, new = operators(corpus["traps"].path), operators(result.output)
    for number, (a, b) in enumerate(zip(old, new)):
        # the writer wraps the page in q … Q and draws the translation after it: the original's come first
        assert b[: len(a)] == a, f"page {number + 1}"
    assert any("sh" in page for page in new) and any("INLINE IMAGE" in page for page in new)


def test_formulas_code_and_figure_labels_keep_their_glyphs(corpus, written):
    doc = corpus["paper"]
    _, result = written["paper"]
    before, after = pages(doc.path), pages(result.output)
    kept = [u for u in doc.units if not u.translate and u.role in (Role.FORMULA, Role.CODE, Role.FIGURE_TEXT)]
    assert len(kept) >= 10
    for unit in kept:
        old = [g for g in before[unit.page].glyphs if inside(g.box, unit.bbox, 0.5)]
        new = [g for g in after[unit.page].glyphs if inside(g.box, unit.bbox, 0.5)]
        assert old, unit.text
        assert [(g.text, g.font, tuple(round(v, 2) for v in g.box)) for g in new] == [
            (g.text, g.font, tuple(round(v, 2) for v in g.box)) for g in old
        ], f"{unit.role.value} {unit.text!r} changed"


def test_each_translation_is_drawn_inside_its_paragraph_in_reading_order(corpus, written):
    """en → zh is shorter: every paragraph's translation fits its own box, and reads in the box as translated."""
    doc = corpus["paper"]
    translator, result = written["paper"]
    font = translation_font(result.output)
    after = pages(result.output)
    translations = {re.sub(r"\s+", " ", text): hanzi(text) for text in translator.texts}
    checked = 0
    for unit in doc.units:
        expected = translations.get(re.sub(r"\s+", " ", unit.text))
        if not unit.translate or expected is None or unit.page > 0:
            continue  # page 1: not rotated, so the layout's and the truth's coordinates are the same
        drawn = [g for g in after[unit.page].drawn_with(font) if inside(g.box, unit.bbox, 1.0)]
        # pdfminer gives lines top to bottom, each left to right: the text as drawn, line by line
        drawn.sort(key=lambda g: (-round(g.box[1]), g.box[0]))
        assert "".join(g.text for g in drawn).replace(" ", "") == expected.replace(" ", ""), unit.text[:40]
        checked += 1
    assert checked >= 12


def test_each_list_item_is_sent_whole_without_its_marker(corpus, written):
    """A list's bullets start their items' lines at one x, as a column's edge does: the item is still one paragraph,
    its marker kept apart."""
    translator, _ = written["paper"]
    sent = {re.sub(r"\s+", " ", text).replace("-", "") for text in translator.texts}  # hyphens: the test below
    items = [unit for unit in corpus["paper"].units if unit.role == Role.LIST_ITEM]
    assert len(items) >= 2
    for unit in items:
        assert re.sub(r"\s+", " ", unit.text).removeprefix("• ").replace("-", "") in sent, unit.text


def test_a_word_broken_at_a_line_end_is_sent_whole_and_a_compound_keeps_its_hyphen(corpus, written):
    """ "para-" "graphs" is sent as "paragraphs"; "layout-" "preserving" as "layout-preserving", both of its parts
    being words the page writes elsewhere."""
    translator, _ = written["paper"]
    checked = set()
    for unit in corpus["paper"].units:
        sent = next((t for t in translator.texts if t.startswith(unit.text[:30])), None)
        for line, following in zip(unit.lines, unit.lines[1:]):
            if sent is None or not line.endswith("-"):
                continue
            head, tail = line.split()[-1][:-1], re.match(r"\w+", following.split()[0]).group()
            if f"{head}-{tail}" in unit.text:
                assert f"{head}-{tail}" in sent, sent
            else:
                assert f"{head}{tail}" in sent and f"{head}-{tail}" not in sent, sent
            checked.add(f"{head}-{tail}" if f"{head}-{tail}" in unit.text else head + tail)
    assert "layout-preserving" in checked and len(checked) >= 8, checked


@pytest.mark.parametrize("name", ["paper", "mixed_pages", "traps"])
def test_no_translation_is_drawn_off_its_page_or_over_text_that_stays(corpus, written, name):
    doc = corpus[name]
    _, result = written[name]
    font = translation_font(result.output)
    for number, view in enumerate(pages(result.output)):
        page = doc.pages[number]
        width, height = page.displayed_size
        ours = view.drawn_with(font)
        assert all(g.box[0] >= -0.5 and g.box[2] <= width + 0.5 and -0.5 <= g.box[1] <= height for g in ours)
        others = [g for g in view.glyphs if g.font != font]
        for glyph in ours:
            x0, y0, x1, y1 = glyph.box
            hit = [o for o in others if o.text.strip() and o.box[0] < x1 - 1 and x0 + 1 < o.box[2]
                   and o.box[1] < y1 - 1 and y0 + 1 < o.box[3]]  # fmt: skip
            assert not hit, f"page {number + 1}: {glyph.text} drawn over {hit[0].text!r}"


def test_the_font_is_an_embedded_subset_with_a_unicode_map(written):
    _, result = written["paper"]
    with pikepdf.open(result.output) as pdf:
        font = pdf.pages[0].obj.Resources.Font.FyFont
        assert font.Subtype == "/Type0" and font.Encoding == "/Identity-H" and "/ToUnicode" in font
        base = str(font.BaseFont)
        assert re.fullmatch(r"/[A-Z]{6}\+\S+", base)
        descendant = font.DescendantFonts[0]
        program = descendant.FontDescriptor.FontFile2.read_bytes()
    from fontTools.ttLib import TTFont

    subset = TTFont(io.BytesIO(program))
    drawn = {g.text for view in pages(result.output) for g in view.drawn_with(base[1:])}
    glyphs = [name for name in subset.getGlyphOrder() if subset["glyf"][name].numberOfContours != 0]
    assert len(drawn) > 50 and len(glyphs) <= len(drawn) + 5  # only what is drawn, not the font's 30,000 glyphs


def test_the_output_opens_everywhere(written):
    import pypdf

    for _translator, result in written.values():
        pdf = pypdfium2.PdfDocument(str(result.output))
        for page in pdf:
            assert page.render(scale=0.3).to_numpy().std() > 0  # something is drawn
        reader = pypdf.PdfReader(str(result.output), strict=True)
        assert all(page.extract_text() for page in reader.pages[:1])
        if shutil.which("gs"):
            run = subprocess.run(["gs", "-q", "-o", "/dev/null", "-sDEVICE=nullpage", str(result.output)],
                                 capture_output=True, text=True, timeout=120)  # fmt: skip
            assert run.returncode == 0 and "rror" not in run.stdout + run.stderr


def test_pages_that_cannot_be_rewritten_keep_their_original_and_are_named(corpus, written):
    """A content stream cut short, a page whose text is all Type 3 glyph pictures."""
    doc = corpus["traps"]
    _, result = written["traps"]
    kept = [p.index for p in doc.pages if not p.rewritable]
    assert len(kept) == 2
    with pikepdf.open(doc.path) as before, pikepdf.open(result.output) as after:
        for index in kept:
            assert after.pages[index].Contents.read_bytes() == before.pages[index].Contents.read_bytes()
    report = result.report
    for index in kept:
        assert any(note.startswith(f"page {index + 1}:") and "kept as it was" in note for note in report.notes)
    assert {f.where for f in report.failed} == {f"page {index + 1}" for index in kept}
    assert report.failed_count == sum(1 for u in doc.units if u.page in kept and u.translate)


def test_overprinted_text_is_removed_every_time_it_was_drawn(corpus, written):
    doc = corpus["traps"]
    _, result = written["traps"]
    twice = [u for u in doc.units if u.copies > 1]
    assert twice
    after = pages(result.output)
    font = translation_font(result.output)
    for unit in twice:
        left = [g for g in after[unit.page].glyphs if g.font != font and inside(g.box, unit.bbox, 0.5)]
        assert not left, f"{unit.text!r}: {''.join(g.text for g in left)!r} still drawn"


def test_a_form_drawn_on_several_pages_is_translated_in_a_copy(corpus, written):
    """Text of a form XObject is removed from a copy made for that Do: the original form is unchanged."""
    _, result = written["traps"]
    with pikepdf.open(corpus["traps"].path) as before, pikepdf.open(result.output) as after:
        old = {xobj.read_bytes() for xobj in before.objects if isinstance(xobj, pikepdf.Stream)
               and xobj.get("/Subtype") == "/Form"}  # fmt: skip
        new = {xobj.read_bytes() for xobj in after.objects if isinstance(xobj, pikepdf.Stream)
               and xobj.get("/Subtype") == "/Form"}  # fmt: skip
    assert old & new  # a shared figure's form is still there, unchanged
    assert new - old  # the page-sized form holding the body text was copied without it


def test_encrypted_pdfs(corpus, written, tmp_path):
    with pytest.raises(EncryptedDocument, match="password-protected"):
        translate_document(corpus["encrypted"].path, FakeTranslator(hanzi), dst=tmp_path)
    _, result = written["restricted"]  # opens without a password: translated, written without the encryption
    with pikepdf.open(result.output) as pdf:
        assert not pdf.is_encrypted


def test_the_same_pdf_and_translation_give_the_same_bytes(corpus, tmp_path):
    first = translate_document(corpus["paper"].path, FakeTranslator(hanzi), dst=tmp_path / "a.pdf").output
    second = translate_document(corpus["paper"].path, FakeTranslator(hanzi), dst=tmp_path / "b.pdf").output
    assert hashlib.sha256(first.read_bytes()).digest() == hashlib.sha256(second.read_bytes()).digest()


def _render(path, index, scale=0.5):
    pdf = pypdfium2.PdfDocument(str(path))
    try:
        return pdf[index].render(scale=scale).to_numpy().astype(np.int16)
    finally:
        pdf.close()


def test_bilingual_side_by_side_puts_the_original_left_and_the_translation_right(corpus, written, tmp_path):
    doc = corpus["paper"]
    _, single = written["paper"]
    result = translate_document(doc.path, FakeTranslator(hanzi), dst=tmp_path, bilingual=True, layout="side")
    with pikepdf.open(result.output) as pdf:
        assert len(pdf.pages) == len(doc.pages)
        width, height = doc.pages[0].displayed_size
        assert [round(float(v), 1) for v in pdf.pages[0].mediabox] == [0, 0, round(2 * width, 1), round(height, 1)]
        links = [a for a in pdf.pages[0].obj.get("/Annots", []) if a.Subtype == "/Link"]
    assert len(links) == 2 * len([a for a in doc.annotations if a.page == 0])  # on both halves
    both = _render(result.output, 0)
    half = both.shape[1] // 2
    original, translated = _render(doc.path, 0), _render(single.output, 0)
    assert np.abs(both[:, :half] - original[:, :half]).mean() < 2
    assert np.abs(both[:, half : half + translated.shape[1]] - translated[:, : both.shape[1] - half]).mean() < 2


def test_bilingual_alternating_pages(corpus, written, tmp_path):
    doc = corpus["mixed_pages"]
    _, single = written["mixed_pages"]
    result = translate_document(doc.path, FakeTranslator(hanzi), dst=tmp_path, bilingual=True, layout="alternate")
    assert _boxes(result.output) == [box for box in _boxes(doc.path) for _ in range(2)]
    for number in range(len(doc.pages)):
        assert np.abs(_render(result.output, 2 * number) - _render(doc.path, number)).mean() < 1
        assert np.abs(_render(result.output, 2 * number + 1) - _render(single.output, number)).mean() < 1


def test_a_rotated_page_gets_its_translation_upright_as_shown(corpus, written):
    doc = corpus["mixed_pages"]
    _, result = written["mixed_pages"]
    font = translation_font(result.output)
    rotated = [p.index for p in doc.pages if p.rotate]
    assert rotated
    for index in rotated:
        ours = pages(result.output)[index].drawn_with(font)
        assert ours and all(g.upright for g in ours)


def test_cancelling_while_writing_leaves_nothing(corpus, tmp_path):
    token = CancelToken()
    translator = FakeTranslator(hanzi)
    src = tmp_path / "paper.pdf"
    shutil.copy(corpus["paper"].path, src)

    seen = []

    def progress(done, total):
        seen.append((done, total))
        if (done, total) == (1, 3):  # the second of the three pages is being written
            token.cancel()

    with pytest.raises(Cancelled):
        translate_document(src, translator, progress=progress, cancel=token)
    assert seen[-2:] == [(0, 3), (1, 3)]  # the units translated, then the pages written, one by one
    assert sorted(p.name for p in tmp_path.iterdir()) == ["paper.pdf"] and not leftovers(tmp_path)


def test_a_pdf_can_still_become_a_docx(corpus, tmp_path):
    import docx

    result = translate_document(corpus["paper"].path, FakeTranslator(hanzi), dst=tmp_path, to="docx")
    assert result.output.suffix == ".docx"
    text = "\n".join(p.text for p in docx.Document(result.output).paragraphs)
    assert "PDF 的版面没有保留" in text and hanzi("1 Introduction") in text


def test_chinese_into_english_draws_latin_text_that_reads_back(corpus, tmp_path):
    translator = FakeTranslator(lambda text: "The translated paragraph reads well.")
    translator.source_lang, translator.target_lang = "zh", "en"
    result = translate_document(corpus["chinese"].path, translator, dst=tmp_path)
    from pdfminer.high_level import extract_text

    assert extract_text(str(result.output)).count("The translated paragraph reads well.") >= 5


def test_pdfminer_reads_the_translations_in_the_originals_reading_order(corpus, written):
    """Column by column: what a reader extracts from the translated page follows the original's order."""
    from pdfminer.high_level import extract_text

    doc = corpus["paper"]
    translator, result = written["paper"]
    seen = {re.sub(r"\s+", " ", text) for text in translator.texts}
    body = [u for u in doc.units if u.page == 0 and u.translate and u.role == Role.BODY and u.text in seen]
    assert len(body) >= 5  # the abstract, and paragraphs of both columns
    extracted = re.sub(r"\s+", "", extract_text(str(result.output), page_numbers=[0]))
    places = [extracted.find(hanzi(unit.text).replace(" ", "")[:12]) for unit in body]
    assert -1 not in places and places == sorted(places)
