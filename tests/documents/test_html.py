import re
from html.parser import HTMLParser

from docfixtures import FakeTranslator, mark

from fanyi.documents import translate_document
from fanyi.documents.html import HtmlText

PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>My   page</title>
  <style>p { color: red } /* Do not translate */</style>
  <script>var s = "<b>Not text</b>";</script>
</head>
<body>
  <!-- A comment stays -->
  <h1 id="top" class="big">Hello <b>bold</b> world &amp; more</h1>
  <p>A sentence split by <a href="https://example.com/x" title="Link title">a link</a> and
     <em>emphasis</em> is one unit.<br>After the break.</p>
  <img src="cat.png" alt="A sleeping cat">
  <pre>  keep   this
  exactly </pre>
  <p translate="no">BrandName</p>
  <table><tr><td>Cell one</td><td>2024</td></tr></table>
  <ul><li>One<li>Two</ul>
</body>
</html>
"""


class _Events(HTMLParser):
    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.tags, self.raw_text, self.blocks, self._data = [], [], [], []
        self._hidden = 0
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.tags.append(("start", tag, [(k, v) for k, v in attrs if k not in ("alt", "title", "lang")]))
        self._hidden += tag in ("script", "style", "pre")

    def handle_endtag(self, tag):
        self.tags.append(("end", tag))
        self._hidden -= tag in ("script", "style", "pre")

    def handle_data(self, data):
        if self._hidden:
            self.raw_text.append(data)

    def handle_comment(self, data):
        self.raw_text.append(data)


def run(tmp_path, translator, text, name="page.html", encoding="utf-8", **kwargs):
    src = tmp_path / name
    src.write_bytes(text.encode(encoding))
    result = translate_document(src, translator, **kwargs)
    return result, result.output.read_bytes().decode(encoding)


def test_tags_attributes_scripts_styles_and_comments_are_kept(tmp_path, translator):
    _, out = run(tmp_path, translator, PAGE)
    before, after = _Events(PAGE), _Events(out)
    assert after.tags == before.tags
    assert after.raw_text == before.raw_text
    assert "<pre>  keep   this\n  exactly </pre>" in out
    assert '<p translate="no">BrandName</p>' in out


def test_each_block_is_one_unit_with_inline_markup_carried(tmp_path, translator):
    result, out = run(tmp_path, translator, PAGE)
    assert sorted(translator.texts) == sorted(
        [
            "My page",
            "Hello bold world & more",
            "A sentence split by a link and emphasis is one unit.",
            "After the break.",
            "Link title",
            "A sleeping cat",
            "Cell one",
            "One",
            "Two",
        ]
    )
    h1 = re.search(r"<h1[^>]*>(.*?)</h1>", out, re.S).group(1)
    assert "<b>" in h1 and re.sub(r"<[^>]+>", "", h1) == mark("Hello bold world & more").replace("&", "&amp;")
    paragraph = re.search(r"<p>(.*?)<br>", out, re.S).group(1)
    assert '<a href="https://example.com/x" title="⟦LINK TITLE⟧">' in paragraph and "<em>" in paragraph
    assert " ".join(re.sub(r"<[^>]+>", "", paragraph).split()) == mark(
        "A sentence split by a link and emphasis is one unit."
    )
    assert 'alt="⟦A SLEEPING CAT⟧"' in out and "<title>⟦MY PAGE⟧</title>" in out
    assert '<html lang="zh">' in out
    assert [e.reason for e in result.report.kept] == ["code block", "numbers or symbols only"]


def test_inline_code_is_carried_through(tmp_path):
    identity = FakeTranslator(lambda t: "⟦" + t + "⟧")
    _, out = run(tmp_path, identity, "<p>Run <code>make all</code> now.</p>")
    assert out == "<p>⟦Run <code>make all</code> now.⟧</p>"


def test_bilingual_copies_each_block_after_a_break_without_duplicate_ids(tmp_path, translator):
    _, out = run(tmp_path, translator, PAGE, bilingual=True)
    assert '<h1 id="top" class="big">Hello <b>bold</b> world &amp; more<br>⟦HELLO' in out
    assert out.count('id="top"') == 1
    assert "<title>⟦MY PAGE⟧</title>" in out  # no room for both in a title
    assert "<li>One<br>⟦ONE⟧<li>Two<br>⟦TWO⟧</ul>" in out
    assert '<html lang="en">' in out  # a bilingual page is still in the source language first


def test_ids_inside_a_copied_block_are_dropped():
    markup = HtmlText('<p>See <a id = "n1" href="#x">the note</a>.</p>', xhtml=True)
    out = markup.rewrite(iter(["⟦SEE THE NOTE.⟧"]), bilingual=True, target_lang="zh")
    assert out.count('id = "n1"') == 1 and "<a href" in out and "<br/>" in out and out.count('href="#x"') == 2


def test_a_missing_lang_is_added(tmp_path, translator):
    _, out = run(tmp_path, translator, "<html><body><p>Hi there.</p></body></html>")
    assert out == '<html lang="zh"><body><p>⟦HI THERE.⟧</p></body></html>'


def test_a_legacy_encoding_is_kept_and_chinese_written_as_references(tmp_path):
    chinese = FakeTranslator(lambda t: "你好")
    page = '<html><head><meta charset="windows-1252"></head><body><p>Caf\u00e9 \u201cnice\u201d</p></body></html>'
    _, out = run(tmp_path, chinese, page, encoding="cp1252")
    assert "<p>&#20320;&#22909;</p>" in out
    assert chinese.texts == ["Caf\u00e9 \u201cnice\u201d"]


def test_xhtml_suffix_is_translated(tmp_path, translator):
    page = '<?xml version="1.0" encoding="utf-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><body><p>Text</p></body></html>'
    result, out = run(tmp_path, translator, page, name="doc.xhtml")
    assert result.output.name == "doc.zh.xhtml"
    assert 'lang="zh" xml:lang="zh"' in out and "<p>⟦TEXT⟧</p>" in out


def test_inline_tags_stay_put_when_the_text_comes_back_unchanged():
    source = "<p><b>world</b>, <a href='#'>link</a></p>"
    html = HtmlText(source, xhtml=False)
    assert [unit.text for unit in html.units()] == ["world, link"]
    assert html.rewrite(iter(["world, link"]), bilingual=False, target_lang="en") == source
