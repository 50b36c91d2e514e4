"""No model installed, importing packs (good and bad), downloading with cancel, the model manager."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from packserver import PACK_ID, Route, closed_port_url
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox
from ui_fakes import LOAD_TIMEOUT, FakeTranslator

from fanyi import paths
from fanyi.library import installed
from fanyi.library.download import TransferProgress
from fanyi.ui import i18n
from fanyi.ui.main_window import PAGE_NO_MODEL, PAGE_TRANSLATE
from fanyi.ui.pack_ops import PackOpProgress, size_text, unreachable_text


@pytest.fixture
def empty_app(qtbot, make_app, ui_dirs):
    app = make_app(opener=FakeTranslator.opener())
    app.window.show()
    return app


def wait_op(qtbot, app) -> None:
    qtbot.waitUntil(lambda: not app.ops.busy, timeout=LOAD_TIMEOUT)


def test_without_a_model_the_window_opens_and_offers_one_download(qtbot, empty_app):
    win = empty_app.window
    page = win.no_model
    assert win.isVisible() and win.pages.currentIndex() == PAGE_NO_MODEL
    assert page.heading.text() == "No translation model is installed"
    # no list of packs on this machine yet: the button still works (it reads the list first)
    assert page.download_button.isEnabled() and page.download_button.text() == "Download English → Chinese"
    assert "pip" not in page.explanation.text() and "fanyi " not in page.explanation.text()
    assert page.import_folder_button.isEnabled() and page.import_zip_button.isEnabled()
    assert win.stats_label.text() == "No model installed"
    empty_app.translate_clipboard()
    popup = empty_app.popup
    assert popup.isVisible() and popup.status.text().startswith("No translation model is installed.")
    assert not popup.download_button.isHidden() and popup.view.isHidden()
    qtbot.mouseClick(popup.download_button, Qt.MouseButton.LeftButton)  # to the page above
    assert not popup.isVisible() and win.isVisible() and win.pages.currentIndex() == PAGE_NO_MODEL


def test_documents_without_a_model_offer_the_download(qtbot, empty_app, publish, tmp_path):
    """Documents… (or a file dropped) with no model: the page's own download, offered where it was asked for,
    not a line in the status bar."""
    publish(1)
    win = empty_app.window
    win.documents_button.click()
    offer = win.download_offer
    assert offer is not None and offer.isVisible()
    assert offer.text() == "Documents are translated by a model, and none is installed yet."
    download = offer.defaultButton()
    assert download.text() == win.no_model.download_button.text() == "Download English → Chinese"
    assert win.stats_label.text() == "No model installed"  # nothing said there instead
    qtbot.mouseClick(download, Qt.MouseButton.LeftButton)
    wait_op(qtbot, empty_app)
    assert installed.find_pack(PACK_ID).pack_version == 1 and win.pages.currentIndex() == PAGE_TRANSLATE


def test_the_download_button_installs_the_default_pack_from_the_catalog(qtbot, empty_app, publish):
    published = publish(1)
    seen: list[TransferProgress] = []
    empty_app.ops.transfer.connect(seen.append)
    page = empty_app.window.no_model
    qtbot.mouseClick(page.download_button, Qt.MouseButton.LeftButton)
    wait_op(qtbot, empty_app)
    assert not page.error.isVisible(), page.error.text()
    assert empty_app.window.pages.currentIndex() == PAGE_TRANSLATE
    pack = installed.find_pack(PACK_ID)
    assert not pack.bundled and pack.pack_version == 1 and empty_app.settings.default_pack.value == PACK_ID
    downloads = [p for p in seen if p.phase == "downloading"]
    assert downloads and downloads[-1].done == downloads[-1].total == published["archive"]["size"]
    # the list of packs read on the way is kept: the button now says what it downloads and its size
    assert empty_app.ops.catalog.find(PACK_ID) is not None
    page.retranslate()
    assert page.download_button.text() == f"Download English → Chinese ({size_text(published['archive']['size'])})"
    assert PACK_ID in page.model_note.text() and "CC-BY-4.0" in page.model_note.text()


def test_a_download_shows_its_progress_can_be_cancelled_and_then_resumes(qtbot, empty_app, publish, server):
    published = publish(1)
    path = f"/packs/{published['archive']['file']}"
    server.routes[path] = Route(server.routes[path].body, slow=0.2)  # ~5 s: the cancel lands mid-download
    page = empty_app.window.no_model
    progress = page.findChild(PackOpProgress)
    seen: list[TransferProgress] = []
    empty_app.ops.transfer.connect(seen.append)
    qtbot.mouseClick(page.download_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: any(p.done > 0 for p in seen) and " of " in progress.detail.text(), timeout=LOAD_TIMEOUT)
    assert progress.isVisible() and progress.cancel_button.isVisible() and not page.download_button.isEnabled()
    qtbot.mouseClick(progress.cancel_button, Qt.MouseButton.LeftButton)
    wait_op(qtbot, empty_app)
    qtbot.waitUntil(lambda: not progress.isVisible())
    assert not page.error.isVisible() and page.download_button.isEnabled()
    assert installed.list_packs() == []
    partial = paths.downloads_dir() / (published["archive"]["file"] + ".part")
    assert 0 < partial.stat().st_size < published["archive"]["size"]

    server.routes[path] = Route(server.routes[path].body)
    qtbot.mouseClick(page.download_button, Qt.MouseButton.LeftButton)
    wait_op(qtbot, empty_app)
    assert installed.find_pack(PACK_ID).pack_version == 1
    assert server.ranges(path)[-1] is not None and server.ranges(path)[-1].startswith("bytes=")


def test_without_a_connection_the_page_says_so_in_the_users_language(qtbot, empty_app, monkeypatch):
    monkeypatch.setenv("FANYI_CATALOG_URL", closed_port_url())
    page = empty_app.window.no_model
    qtbot.mouseClick(page.download_button, Qt.MouseButton.LeftButton)
    wait_op(qtbot, empty_app)
    assert page.error.isVisible() and page.error.text() == unreachable_text()
    i18n.install("zh_CN")
    qtbot.waitUntil(lambda: page.download_button.text() == "下载英译中模型")
    qtbot.mouseClick(page.download_button, Qt.MouseButton.LeftButton)
    wait_op(qtbot, empty_app)
    assert "无法连接" in page.error.text()


def test_a_failed_download_is_said_again_in_chinese_after_the_ui_language_changes(qtbot, empty_app, monkeypatch):
    """The message stayed English after switching to 简体中文: the page stored it and did not redraw it."""
    monkeypatch.setenv("FANYI_CATALOG_URL", closed_port_url())
    page = empty_app.window.no_model
    qtbot.mouseClick(page.download_button, Qt.MouseButton.LeftButton)
    wait_op(qtbot, empty_app)
    assert page.error.text() == unreachable_text() and page.error.text().startswith("The download servers")
    empty_app.dialogs.show_models()
    manager = empty_app.dialogs.open["models"]
    qtbot.mouseClick(manager.refresh_button, Qt.MouseButton.LeftButton)
    wait_op(qtbot, empty_app)
    assert manager.error.text().startswith("The download servers")
    i18n.install("zh_CN")
    qtbot.waitUntil(lambda: page.download_button.text() == "下载英译中模型")
    assert page.error.isVisibleTo(page) and "无法连接" in page.error.text()
    assert "无法连接" in manager.error.text()
    i18n.install("en")
    qtbot.waitUntil(lambda: page.error.text().startswith("The download servers"))


def test_a_list_with_no_address_says_it_is_the_one_shipped_and_refresh_is_not_offered(
    qtbot, empty_app, monkeypatch, tmp_path
):
    """Refresh did nothing, silently: the shipped list names no address."""
    import shutil

    from fanyi import __version__
    from fanyi.library import catalog

    shipped = tmp_path / "shipped" / "catalog.json"
    shipped.parent.mkdir()
    shutil.copy(Path(__file__).resolve().parents[2] / "assets" / "catalog.json", shipped)
    monkeypatch.setenv("FANYI_CATALOG_FILE", str(shipped))
    monkeypatch.delenv("FANYI_CATALOG_URL", raising=False)
    empty_app.ops.catalog = catalog.load()
    empty_app.dialogs.show_models()
    manager = empty_app.dialogs.open["models"]
    made = empty_app.ops.catalog.generated[:10]
    assert manager.catalog_note.text() == (
        f"The list of models shipped with Fanyi {__version__}, made {made}. It names no address to fetch a "
        "newer one from: one can be set in Settings → Downloads."
    )
    assert not manager.refresh_button.isEnabled() and "no address" in manager.refresh_button.toolTip()
    empty_app.settings.update(catalog_url="https://example.org/catalog.json")
    manager.refresh()
    assert manager.refresh_button.isEnabled()
    assert manager.catalog_note.text() == f"List of models published {made}."


def test_offline_the_model_manager_says_what_failed_once_and_what_still_works(qtbot, empty_app, monkeypatch):
    """After a failed refresh the Available tab said "click Refresh list" beside the red "cannot be reached"."""
    monkeypatch.setenv("FANYI_CATALOG_URL", closed_port_url())
    page = empty_app.window.no_model
    assert "size and licence are shown once" in page.model_note.text()  # no list: what is not known yet
    empty_app.dialogs.show_models()
    manager = empty_app.dialogs.open["models"]
    qtbot.mouseClick(manager.refresh_button, Qt.MouseButton.LeftButton)
    wait_op(qtbot, empty_app)
    assert manager.error.isVisible() and manager.error.text() == unreachable_text()
    assert "Refresh list" not in manager.catalog_note.text() and "imported" in manager.catalog_note.text()


def test_the_model_manager_lists_available_packs_downloads_and_updates(qtbot, empty_app, publish, monkeypatch):
    publish(1)
    empty_app.dialogs.show_models()
    manager = empty_app.dialogs.open["models"]
    assert "Refresh list" in manager.catalog_note.text()  # no list yet
    qtbot.mouseClick(manager.refresh_button, Qt.MouseButton.LeftButton)
    wait_op(qtbot, empty_app)

    def row() -> list[str]:
        return [manager.available.item(0, c).text() for c in range(manager.available.columnCount())]

    assert manager.available.rowCount() == 1
    assert row()[:3] == ["English → Chinese", "English → Chinese", "MarianMT"]
    assert row()[5:9] == ["int8", "CC-BY-4.0", "BLEU 30.9", ""] and row()[4].endswith("MB")  # memory needed
    manager.available.selectRow(0)
    assert manager.download_button.isEnabled() and manager.download_button.text() == "Download"
    qtbot.mouseClick(manager.download_button, Qt.MouseButton.LeftButton)
    wait_op(qtbot, empty_app)
    assert row()[8] == "Installed" and installed.find_pack(PACK_ID).pack_version == 1
    manager.available.selectRow(0)
    assert not manager.download_button.isEnabled()

    publish(2)
    qtbot.mouseClick(manager.refresh_button, Qt.MouseButton.LeftButton)
    wait_op(qtbot, empty_app)
    assert row()[8] == "Update available"
    manager.available.selectRow(0)
    assert manager.download_button.text() == "Update"
    qtbot.mouseClick(manager.download_button, Qt.MouseButton.LeftButton)
    wait_op(qtbot, empty_app)
    assert row()[8] == "Installed" and installed.find_pack(PACK_ID).pack_version == 2


def test_a_non_commercial_licence_is_shown_before_the_download(qtbot, empty_app, publish, monkeypatch):
    publish(
        1,
        license={
            "name": "CC-BY-NC-4.0",
            "url": "https://creativecommons.org/licenses/by-nc/4.0/",
            "commercial_use": False,
        },
    )
    empty_app.dialogs.show_models()
    manager = empty_app.dialogs.open["models"]
    qtbot.mouseClick(manager.refresh_button, Qt.MouseButton.LeftButton)
    wait_op(qtbot, empty_app)
    asked = []

    def answer(box: QMessageBox) -> QMessageBox.StandardButton:
        asked.append(box.text() + "\n" + box.informativeText())
        return QMessageBox.StandardButton.No

    monkeypatch.setattr(QMessageBox, "exec", answer)
    manager.available.selectRow(0)
    qtbot.mouseClick(manager.download_button, Qt.MouseButton.LeftButton)
    assert asked and "CC-BY-NC-4.0" in asked[0] and "commercial" in asked[0]
    assert not empty_app.ops.busy and installed.list_packs() == []


def test_a_licences_terms_are_shown_and_accepted_before_the_download(qtbot, empty_app, publish, monkeypatch):
    """The Tencent HY Community License: its territories and terms, as the catalog states them."""
    terms = [
        "It does not apply in the European Union, the United Kingdom or South Korea.",
        "The output must not be used to improve other AI models.",
    ]
    publish(
        1,
        license={
            "name": "Tencent-HY-Community",
            "url": "https://example.org/License.txt",
            "commercial_use": True,
            "excluded_territories": ["EU", "GB", "KR"],
            "restrictions": {"en": terms},
            "ask_before_download": True,
        },
    )
    empty_app.dialogs.show_models()
    manager = empty_app.dialogs.open["models"]
    qtbot.mouseClick(manager.refresh_button, Qt.MouseButton.LeftButton)
    wait_op(qtbot, empty_app)
    shown = []

    def accept(box: QMessageBox) -> QMessageBox.StandardButton:
        shown.append(box.informativeText())
        return QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "exec", accept)
    manager.available.selectRow(0)
    qtbot.mouseClick(manager.download_button, Qt.MouseButton.LeftButton)
    wait_op(qtbot, empty_app)
    assert shown and all(t in shown[0] for t in terms) and "https://example.org/License.txt" in shown[0]
    assert installed.find_pack(PACK_ID) is not None


def test_a_pack_too_big_for_this_computer_is_marked_and_asked_about(
    qtbot, make_app, fake_backend, tiny_pack_zh_en, monkeypatch
):
    installed.import_pack(tiny_pack_zh_en)
    monkeypatch.setattr("fanyi.ui.memory_check.physical_memory", lambda: 64 << 20)  # 64 MB of RAM
    app = make_app(fake_backend)
    app.dialogs.show_models()
    manager = app.dialogs.open["models"]
    memory = [manager.table.item(r, 4).text() for r in range(manager.table.rowCount())]
    assert all(m.startswith("⚠ ") for m in memory)
    asked = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: asked.append(a[2]) or QMessageBox.StandardButton.No)
    win = app.window
    other = win.pack_box.findData("tiny-zh-en")
    current = app.packs.current
    win.pack_box.setCurrentIndex(other)
    win.pack_box.activated.emit(other)  # as when the user picks it
    assert asked and "tiny-zh-en needs about" in asked[0]
    assert app.packs.current == current and win.pack_box.currentData() == current.name  # nothing loaded


@pytest.fixture
def recipe_hub(server, tiny_hf_en_zh, monkeypatch):
    """A Hub on this computer serving the tiny model as Helsinki-NLP/opus-mt-en-zh, and a catalog whose
    default entry is its recipe (no archive): what the app ships, pointed at a Hub here."""
    from packserver import catalog_doc

    from fanyi.library.sources.localhub import LocalHub

    monkeypatch.delenv("HF_HUB_OFFLINE")
    with LocalHub() as hub:
        commit = hub.add("Helsinki-NLP/opus-mt-en-zh", tiny_hf_en_zh).commit
        entry = {
            "id": PACK_ID,
            "version": 1,
            "default": True,
            "display_name": {"en": "English → Chinese", "zh_CN": "英语 → 中文"},
            "architecture": "marian",
            "source_langs": ["en"],
            "target_langs": ["zh"],
            "sources": {"huggingface": {"repo": "Helsinki-NLP/opus-mt-en-zh", "revision": commit}},
            "convert": {"quantize": "int8"},
            "download_size": 1_000_000,
            "pack_size": 800_000,
            "license": {
                "name": "Apache-2.0",
                "url": "https://www.apache.org/licenses/LICENSE-2.0",
                "commercial_use": True,
            },
        }
        server.routes["/catalog.json"] = Route(catalog_doc([entry]))
        monkeypatch.setenv("FANYI_CATALOG_URL", server.url("/catalog.json"))
        yield hub


def test_the_download_button_makes_the_pack_from_the_source_chosen_in_settings(qtbot, empty_app, recipe_hub):
    """Settings → Downloads names a Hub-compatible address: the model's files come from there, are converted
    (the progress shows bytes, then layers) and the pack is installed; nothing is left in the downloads."""
    empty_app.settings.update(download_source="url", download_source_url=recipe_hub.endpoint, hf_token="hf_secret")
    shown: list[str] = []
    progress = empty_app.window.no_model.findChild(PackOpProgress)
    empty_app.ops.transfer.connect(lambda _p: shown.append(progress.detail.text()))
    qtbot.mouseClick(empty_app.window.no_model.download_button, Qt.MouseButton.LeftButton)
    wait_op(qtbot, empty_app)
    assert installed.find_pack(PACK_ID).pack_version == 1 and installed.find_pack(PACK_ID).quantization == "int8"
    assert any(text.startswith("Asking 127.0.0.1:") for text in shown)
    assert any(" of " in text and "MB" in text or "KB" in text for text in shown)  # bytes
    assert any(text.startswith("Converting: layer ") for text in shown)
    assert not any(paths.downloads_dir().rglob("*.safetensors"))
    # the token went to that address, as a bearer token (it is the Hub the user chose)
    assert {h.get("authorization") for _m, _p, h in recipe_hub.requests} == {"Bearer hf_secret"}


def test_a_gated_model_says_what_to_do_in_the_users_language(qtbot, empty_app, recipe_hub):
    recipe_hub.repos["Helsinki-NLP/opus-mt-en-zh"].gated = True
    empty_app.settings.update(download_source="url", download_source_url=recipe_hub.endpoint)
    page = empty_app.window.no_model
    qtbot.mouseClick(page.download_button, Qt.MouseButton.LeftButton)
    wait_op(qtbot, empty_app)
    assert page.error.isVisible() and "gated on Hugging Face" in page.error.text()
    assert f"{recipe_hub.endpoint}/Helsinki-NLP/opus-mt-en-zh" in page.error.text()
    assert "Settings → Downloads" in page.error.text()
    i18n.install("zh_CN")
    qtbot.mouseClick(page.download_button, Qt.MouseButton.LeftButton)
    wait_op(qtbot, empty_app)
    assert "访问令牌" in page.error.text() and "设置 → 下载" in page.error.text()


def test_unreachable_sources_suggest_the_mirror_and_modelscope_in_chinese(qtbot, empty_app, recipe_hub):
    empty_app.settings.update(download_source="url", download_source_url=closed_port_url(""))
    i18n.install("zh_CN")
    page = empty_app.window.no_model
    qtbot.mouseClick(page.download_button, Qt.MouseButton.LeftButton)
    wait_op(qtbot, empty_app)
    assert (
        "hf-mirror.com" in page.error.text() and "ModelScope" in page.error.text() and "无法连接" in page.error.text()
    )


def test_importing_a_pack_folder_switches_to_translating(qtbot, empty_app, tiny_pack):
    empty_app.ops.import_pack(tiny_pack)
    wait_op(qtbot, empty_app)
    win = empty_app.window
    assert win.pages.currentIndex() == PAGE_TRANSLATE
    qtbot.waitUntil(lambda: empty_app.service.model is not None, timeout=LOAD_TIMEOUT)
    pack = installed.find_pack("tiny-en-zh")
    assert not pack.bundled and empty_app.settings.default_pack.value == "tiny-en-zh"
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
    assert empty_app.window.pages.currentIndex() == PAGE_NO_MODEL and installed.list_packs() == []


@pytest.mark.parametrize("name", ["../../evil", "NUL", "tab\there"])
def test_a_pack_whose_name_cannot_be_a_folders_is_refused_with_a_message(qtbot, empty_app, tiny_pack, tmp_path, name):
    """The app's import takes the pack's own name through the same rule as the command line (fanyi.names)."""
    given = tmp_path / "given"
    shutil.copytree(tiny_pack, given)
    manifest = json.loads((given / "manifest.json").read_text(encoding="utf-8"))
    (given / "manifest.json").write_text(json.dumps({**manifest, "name": name}), encoding="utf-8")
    data = paths.user_data_dir()
    before = {p for p in data.rglob("*")} if data.exists() else set()
    empty_app.ops.import_pack(given)
    wait_op(qtbot, empty_app)
    shown = empty_app.window.no_model.error.text()
    assert "the pack's name" in shown and "cannot be a file or folder name" in shown and "\n" not in shown
    assert installed.list_packs() == [] and {p for p in data.rglob("*")} - before <= {paths.user_packs_dir()}
    assert not (tmp_path.parent / "evil").exists()


def test_importing_a_models_folder_converts_it_with_progress(qtbot, empty_app, tiny_hf_en_zh, tmp_path):
    """Import folder… of a Hugging Face model folder (a download of the repository) converts it as a download is
    converted, with the layers' progress, and switches to translating; it said "manifest.json is missing"."""
    folder = shutil.copytree(tiny_hf_en_zh, tmp_path / "opus-mt-en-zh")
    seen: list[TransferProgress] = []
    empty_app.ops.transfer.connect(seen.append)
    empty_app.ops.import_pack(folder)
    assert empty_app.ops.can_cancel  # minutes for a large model: it can be cancelled
    wait_op(qtbot, empty_app)
    assert empty_app.window.no_model.error.text() == ""
    assert any(p.phase == "converting" and p.total for p in seen) and seen[-1].phase == "installing"
    assert installed.find_pack("opus-mt-en-zh").quantization == "int8"
    assert empty_app.window.pages.currentIndex() == PAGE_TRANSLATE


def test_a_folder_that_is_neither_a_pack_nor_a_model_is_said_in_the_ui_language(qtbot, empty_app, tmp_path):
    folder = tmp_path / "somewhere"
    folder.mkdir()
    page = empty_app.window.no_model
    empty_app.ops.import_pack(folder)
    wait_op(qtbot, empty_app)
    assert page.error.text().startswith(f"{folder} is neither a model pack") and "config.json" in page.error.text()
    i18n.install("zh_CN")
    qtbot.waitUntil(lambda: "既不是模型包" in page.error.text())
    assert str(folder) in page.error.text() and "manifest.json" in page.error.text()


def test_a_zip_escaping_its_folder_is_refused(qtbot, empty_app, tmp_path):
    archive = tmp_path / "evil.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("pack/manifest.json", json.dumps({"format_version": 1}))
        zf.writestr("../outside.txt", "gotcha")
    empty_app.ops.import_pack(archive)
    wait_op(qtbot, empty_app)
    assert "outside the pack folder" in empty_app.window.no_model.error.text()
    assert not (tmp_path / "outside.txt").exists()


def test_the_model_manager_lists_removes_and_sets_the_default(
    qtbot, make_app, fake_backend, tiny_pack_int8, monkeypatch
):
    installed.import_pack(tiny_pack_int8)
    app = make_app(fake_backend)
    app.dialogs.show_models()
    manager = app.dialogs.open["models"]
    rows = {
        manager.table.item(r, 0).text(): [manager.table.item(r, c).text() for c in range(8)]
        for r in range(manager.table.rowCount())
    }
    assert rows["tiny-en-zh"][1:3] == ["English → Chinese", "MarianMT"]
    assert rows["tiny-en-zh"][5:7] == ["full precision", "bundled"]
    assert rows["tiny-en-zh-int8"][5:7] == ["int8", "user-installed"]
    manager.select("tiny-en-zh")
    assert not manager.remove_button.isEnabled()  # bundled packs stay
    manager.select("tiny-en-zh-int8")
    qtbot.mouseClick(manager.default_button, Qt.MouseButton.LeftButton)
    assert app.settings.default_pack.value == "tiny-en-zh-int8"
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    manager.select("tiny-en-zh-int8")
    qtbot.mouseClick(manager.remove_button, Qt.MouseButton.LeftButton)
    assert [p.name for p in installed.list_packs()] == ["tiny-en-zh"]
    assert app.window.pack_box.count() == 1


def test_a_broken_pack_is_listed_greyed_never_chosen_and_removable(
    qtbot, make_app, fake_backend, tiny_pack, monkeypatch
):
    """A user pack whose manifest lacks a field made the app abort at start."""
    from pack_damage import broken_copy
    from PySide6.QtGui import QPalette

    from fanyi import paths
    from fanyi.ui.settings import Settings

    broken = broken_copy(tiny_pack, paths.user_packs_dir() / "aaa-broken", lambda m: m.pop("source_lang"))
    app = make_app(fake_backend, settings=Settings(default_pack="aaa-broken"))
    assert [p.name for p in app.packs.installed] == ["tiny-en-zh"] and app.packs.current.name == "tiny-en-zh"
    win = app.window
    win.show()
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    assert win.pack_box.count() == 1

    app.dialogs.show_models()
    manager = app.dialogs.open["models"]
    names = [manager.table.item(r, 0).text() for r in range(manager.table.rowCount())]
    row = names.index("aaa-broken")
    cell = manager.table.item(row, 1)
    assert cell.text() == "Broken: manifest.json: source_lang is missing"
    assert manager.table.columnSpan(row, 1) == 5 and f"{broken}" in cell.toolTip()
    assert cell.foreground().color() == manager.palette().color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
    manager.select("aaa-broken")
    assert not manager.default_button.isEnabled() and manager.remove_button.isEnabled()
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    qtbot.mouseClick(manager.remove_button, Qt.MouseButton.LeftButton)
    assert not broken.exists() and not manager.error.isVisible()
    assert [p.name for p in installed.list_packs()] == ["tiny-en-zh"]


def test_a_pack_onnx_runtime_cannot_load_is_reported_and_the_app_goes_on(qtbot, make_app, pack_dir, tiny_pack):
    """A truncated graph with a recomputed checksum passes every check before ONNX Runtime reads it."""
    from pack_damage import broken_copy, truncate

    from fanyi import paths
    from fanyi.ui.settings import Settings
    from fanyi.ui.worker import open_translator

    cut = truncate(
        broken_copy(tiny_pack, paths.user_packs_dir() / "cut", lambda m: m.update(name="cut")), "encoder.onnx"
    )
    app = make_app(opener=open_translator, settings=Settings(default_pack="cut"))
    win = app.window
    win.show()
    assert app.packs.current.path == cut  # it passed the manifest and size checks, so it is offered
    qtbot.waitUntil(lambda: win.target.error.isVisible(), timeout=LOAD_TIMEOUT)
    assert f"{cut / 'encoder.onnx'} cannot be loaded: " in win.target.error.text()
    assert win.stats_label.text() == "The model could not be opened"
    good = next(p for p in app.packs.installed if p.name == "tiny-en-zh")
    app.packs.choose(good)
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    assert app.service.model.name == "tiny-en-zh" and win.isVisible()


def _cli(*args: str) -> subprocess.CompletedProcess:
    """`fanyi` in a terminal beside the running app: same user folders (the environment), another process."""
    return subprocess.run(
        [sys.executable, "-m", "fanyi", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )


def test_packs_installed_or_removed_in_a_terminal_appear_at_once(qtbot, make_app, fake_backend, tiny_pack_zh_en):
    app = make_app(fake_backend)
    win = app.window
    win.show()
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    assert [win.pack_box.itemData(i) for i in range(win.pack_box.count())] == ["tiny-en-zh"]
    assert _cli("models", "import", str(tiny_pack_zh_en)).returncode == 0
    qtbot.waitUntil(lambda: win.pack_box.findData("tiny-zh-en") >= 0, timeout=LOAD_TIMEOUT)
    assert win.swap_button.isEnabled()
    assert _cli("models", "remove", "tiny-zh-en").returncode == 0
    qtbot.waitUntil(lambda: win.pack_box.findData("tiny-zh-en") < 0, timeout=LOAD_TIMEOUT)
    assert not win.swap_button.isEnabled()


def test_the_first_pack_installed_in_a_terminal_replaces_the_no_model_page(qtbot, empty_app, tiny_pack):
    win = empty_app.window
    assert win.pages.currentIndex() == PAGE_NO_MODEL
    assert _cli("models", "import", str(tiny_pack)).returncode == 0
    qtbot.waitUntil(lambda: win.pages.currentIndex() == PAGE_TRANSLATE, timeout=LOAD_TIMEOUT)
    qtbot.waitUntil(lambda: empty_app.service.model is not None, timeout=LOAD_TIMEOUT)


def test_set_as_default_switches_the_window_to_that_pack(qtbot, make_app, fake_backend, tiny_pack_zh_en):
    installed.import_pack(tiny_pack_zh_en)
    app = make_app(fake_backend)
    win = app.window
    win.show()
    qtbot.waitUntil(
        lambda: app.service.model is not None and app.service.model.name == "tiny-en-zh", timeout=LOAD_TIMEOUT
    )
    app.dialogs.show_models()
    manager = app.dialogs.open["models"]
    manager.select("tiny-zh-en")
    qtbot.mouseClick(manager.default_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(
        lambda: app.service.model is not None and app.service.model.name == "tiny-zh-en", timeout=LOAD_TIMEOUT
    )
    assert win.pack_box.currentData() == "tiny-zh-en" and app.settings.default_pack.value == "tiny-zh-en"


def test_a_pack_of_many_languages_keeps_the_other_columns_in_sight(qtbot, make_app, fake_backend, tiny_llm_pack):
    """HY-MT1.5's 38 language names in one cell pushed family, size and memory out of the dialog, and then
    squeezed the names of the packs to "HY-M…"."""
    from fanyi.ui.model_manager import LANGUAGES_COLUMN

    pack = installed.import_pack(tiny_llm_pack("hunyuan", "none"))
    app = make_app(fake_backend)
    app.dialogs.show_models()
    manager = app.dialogs.open["models"]
    qtbot.waitExposed(manager)
    table = manager.table
    row = [p.name for p in manager.packs].index(pack.name)
    cell = table.item(row, LANGUAGES_COLUMN)
    assert cell.text().count(" · ") > 20 and cell.toolTip() == cell.text()  # all of them, on hovering
    assert table.columnWidth(0) >= table.sizeHintForColumn(0)  # the names whole
    assert 0 < table.columnWidth(LANGUAGES_COLUMN) < table.fontMetrics().horizontalAdvance(cell.text())
    last = table.columnCount() - 1
    assert table.columnViewportPosition(last) + table.columnWidth(last) <= table.viewport().width()


def test_the_progress_says_which_source_the_files_come_from(qtbot, ui_dirs):
    from fanyi.ui.pack_ops import transfer_text

    progress = TransferProgress("downloading", 1 << 20, 4 << 20, 0.0, None, "model.safetensors", "hf-mirror.com")
    text = transfer_text(progress)
    assert text.startswith("1.0 MB of 4.0 MB from hf-mirror.com")
