"""Settings: typed defaults, a tolerant loader, atomic saves, and surviving a restart."""

from __future__ import annotations

import dataclasses
import json
import logging
import os

import pytest
from ui_fakes import LOAD_TIMEOUT

from fanyi import limits
from fanyi.engine.options import DecodeOptions
from fanyi.ui.settings import DOUBLE_COPY, Settings, load_settings, save_settings, settings_path
from fanyi.ui.settings_dialog import HOTKEY_COMBO, HOTKEY_DOUBLE_COPY, SettingsDialog


def test_each_setting_is_a_typed_value_that_says_when_it_changes(qapp):
    from typing import get_type_hints

    from fanyi.ui.controllers.settings import LiveSettings, Setting

    saved, heard, groups = [], [], []
    live = LiveSettings(Settings(), save=saved.append)
    hints = get_type_hints(LiveSettings, localns={"Setting": Setting})
    for field in dataclasses.fields(Settings):
        setting = getattr(live, field.name)
        assert isinstance(setting, Setting) and setting.value == getattr(Settings(), field.name)
        assert hints[field.name] == Setting[type(setting.value)], field.name  # typed as the field is
    live.beams.changed.connect(heard.append)
    live.api_port.changed.connect(heard.append)
    live.on_change(lambda: groups.append("api"), live.api_port, live.api_key, live.api_enabled)
    live.update(beams=4, api_port=6000, api_enabled=True)
    assert heard == [4, 6000] and groups == ["api"]  # each once; the group once for its two
    assert len(saved) == 1 and saved[0].beams == 4 and live.current.api_port == 6000
    live.beams.set(4)  # no change: nobody is told, nothing is written
    live.update(beams=limits.MAX_BEAMS + 5)  # checked as a file's values are
    assert heard == [4, 6000, limits.MAX_BEAMS] and len(saved) == 2


def test_missing_file_gives_defaults(ui_dirs):
    assert not settings_path().exists()
    assert load_settings() == Settings()


def test_round_trip_is_atomic(ui_dirs):
    custom = Settings(
        beams=2,
        max_length=128,
        threads=1,
        translate_as_you_type=False,
        target_variant="yue",
        ui_language="en",
        theme="dark",
        hotkey=DOUBLE_COPY,
        start_in_tray=True,
        history=False,
    )
    save_settings(custom)
    assert load_settings() == custom
    leftovers = [p.name for p in settings_path().parent.iterdir() if p.name != "settings.json"]
    assert leftovers == []


def test_corrupt_or_foreign_files_give_defaults(ui_dirs):
    path = settings_path()
    path.parent.mkdir(parents=True)
    for content in (b"{not json", b"\xff\xfe\x00garbage", b"[1, 2, 3]", b"null"):
        path.write_bytes(content)
        assert load_settings() == Settings()


def test_bad_fields_fall_back_one_by_one(ui_dirs):
    path = settings_path()
    path.parent.mkdir(parents=True)
    path.write_text(
        json.dumps(
            {
                "beams": "four",
                "max_length": 64,
                "threads": -3,
                "translate_as_you_type": 1,
                "theme": "purple",
                "ui_language": "zh_CN",
                "unknown_key": 42,
            }
        )
    )
    loaded = load_settings()
    assert loaded == Settings(max_length=64, ui_language="zh_CN")


def test_out_of_range_numbers_are_clamped_with_a_log_line(ui_dirs, caplog):
    """A hand-edited file must not hand the engine 100,000 beams or threads: the dialog caps them, so does the
    loader."""
    path = settings_path()
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"beams": 100_000, "max_length": 10**9, "threads": 10**9}))
    with caplog.at_level(logging.WARNING, logger="fanyi.ui.settings"):
        loaded = load_settings()
    assert (loaded.beams, loaded.max_length, loaded.threads) == (
        limits.MAX_BEAMS,
        limits.MAX_DECODE_LENGTH,
        limits.max_threads(),
    )
    assert len(caplog.records) == 3 and all("using" in r.getMessage() for r in caplog.records)
    DecodeOptions(beams=loaded.beams, max_length=loaded.max_length)  # what the app builds from them is valid
    path.write_text(json.dumps({"beams": limits.MAX_BEAMS, "threads": limits.max_threads()}))
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="fanyi.ui.settings"):
        assert load_settings().beams == limits.MAX_BEAMS
    assert caplog.records == []


def test_the_dialog_offers_no_more_than_the_limits(qtbot, ui_dirs):
    dialog = SettingsDialog(Settings(), tray_available=False)
    qtbot.addWidget(dialog)
    assert dialog.beams.maximum() == limits.MAX_BEAMS
    assert dialog.max_length.maximum() == limits.MAX_DECODE_LENGTH
    assert dialog.threads.maximum() == limits.max_threads()


def test_settings_survive_a_restart(qtbot, make_app, fake_backend):
    first = make_app(fake_backend)
    changed = dataclasses.replace(
        first.settings.current,
        beams=2,
        translate_as_you_type=False,
        target_variant="cmn_Hant",
        hotkey="Ctrl+Shift+Y",
        history=False,
    )
    first.settings.apply(changed)
    first.shutdown()

    second = make_app(fake_backend)  # a new app reads the file back
    assert second.settings.current == changed
    win = second.window
    qtbot.waitUntil(lambda: second.service.model is not None, timeout=LOAD_TIMEOUT)
    checked = [b.property("variant") for b in win.variant_group.buttons() if b.isChecked()]
    assert checked == ["cmn_Hant"]
    assert second.direction.options().beams == 2 and second.direction.options().target == "cmn_Hant"
    win.source.set_text("Not translated while typing is off.")
    qtbot.wait(600)
    assert win.target.view.text() == ""


def test_the_dialog_edits_a_copy(qtbot, ui_dirs):
    original = Settings(hotkey="Ctrl+Alt+F")
    dialog = SettingsDialog(original, tray_available=False)
    qtbot.addWidget(dialog)
    assert dialog.hotkey_mode.currentIndex() == HOTKEY_COMBO
    assert dialog.hotkey_keys.keySequence().toString() == "Ctrl+Alt+F"
    assert not dialog.start_in_tray.isEnabled() and not dialog.tray_note.isHidden()
    assert "fanyi --translate-clipboard" in dialog.hotkey_note.text()
    assert "no X display" in dialog.hotkey_note.text()
    dialog.beams.setValue(3)
    dialog.theme.setCurrentIndex(dialog.theme.findData("light"))
    dialog.hotkey_mode.setCurrentIndex(HOTKEY_DOUBLE_COPY)
    dialog.history.setChecked(False)
    result = dialog.result_settings()
    assert result == dataclasses.replace(original, beams=3, theme="light", hotkey=DOUBLE_COPY, history=False)
    assert original == Settings(hotkey="Ctrl+Alt+F")
    assert dialog.beams.specialValueText() == "Model default"


def test_a_corrupt_file_is_kept_before_defaults_replace_it(ui_dirs):
    path = settings_path()
    path.parent.mkdir(parents=True)
    for content in (b'{"beams": 4, "theme": "da', b"\xff\xfe\x00garbage", b"[1, 2, 3]"):
        for old in path.parent.iterdir():
            old.unlink()
        path.write_bytes(content)
        assert load_settings() == Settings()
        kept = list(path.parent.glob("settings.json.corrupt-*"))
        assert len(kept) == 1 and kept[0].read_bytes() == content
        save_settings(Settings(beams=2))
        assert kept[0].read_bytes() == content and load_settings() == Settings(beams=2)


def test_download_addresses_are_checked_before_they_are_kept(qtbot, ui_dirs):
    dialog = SettingsDialog(Settings(), tray_available=False)
    qtbot.addWidget(dialog)
    assert dialog.source.currentData() == "auto" and not dialog.source_url.isEnabled()
    dialog.source.setCurrentIndex(dialog.source.findData("url"))
    assert dialog.source_url.isEnabled()
    dialog.accept()  # a custom address, but none given
    assert dialog.result() != dialog.DialogCode.Accepted and "https://" in dialog.download_note.text()
    dialog.source_url.setText("ftp://mirror.example.cn/hub")
    dialog.accept()
    assert dialog.result() != dialog.DialogCode.Accepted
    dialog.source_url.setText("  https://mirror.example.cn/hub ")
    dialog.catalog_url.setText("https://example.org/catalog.json")
    dialog.hf_token.setText(" hf_secret ")
    dialog.accept()
    assert dialog.result() == dialog.DialogCode.Accepted
    kept = dialog.result_settings()
    assert (kept.download_source, kept.download_source_url, kept.catalog_url, kept.hf_token) == (
        "url",
        "https://mirror.example.cn/hub",
        "https://example.org/catalog.json",
        "hf_secret",
    )
    assert dialog.hf_token.echoMode() == dialog.hf_token.EchoMode.Password  # never shown on the screen


def test_the_download_source_and_the_token_are_saved_privately_and_bad_values_fall_back(ui_dirs):
    save_settings(Settings(download_source="modelscope", hf_token="hf_secret"))
    assert load_settings().download_source == "modelscope" and load_settings().hf_token == "hf_secret"
    if os.name == "posix":  # readable by this user only while it holds a secret
        assert settings_path().stat().st_mode & 0o077 == 0
    settings_path().write_text(json.dumps({"download_source": "gitee"}), encoding="utf-8")
    assert load_settings().download_source == "auto"
    settings_path().write_text(json.dumps({"download_source": "url"}), encoding="utf-8")  # no address
    assert load_settings().download_source == "auto"


def test_the_hugging_face_token_is_never_shown_in_a_repr_or_a_log(ui_dirs, caplog):
    assert "hf_secret" not in repr(Settings(hf_token="hf_secret"))
    settings_path().parent.mkdir(parents=True)
    settings_path().write_text(json.dumps({"hf_token": ["hf_secret"]}), encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        assert load_settings().hf_token == ""
    assert "ignoring hf_token" in caplog.text and "hf_secret" not in caplog.text


def test_a_hand_edited_address_that_is_not_http_is_dropped_on_load(ui_dirs):
    settings_path().parent.mkdir(parents=True)
    settings_path().write_text(
        '{"download_source_url": "file:///etc", "catalog_url": "https://ok.example/c.json"}', encoding="utf-8"
    )
    loaded = load_settings()
    assert (loaded.download_source_url, loaded.catalog_url) == ("", "https://ok.example/c.json")


def test_remembered_languages_round_trip_and_bad_entries_are_dropped(ui_dirs):
    save_settings(Settings(pack_languages={"nllb": ["eng_Latn", "zho_Hant"]}))
    assert load_settings().pack_languages == {"nllb": ["eng_Latn", "zho_Hant"]}
    settings_path().write_text(
        json.dumps(
            {
                "beams": 3,
                "pack_languages": {"good": ["en_XX", "zh_CN"], "short": ["en"], "numbers": [1, 2], "text": "en→zh"},
            }
        ),
        encoding="utf-8",
    )
    loaded = load_settings()
    assert loaded.pack_languages == {"good": ["en_XX", "zh_CN"]} and loaded.beams == 3
    settings_path().write_text(json.dumps({"pack_languages": ["not", "a", "dict"]}), encoding="utf-8")
    assert load_settings().pack_languages == {}


def test_the_dialog_is_in_tabs_with_every_field_where_a_user_looks(qtbot, ui_dirs):
    dialog = SettingsDialog(Settings(), tray_available=True)
    qtbot.addWidget(dialog)
    where = {
        "Translation": [
            dialog.beams,
            dialog.max_length,
            dialog.threads,
            dialog.as_you_type,
            dialog.variant,
            dialog.history,
        ],
        "Appearance": [dialog.language, dialog.theme, dialog.text_size],
        "Shortcuts & tray": [
            dialog.hotkey_mode,
            dialog.hotkey_keys,
            dialog.hotkey_note,
            dialog.screenshot_keys,
            dialog.screenshot_note,
            dialog.start_at_login,
            dialog.start_in_tray,
            dialog.close_to_tray,
        ],
        "Downloads": [dialog.source, dialog.source_url, dialog.hf_token, dialog.catalog_url, dialog.download_note],
        "Other apps": [
            dialog.api_enabled,
            dialog.api_port,
            dialog.api_key,
            dialog.api_address,
            dialog.api_deeplx,
            dialog.api_openai,
            dialog.api_immersive,
            dialog.api_kiss,
        ],
        "Glossary": [dialog.glossary_tab.table, dialog.glossary_tab.import_button],
    }
    assert [dialog.tabs.tabText(i).replace("&&", "&") for i in range(dialog.tabs.count())] == list(where)
    for title, fields in where.items():
        assert {dialog.tab_of(f).replace("&&", "&") for f in fields} == {title}


def test_the_options_say_what_they_do(qtbot, ui_dirs):
    """ "Beams", "Maximum length" and "CPU threads" meant nothing to most users."""
    dialog = SettingsDialog(Settings(), tray_available=True)
    qtbot.addWidget(dialog)
    form = dialog.translation_tab
    labels = {form.labelForField(f).text(): f.toolTip() for f in (dialog.beams, dialog.max_length, dialog.threads)}
    assert list(labels) == ["Candidates compared", "Longest translation", "Processor cores"]
    assert all(len(tip) > 60 for tip in labels.values())
    assert "beam search" in labels["Candidates compared"] and "tokens" in labels["Longest translation"]


def test_a_bad_address_shows_the_downloads_tab(qtbot, ui_dirs):
    dialog = SettingsDialog(Settings(), tray_available=False)
    qtbot.addWidget(dialog)
    dialog.catalog_url.setText("ftp://x")
    dialog.accept()
    assert dialog.tabs.tabText(dialog.tabs.currentIndex()) == "Downloads"


def test_the_window_comes_back_where_it_was(qtbot, make_app, fake_backend):
    first = make_app(fake_backend)
    win = first.window
    win.show()
    win.resize(720, 430)
    win.splitter.setSizes([180, 520])
    sizes = win.splitter.sizes()
    first.shutdown()
    saved = load_settings()
    assert saved.window_geometry and saved.splitter_state

    second = make_app(fake_backend)
    again = second.window
    again.show()
    assert (again.width(), again.height()) == (720, 430)
    assert again.splitter.sizes() == sizes


def test_text_size_changes_the_panes(qtbot, make_app, fake_backend):
    app = make_app(fake_backend)
    win = app.window
    default = win.source.edit.font().pointSizeF()
    app.settings.update(text_size=20)
    assert win.source.edit.font().pointSize() == win.target.view.font().pointSize() == 20
    app.settings.update(text_size=0)
    assert win.target.view.font().pointSizeF() == default
    save_settings(Settings(text_size=5))  # hand-edited, unreadably small
    assert load_settings().text_size == 0


def test_start_at_login_writes_and_removes_the_entry(qtbot, make_app, fake_backend, monkeypatch, tmp_path):
    from fanyi import autostart

    entry = autostart.FileEntry(tmp_path / "autostart" / "fanyi.desktop", "desktop")
    monkeypatch.setattr(autostart, "backend", lambda: entry)
    app = make_app(fake_backend)
    app.settings.update(start_at_login=True)
    assert entry.path.is_file() and "--tray" in entry.path.read_text(encoding="utf-8")
    app.settings.update(start_at_login=False)
    assert not entry.path.exists()

    def refuse(*_args) -> None:
        raise PermissionError("Permission denied")

    monkeypatch.setattr(entry, "write", refuse)
    notices = []
    app.notice.connect(notices.append)
    app.settings.update(start_at_login=True)
    assert notices == ["Starting at login could not be changed: Permission denied"]
    assert not app.settings.start_at_login.value and not load_settings().start_at_login  # the setting tells the truth


def test_the_selection_setting_is_offered_only_where_there_is_a_selection(qtbot, ui_dirs, monkeypatch):
    from PySide6.QtGui import QClipboard

    dialog = SettingsDialog(Settings(), tray_available=False)
    qtbot.addWidget(dialog)
    assert dialog.translate_selection.isHidden()  # offscreen, like Windows and macOS: none
    monkeypatch.setattr(QClipboard, "supportsSelection", lambda self: True)
    dialog = SettingsDialog(Settings(), tray_available=False)
    qtbot.addWidget(dialog)
    assert not dialog.translate_selection.isHidden() and not dialog.translate_selection.isChecked()
    assert dialog.tab_of(dialog.translate_selection).replace("&&", "&") == "Shortcuts & tray"
    dialog.translate_selection.setChecked(True)
    assert dialog.result_settings().translate_selection
    save_settings(dialog.result_settings())
    assert load_settings().translate_selection


class _X11Clipboard:
    """What QClipboard answers on X11, where the offscreen platform has no selection to set."""

    def __init__(self, copied: str, selected: str) -> None:
        self.copied, self.selected = copied, selected

    def supportsSelection(self) -> bool:
        return True

    def text(self, mode=None) -> str:
        from PySide6.QtGui import QClipboard

        return self.selected if mode == QClipboard.Mode.Selection else self.copied


def test_the_hotkey_takes_the_selection_when_asked_and_there_is_one(make_app, fake_backend, monkeypatch):
    from PySide6.QtGui import QGuiApplication

    app = make_app(fake_backend, settings=Settings(translate_selection=True))
    shown = []
    monkeypatch.setattr(app.popup, "show_text", lambda text: shown.append(text))
    monkeypatch.setattr(QGuiApplication, "clipboard", staticmethod(lambda: _X11Clipboard("copied", "selected")))
    app.translate_clipboard()
    monkeypatch.setattr(QGuiApplication, "clipboard", staticmethod(lambda: _X11Clipboard("copied", "")))
    app.translate_clipboard()  # nothing selected: the clipboard
    app.settings.translate_selection.set(False)
    monkeypatch.setattr(QGuiApplication, "clipboard", staticmethod(lambda: _X11Clipboard("copied", "selected")))
    app.translate_clipboard()
    assert shown == ["selected", "copied", "copied"]


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_every_caption_keeps_its_distance_from_its_field(qtbot, ui_dirs, language):
    """ "LibreTranslate、DeepL" touched its field in the Chinese UI."""
    from PySide6.QtWidgets import QFormLayout

    from fanyi.ui import i18n
    from fanyi.ui.settings_dialog import FIELD_GAP

    i18n.install(language)
    dialog = SettingsDialog(Settings(), tray_available=True)
    qtbot.addWidget(dialog)
    dialog.show()
    for index in range(dialog.tabs.count()):
        dialog.tabs.setCurrentIndex(index)
        form = dialog.tabs.widget(index).layout()
        if not isinstance(form, QFormLayout):
            continue  # a tab that is a table (the glossary), not captions and fields
        form.activate()
        for row in range(form.rowCount()):
            caption = form.itemAt(row, QFormLayout.ItemRole.LabelRole)
            field = form.itemAt(row, QFormLayout.ItemRole.FieldRole)
            if caption is None or field is None or not caption.widget().text():
                continue
            label = caption.widget()
            text_right = label.x() + label.fontMetrics().horizontalAdvance(label.text())
            assert text_right + FIELD_GAP <= field.geometry().x() + 1, (label.text(), text_right, field.geometry())


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_every_tab_title_is_whole_at_the_default_size(qtbot, ui_dirs, language):
    """English opened at 560 px and cut the Glossary tab to "G" behind scroll arrows."""
    from PySide6.QtWidgets import QToolButton

    from fanyi.ui import i18n

    i18n.install(language)
    dialog = SettingsDialog(Settings(), tray_available=True)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    bar = dialog.tabs.tabBar()
    assert not [b for b in bar.findChildren(QToolButton) if b.isVisible()]  # no scroll arrows
    assert all(bar.tabRect(i).right() < bar.width() for i in range(bar.count()))
    assert dialog.tabs.geometry().right() < dialog.width()  # and the dialog holds the whole tab widget
    assert all(bar.tabText(i) for i in range(bar.count()))
