"""A document's report speaks the UI language: its lines are data (fanyi.documents.said: a kind and parameters),
which the report dialog says from its own templates. In the Chinese UI the report read "注意：page 1: 6 drawn
smaller…" and "the model returned nothing…"."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from fanyi.documents import JobReport, Unit
from fanyi.documents.said import ENGLISH, said
from fanyi.ui import i18n, report_dialog
from fanyi.ui.report_dialog import ReportDialog


def names(template: str) -> set[str]:
    return {name for _text, name, _spec, _conv in string.Formatter().parse(template) if name}


def test_every_kind_of_line_has_a_template_in_the_app_with_the_same_parameters():
    """A kind added to documents.said fails here until the app can say it (and lupdate finds it to translate)."""
    assert set(report_dialog.LINES) == set(ENGLISH)
    for kind, english in ENGLISH.items():
        assert report_dialog.LINES[kind] == english, kind  # the English UI says what the command line says
        assert names(report_dialog.LINES[kind]) == names(english), kind


def report(tmp_path: Path) -> JobReport:
    """A PDF's report with every kind of line a job makes."""
    r = JobReport(tmp_path / "paper.pdf", output=tmp_path / "paper.zh.pdf", translated=40)
    r.keep(Unit("E = mc²", "page 1"), "formula")
    r.fail(Unit("Hello there.", "page 2"), said("model.again", reason=said("model.empty")))
    r.fail(
        Unit("One. Two.", "paragraph 7"),
        said("model.sentences", sentences=(said("model.sentence", sentence="Two.", reason=said("model.loop")),)),
    )
    r.fail(Unit("A caption", "page 3"), said("model.empty_translation"))
    r.notes = [
        said("pdf.page", page=1, facts=(said("pdf.shrunk", count=6), said("pdf.cut", count=2))),
        said(
            "pdf.page",
            page=4,
            facts=(
                said(
                    "pdf.kept",
                    reason="its text is drawn only in Type 3 fonts, pictures of glyphs that are not replaced",
                ),
            ),
        ),
        said("pdf.ocr", pages=said("pdf.pages_have", pages="5–6")),
        said("pdf.no_glyph", characters="⟦⟧"),
    ]
    r.lost_terms = ["hidden files"]
    return r


def shown(dialog: ReportDialog) -> str:
    rows = [dialog.failures.topLevelItem(i) for i in range(dialog.failures.topLevelItemCount())]
    cells = [row.text(column) for row in rows for column in (0, 2)]
    return "\n".join([dialog.kept.text(), dialog.notes.text(), *cells])


@pytest.fixture
def chinese():
    i18n.install("zh_CN")
    yield
    i18n.install("en")


def test_a_pdfs_report_in_the_chinese_ui_is_chinese(qtbot, tmp_path, chinese):
    dialog = ReportDialog(report(tmp_path))
    qtbot.addWidget(dialog)
    text = shown(dialog)
    for expected in ("第 1 页：", "6 段缩小", "第 2 页", "第 7 段", "模型没有返回任何内容", "公式", "第 5–6 页", "⟦⟧"):
        assert expected in text, (expected, text)
    # no English of the templates is left (the quoted source texts and the PDF's own message aside)
    english = re.sub(r"“[^”]*”|Type 3|OCR|[A-Z]\w*(?: \w+)*\.", "", text)
    assert not re.search(r"\b(page|paragraph|drawn|model|note|sentence|glyph|the)\b", english, re.IGNORECASE), text


def test_the_english_ui_says_what_the_command_line_says(qtbot, tmp_path):
    r = report(tmp_path)
    dialog = ReportDialog(r)
    qtbot.addWidget(dialog)
    notes = dialog.notes.text().splitlines()
    assert [line.removeprefix("Note: ") for line in notes[1:]] == [str(note) for note in r.notes]
    reasons = {dialog.failures.topLevelItem(i).text(2) for i in range(dialog.failures.topLevelItemCount())}
    assert reasons == {str(reason) for reason in r.failed_reasons}


def test_switching_the_language_says_the_report_again(qtbot, tmp_path):
    dialog = ReportDialog(report(tmp_path))
    qtbot.addWidget(dialog)
    assert "page 1: 6 drawn smaller" in dialog.notes.text()
    try:
        i18n.install("zh_CN")
        qtbot.waitUntil(lambda: "第 1 页" in dialog.notes.text())
    finally:
        i18n.install("en")
    qtbot.waitUntil(lambda: "page 1: 6 drawn smaller" in dialog.notes.text())


def test_every_reason_a_pdf_or_a_text_is_kept_for_has_words_in_the_app():
    """The fixed reasons (plain strings) the report dialog translates by its table: those policy.py returns and the
    block of reasons in pdf/layout.py ("Why a paragraph is left as it is")."""
    import ast
    import inspect

    from fanyi.documents import policy
    from fanyi.documents.pdf import layout

    block = inspect.getsource(layout).split("# Why a paragraph is left as it is", 1)[1]
    source = block.split("\n", 1)[1].split("\n\n", 1)[0]  # from the line after the comment to a blank line
    reasons = [node.value.value for node in ast.parse(source).body if isinstance(node, ast.Assign)]
    reasons += [
        node.value.value
        for node in ast.walk(ast.parse(inspect.getsource(policy)))
        if isinstance(node, ast.Return) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
    ]
    assert len(reasons) > 10
    assert [r for r in reasons if r not in report_dialog._KNOWN] == []


def left_mostly(tmp_path: Path) -> JobReport:
    """A PDF's report whose abstract and introduction were taken for a figure's text and left."""
    r = JobReport(tmp_path / "paper.pdf", output=tmp_path / "paper.zh.pdf", translated=1, translated_letters=30)
    abstract = "ABSTRACT A clear and well-documented document is presented as an article."
    r.keep(Unit(abstract, "page 1", words_left=True), "text in a figure")
    r.keep(Unit("42", "page 1"), "numbers or symbols only")
    return r


def test_a_report_says_first_and_plainly_that_most_words_were_left_and_where(qtbot, tmp_path, chinese):
    r = left_mostly(tmp_path)
    lines = r.summary().splitlines()
    assert lines[0] == "most of its words were left as they were: 61 of 91 letters (text in a figure)."
    assert "    - page 1 “ABSTRACT A clear and well-documented document is presented …”: text in a figure" in (lines)
    dialog = ReportDialog(r)
    qtbot.addWidget(dialog)
    assert dialog.heading.text().startswith("注意：大部分文字保留了原文：91 个字母中有 61 个（图中文字）")
    rows = [dialog.failures.topLevelItem(i) for i in range(dialog.failures.topLevelItemCount())]
    assert [(row.text(0), row.text(2)) for row in rows] == [("第 1 页", "图中文字")]
