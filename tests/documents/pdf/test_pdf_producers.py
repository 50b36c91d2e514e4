"""PDFs made by the producers real documents come from, read and translated: each class of defect the corpus of PDFs
made elsewhere (benchmarks/pdf_corpus) showed, on a minimal document of its producer (producers/README.md says how
each was made)."""

from __future__ import annotations

from pathlib import Path

import pikepdf
import pytest
from docfixtures import FakeTranslator
from pdfcheck import hanzi, overlaps, pages, translation_font

from fanyi.documents import translate_document
from fanyi.documents.pdf import interpret, layout
from fanyi.documents.pdf.document import PdfDocument

MADE = Path(__file__).parent / "producers"
REAL = Path(__file__).parent / "real"


def _paragraphs(path: Path) -> list[layout.Paragraph]:
    return [p for page in PdfDocument(path).pages for p in page.paragraphs]


def _translated(path: Path, tmp_path: Path) -> Path:
    return translate_document(path, FakeTranslator(hanzi), dst=tmp_path / f"{path.stem}.zh.pdf").output


def _crossings(path: Path) -> list[tuple[str, str]]:
    font = translation_font(path)
    return [
        crossed for view in pages(path) for crossed in overlaps(view, {g.font for g in view.glyphs if font in g.font})
    ]


def test_a_logo_s_lowered_and_raised_letters_stay_in_their_line_and_paragraph(tmp_path, noto_sc):
    found = [p.text for p in _paragraphs(MADE / "logos.pdf") if p.keep is None]
    assert found[0] == "Typesetting with LATEX"  # its number "1" a marker of its own
    assert found[1].startswith("A clear and well-documented LATEX document is presented")
    assert "typeset with TEX and its references with BibTEX, as nearly every LATEX 2ε paper is" in found[1]
    assert found[1].endswith("the logos stand in the middle of its lines.")
    assert found[2].startswith("The second paragraph says that TEX lowers the E of its name")
    assert found[2].endswith(
        "The logo of XETEX reverses its E, and XELATEX too: a mirrored letter is still a letter of its line."
    )
    assert len(found) == 4  # the three above and the page number
    assert _crossings(_translated(MADE / "logos.pdf", tmp_path)) == []


def test_the_text_under_a_full_width_figure_belongs_to_the_columns(tmp_path, noto_sc):
    found = _paragraphs(MADE / "teaser.pdf")
    left = {p.text[:40]: p.keep for p in found if p.keep is not None}
    assert left == {"1": layout.MARKER, "2": layout.MARKER}, "nothing of this page but its headings' numbers is left"
    texts = [p.text for p in found]
    assert "Abstract" in texts
    abstract = next(t for t in texts if t.startswith("A clear and well-documented document"))
    assert abstract.endswith("in the preparation of the documentation.")
    assert any(t.startswith("If you are new to publishing") for t in texts)
    out = _translated(MADE / "teaser.pdf", tmp_path)
    assert _crossings(out) == []
    kept = "".join(g.text for g in pages(out)[0].glyphs if g.font != translation_font(out) and g.text.isalpha())
    assert "Abstract" not in kept and "clear" not in kept  # the abstract was translated, not left


def test_code_in_a_t1_typewriter_font_is_left_as_it_is(tmp_path, noto_sc):
    found = _paragraphs(MADE / "listing.pdf")
    code = [p for p in found if "gsave" in p.text]
    assert len(code) == 1 and code[0].keep == layout.CODE
    assert code[0].text.splitlines()[1] == "  0 0 moveto 100 100 lineto stroke"
    out = _translated(MADE / "listing.pdf", tmp_path)
    kept = "".join(g.text for g in pages(out)[0].glyphs if "SFTT" in g.font)
    assert "}binddef" in kept.replace(" ", "")


def test_a_font_whose_glyphs_all_have_one_width_is_monospaced_whatever_its_name(tmp_path):
    """The typewriter font renamed to a name that says nothing, its flags cleared: its widths still tell."""
    renamed = tmp_path / "renamed.pdf"
    with pikepdf.open(MADE / "listing.pdf") as pdf:
        for page in pdf.pages:
            for font in page.Resources.Font.values():
                if "SFTT" in str(font.BaseFont):
                    font.BaseFont = font.FontDescriptor.FontName = pikepdf.Name("/ABCDEF+Plain")
                    font.FontDescriptor.Flags = 32
        pdf.save(renamed)
    code = [p for p in _paragraphs(renamed) if "gsave" in p.text]
    assert [p.keep for p in code] == [layout.CODE]


def test_a_table_of_contents_has_each_entry_as_a_unit_and_its_leaders_left_alone(tmp_path, noto_sc):
    found = _paragraphs(MADE / "contents.pdf")
    texts = [p.text for p in found if p.page == 1]
    for entry in ("Installation", "Invocation and options", "Top matter", "Cover page", "Theorems"):
        assert entry in texts, entry
    assert not any("." * 3 in t or ". . ." in t for t in texts)
    long_title = [t for t in texts if t.startswith("A note about the anonymous mode")]
    assert long_title == ["A note about the anonymous mode, which has a title long enough to take two lines in the "
                          "table of contents"]  # fmt: skip
    out = _translated(MADE / "contents.pdf", tmp_path)
    assert _crossings(out) == []
    dots = [g for g in pages(out)[0].glyphs if g.text == "."]
    assert len(dots) == len([g for g in pages(MADE / "contents.pdf")[0].glyphs if g.text == "."])


def test_labels_in_the_margin_are_not_read_into_the_paragraph_beside_them(tmp_path, noto_sc):
    found = _paragraphs(MADE / "margin.pdf")
    labels = {p.text: p.keep for p in found if p.text.startswith("\\")}
    assert labels == {"\\title": layout.CODE, "\\author": layout.CODE, "\\orcid": layout.CODE,
                      "\\affiliation": layout.CODE, "\\email": layout.CODE}  # fmt: skip
    assert any(p.text.startswith("The basic commands are \\author, \\orcid (for the researchers") for p in found)
    assert _crossings(_translated(MADE / "margin.pdf", tmp_path)) == []


def test_a_chapter_s_entry_and_a_long_title_s_short_leader_are_entries_too():
    """A chapter's entry has no leader, only its page number; a title too long for more than one dot has one."""
    found = [p.text for p in _paragraphs(MADE / "contents.pdf") if p.page == 1]
    assert "Introduction" in found and "User’s guide" in found
    assert "Fixed and flexible columns of tables wide and long ones that go" in found
    assert not any(t.endswith((" 1", " 2", " 3")) or t.startswith(("1 ", "2 ")) for t in found if "." not in t)


def test_a_beamer_block_is_translated_and_each_of_its_items_is_a_unit(tmp_path, noto_sc):
    """Beamer draws a block's coloured boxes and its bullets as pictures: the block frames text and is no figure,
    and each bullet begins an item."""
    found = _paragraphs(MADE / "slides.pdf")
    kept = {p.text: p.keep for p in found if p.keep is not None}
    assert kept == {}
    texts = [p.text for p in found]
    for item in ("Inputs", "A genotype matrix G.", "The rows of the matrix are individuals or taxa.", "Outputs",
                 "A haplotype matrix H.", "Pairs of rows in H explain the rows of G."):  # fmt: skip
        assert item in texts, item
    assert _crossings(_translated(MADE / "slides.pdf", tmp_path)) == []


def test_a_slide_s_title_on_its_band_and_its_contents_after_their_balls_are_translated_each_alone(tmp_path, noto_sc):
    """thubeamer's contents slide (tests/documents/pdf/real): the title on a coloured band is no figure's label, and
    each entry after its ball is a unit, though the three are spaced evenly (the page's only lines of their size)."""
    found = {p.text: p for p in _paragraphs(REAL / "pdftex-thubeamer-contents.pdf")}
    assert found["Contents"].keep is None
    for entry in ("Research Contents", "Results", "Future Work"):
        assert found[entry].keep is None, entry
    assert _crossings(_translated(REAL / "pdftex-thubeamer-contents.pdf", tmp_path)) == []


def test_a_slide_s_title_under_a_thin_band_is_translated_and_text_off_the_page_left_alone(tmp_path, noto_sc):
    """beamer's example talk (tests/documents/pdf/real): a 3-point band under the navigation is no figure that takes
    the subtitle for a label (and the title with it), and a hidden overlay drawn thousands of points off the page
    is left where it is, not drawn onto it."""
    found = {p.text: p for p in _paragraphs(REAL / "pdftex-beamer-conference-appendix.pdf")}
    assert found["The algorithm in action."].keep is None
    assert found["The matching in the special graph."].keep is None
    off = [p for p in found.values() if p.box[0] > 1000]
    assert off and all(p.keep == layout.OFF_PAGE for p in off)
    out = _translated(REAL / "pdftex-beamer-conference-appendix.pdf", tmp_path)
    view = pages(out)[0]
    font = translation_font(out)
    x0, y0, x1, y1 = view.crop
    drawn = [g for g in view.glyphs if font in g.font]
    assert drawn and all(x0 <= g.box[0] and g.box[2] <= x1 and y0 <= g.box[1] and g.box[3] <= y1 for g in drawn)


def test_an_overfull_line_s_translation_stays_on_the_page(tmp_path, noto_sc):
    """A boxed name TeX cannot break runs off the page's right edge; the translation is kept on the page."""
    out = _translated(MADE / "overfull.pdf", tmp_path)
    view = pages(out)[0]
    font = translation_font(out)
    drawn = [g for g in view.glyphs if font in g.font]
    assert drawn and max(g.box[2] for g in drawn) <= view.crop[2]
    assert max(g.box[2] for g in pages(MADE / "overfull.pdf")[0].glyphs) > view.crop[2]  # the original runs off


def test_a_number_starting_a_line_of_running_text_is_no_list_marker():
    """ "…as in Refs. 1 and / 4. By default…": the line before is full and its sentence goes on."""
    found = _paragraphs(MADE / "justified.pdf")
    assert not any(p.keep == layout.MARKER for p in found)
    first = found[0].text
    assert "as in Refs. 1 and 4. By default, the package automatically sorts" in first


def test_a_contents_entry_s_number_in_its_box_is_its_marker_and_each_title_a_unit(tmp_path, noto_sc):
    """Entries "2  Obtaining…" with the number in a box: the numbers' edge is kept to half a point, right of where
    they start, and the titles were read as one paragraph beside a column of table cells."""
    found = [p for p in _paragraphs(MADE / "numbered.pdf") if p.page == 1]
    titles = [p.text for p in found if p.keep is None and p.text != "1"]
    assert titles == ["Contents", "Introduction", "Obtaining and installing the package",
                      "Preparing and submitting a paper", "Class options", "Title page", "Title",
                      "Authors and institutions", "Abstract and keywords", "Sections and lists", "Sections",
                      "Lists"]  # fmt: skip
    markers = [p.text for p in found if p.keep == layout.MARKER]
    assert markers == ["1", "2", "3", "4", "5", "5.1", "5.2", "5.3", "6", "6.1", "6.2"]
    assert _crossings(_translated(MADE / "numbered.pdf", tmp_path)) == []


def test_tex_s_own_glyph_names_are_read_and_a_syntax_line_with_meta_variables_is_code(tmp_path, noto_sc):
    """A Type 1 font with no ToUnicode map (pdfTeX's default before 2021) is read by its glyph names; cmsy's
    "angbracketleft" and cmex's "parenleftBigg" and "summationdisplay" are not Adobe's names, and a paragraph with
    "⟨wd⟩" in it was left as unreadable text. A line of code with a meta-variable in italics is code."""
    found = [p for p in _paragraphs(MADE / "meta.pdf") if p.page == 1]
    assert not any("(cid:" in p.text for p in found)
    prose = [p for p in found if p.text.startswith("where ⟨wd⟩ is a dimension")]
    assert [p.keep for p in prose] == [None]
    assert [p.keep for p in found if p.text == "\\toprule[⟨wd⟩]"] == [layout.CODE]
    assert {p.text for p in found if p.keep == layout.FORMULA} >= {"∑", ")"}
    out = _translated(MADE / "meta.pdf", tmp_path)
    assert "\\toprule[" in "".join(g.text for g in pages(out)[0].glyphs)
    assert _crossings(out) == []


def test_a_run_in_heading_s_number_stays_the_first_word_of_its_paragraph(tmp_path, noto_sc):
    """revtex's "a. Syntax The argument…": the label is indented, the paragraph's next lines start left of it. Split
    off as a list's marker, it lay inside its paragraph's box and the translation was drawn over it."""
    found = [p for p in _paragraphs(MADE / "runin.pdf") if p.page == 1]
    assert not any(p.keep == layout.MARKER for p in found)
    assert [p.text[:21] for p in found if p.keep is None][:2] == ["a. Syntax The argumen", "b. Eliding repeated i"]
    assert _crossings(_translated(MADE / "runin.pdf", tmp_path)) == []


@pytest.mark.parametrize(
    ("name", "sentence"),
    [
        ("pdftex-pmlr-tables", "Tables should go in the table environment. Within this environment use"),
        ("pdftex-listings-line-numbers", "Line numbers are available for all displayed listings"),
    ],
)
def test_a_word_space_ending_where_other_lines_start_parts_no_line(tmp_path, noto_sc, name, sentence):
    """A space inside a line of prose ends where a table's column or a listing's lines start, elsewhere on the
    page: the line was parted there as if at a gutter, and its halves' translations drawn over each other. A
    space parts a line at an edge only when the text before it ends at a right edge too (a justified column,
    labels flush right in the margin); a gutter's width always does."""
    found = [p.text for p in _paragraphs(REAL / f"{name}.pdf")]
    assert any(t.startswith(sentence) for t in found)
    assert _crossings(_translated(REAL / f"{name}.pdf", tmp_path)) == []


def test_a_display_formula_in_a_text_font_s_italics_is_a_formula(tmp_path, noto_sc):
    """elsarticle's Mie coefficients: letters in Times italic, brackets and minus signs in txfonts' maths fonts,
    no word longer than three letters. Read as prose once TeX's glyph names made its brackets readable."""
    found = _paragraphs(REAL / "pdftex-elsarticle-mie.pdf")
    rows = [p for p in found if p.text.startswith(("n2 jml (nx)", "jml (nx) x"))]
    assert len(rows) >= 3 and all(p.keep == layout.FORMULA for p in rows)
    assert any(p.keep is None and p.text.startswith("In the appendix we list explicit") for p in found)
    assert _crossings(_translated(REAL / "pdftex-elsarticle-mie.pdf", tmp_path)) == []


def test_reportlab_s_table_of_contents_has_each_entry_short_of_its_spaced_leader(tmp_path, noto_sc):
    """reportlab's TableOfContents draws its leader as dots and spaces: the spaces stayed in the entry's line and
    carried it over the leader to the page number, so no entry ended at its leader, entries were joined, and
    their translations were drawn over the dots (reportlab's user guide)."""
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate
    from reportlab.platypus.tableofcontents import TableOfContents

    class Book(SimpleDocTemplate):
        def afterFlowable(self, flowable: object) -> None:
            if isinstance(flowable, Paragraph) and flowable.style.name in ("Heading1", "Heading2"):
                level = 0 if flowable.style.name == "Heading1" else 1
                self.notify("TOCEntry", (level, flowable.getPlainText(), self.page))

    styles = getSampleStyleSheet()
    story: list[object] = [TableOfContents(dotsMinLevel=0), PageBreak()]
    chapters = {"Chapter 1 Introduction": ["1.1 About this document", "1.4 What is Python?"],
                "Chapter 2 Graphics": ["2.1 Basic concepts"]}  # fmt: skip
    for chapter, sections in chapters.items():
        story.append(Paragraph(chapter, styles["Heading1"]))
        for section in sections:
            story += [Paragraph(section, styles["Heading2"]), Paragraph("A few words of text.", styles["Normal"])]
    source = tmp_path / "toc.pdf"
    Book(str(source)).multiBuild(story)
    with source.open("rb") as handle:
        laid = layout.lay_out(next(interpret.pages(handle)), set())
    entries = [p for p in laid.paragraphs if p.keep is None]
    assert [p.text for p in entries] == [
        "Chapter 1 Introduction", "1.1 About this document", "1.4 What is Python?", "Chapter 2 Graphics",
        "2.1 Basic concepts",
    ]  # fmt: skip
    leaders = laid.obstacles  # the page has no figures or rules: its obstacles are the leaders
    assert not [
        (p.text, box)
        for p in entries
        for box in leaders
        if p.box[2] > box[0] + 1 and box[1] < p.box[3] and p.box[1] < box[3]  # reaches into a leader on its band
    ]
    assert _crossings(_translated(source, tmp_path)) == []


def test_an_accent_drawn_over_its_letter_is_read_as_the_accented_letter(tmp_path, noto_sc):
    """TeX's OT1 fonts draw "Ü" as ¨ raised over U, apart: the raised accents became a line of their own, joined
    into the paragraph under them, and their translations were drawn over each other (revtex's references)."""
    found = [p for p in _paragraphs(MADE / "accents.pdf") if p.page == 1 and p.text != "1"]
    assert len(found) == 1
    text = found[0].text
    assert text.startswith("U. Ünderwood, N. Ñet and P. P\u0304ot wrote")
    assert "Études Françaises" in text and "T. Térrific" in text and "Schrödinger" in text
    assert _crossings(_translated(MADE / "accents.pdf", tmp_path)) == []


def test_a_type3_glyph_flipped_by_its_font_matrix_stands_in_its_line(tmp_path, noto_sc):
    """Ghostscript's bitmap fonts (dvips's, SystemTap's manuals) have a FontMatrix [s 0 0 -s] and are drawn with a
    text matrix flipped back; pdfminer leaves the FontMatrix out, the "$$" of "$$vars" looked upside down, was left
    as rotated text, and the sentence's translation was drawn over it. Drawn here so, with pikepdf."""
    from pikepdf import Array, Dictionary, Name, Page, Pdf, Stream

    pdf = Pdf.new()
    dollar = Stream(pdf, b"500 0 0 -750 450 0 d1 50 -700 400 650 re f")
    bitmap = Dictionary(
        Type=Name.Font, Subtype=Name.Type3, FontBBox=Array([0, -750, 450, 0]),
        FontMatrix=Array([0.001, 0, 0, -0.001, 0, 0]), CharProcs=Dictionary(dollar=dollar),
        Encoding=Dictionary(Type=Name.Encoding, Differences=Array([36, Name.dollar])),
        FirstChar=36, LastChar=36, Widths=Array([500]), Resources=Dictionary(),
    )  # fmt: skip
    prose = Dictionary(Type=Name.Font, Subtype=Name.Type1, BaseFont=Name.Helvetica)
    text = (
        b"BT /F1 10 Tf 1 0 0 -1 72 700 Tm ($$) Tj ET\n"
        b"BT /F2 10 Tf 1 0 0 1 82 700 Tm (vars expands to a character string that is equivalent to a sum.) Tj ET"
    )
    fonts = Dictionary(F1=bitmap, F2=prose)
    pdf.pages.append(Page(Dictionary(Type=Name.Page, MediaBox=Array([0, 0, 612, 792]),
                                     Resources=Dictionary(Font=fonts), Contents=Stream(pdf, text))))  # fmt: skip
    source = tmp_path / "type3.pdf"
    pdf.save(source)
    found = _paragraphs(source)
    assert [(p.text, p.keep) for p in found] == [
        ("$$vars expands to a character string that is equivalent to a sum.", None)
    ]
    assert found[0].box[1] >= 690  # the dollars' box stands on the line's baseline, not under it
    assert _crossings(_translated(source, tmp_path)) == []


def test_right_to_left_text_is_left_as_it_is_and_said(tmp_path):
    """Hebrew is drawn right to left; read in the order drawn it would be sent backwards, so it is left alone."""
    from fontfixtures import build_font
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas

    hebrew = "תודות בעברית. " * 6
    english = "The thesis was written in English, and its abstract in Hebrew follows on this page."
    font = build_font(tmp_path / "hebrew.ttf", hebrew + english, family="Test Hebrew")
    pdfmetrics.registerFont(TTFont("TestHebrew", str(font)))
    canvas = Canvas(str(tmp_path / "rtl.pdf"), pagesize=(612, 792))
    canvas.setFont("TestHebrew", 10)
    canvas.drawString(72, 720, english)
    canvas.drawRightString(540, 690, hebrew.strip())
    canvas.save()
    found = {p.text[:10]: p.keep for p in _paragraphs(tmp_path / "rtl.pdf")}
    assert found == {"The thesis": None, next(k for k in found if k[0] != "T"): layout.RIGHT_TO_LEFT}


def test_a_font_s_character_chart_is_read_and_its_glyph_samples_left_alone(tmp_path, noto_sc):
    """A page of cairo's grid of glyphs and code points (Carlito's chart, tests/documents/pdf/real): read whole
    (it once failed the reader), every sample a letter alone or its code point, nothing to translate but the
    headings."""
    from fanyi.documents.policy import keep_reason

    found = _paragraphs(REAL / "cairo-carlito-latin-extended-b.pdf")
    assert len(found) > 400
    samples = [p for p in found if p.text in ("ƀ", "Ɓ", "Ƃ", "ǅ", "Ǳ")]
    assert len(samples) == 5 and all(keep_reason(p.text, "zh") == "a letter alone" for p in samples)
    codes = [p for p in found if p.text in ("0180", "01C5", "024F")]
    assert len(codes) == 3 and all(p.keep or keep_reason(p.text, "zh") for p in codes)
    result = translate_document(
        REAL / "cairo-carlito-latin-extended-b.pdf", FakeTranslator(hanzi), dst=tmp_path / "c.pdf"
    )
    assert not result.report.failed
    assert {p.text for p in found if p.keep is None and keep_reason(p.text, "zh") is None} == {
        "Carlito",
        "Latin Extended-B",
    }


def test_a_ruled_table_s_rows_are_never_merged_and_its_specimens_are_left_alone(tmp_path, noto_sc):
    """LibreOffice's table of a font's features (tests/documents/pdf/real): each row's sample is its own unit, and
    a sample that shows the same text in two forms is a type specimen, left as it is."""
    found = [p for p in _paragraphs(REAL / "libreoffice-libertinus-features.pdf") if p.page == 1]
    by_text = {p.text: p for p in found}
    assert by_text["Libertinus Font ŐŰÉÁÄ Libertinus font őűéáä …"].keep == layout.SPECIMEN
    assert by_text["Qu, tief? (f) Schulfächer Qu, tief? (f) Schulfächer …"].keep == layout.SPECIMEN
    assert by_text["ct, st ct, st"].keep == layout.SPECIMEN
    samples = [p for p in found if p.box[0] > 270 and p.box[1] < 680]
    assert all(p.lines <= 4 for p in samples)  # a cell's two to four lines, never the next row's
    assert by_text["Small Capitals"].keep is None and by_text["Fractions"].keep is None
    assert _crossings(_translated(REAL / "libreoffice-libertinus-features.pdf", tmp_path)) == []


def test_a_footnote_with_a_coloured_url_is_one_footnote_in_its_own_colour():
    """hyperref's magenta URL in a footnote: the footnote's first line, stretched before the URL it cannot break
    and mostly typewriter, is not a code block of its own, and the footnote takes the colour of its text that is
    not the link's."""
    found = [p for p in _paragraphs(MADE / "links.pdf") if "kept at" in p.text]
    assert len(found) == 1
    footnote = found[0]
    assert footnote.text.endswith("with its sources.") and footnote.keep is None
    assert footnote.role is layout.Role.FOOTNOTE and footnote.colour == (0.0, 0.0, 0.0)


def test_stacked_scripts_stay_in_their_line(tmp_path, noto_sc):
    """$B^{1,2}_{1,39}$: the subscript goes back under the superscript; the sentence is one paragraph."""
    found = [p.text for p in _paragraphs(MADE / "scripts.pdf")]
    assert len(found) == 2  # the paragraph and the page number
    assert found[0].startswith("Here we utilized the fact that B") and found[0].endswith("every sphere of the sample.")
    assert _crossings(_translated(MADE / "scripts.pdf", tmp_path)) == []


def test_running_heads_are_treated_alike_on_every_page():
    """fancyhdr's running head, over the References too: a running head on every page, never a reference."""
    heads = [p for p in _paragraphs(MADE / "heads.pdf") if p.text == "The Name of the Title Is Hope"]
    assert [p.page for p in heads] == [1, 2, 3, 4, 5]
    assert {(p.role, p.keep) for p in heads} == {(layout.Role.HEADER, None)}


def test_numbered_display_formulas_are_formulas_and_the_text_under_them_is_prose(tmp_path, noto_sc):
    """A display formula and its number "(1)" at the right: both left as they are, and the sentence under the number
    is a paragraph of its own; an enumerate's "(1)" stays a list's marker with its item."""
    found = [(p.keep, p.text) for p in _paragraphs(MADE / "equations.pdf")]
    assert (layout.FORMULA, "(1)") in found and (layout.FORMULA, "(2)") in found
    assert any(keep == layout.FORMULA and text.startswith("g1,39 =") for keep, text in found)
    assert any(keep == layout.FORMULA and text.startswith("ω = ω1S") for keep, text in found)
    assert (None, "The resonance then splits into a doublet whose two branches are") in found
    assert (
        found.count((layout.MARKER, "(1)")) == 1
        and (None, "the modes of the sphere are found for the given radius;") in found
    )
    assert _crossings(_translated(MADE / "equations.pdf", tmp_path)) == []


MADE_NAMES = [
    "logos",
    "teaser",
    "listing",
    "contents",
    "margin",
    "slides",
    "justified",
    "links",
    "scripts",
    "heads",
    "equations",
    "numbered",
    "meta",
    "runin",
    "accents",
]


@pytest.mark.parametrize("name", MADE_NAMES)
def test_each_made_pdf_is_as_its_source_says(name):
    """The fixtures are what producers/README.md says: pdfTeX's, from the .tex beside them."""
    with pikepdf.open(MADE / f"{name}.pdf") as pdf:
        assert "pdfTeX" in str(pdf.docinfo.get("/Producer"))
    assert (MADE / f"{name}.tex").is_file()


def test_a_pdf_whose_words_were_mostly_left_says_so_first(tmp_path, noto_sc):
    """A page whose prose is rotated (left as it is) but for one upright line: the report's first line says that
    most of the words were left, and the rotated text is named with its page."""
    from reportlab.pdfgen.canvas import Canvas

    path = tmp_path / "rotated.pdf"
    canvas = Canvas(str(path), pagesize=(612, 792))
    canvas.drawString(72, 720, "A short upright title.")
    canvas.rotate(90)
    for row in range(6):
        canvas.drawString(
            100, -100 - 14 * row, "This long line of prose is set sideways on the page, as a wide table is."
        )
    canvas.save()
    report = translate_document(path, FakeTranslator(hanzi), dst=tmp_path / "out.pdf").report
    assert report.mostly_left
    lines = report.summary().splitlines()
    assert lines[0].startswith("most of its words were left as they were:") and "(rotated text)" in lines[0]
    assert any(line.startswith("    - page 1 “This long line of prose") for line in lines)


def test_a_cjk_full_stop_set_half_width_stays_in_its_line(tmp_path):
    """Word sets a full-width "。" half a width early (its ink is in its left half): drawn 0.55 em back over the
    character before it, it is the same line, not a paragraph of its own drawn over the first (seuthesix's rules,
    made by Word 2013, whose Chinese lines were cut so)."""
    from fontfixtures import build_font
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas

    first, second = "在文档中图名和图号应和插图一起置于图文框内", "。图文框采用锁定标记选项"
    font = build_font(tmp_path / "cjk.ttf", first + second + "以免编辑时漂移一般插图宜用画成")
    pdfmetrics.registerFont(TTFont("TestCJK", str(font)))
    canvas = Canvas(str(tmp_path / "word.pdf"), pagesize=(612, 792))
    canvas.setFont("TestCJK", 10.5)
    canvas.drawString(72, 700, first)
    canvas.drawString(72 + 10.5 * (len(first) - 0.55), 700, second)
    canvas.drawString(72, 684, "以免编辑时漂移一般插图宜用画成")
    canvas.save()
    found = [p.text for p in _paragraphs(tmp_path / "word.pdf")]
    assert found == [first + second + "以免编辑时漂移一般插图宜用画成"]


def test_a_bullet_drawn_after_its_item_a_fraction_lower_begins_that_item(tmp_path):
    """cairo draws a list's bullet after the item's text, its baseline a third of a point lower (SIL's Gentium
    history): each item is its own paragraph, bullet and all, not the next item's text joined to the one before."""
    from fontfixtures import build_font
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas

    items = [
        "U+A7C4 LATIN CAPITAL LETTER C WITH PALATAL HOOK",
        "U+A7C5 LATIN CAPITAL LETTER S WITH HOOK",
        "U+1DF00 LATIN SMALL LETTER FENG DIGRAPH WITH TRILL",
        "U+1DF01 LATIN SMALL LETTER REVERSED SCRIPT G",
    ]
    font = build_font(tmp_path / "sans.ttf", "".join(items) + "◦", family="Test Sans", widths={"◦": 330})
    pdfmetrics.registerFont(TTFont("TestSans", str(font)))
    canvas = Canvas(str(tmp_path / "cairo.pdf"), pagesize=(612, 792))
    canvas.setFont("TestSans", 9.5)
    for row, item in enumerate(items):
        y = 600 - 12.6 * row - (0.4 if row % 2 else 0.0)  # baselines that round to whole points apart
        canvas.drawString(140.4, y, item)
        canvas.drawString(135.1, y - 0.35, "◦")
    canvas.save()
    found = [p.text for p in _paragraphs(tmp_path / "cairo.pdf")]
    assert found == [f"◦ {item}" for item in items]
