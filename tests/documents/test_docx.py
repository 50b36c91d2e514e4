import re
import zipfile

import docx
import pytest
from docfixtures import FormattedTranslator, docx_bytes, leftovers, mark, with_entries, zip_entries
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.oxml import parse_xml
from docx.shared import RGBColor
from lxml import etree

from fanyi.documents import CorruptDocument, EncryptedDocument, UnsupportedFormat, translate_document

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
W = f"{{{W_NS}}}"
NOTES = {
    "footnotes": "A footnote explains.",
    "endnotes": "An endnote concludes.",
}


def _notes_part(kind: str, text: str) -> bytes:
    tag = kind[:-1]
    return (
        f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:{kind} xmlns:w="{W_NS}">'
        f'<w:{tag} w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:{tag}>'
        f'<w:{tag} w:id="1"><w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:{tag}></w:{kind}>'
    ).encode()


def build_docx(path):
    document = docx.Document()
    document.add_heading("Quarterly report", level=1)
    paragraph = document.add_paragraph("The results were ", style="Normal")
    bold = paragraph.add_run("very good")
    bold.bold = True
    italic = paragraph.add_run(" this quarter")
    italic.italic = True
    italic.font.name = "Arial"
    italic.font.color.rgb = RGBColor(0xC0, 0x00, 0x00)
    paragraph.add_run(". See ")
    rid = document.part.relate_to("https://example.com", RT.HYPERLINK, is_external=True)
    paragraph._p.append(
        parse_xml(
            f'<w:hyperlink xmlns:w="{W_NS}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/'
            f'relationships" r:id="{rid}"><w:r><w:t>our site</w:t></w:r></w:hyperlink>'
        )
    )
    paragraph.add_run(".")
    paragraph._p.append(parse_xml(f'<w:r xmlns:w="{W_NS}"><w:footnoteReference w:id="1"/></w:r>'))
    document.add_paragraph("A list item", style="List Bullet")
    document.add_paragraph("12,345")
    table = document.add_table(rows=1, cols=2)
    table.cell(0, 0).text = "Outer cell"
    nested = table.cell(0, 1).add_table(rows=1, cols=1)
    nested.cell(0, 0).text = "Nested cell"
    box = document.add_paragraph("Before the box.")
    box._p.append(
        parse_xml(
            f'<w:r xmlns:w="{W_NS}" xmlns:v="urn:schemas-microsoft-com:vml"><w:pict><v:shape><v:textbox>'
            f"<w:txbxContent><w:p><w:r><w:t>Text in a box</w:t></w:r></w:p></w:txbxContent>"
            f"</v:textbox></v:shape></w:pict></w:r>"
        )
    )
    tabbed = document.add_paragraph("Name")
    tabbed.add_run().add_tab()
    tabbed.add_run("Value")
    section = document.sections[0]
    section.header.paragraphs[0].text = "Company confidential"
    section.footer.paragraphs[0].text = "Printed on paper"
    document.save(path)
    _add_notes(path)


def _add_notes(path):
    entries = zip_entries(path)
    types = entries["[Content_Types].xml"].decode()
    rels = entries["word/_rels/document.xml.rels"].decode()
    for n, (kind, text) in enumerate(NOTES.items()):
        entries[f"word/{kind}.xml"] = _notes_part(kind, text)
        types = types.replace(
            "</Types>",
            f'<Override PartName="/word/{kind}.xml" ContentType="application/vnd.openxmlformats-officedocument.'
            f'wordprocessingml.{kind}+xml"/></Types>',
        )
        rels = rels.replace(
            "</Relationships>",
            f'<Relationship Id="rIdNote{n}" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
            f'relationships/{kind}" Target="{kind}.xml"/></Relationships>',
        )
    entries["[Content_Types].xml"] = types.encode()
    entries["word/_rels/document.xml.rels"] = rels.encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries.items():
            archive.writestr(name, data)


def own_texts(xml: bytes) -> list[str]:
    """The text of every paragraph (its own runs, not those of a text box inside it)."""
    root = etree.fromstring(xml)
    texts = []
    for p in root.iter(W + "p"):
        own = [t.text or "" for t in p.iter(W + "t") if next(t.iterancestors(W + "p")) is p]
        if "".join(own).strip():
            texts.append("".join(own))
    return texts


def skeleton(xml: bytes) -> list:
    """Every element with its attributes, text elements without their text."""
    root = etree.fromstring(xml)
    return [
        (
            el.tag,
            {k: v for k, v in el.attrib.items() if not k.endswith("}space")},
            None if el.tag == W + "t" else el.text,
        )
        for el in root.iter()
    ]


def word_parts(path) -> dict[str, bytes]:
    return {
        n: d
        for n, d in zip_entries(path).items()
        if re.fullmatch(r"word/(document|header\d|footer\d|footnotes|endnotes)\.xml", n)
    }


@pytest.fixture
def source(tmp_path):
    path = tmp_path / "report.docx"
    build_docx(path)
    return path


def test_every_paragraph_is_translated_and_structure_is_untouched(source, translator):
    result = translate_document(source, translator)
    assert result.output.name == "report.zh.docx"
    before, after = zip_entries(source), zip_entries(result.output)
    assert list(after) == list(before)
    changed = word_parts(source)
    for name in before:
        if name not in changed:
            assert after[name] == before[name], name
    for name, xml in changed.items():
        assert skeleton(after[name]) == skeleton(xml), name
        # The tab between "Name" and "Value" is an element, so the translator saw "Name Value".
        sent = {"12,345": "12,345", "NameValue": mark("Name Value")}
        expected = [sent.get(t, mark(t)) for t in own_texts(xml)]
        assert own_texts(after[name]) == expected, name
    assert "Text in a box" in translator.texts and "Nested cell" in translator.texts
    assert "Name Value" in translator.texts  # a tab separates words
    assert "The results were very good this quarter. See our site." in translator.texts
    assert set(NOTES.values()) <= set(translator.texts)
    assert [e.reason for e in result.report.kept] == ["numbers or symbols only"]


def test_run_formatting_and_hyperlinks_carry_the_translation(source, translator):
    result = translate_document(source, translator)
    paragraph = docx.Document(result.output).paragraphs[1]
    runs = paragraph.runs
    assert runs[1].bold and runs[1].text
    assert runs[2].italic and runs[2].font.name == "Arial" and runs[2].font.color.rgb == RGBColor(0xC0, 0, 0)
    assert paragraph.hyperlinks[0].url == "https://example.com" and paragraph.hyperlinks[0].text
    assert docx.Document(result.output).paragraphs[0].style.name == "Heading 1"


def test_a_pack_that_takes_formatted_text_is_told_which_runs_are_styled_and_places_them(source):
    """HY-MT1.5's formatted prompt: runs that look unlike the paragraph (bold, italic in red Arial, a link) are
    marked; a run that differs only in its language or proofing marks is not; the marks place the styling."""
    document = docx.Document(source)
    plain = document.add_paragraph("Spelling ")
    plain.add_run("checked").font.element.get_or_add_rPr().append(
        parse_xml(f'<w:lang xmlns:w="{W_NS}" w:val="en-GB"/>')
    )
    document.save(source)
    translator = FormattedTranslator()
    result = translate_document(source, translator)
    seen = dict(translator.seen)
    assert seen["The results were <sn>very good</sn> <sn>this quarter</sn>. See <sn>our site</sn>."] is True
    assert seen["Spelling checked"] is False and seen["A list item"] is False
    paragraph = docx.Document(result.output).paragraphs[1]
    assert "".join(r.text for r in paragraph.runs[:3]) == "THE RESULTS WERE VERY GOOD THIS QUARTER"
    assert paragraph.runs[1].text.strip() == "VERY GOOD" and paragraph.runs[1].bold
    assert paragraph.runs[2].text.strip() == "THIS QUARTER" and paragraph.runs[2].italic
    assert paragraph.hyperlinks[0].text == "OUR SITE"


def test_bilingual_adds_a_styled_copy_after_each_paragraph(source, translator):
    result = translate_document(source, translator, bilingual=True)
    document = docx.Document(result.output)
    texts = [(p.text, p.style.name) for p in document.paragraphs if p.text.strip()]
    assert texts[:2] == [("Quarterly report", "Heading 1"), (mark("Quarterly report"), "Heading 1")]
    assert ("A list item", "List Bullet") in texts and (mark("A list item"), "List Bullet") in texts
    body = zip_entries(result.output)["word/document.xml"].decode()
    assert body.count("footnoteReference") == 1 and body.count("<w:pict>") == 1
    header = own_texts(zip_entries(result.output)["word/header1.xml"])
    assert header == ["Company confidential", mark("Company confidential")]


def test_a_truncated_docx_is_refused(tmp_path, source, translator):
    broken = tmp_path / "broken.docx"
    broken.write_bytes(source.read_bytes()[: source.stat().st_size // 2])
    with pytest.raises(CorruptDocument, match="broken.docx is not a valid Word document"):
        translate_document(broken, translator)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken.docx", "report.docx"]


def test_a_damaged_entry_is_refused(tmp_path, source, translator):
    data = bytearray(source.read_bytes())
    with zipfile.ZipFile(source) as archive:
        info = archive.getinfo("word/document.xml")
    start = info.header_offset + 30 + len(info.filename) + len(info.extra)
    data[start + 10 : start + 20] = b"\x00" * 10
    damaged = tmp_path / "damaged.docx"
    damaged.write_bytes(bytes(data))
    with pytest.raises(CorruptDocument, match="damaged.docx"):
        translate_document(damaged, translator)


def test_a_zip_that_is_not_a_word_document_is_refused(tmp_path, translator):
    other = tmp_path / "other.docx"
    with zipfile.ZipFile(other, "w") as archive:
        archive.writestr("hello.txt", "hi")
    with pytest.raises(CorruptDocument, match="has no word/document.xml"):
        translate_document(other, translator)


def test_password_protected_and_legacy_files_are_named(tmp_path, translator):
    ole = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 504
    encrypted = tmp_path / "secret.docx"
    encrypted.write_bytes(ole + "EncryptionInfo".encode("utf-16-le") + b"\x00" * 512)
    with pytest.raises(EncryptedDocument, match="secret.docx is password-protected"):
        translate_document(encrypted, translator)
    legacy = tmp_path / "old.docx"
    legacy.write_bytes(ole + "WordDocument".encode("utf-16-le") + b"\x00" * 512)
    with pytest.raises(UnsupportedFormat, match="old binary Office format"):
        translate_document(legacy, translator)
    assert leftovers(tmp_path) == []


def _with_document_xml(tmp_path, name, xml: bytes):
    path = tmp_path / name
    path.write_bytes(with_entries(docx_bytes(), {"word/document.xml": xml}))
    return path


_DTD_DOCUMENT = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<!DOCTYPE w:document [<!ENTITY company "Contoso Ltd"><!ENTITY hello "Hello from &company;.">]>\n'
    f'<w:document xmlns:w="{W_NS}"><w:body>'
    "<w:p><w:r><w:t>Welcome to &company; today.</w:t></w:r></w:p><w:p><w:r><w:t>&hello;</w:t></w:r></w:p>"
    "</w:body></w:document>"
)


def test_internal_entities_are_resolved_and_the_output_has_no_doctype(tmp_path, translator):
    src = _with_document_xml(tmp_path, "dtd.docx", _DTD_DOCUMENT.encode())
    result = translate_document(src, translator)
    assert sorted(translator.texts) == ["Hello from Contoso Ltd.", "Welcome to Contoso Ltd today."]
    body = zip_entries(result.output)["word/document.xml"]
    assert b"<!DOCTYPE" not in body and b"&company;" not in body and b"&hello;" not in body
    strict = etree.XMLParser(resolve_entities=False, load_dtd=False, no_network=True)
    assert own_texts(etree.tostring(etree.fromstring(body, strict))) == [
        mark("Welcome to Contoso Ltd today."),
        mark("Hello from Contoso Ltd."),
    ]
    assert [p.text for p in docx.Document(result.output).paragraphs] == own_texts(body)


def test_an_entity_expansion_bomb_is_refused_in_one_line(tmp_path, translator):
    entities = '<!ENTITY a0 "lol">' + "".join(f'<!ENTITY a{n} "{f"&a{n - 1};" * 10}">' for n in range(1, 10))
    bomb = (
        f'<?xml version="1.0"?>\n<!DOCTYPE w:document [{entities}]>\n'
        f'<w:document xmlns:w="{W_NS}"><w:body><w:p><w:r><w:t>&a9;</w:t></w:r></w:p></w:body></w:document>'
    )
    src = _with_document_xml(tmp_path, "bomb.docx", bomb.encode())
    with pytest.raises(CorruptDocument, match=r"word/document.xml is not well-formed XML \(.*amplification") as caught:
        translate_document(src, translator)
    assert "\n" not in str(caught.value) and translator.calls == []


def test_an_external_entity_is_not_read(tmp_path, translator):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP SECRET", encoding="utf-8")
    xxe = (
        f'<?xml version="1.0"?>\n<!DOCTYPE w:document [<!ENTITY x SYSTEM "{secret.as_uri()}">]>\n'
        f'<w:document xmlns:w="{W_NS}"><w:body><w:p><w:r><w:t>Leak &x; here.</w:t></w:r></w:p></w:body></w:document>'
    )
    src = _with_document_xml(tmp_path, "xxe.docx", xxe.encode())
    try:
        result = translate_document(src, translator)
    except CorruptDocument:
        return
    assert "TOP SECRET" not in " ".join(translator.texts)
    assert b"TOP SECRET" not in zip_entries(result.output)["word/document.xml"]
