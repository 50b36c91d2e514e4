import re

import pytest
from docfixtures import FormattedTranslator, mark, zip_entries
from lxml import etree
from pptx import Presentation
from pptx.oxml import parse_xml
from pptx.util import Inches

from fanyi.documents import CorruptDocument, translate_document

A_NS = "http://schemas.openxmlformats.org/drawingml/2006/main"
A = f"{{{A_NS}}}"


def build_pptx(path):
    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[1])
    slide.shapes.title.text = "Welcome"
    body = slide.placeholders[1].text_frame
    body.text = "First point"
    run = body.add_paragraph().add_run()
    run.text = "Bold point"
    run.font.bold = True
    body.paragraphs[0]._p.append(
        parse_xml(
            f'<a:fld xmlns:a="{A_NS}" id="{{B6F15528-21DE-4FAA-801E-634DDDAF4B2B}}" type="slidenum">'
            f"<a:t>1</a:t></a:fld>"
        )
    )
    slide.notes_slide.notes_text_frame.text = "Speaker notes here."
    second = deck.slides.add_slide(deck.slide_layouts[6])
    table = second.shapes.add_table(2, 2, Inches(1), Inches(1), Inches(4), Inches(2)).table
    table.cell(0, 0).text = "Header"
    table.cell(1, 1).text = "Table cell"
    group = second.shapes.add_group_shape()
    box = group.shapes.add_textbox(Inches(1), Inches(4), Inches(3), Inches(1))
    box.text_frame.text = "Grouped text"
    deck.save(path)


def texts(xml: bytes) -> list[str]:
    root = etree.fromstring(xml)
    found = ["".join(t.text or "" for t in p.iter(A + "t")) for p in root.iter(A + "p")]
    return [t for t in found if t.strip()]


def skeleton(xml: bytes) -> list:
    return [(el.tag, dict(el.attrib), None if el.tag == A + "t" else el.text) for el in etree.fromstring(xml).iter()]


@pytest.fixture
def source(tmp_path):
    path = tmp_path / "deck.pptx"
    build_pptx(path)
    return path


def _slides_and_notes(entries):
    return [n for n in entries if re.fullmatch(r"ppt/(slides/slide|notesSlides/notesSlide)\d+\.xml", n)]


def test_slides_tables_groups_and_notes_are_translated_structure_kept(source, translator):
    result = translate_document(source, translator)
    before, after = zip_entries(source), zip_entries(result.output)
    assert list(before) == list(after)
    parts = _slides_and_notes(before)
    assert len(parts) == 3
    for name in before:
        if name not in parts:
            assert before[name] == after[name], name
    for name in parts:
        assert skeleton(after[name]) == skeleton(before[name])
    assert sorted(translator.texts) == sorted(  # a field's text is context, and is kept as it is
        ["Welcome", "First point1", "Bold point", "Speaker notes here.", "Header", "Table cell", "Grouped text"]
    )
    slide = texts(after["ppt/slides/slide1.xml"])
    assert slide == [mark("Welcome"), mark("First point") + "1", mark("Bold point")]
    assert texts(after["ppt/slides/slide2.xml"]) == [mark("Header"), mark("Table cell"), mark("Grouped text")]
    assert mark("Speaker notes here.") in texts(after["ppt/notesSlides/notesSlide1.xml"])


def test_a_pack_that_takes_formatted_text_is_told_which_runs_are_bold(tmp_path):
    deck = Presentation()
    body = deck.slides.add_slide(deck.slide_layouts[1]).placeholders[1].text_frame
    body.text = "Sales grew "
    run = body.paragraphs[0].add_run()
    run.text, run.font.bold = "twice", True
    body.paragraphs[0].add_run().text = " as fast."
    for r in body.paragraphs[0].runs:  # PowerPoint's spell-checking attributes: no styling
        r.font._rPr.set("lang", "en-US")
        r.font._rPr.set("dirty", "0")
    deck.save(tmp_path / "deck.pptx")
    translator = FormattedTranslator()
    result = translate_document(tmp_path / "deck.pptx", translator)
    assert ("Sales grew <sn>twice</sn> as fast.", True) in translator.seen
    runs = Presentation(result.output).slides[0].placeholders[1].text_frame.paragraphs[0].runs
    assert [(r.text, r.font.bold) for r in runs] == [("SALES GREW ", None), ("TWICE", True), (" AS FAST.", None)]


def test_bilingual_puts_the_translated_paragraph_after_the_original(source, translator):
    result = translate_document(source, translator, bilingual=True)
    deck = Presentation(result.output)
    body = deck.slides[0].placeholders[1].text_frame
    assert [p.text for p in body.paragraphs] == [
        "First point1",
        mark("First point") + "1",
        "Bold point",
        mark("Bold point"),
    ]
    assert body.paragraphs[3].runs[0].font.bold
    assert deck.slides[0].notes_slide.notes_text_frame.text == "Speaker notes here.\n" + mark("Speaker notes here.")


def test_a_corrupt_pptx_is_refused(tmp_path, translator):
    broken = tmp_path / "broken.pptx"
    broken.write_bytes(b"PK\x03\x04 this is not really a zip")
    with pytest.raises(CorruptDocument, match="broken.pptx is not a valid PowerPoint presentation"):
        translate_document(broken, translator)
    assert [p.name for p in tmp_path.iterdir()] == ["broken.pptx"]
