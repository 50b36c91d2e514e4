"""Translated .docx/.pptx/.epub never carry a member name that reaches outside the folder they are
unpacked into (issue 21's hostile sweep: a source's ``../../evil`` came through as it was)."""

from __future__ import annotations

import zipfile

import pytest
from docfixtures import FakeTranslator, docx_bytes, with_entries

from fanyi.documents import translate_document
from fanyi.documents.package import safe_member_name


def test_member_names_that_reach_outside_are_normalised_in_translated_packages(tmp_path):
    hostile = {
        "../../evil.txt": b"1",
        "/etc/cron.d/x": b"2",
        "a/../../b.txt": b"3",
        "C:\\\\win.ini": b"4",
        "../": b"",
        "word/../../word/document.xml.bak": b"5",
    }
    source = tmp_path / "report.docx"
    source.write_bytes(with_entries(docx_bytes(["The weather is fine today."]), hostile))
    link = zipfile.ZipInfo("link")
    link.external_attr = 0o120777 << 16  # a symbolic link, pointing wherever its bytes say
    with zipfile.ZipFile(source, "a") as archive:
        archive.writestr(link, "/etc/passwd")
    output = translate_document(source, FakeTranslator()).output
    with zipfile.ZipFile(output) as archive:
        names = archive.namelist()
        assert {"evil.txt", "etc/cron.d/x", "b.txt", "win.ini", "word/document.xml.bak"} <= set(names)
        assert not [n for n in names if ".." in n.split("/") or n.startswith("/") or "\\\\" in n or ":" in n]
        assert "link" not in names and archive.read("evil.txt") == b"1"
        assert "⟦THE WEATHER IS FINE TODAY.⟧" in archive.read("word/document.xml").decode()


@pytest.mark.parametrize(
    "name, safe",
    [
        ("word/document.xml", "word/document.xml"),
        ("../x", "x"),
        ("./a/./b", "a/b"),
        ("/abs/", "abs/"),
        ("D:/x", "x"),
        ("..\\..\\y", "y"),
        ("..", None),
        ("", None),
    ],
)
def test_safe_member_name(name, safe):
    assert safe_member_name(name) == safe
