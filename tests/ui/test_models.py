"""No model installed, importing packs (good and bad), downloading with cancel, the model manager."""

from __future__ import annotations

import json
import shutil
import time
import zipfile

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox
from ui_fakes import LOAD_TIMEOUT, FakeTranslator

from fanyi import library
from fanyi.engine.options import Cancelled
from fanyi.ui.main_window import PAGE_NO_MODEL, PAGE_TRANSLATE
from fanyi.ui.pack_ops import PackOpProgress


@pytest.fixture
def empty_app(qtbot, make_app, ui_dirs, monkeypatch):
    monkeypatch.setattr(library, "can_build_default", lambda: (False, "Building a model needs the export tools."))
    app = make_app(opener=FakeTranslator.opener())
    app.window.show()
    return app


def wait_op(qtbot, app) -> None:
    qtbot.waitUntil(lambda: not app.ops.busy, timeout=LOAD_TIMEOUT)


def test_without_a_model_the_window_opens_and_says_so(qtbot, empty_app):
    win = empty_app.window
    page = win.no_model
    assert win.isVisible() and win.pages.currentIndex() == PAGE_NO_MODEL
    assert page.heading.text() == "No translation model is installed"
    assert page.import_folder_button.isEnabled() and page.import_zip_button.isEnabled()
    assert not page.fetch_button.isEnabled()
    assert page.fetch_note.text() == "Building a model needs the export tools."
    assert win.stats_label.text() == "No model installed"
    empty_app.translate_clipboard()
    assert empty_app.popup.isVisible() and empty_app.popup.status.text() == library.no_model_message()


def test_importing_a_pack_folder_switches_to_translating(qtbot, empty_app, tiny_pack):
    empty_app.ops.import_pack(tiny_pack)
    wait_op(qtbot, empty_app)
    win = empty_app.window
    assert win.pages.currentIndex() == PAGE_TRANSLATE
    qtbot.waitUntil(lambda: empty_app.service.model is not None, timeout=LOAD_TIMEOUT)
    installed = library.find_pack("tiny-en-zh")
    assert not installed.bundled and empty_app.settings.default_pack == "tiny-en-zh"
    win.source.set_text("It works.")
    qtbot.waitUntil(lambda: win.target.view.text() == "ITWORKS。", timeout=LOAD_TIMEOUT)


def test_a_damaged_pack_is_refused_with_a_message(qtbot, empty_app, tiny_pack, tmp_path):
    broken = tmp_path / "broken-pack"
    shutil.copytree(tiny_pack, broken)
    with open(broken / "decoder.onnx", "ab") as handle:
        handle.write(b"tampered")
    empty_app.ops.import_pack(broken)
    wait_op(qtbot, empty_app)
    page = empty_app.window.no_model
    assert page.error.isVisible() and "cannot be imported" in page.error.text()
    assert empty_app.window.pages.currentIndex() == PAGE_NO_MODEL and library.list_packs() == []


def test_a_zip_escaping_its_folder_is_refused(qtbot, empty_app, tmp_path):
    archive = tmp_path / "evil.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("pack/manifest.json", json.dumps({"format_version": 1}))
        zf.writestr("../outside.txt", "gotcha")
    empty_app.ops.import_pack(archive)
    wait_op(qtbot, empty_app)
    assert "outside the pack folder" in empty_app.window.no_model.error.text()
    assert not (tmp_path / "outside.txt").exists()


def test_downloading_the_default_shows_progress_and_can_be_cancelled(qtbot, empty_app, monkeypatch):
    def fake_fetch(progress=None, cancel=None):
        progress("Downloading opus-mt-en-zh…")
        while not cancel.cancelled:
            time.sleep(0.01)
        raise Cancelled()

    monkeypatch.setattr(library, "can_build_default", lambda: (True, ""))
    monkeypatch.setattr(library, "fetch_default", fake_fetch)
    page = empty_app.window.no_model
    page.retranslate()
    assert page.fetch_button.isEnabled() and not page.fetch_note.isVisible()
    qtbot.mouseClick(page.fetch_button, Qt.MouseButton.LeftButton)
    progress = page.findChild(PackOpProgress)
    qtbot.waitUntil(lambda: progress.label.text() == "Downloading opus-mt-en-zh…")
    assert progress.isVisible() and progress.cancel_button.isVisible() and not page.fetch_button.isEnabled()
    qtbot.mouseClick(progress.cancel_button, Qt.MouseButton.LeftButton)
    wait_op(qtbot, empty_app)
    qtbot.waitUntil(lambda: not progress.isVisible())
    assert not page.error.isVisible() and page.fetch_button.isEnabled()


def test_an_offline_download_fails_with_its_message(qtbot, empty_app, monkeypatch):
    def offline(progress=None, cancel=None):
        raise library.LibraryError("Cannot reach the model hub: the network is unreachable.")

    monkeypatch.setattr(library, "can_build_default", lambda: (True, ""))
    monkeypatch.setattr(library, "fetch_default", offline)
    empty_app.ops.fetch_default()
    wait_op(qtbot, empty_app)
    assert empty_app.window.no_model.error.text() == "Cannot reach the model hub: the network is unreachable."


def test_the_model_manager_lists_removes_and_sets_the_default(qtbot, make_app, fake_backend, tiny_pack_int8,
                                                             monkeypatch):
    library.import_pack(tiny_pack_int8)
    app = make_app(fake_backend)
    app.show_models()
    manager = app._dialogs["models"]
    rows = {manager.table.item(r, 0).text(): [manager.table.item(r, c).text() for c in range(6)]
            for r in range(manager.table.rowCount())}
    assert rows["tiny-en-zh"][1:5:2] == ["English → Chinese", "none"] and rows["tiny-en-zh"][4] == "bundled"
    assert rows["tiny-en-zh-int8"][3:5] == ["int8", "user-installed"]
    manager.select("tiny-en-zh")
    assert not manager.remove_button.isEnabled()  # bundled packs stay
    manager.select("tiny-en-zh-int8")
    qtbot.mouseClick(manager.default_button, Qt.MouseButton.LeftButton)
    assert app.settings.default_pack == "tiny-en-zh-int8"
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    manager.select("tiny-en-zh-int8")
    qtbot.mouseClick(manager.remove_button, Qt.MouseButton.LeftButton)
    assert [p.name for p in library.list_packs()] == ["tiny-en-zh"]
    assert app.window.pack_box.count() == 1


def test_a_broken_pack_is_listed_greyed_never_chosen_and_removable(qtbot, make_app, fake_backend, tiny_pack,
                                                                   monkeypatch):
    """A user pack whose manifest lacks a field made the app abort at start."""
    from pack_damage import broken_copy
    from PySide6.QtGui import QPalette

    from fanyi import paths
    from fanyi.ui.settings import Settings

    broken = broken_copy(tiny_pack, paths.user_packs_dir() / "aaa-broken", lambda m: m.pop("source_lang"))
    app = make_app(fake_backend, settings=Settings(default_pack="aaa-broken"))
    assert [p.name for p in app.packs] == ["tiny-en-zh"] and app.pack.name == "tiny-en-zh"
    win = app.window
    win.show()
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    assert win.pack_box.count() == 1

    app.show_models()
    manager = app._dialogs["models"]
    names = [manager.table.item(r, 0).text() for r in range(manager.table.rowCount())]
    row = names.index("aaa-broken")
    cell = manager.table.item(row, 1)
    assert cell.text() == "Broken: manifest.json: source_lang is missing"
    assert manager.table.columnSpan(row, 1) == 3 and f"{broken}" in cell.toolTip()
    assert cell.foreground().color() == manager.palette().color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
    manager.select("aaa-broken")
    assert not manager.default_button.isEnabled() and manager.remove_button.isEnabled()
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    qtbot.mouseClick(manager.remove_button, Qt.MouseButton.LeftButton)
    assert not broken.exists() and not manager.error.isVisible()
    assert [p.name for p in library.list_packs()] == ["tiny-en-zh"]


def test_a_pack_onnx_runtime_cannot_load_is_reported_and_the_app_goes_on(qtbot, make_app, pack_dir, tiny_pack):
    """A truncated graph with a recomputed checksum passes every check before ONNX Runtime reads it."""
    from pack_damage import broken_copy, truncate

    from fanyi import paths
    from fanyi.ui.settings import Settings
    from fanyi.ui.worker import open_translator

    cut = truncate(broken_copy(tiny_pack, paths.user_packs_dir() / "cut", lambda m: m.update(name="cut")),
                   "encoder.onnx")
    app = make_app(opener=open_translator, settings=Settings(default_pack="cut"))
    win = app.window
    win.show()
    assert app.pack.path == cut  # it passed the manifest and size checks, so it is offered
    qtbot.waitUntil(lambda: win.target.error.isVisible(), timeout=LOAD_TIMEOUT)
    assert f"{cut / 'encoder.onnx'} cannot be loaded: " in win.target.error.text()
    assert win.stats_label.text() == "The model could not be opened"
    good = next(p for p in app.packs if p.name == "tiny-en-zh")
    app.choose_pack(good)
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    assert app.service.model.name == "tiny-en-zh" and win.isVisible()
