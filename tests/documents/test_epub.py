import zipfile

import pytest
from docfixtures import zip_bytes, zip_entries

from fanyi.documents import CorruptDocument, translate_document

CONTAINER = """<?xml version="1.0"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
</container>"""

OPF = """<?xml version="1.0" encoding="utf-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="id">urn:uuid:1</dc:identifier><dc:title>A Book</dc:title><dc:language>en</dc:language>
  </metadata>
  <manifest>
    <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
    <item id="c2" href="text/ch%202.xhtml" media-type="application/xhtml+xml"/>
    <item id="c1" href="text/ch1.xhtml" media-type="application/xhtml+xml"/>
    <item id="css" href="style.css" media-type="text/css"/>
  </manifest>
  <spine><itemref idref="c1"/><itemref idref="c2"/></spine>
</package>"""


def chapter(title: str, body: str) -> str:
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html>\n'
        '<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en" lang="en">'
        f'<head><title>{title}</title><link rel="stylesheet" href="../style.css"/></head>'
        f"<body>{body}</body></html>"
    )


ENTRIES = [
    ("mimetype", "application/epub+zip"),
    ("META-INF/container.xml", CONTAINER),
    ("OEBPS/content.opf", OPF),
    ("OEBPS/nav.xhtml", chapter("Contents", '<nav><ol><li><a href="text/ch1.xhtml">Chapter one</a></li></ol></nav>')),
    (
        "OEBPS/text/ch1.xhtml",
        chapter("One", '<h1 id="c1">Chapter one</h1><p>It was a <i>dark</i> night.<br/>Rain.</p>'),
    ),
    ("OEBPS/text/ch 2.xhtml", chapter("Two", '<p>The end.</p><img src="a.png" alt="A map"/>')),
    ("OEBPS/style.css", "p { margin: 0 }"),
]


@pytest.fixture
def book(tmp_path):
    path = tmp_path / "book.epub"
    path.write_bytes(zip_bytes(ENTRIES, stored=["mimetype"]))
    return path


def test_every_content_document_is_translated_and_the_package_stays_valid(book, translator):
    result = translate_document(book, translator)
    assert result.output.name == "book.zh.epub"
    with zipfile.ZipFile(result.output) as archive:
        first = archive.infolist()[0]
        assert first.filename == "mimetype" and first.compress_type == zipfile.ZIP_STORED
        assert archive.testzip() is None
    after = zip_entries(result.output)
    assert list(after) == [name for name, _ in ENTRIES]
    assert after["META-INF/container.xml"] == CONTAINER.encode()
    assert after["OEBPS/style.css"] == b"p { margin: 0 }"
    assert (
        after["OEBPS/content.opf"]
        == OPF.replace("<dc:language>en</dc:language>", "<dc:language>zh</dc:language>").encode()
    )
    ch1 = after["OEBPS/text/ch1.xhtml"].decode()
    assert '<h1 id="c1">⟦CHAPTER ONE⟧</h1>' in ch1 and "<title>⟦ONE⟧</title>" in ch1
    assert 'xml:lang="zh" lang="zh"' in ch1 and "<br/>⟦RAIN.⟧</p>" in ch1
    assert 'alt="⟦A MAP⟧"' in after["OEBPS/text/ch 2.xhtml"].decode()
    assert '<a href="text/ch1.xhtml">⟦CHAPTER ONE⟧</a>' in after["OEBPS/nav.xhtml"].decode()
    assert result.report.translated == 9 and not result.report.kept and not result.report.failed
    assert translator.texts.count("Chapter one") == 1  # the same text twice is translated once
    # Reading order: the spine first, then the rest of the manifest.
    assert [e.where.split(",")[0] for e in _all_units(book)] == ["OEBPS/text/ch1.xhtml"] * 4 + [
        "OEBPS/text/ch 2.xhtml"
    ] * 3 + ["OEBPS/nav.xhtml"] * 2


def _all_units(path):
    from fanyi.documents.epub import open_document

    return list(open_document(path).units())


def test_mimetype_is_moved_first_and_stored_when_the_source_got_it_wrong(tmp_path, translator):
    bad = tmp_path / "bad.epub"
    bad.write_bytes(zip_bytes(ENTRIES[1:] + ENTRIES[:1]))
    result = translate_document(bad, translator)
    with zipfile.ZipFile(result.output) as archive:
        first = archive.infolist()[0]
    assert first.filename == "mimetype" and first.compress_type == zipfile.ZIP_STORED


def test_bilingual_keeps_the_source_and_adds_the_translation(book, translator):
    result = translate_document(book, translator, bilingual=True)
    ch1 = zip_entries(result.output)["OEBPS/text/ch1.xhtml"].decode()
    assert '<h1 id="c1">Chapter one<br/>⟦CHAPTER ONE⟧</h1>' in ch1
    assert "<dc:language>en</dc:language>" in zip_entries(result.output)["OEBPS/content.opf"].decode()


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        ([e for e in ENTRIES if e[0] != "META-INF/container.xml"], "has no META-INF/container.xml"),
        ([("mimetype", "application/zip")] + ENTRIES[1:], "mimetype"),
        ([(n, d if n != "OEBPS/content.opf" else "<package") for n, d in ENTRIES], "not well-formed XML"),
    ],
    ids=["no-container", "wrong-mimetype", "broken-opf"],
)
def test_a_broken_epub_is_refused(tmp_path, translator, entries, message):
    broken = tmp_path / "broken.epub"
    broken.write_bytes(zip_bytes(entries))
    with pytest.raises(CorruptDocument, match=message):
        translate_document(broken, translator)
    assert [p.name for p in tmp_path.iterdir()] == ["broken.epub"]
