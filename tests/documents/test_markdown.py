import re

from fanyi.documents import translate_document

SOURCE = """\
---
title: Guide
tags: [a, b]
---
# Getting *started* #

Install it with `pip install fanyi` and read
[the docs](https://example.com/docs "Docs") or <https://example.com>.

- First item
  continues
1. Numbered [^1]

> Quoted text
> more quoted

| Name | Value |
|:-----|------:|
| Speed | 42 |

```python
print("hello")
```

    indented code

<div align="center">
Raw HTML block
</div>

[ref]: https://example.com/ref
[^1]: A footnote.

Setext title
============

***
"""

UNITS = [
    "Getting started",
    "Install it with pip install fanyi and read the docs or https://example.com.",
    "First item continues",
    "Numbered",
    "Quoted text more quoted",
    "Name",
    "Value",
    "Speed",
    "A footnote.",
    "Setext title",
]
UNTOUCHED = [
    "---\ntitle: Guide\ntags: [a, b]\n---\n",
    '```python\nprint("hello")\n```\n',
    "    indented code\n",
    '<div align="center">\nRaw HTML block\n</div>\n',
    "[ref]: https://example.com/ref\n",
    "|:-----|------:|\n",
    "| 42 |\n",
    "============\n\n***\n",
    "# ⟦",
    "- ⟦",
    "1. ⟦",
    "> ⟦",
    "[^1]: ⟦",
    '](https://example.com/docs "Docs")',
    "`pip install fanyi`",
    "<https://example.com>",
]


def same_but_spacing(text: str) -> str:
    return re.sub(r"\s+", "", text.replace("⟦", "").replace("⟧", ""))


def run(tmp_path, translator, text, **kwargs):
    src = tmp_path / "guide.md"
    src.write_text(text, encoding="utf-8")
    result = translate_document(src, translator, **kwargs)
    return result, result.output.read_text(encoding="utf-8")


def test_each_block_is_one_unit_and_nothing_else_is_sent(tmp_path, translator):
    result, _ = run(tmp_path, translator, SOURCE)
    assert sorted(translator.texts) == sorted(UNITS)
    assert result.report.translated == len(UNITS)
    assert sorted(e.reason for e in result.report.kept) == ["code block", "code block", "numbers or symbols only"]


def test_markup_code_urls_and_front_matter_survive(tmp_path):
    from docfixtures import FakeTranslator

    identity = FakeTranslator(lambda t: "⟦" + t + "⟧")  # copies code through, as models do
    _, out = run(tmp_path, identity, SOURCE)
    for piece in UNTOUCHED:
        assert piece in out
    joined = SOURCE.replace("\n> more", " more")  # a quoted paragraph comes back on one line
    assert same_but_spacing(out) == same_but_spacing(joined)  # nothing lost, nothing doubled
    for line in out.splitlines():  # a unit is translated whole, on one line
        assert line.count("⟦") == line.count("⟧")


def test_inline_code_found_in_the_translation_is_not_doubled(tmp_path):
    from docfixtures import FakeTranslator

    keep_code = FakeTranslator(lambda t: "用 pip install fanyi 安装" if "pip" in t else "⟦" + t + "⟧")
    _, out = run(tmp_path, keep_code, "Install it with `pip install fanyi` now.\n")
    assert out == "用 `pip install fanyi` 安装\n"


def test_bilingual_adds_a_translated_paragraph_after_each_one(tmp_path, translator):
    text = "# Title\n\nSome text\nwrapped.\n\n- item\n\n> quote\n\n| Name |\n|---|\n| cell |\n"
    _, out = run(tmp_path, translator, text, bilingual=True)
    assert out == (
        "# Title\n\n# ⟦TITLE⟧\n\n"
        "Some text\nwrapped.\n\n⟦SOME TEXT WRAPPED.⟧\n\n"
        "- item\n\n  ⟦ITEM⟧\n\n"
        "> quote\n>\n> ⟦QUOTE⟧\n\n"
        "| Name<br>⟦NAME⟧ |\n|---|\n| cell<br>⟦CELL⟧ |\n"
    )


def test_emphasis_links_and_inline_html_are_styled_for_a_formatted_translation():
    from fanyi.documents.inline import marked_text
    from fanyi.documents.markdown import inline_pieces

    pieces = inline_pieces("Plain **bold** and [a link](http://x) and <b>html</b> end.")
    assert marked_text(pieces) == "Plain <sn>bold</sn> and <sn>a link</sn> and <sn>html</sn> end."
