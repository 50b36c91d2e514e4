"""Documents through a real (tiny, random) model pack rather than the fake translator."""

from __future__ import annotations

import docx

from fanyi.documents.job import translate_document


def test_txt_and_docx_with_a_real_pack(tiny_translator, tmp_path):
    paragraphs = ["The market opens at nine.", "Please bring your own bag.", "We walked along the river."]
    src = tmp_path / "notes.txt"
    src.write_text("\n\n".join(paragraphs) + "\n", encoding="utf-8")
    before = src.read_bytes()
    result = translate_document(src, tiny_translator)
    assert src.read_bytes() == before
    assert result.output == tmp_path / "notes.zh.txt"
    out = result.output.read_text(encoding="utf-8")
    assert out.count("\n\n") == 2
    assert result.report.total == len(paragraphs) and result.report.translated >= 1

    d = docx.Document()
    for p in paragraphs:
        d.add_paragraph(p, style="Heading 1" if p is paragraphs[0] else None)
    src_docx = tmp_path / "report.docx"
    d.save(src_docx)
    result = translate_document(src_docx, tiny_translator)
    translated = docx.Document(result.output)
    assert [p.style.name for p in translated.paragraphs] == [p.style.name for p in d.paragraphs]
    assert [p.text for p in translated.paragraphs] != paragraphs


def test_an_html_page_through_a_many_to_many_pack_says_the_target_language(tiny_nllb_pack, tmp_path):
    """A many-to-many pack's own language is "mul": the page's lang and its name carry the request's."""
    from fanyi.engine.options import DecodeOptions
    from fanyi.engine.translator import Translator

    src = tmp_path / "page.html"
    src.write_text(
        '<html lang="en"><body><p>The library closes at 9 p.m. on weekdays.</p></body></html>\n', encoding="utf-8"
    )
    translator = Translator.open(tiny_nllb_pack, threads=1)
    options = DecodeOptions(source="eng_Latn", target="zho_Hant")
    result = translate_document(src, translator, options=options)
    assert result.output == tmp_path / "page.zho_Hant.html"
    assert '<html lang="zh">' in result.output.read_text(encoding="utf-8")
