import codecs

import pytest
from docfixtures import leftovers, mark

from fanyi.documents import NoTextFound, NotTextFile, translate_document

SOURCE = (
    "Title line\n"
    "\n"
    "This is a long paragraph\n"
    "that was hard-wrapped\n"
    "at forty columns.\n"
    "\n"
    "\n"
    "- first item\n"
    "- second item\n"
    "  continues here\n"
    "\n"
    "42\n"
    "   Indented para-\n"
    "   graph here."
)


def run(tmp_path, translator, data: bytes, **kwargs):
    src = tmp_path / "notes.txt"
    src.write_bytes(data)
    result = translate_document(src, translator, **kwargs)
    return result, result.output.read_bytes().decode("utf-8")


def test_paragraphs_blank_lines_and_markers_are_kept_and_wrapped_lines_joined(tmp_path, translator):
    result, out = run(tmp_path, translator, SOURCE.encode())
    assert out == (
        "⟦TITLE LINE⟧\n"
        "\n"
        "⟦THIS IS A LONG PARAGRAPH THAT WAS HARD-WRAPPED AT FORTY COLUMNS.⟧\n"
        "\n"
        "\n"
        "- ⟦FIRST ITEM⟧\n"
        "- ⟦SECOND ITEM CONTINUES HERE⟧\n"
        "\n"
        "42\n"
        "   ⟦INDENTED PARAGRAPH HERE.⟧"
    )
    assert result.output.name == "notes.zh.txt"
    assert result.report.translated == 5
    assert [(e.text, e.reason) for e in result.report.kept] == [("42", "numbers or symbols only")]


def test_crlf_line_endings_are_kept(tmp_path, translator):
    _, out = run(tmp_path, translator, b"One\r\ntwo\r\n\r\nThree\r\n")
    assert out == "⟦ONE TWO⟧\r\n\r\n⟦THREE⟧\r\n"


@pytest.mark.parametrize(
    "encoded",
    [
        codecs.BOM_UTF8 + "Hello there.\n\n你好，世界。\n".encode(),
        "Hello there.\n\n你好，世界。\n".encode(),
        "Hello there.\n\n你好，世界。\n".encode("utf-16"),
        "Hello there.\n\n你好，世界。\n".encode("utf-16-be").join([codecs.BOM_UTF16_BE, b""]),
        "Hello there.\n\n你好，世界。\n".encode("gb18030"),
    ],
    ids=["utf-8-bom", "utf-8", "utf-16-le-bom", "utf-16-be-bom", "gb18030"],
)
def test_encodings_are_detected_and_written_back_as_utf8(tmp_path, translator, encoded):
    result, out = run(tmp_path, translator, encoded)
    assert not result.output.read_bytes().startswith((codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))
    assert out == "⟦HELLO THERE.⟧\n\n你好，世界。\n"
    assert [e.reason for e in result.report.kept] == ["already Chinese"]


def test_bilingual_puts_each_translation_under_its_paragraph(tmp_path, translator):
    _, out = run(tmp_path, translator, b"First line\nwrapped.\n\n- item\n\nLast", bilingual=True)
    assert out == "First line\nwrapped.\n⟦FIRST LINE WRAPPED.⟧\n\n- item\n  ⟦ITEM⟧\n\nLast\n⟦LAST⟧"


def test_binary_data_named_txt_is_refused_and_nothing_is_written(tmp_path, translator):
    src = tmp_path / "photo.txt"
    src.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    with pytest.raises(NotTextFile, match="photo.txt"):
        translate_document(src, translator)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["photo.txt"]
    assert translator.calls == []


def test_undecodable_text_is_refused(tmp_path, translator):
    src = tmp_path / "latin.txt"
    src.write_bytes("Café crème à la carte".encode("latin-1") + b"\xff\xfe\xff")
    with pytest.raises(NotTextFile, match="neither UTF-8"):
        translate_document(src, translator)


def test_an_empty_file_is_refused(tmp_path, translator):
    src = tmp_path / "empty.txt"
    src.write_bytes(b"")
    with pytest.raises(NoTextFound, match="empty.txt is empty"):
        translate_document(src, translator)
    assert leftovers(tmp_path) == [] and len(list(tmp_path.iterdir())) == 1


def test_a_file_with_nothing_to_translate_writes_nothing(tmp_path, translator):
    src = tmp_path / "numbers.txt"
    src.write_text("1 2 3\n\n这已经是中文了。\n", encoding="utf-8")
    with pytest.raises(NoTextFound, match="numbers or symbols only"):
        translate_document(src, translator)
    assert len(list(tmp_path.iterdir())) == 1


def test_a_line_break_after_a_sentence_end_is_kept_with_the_files_line_ending(tmp_path, translator):
    _, out = run(tmp_path, translator, b"- Roses are red.\r\n  Violets are blue.\r\n")
    assert translator.texts == ["Roses are red.\nViolets are blue."]
    assert out == "- ⟦ROSES ARE RED.\r\n  VIOLETS ARE BLUE.⟧\r\n"


@pytest.mark.parametrize(
    ("text", "codec"),
    [
        ("Greetings from Zürich.\n", "latin-1"),
        ("Grüße aus München und Köln.\nDie Straße führt über die Brücke.\n", "cp1252"),
        ("Zürich\nMünchen\nKöln\n", "latin-1"),
    ],
)
def test_latin1_and_cp1252_text_is_refused_not_misread_as_gb18030(tmp_path, translator, text, codec):
    data = text.encode(codec)
    data.decode("gb18030")  # it would decode: "Z黵ich"
    src = tmp_path / "legacy.txt"
    src.write_bytes(data)
    with pytest.raises(NotTextFile, match=r"legacy.txt is in an encoding Fanyi does not read: .*Latin-1") as caught:
        translate_document(src, translator)
    assert "\n" not in str(caught.value) and translator.calls == [] and len(list(tmp_path.iterdir())) == 1


@pytest.mark.parametrize(
    ("text", "codec"),
    [
        ("朱镕基总理今天访问了上海。\n\nHello there.\n", "gbk"),  # 镕 is GBK, not GB2312
        ("這個體驗讓我們覺得非常開心，謝謝您們的幫助。\n\nHello there.\n", "gbk"),  # traditional characters
        ("你好😀，世界。\n\nHello there.\n", "gb18030"),  # four-byte GB18030
    ],
    ids=["gbk rare", "gbk traditional", "gb18030 four-byte"],
)
def test_real_gbk_and_gb18030_chinese_still_reads(tmp_path, translator, text, codec):
    result, out = run(tmp_path, translator, text.encode(codec))
    assert out == text.replace("Hello there.", mark("Hello there."))
