"""Summaries in the app: the window's Summarize button, Documents → Summarize a document…, the popup's button; the
tiny BART pack and the tiny en→zh pack installed, the real engine."""

from __future__ import annotations

import re

import docx
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from ui_fakes import LOAD_TIMEOUT

from fanyi import summaries
from fanyi.engine.options import DecodeOptions
from fanyi.engine.translator import Translator
from fanyi.paths import assets_dir
from fanyi.ui.popup import SUMMARY_FROM_CHARS
from fanyi.ui.worker import open_translator

SUMMARY_TIMEOUT = 120_000
ENGLISH = [line for line in (assets_dir() / "corpus" / "en.txt").read_text(encoding="utf-8").splitlines() if line]


@pytest.fixture
def bart(ui_dirs, pack_dir, tiny_bart_pack):
    pack = tiny_bart_pack("bart-large-cnn")
    (ui_dirs / "bundled" / "bart").symlink_to(pack, target_is_directory=True)
    return pack


@pytest.fixture
def app(qtbot, make_app, bart):
    app = make_app(opener=open_translator)
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    return app


def drained(job):
    while True:
        try:
            next(job)
        except StopIteration as done:
            return done.value


def english_summary(bart_pack, text: str) -> str:
    return "".join(Translator.open(bart_pack, threads=1).summary_stream(text))


def test_summarize_puts_the_chinese_summary_and_the_english_beside_it_into_the_target_pane(qtbot, app, bart, pack_dir):
    window = app.window
    window.show()
    text = " ".join(ENGLISH[:5])
    window.source.set_text(text)
    assert window.source.summarize_button.isVisible()
    qtbot.mouseClick(window.source.summarize_button, Qt.MouseButton.LeftButton)
    english = english_summary(bart, text)
    chinese = Translator.open(pack_dir, threads=1).translate(english, DecodeOptions(target="cmn_Hans"))
    qtbot.waitUntil(lambda: english in window.target.view.text(), timeout=SUMMARY_TIMEOUT)
    shown = window.target.view.text()
    assert shown.startswith(chinese) and shown.index(chinese) < shown.index(english)
    assert "translated by" in window.stats_label.text()
    window.source.set_text(text + " More.")  # typing again: a translation, not the summary
    qtbot.waitUntil(lambda: "English summary" not in window.target.view.text(), timeout=SUMMARY_TIMEOUT)


def test_a_documents_summary_in_its_dialog_saved_beside_it_as_markdown_and_word(qtbot, app, bart, tmp_path):
    window = app.window
    folder = tmp_path / "papers"
    folder.mkdir()
    source = folder / "report.md"
    source.write_text("# Findings\n\n" + "\n\n".join(ENGLISH[:12]) + "\n\n# Outlook\n\n" + "\n\n".join(ENGLISH[20:28]))
    window.show_summary_of(source)
    dialog = window.summary_dialog
    assert dialog is not None and dialog.isVisible()
    qtbot.waitUntil(lambda: dialog.summary is not None, timeout=SUMMARY_TIMEOUT)
    assert dialog.view.text().strip() and dialog.save_md_button.isEnabled()
    dialog.length.setCurrentIndex(1)
    dialog.length.activated.emit(1)
    qtbot.waitUntil(lambda: dialog.summary is not None and bool(dialog.summary.sections), timeout=SUMMARY_TIMEOUT)
    assert "Findings" in dialog.view.text() and "Outlook" in dialog.view.text()
    qtbot.mouseClick(dialog.save_md_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(dialog.save_docx_button, Qt.MouseButton.LeftButton)
    md, word = folder / "report.summary.zh.md", folder / "report.summary.zh.docx"
    assert md.read_text(encoding="utf-8").startswith(dialog.view.text().strip()[:20])
    assert "Findings" in " ".join(p.text for p in docx.Document(str(word)).paragraphs)
    assert sorted(p.name for p in folder.iterdir()) == ["report.md", "report.summary.zh.docx", "report.summary.zh.md"]
    dialog.close()


def test_a_document_with_no_text_says_so_in_the_dialog(qtbot, app, tmp_path):
    folder = tmp_path / "papers"
    folder.mkdir()
    empty = folder / "empty.txt"
    empty.write_text("\n\n")
    app.window.show_summary_of(empty)
    dialog = app.window.summary_dialog
    qtbot.waitUntil(lambda: "No summary" in dialog.activity.text(), timeout=SUMMARY_TIMEOUT)
    assert "has no text to summarize" in dialog.activity.text() and not dialog.save_md_button.isEnabled()
    dialog.close()
    assert sorted(p.name for p in folder.iterdir()) == ["empty.txt"]


def test_the_popup_offers_a_summary_of_a_long_selection(qtbot, app, bart):
    short = "A short copied sentence."
    QApplication.clipboard().setText(short)
    app.translate_clipboard()
    assert not app.popup.summarize_button.isVisible()
    text = " ".join(ENGLISH[:12])
    assert len(text) >= SUMMARY_FROM_CHARS
    QApplication.clipboard().setText(text)
    app.translate_clipboard()
    popup = app.popup
    assert popup.summarize_button.isVisible()
    qtbot.mouseClick(popup.summarize_button, Qt.MouseButton.LeftButton)
    # longer than the tiny model's 160 positions: summarized in parts, as fanyi.summaries does it
    plan = summaries.plan(app.packs.usable, text, "zh")
    job = summaries.summarize(summaries.paragraphs_of(text), plan, lambda path: Translator.open(path, threads=1))
    english = drained(job).english
    assert english
    qtbot.waitUntil(lambda: english in popup.text(), timeout=SUMMARY_TIMEOUT)
    assert "translated by" in popup.status.text()


def test_a_long_documents_progress_is_shown_and_closing_the_dialog_cancels_it(qtbot, app, tmp_path):
    folder = tmp_path / "papers"
    folder.mkdir()
    source = folder / "long.md"
    source.write_text("\n\n".join(ENGLISH), encoding="utf-8")  # ~4,000 tokens: ~30 parts for the tiny model
    cancelled, finished = [], []
    app.summaries.cancelled.connect(cancelled.append)
    app.summaries.finished.connect(lambda req_id, _summary: finished.append(req_id))
    app.window.show_summary_of(source)
    dialog = app.window.summary_dialog
    qtbot.waitUntil(lambda: re.search(r"Summarizing part \d+ of \d\d", dialog.activity.text()), timeout=SUMMARY_TIMEOUT)
    req_id = dialog.stream.req_id
    dialog.close()
    qtbot.waitUntil(lambda: cancelled == [req_id], timeout=SUMMARY_TIMEOUT)
    assert not finished and dialog.summary is None
    assert sorted(p.name for p in folder.iterdir()) == ["long.md"]
