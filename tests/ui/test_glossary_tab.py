"""The Glossary tab of the settings, the glossary file in the config folder, and what requests carry."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QTableWidgetItem

from fanyi.glossary import Glossary, GlossaryError, Term, read_csv, write_csv
from fanyi.ui.controllers.glossary import GlossaryController, glossary_path
from fanyi.ui.glossary_messages import message
from fanyi.ui.glossary_tab import GlossaryTab
from fanyi.ui.settings import Settings
from fanyi.ui.settings_dialog import SettingsDialog

TERMS = Glossary((Term("en", "zh", "pack", "模型包"), Term("en", "zh", "glossary", "术语表")))


def test_the_tab_edits_adds_and_removes_rows(qtbot):
    tab = GlossaryTab(TERMS)
    qtbot.addWidget(tab)
    assert tab.result() == TERMS
    tab.add_row()  # a row for the pair last used, empty until filled in
    assert tab.result() == TERMS
    row = tab.table.rowCount() - 1
    assert [tab.table.item(row, c).text() for c in (0, 1)] == ["en", "zh"]
    tab.table.setItem(row, 2, QTableWidgetItem("router"))
    tab.table.setItem(row, 3, QTableWidgetItem("路由器"))
    assert tab.result().for_pair("en", "zh")[-1] == ("router", "路由器")
    tab.table.selectRow(0)
    tab.remove_selected()
    assert [t.term for t in tab.result().terms] == ["glossary", "router"]


def test_a_bad_row_is_named_and_the_dialog_stays_open(qtbot, ui_dirs):
    dialog = SettingsDialog(Settings(), True, glossary=TERMS)
    qtbot.addWidget(dialog)
    tab = dialog.glossary_tab
    tab.table.setItem(1, 3, QTableWidgetItem(""))  # a term without its translation
    with pytest.raises(GlossaryError, match="Row 2"):
        tab.result()
    dialog.accept()
    assert not dialog.result() and dialog.tabs.currentWidget() is tab
    assert "Row 2" in tab.note.text()


def test_import_merges_and_export_writes_csv(qtbot, tmp_path):
    tab = GlossaryTab(TERMS)
    qtbot.addWidget(tab)
    source = tmp_path / "in.csv"
    write_csv(Glossary((Term("en", "zh", "Pack", "包"), Term("zh", "en", "你好", "hello"))), source)
    tab.import_file(source)
    assert tab.result().for_pair("en", "zh") == (("Pack", "包"), ("glossary", "术语表"))
    bad = tmp_path / "bad.csv"
    bad.write_text("only,three,columns\n", encoding="utf-8")
    tab.import_file(bad)
    assert tab.note.text().endswith(
        "bad.csv, row 1: a glossary row has four columns (source, target, term, "
        "translation) or two (term, translation), not 3"
    )
    assert len(tab.result().terms) == 3  # nothing lost
    out = tmp_path / "out.csv"
    tab.export_file(out)
    assert read_csv(out) == tab.result()


def test_the_glossary_is_kept_in_the_config_folder_and_a_damaged_one_put_aside(qtbot, ui_dirs):
    controller = GlossaryController()
    heard = []
    controller.changed.connect(lambda: heard.append(True))
    controller.set(TERMS)
    assert heard and read_csv(glossary_path()) == TERMS
    assert GlossaryController().glossary == TERMS
    glossary_path().write_bytes(b"\xff\xfe broken")
    damaged = GlossaryController()
    notices = []
    damaged.notice.connect(notices.append)
    damaged.announce()
    assert damaged.glossary == Glossary() and notices and "put aside" in notices[0]
    assert [p.name.startswith("glossary.csv.corrupt-") for p in glossary_path().parent.iterdir()].count(True) == 1


def test_requests_carry_the_terms_of_their_language_pair(qtbot, make_app, fake_backend):
    app = make_app(fake_backend)
    assert app.direction.options().glossary == ()
    changed = []
    app.direction.changed.connect(lambda: changed.append(True))
    app.glossary.set(Glossary(TERMS.terms + (Term("zh", "en", "包", "pack"),)))
    assert changed  # the window translates again
    assert app.direction.options().glossary == (("pack", "模型包"), ("glossary", "术语表"))


def test_a_two_column_file_imports_as_the_command_line_reads_it(qtbot, tmp_path):
    """term,translation rows (what `fanyi translate --glossary` and docs/llms.md take) apply to any pair: *."""
    tab = GlossaryTab(TERMS)
    qtbot.addWidget(tab)
    source = tmp_path / "two.csv"
    source.write_text("term,translation\nGPU,显卡\n", encoding="utf-8")
    tab.import_file(source)
    assert [tab.table.item(2, c).text() for c in range(4)] == ["*", "*", "GPU", "显卡"]
    assert tab.result().for_pair("en", "zh")[-1] == ("GPU", "显卡") and tab.result().for_pair("fr", "de")


def test_what_is_wrong_is_said_in_the_ui_language(qtbot, tmp_path):
    from fanyi import glossary
    from fanyi.ui import i18n
    from fanyi.ui.glossary_messages import _AT, _KNOWN

    assert set(_KNOWN) == set(glossary.MESSAGES) and all(_KNOWN[t] == t for t in _KNOWN)
    assert all(_AT[t] == t for t in _AT)
    tab = GlossaryTab(TERMS)
    qtbot.addWidget(tab)
    i18n.install("zh_CN")
    bad = tmp_path / "bad.csv"
    bad.write_text("a\n", encoding="utf-8")
    tab.import_file(bad)
    assert (
        tab.note.text()
        == f"{bad}，第 1 行：术语表的一行应有四列（源语言、目标语言、术语、译法）或两列（术语、译法），而不是 1 列"
    )
    tab.table.setItem(1, 3, QTableWidgetItem(""))
    with pytest.raises(GlossaryError) as err:
        tab.result()
    tab.say(message(err.value))
    assert tab.note.text() == "第 2 行：译法为空"
