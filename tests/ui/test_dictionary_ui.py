"""The dictionary in the app: the popup and the window show a word's entry above its translation, a click
copies a sense, the history keeps it, both UI languages; the model manager downloads and removes it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from dictionary_data import csv_text, write_csv
from fakegithub import COMMIT, REPO, git_blob
from packserver import Route
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox
from ui_fakes import LOAD_TIMEOUT, TRANSLATE_TIMEOUT, FakeTranslator

from fanyi import paths
from fanyi.dictionary.build import convert
from fanyi.library import dictionaries

ASSETS_CATALOG = Path(__file__).resolve().parents[2] / "assets" / "catalog.json"


@pytest.fixture
def ecdict(ui_dirs):
    """ECDICT's test file installed as the dictionary the app finds."""
    folder = paths.dictionaries_dir()
    folder.mkdir(parents=True)
    return convert(write_csv(ui_dirs / "ecdict.csv"), folder / "ecdict.sqlite", meta={"id": "ecdict"}).path


def copy_rows(card) -> dict[str, object]:
    return {row.copied: row for row in card.rows}


def test_the_popup_shows_a_words_entry_above_its_translation_and_a_click_copies_a_sense(
    qtbot, make_app, fake_backend, ecdict
):
    app = make_app(fake_backend)
    QApplication.clipboard().setText("went")
    app.translate_clipboard()
    popup = app.popup
    card = popup.card
    assert card.isVisible() and popup.found.entry.word == "go"
    said = card.plain_text()
    assert "go" in said and "/gәu/" in said and "went: past tense of go" in said
    assert "Forms: past tense went · past participle gone" in said and "Zhongkao Gaokao Kaoyan CET-4 CET-6" in said
    assert "★★★★★" in said and "Oxford 3000" in said and "Frequency rank #45 (contemporary), #33 (BNC)" in said
    assert card.geometry().bottom() <= popup.view.geometry().top()  # above the translation
    translated = fake_backend.translate("went", app.direction.options())
    qtbot.waitUntil(lambda: popup.text() == translated, timeout=TRANSLATE_TIMEOUT)  # the model translates it too
    assert not card.definition.isVisible()  # the English definition is folded
    card.fold_button.click()
    assert card.definition.isVisible() and "move or proceed" in card.definition.text()
    sense = copy_rows(card)["去；走；离开；变成"]
    QApplication.clipboard().setText("something else")
    qtbot.mouseClick(sense, Qt.MouseButton.LeftButton)
    assert QApplication.clipboard().text() == "去；走；离开；变成"
    assert popup.status.text() == "Copied: 去；走；离开；变成"
    # and the history keeps the entry with the translation
    entry = app.history.store.search()[0]
    assert (entry.source, entry.target) == ("went", translated) and entry.found.entry.word == "go"


def test_a_chinese_word_lists_english_words_and_a_sentence_shows_no_entry(qtbot, make_app, fake_backend, ecdict):
    app = make_app(fake_backend)
    popup = app.popup
    popup.show_text("苹果")
    assert popup.card.isVisible() and list(copy_rows(popup.card)) == ["apple", "pomme"]
    qtbot.mouseClick(copy_rows(popup.card)["apple"], Qt.MouseButton.LeftButton)
    assert QApplication.clipboard().text() == "apple"
    popup.show_text("The weather is fine today, and we went for a walk.")
    assert not popup.card.isVisible() and popup.found is None
    popup.show_text("zzyzx")  # a word the dictionary has not: the translation alone
    assert not popup.card.isVisible()


def test_the_entry_speaks_the_ui_language(qtbot, make_app, fake_backend, ecdict):
    app = make_app(fake_backend)
    app.popup.show_text("perceived")
    assert "perceived: past tense, past participle of perceive" in app.popup.card.plain_text()
    app.settings.update(ui_language="zh_CN")
    qtbot.waitUntil(lambda: "过去式" in app.popup.card.plain_text())
    said = app.popup.card.plain_text()
    assert "perceived：perceive 的过去式、过去分词" in said and "高考 考研 四级 六级 托福 雅思" in said
    assert app.popup.card.fold_button.text() == "▸ 英文释义"
    app.settings.update(ui_language="en")
    qtbot.waitUntil(lambda: "past tense" in app.popup.card.plain_text())


def test_without_a_model_the_popup_still_shows_the_words_entry(qtbot, make_app, ui_dirs, ecdict):
    app = make_app(opener=FakeTranslator.opener())
    QApplication.clipboard().setText("mice")
    app.translate_clipboard()
    popup = app.popup
    assert popup.card.isVisible() and popup.found.entry.word == "mouse"
    assert "mice: plural of mouse" in popup.card.plain_text()
    assert "No translation model is installed" in popup.status.text() and popup.download_button.isVisible()


def test_the_window_shows_the_entry_and_its_history_keeps_it(qtbot, make_app, fake_backend, ecdict):
    app = make_app(fake_backend)
    win = app.window
    win.show()
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    win.source.set_text("took off")
    win.translate_now()
    assert win.card.isVisible() and win.found.entry.word == "take off"
    assert "took off → take off" in win.card.plain_text()
    assert win.card.geometry().bottom() <= win.target.view.geometry().top()
    translated = fake_backend.translate("took off", app.direction.options())
    qtbot.waitUntil(lambda: win.target.view.text() == translated, timeout=TRANSLATE_TIMEOUT)
    kept = app.history.store.search()[0]
    assert kept.source == "took off" and kept.found.entry.word == "take off"
    qtbot.mouseClick(copy_rows(win.card)["脱下；起飞；离开；取消"], Qt.MouseButton.LeftButton)
    assert QApplication.clipboard().text() == "脱下；起飞；离开；取消"
    win.source.set_text("")
    win.translate_now()
    assert not win.card.isVisible()


def test_a_dictionary_installed_or_removed_meanwhile_is_found(qtbot, make_app, fake_backend, ui_dirs):
    app = make_app(fake_backend)
    app.popup.show_text("apple")
    assert not app.popup.card.isVisible()
    folder = paths.dictionaries_dir()
    folder.mkdir(parents=True)
    convert(write_csv(ui_dirs / "ecdict.csv"), folder / "ecdict.sqlite", meta={"id": "ecdict"})
    qtbot.waitUntil(lambda: app.dictionary.dictionary is not None, timeout=LOAD_TIMEOUT)  # as `fanyi models` would
    app.popup.show_text("apple")
    assert app.popup.card.isVisible()
    (folder / "ecdict.sqlite").unlink()
    qtbot.waitUntil(lambda: app.dictionary.dictionary is None, timeout=LOAD_TIMEOUT)


def test_a_damaged_dictionary_is_said_once_and_translating_goes_on(qtbot, make_app, fake_backend, ecdict):
    app = make_app(fake_backend)
    notices = []
    app.notice.connect(notices.append)
    ecdict.write_bytes(ecdict.read_bytes()[:4096] + b"\xff" * 20_000)
    app.popup.show_text("apple")
    app.popup.show_text("mouse")
    assert not app.popup.card.isVisible()
    assert len(notices) == 1 and notices[0].startswith("The dictionary cannot be read: ecdict.sqlite")
    translated = fake_backend.translate("mouse", app.direction.options())
    qtbot.waitUntil(lambda: app.popup.text() == translated, timeout=TRANSLATE_TIMEOUT)


def test_the_model_manager_downloads_and_removes_the_dictionary(
    qtbot, make_app, ui_dirs, server, fake_github, monkeypatch
):
    data = csv_text().encode("utf-8")
    fake_github.file("ecdict.csv", data)
    doc = {
        "schema": 2,
        "serial": 1,
        "packs": [],
        "dictionaries": [
            {
                "id": "ecdict",
                "version": 1,
                "display_name": {"en": "ECDICT English–Chinese dictionary", "zh_CN": "ECDICT 英汉词典"},
                "source": {
                    "github": {"repo": REPO, "revision": COMMIT, "file": "ecdict.csv", "git_blob": git_blob(data)}
                },
                "download_size": len(data),
                "dictionary_size": 100_000,
                "entries": 16,
                "license": {"name": "MIT", "url": "https://example.org/LICENSE", "commercial_use": True},
            }
        ],
    }
    server.routes["/catalog.json"] = Route(json.dumps(doc).encode())
    monkeypatch.setenv("FANYI_CATALOG_URL", server.url("/catalog.json"))
    app = make_app(opener=FakeTranslator.opener())
    app.window.show()
    app.dialogs.show_models()
    manager = app.dialogs.open["models"]
    qtbot.mouseClick(manager.refresh_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not app.ops.busy, timeout=LOAD_TIMEOUT)
    cells = [manager.available.item(0, c).text() for c in range(manager.available.columnCount())]
    assert cells[0] == "ECDICT English–Chinese dictionary" and cells[1:3] == ["English ↔ Chinese", "Dictionary"]
    assert cells[6:9] == ["MIT", "16 entries", ""]
    manager.available.selectRow(0)
    assert manager.download_button.isEnabled()
    reports = []
    app.ops.transfer.connect(reports.append)
    qtbot.mouseClick(manager.download_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not app.ops.busy, timeout=LOAD_TIMEOUT)
    assert manager.error.isHidden(), manager.error.text()
    assert manager.available.item(0, 8).text() == "Installed"
    assert {r.phase for r in reports} >= {"downloading", "indexing"}
    qtbot.waitUntil(lambda: app.dictionary.dictionary is not None, timeout=LOAD_TIMEOUT)
    row = manager.table.rowCount() - 1
    assert manager.table.item(row, 0).text() == "ecdict"
    assert manager.table.item(row, 2).text() == "Dictionary (15 entries)"
    manager.table.selectRow(row)
    assert manager.remove_button.isEnabled() and not manager.default_button.isEnabled()
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    qtbot.mouseClick(manager.remove_button, Qt.MouseButton.LeftButton)
    assert dictionaries.list_dictionaries() == [] and manager.table.rowCount() == 0
    qtbot.waitUntil(lambda: app.dictionary.dictionary is None, timeout=LOAD_TIMEOUT)


def test_github_out_of_reach_says_what_to_do(qtbot, make_app, ui_dirs, monkeypatch):
    from packserver import closed_port_url

    from fanyi.library import catalog
    from fanyi.library.sources import github

    dead = closed_port_url("")
    monkeypatch.setattr(github, "HOSTS", github.GitHubHosts(web=dead, api=dead, raw=dead))
    app = make_app(opener=FakeTranslator.opener())
    entry = catalog.read(ASSETS_CATALOG).find_dictionary("ecdict")
    failures = []
    app.ops.failed.connect(failures.append)
    app.ops.install_dictionary(entry)
    qtbot.waitUntil(lambda: not app.ops.busy, timeout=LOAD_TIMEOUT)
    assert failures and failures[0].startswith("GitHub cannot be reached.") and "GitHub mirror" in failures[0]
    assert dictionaries.list_dictionaries() == []


def test_switching_the_ui_language_keeps_the_managers_selection_and_says_its_error_again(
    qtbot, make_app, ui_dirs, monkeypatch
):
    """The model manager's last error stayed in the old language, and the selected row moved (from ECDICT to
    the pack above it, TranslateGemma) when the language was switched."""
    from packserver import closed_port_url

    from fanyi.library import catalog
    from fanyi.library.sources import github
    from fanyi.ui import i18n

    dead = closed_port_url("")
    monkeypatch.setattr(github, "HOSTS", github.GitHubHosts(web=dead, api=dead, raw=dead))
    dictionaries.import_file(write_csv(ui_dirs / "ecdict.csv"))  # installed: a row after the packs' too
    app = make_app(opener=FakeTranslator.opener())
    app.ops.catalog = catalog.read(ASSETS_CATALOG)
    app.dialogs.show_models()
    manager = app.dialogs.open["models"]
    manager.refresh()
    full = next(i for i, (d, _s) in enumerate(manager.dictionary_rows) if d.id == "ecdict-full")
    manager.available.selectRow(len(manager.rows) + full)
    manager.table.selectRow(len(manager.packs))  # the installed dictionary
    app.ops.install_dictionary(manager.dictionary_rows[full][0])
    qtbot.waitUntil(lambda: not app.ops.busy, timeout=LOAD_TIMEOUT)
    assert manager.error.text().startswith("GitHub cannot be reached.")
    try:
        i18n.install("zh_CN")
        qtbot.waitUntil(lambda: manager.windowTitle() == "模型")
        assert manager.error.text().startswith("无法连接 GitHub"), manager.error.text()
        assert manager.selected_available() is None
        assert manager.selected_available_dictionary()[0].id == "ecdict-full"
        assert manager.selected_dictionary() is not None and manager.selected_dictionary().name == "ecdict"
    finally:
        i18n.install("en")
