"""UI language: strings go through Qt's translation system, and switching changes what is shown."""

from __future__ import annotations

import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from ui_fakes import LOAD_TIMEOUT

from fanyi.ui import i18n

ROOT = Path(__file__).resolve().parents[2]
TS = ROOT / "assets" / "i18n" / "fanyi_zh_CN.ts"
QM = TS.with_suffix(".qm")


def qt_tool(name: str) -> str | None:
    return shutil.which(f"pyside6-{name}") or shutil.which(f"pyside6-{name}", path=str(Path(sys.executable).parent))


def messages(ts: Path) -> dict[tuple[str, str], ET.Element]:
    root = ET.parse(ts).getroot()
    return {
        (c.findtext("name"), m.findtext("source")): m.find("translation")
        for c in root.iter("context")
        for m in c.iter("message")
    }


def test_switching_the_ui_language_changes_visible_strings(qtbot, make_app, fake_backend):
    app = make_app(fake_backend)
    win = app.window
    win.show()
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    assert (win.target.copy_button.text(), win.settings_button.text()) == ("Copy", "Settings")
    app.settings.update(ui_language="zh_CN")
    qtbot.waitUntil(lambda: win.target.copy_button.text() == "复制")
    assert win.settings_button.text() == "设置"
    assert win.source.count.text() == "字符数：0"
    assert win.pack_box.itemText(0) == "tiny-en-zh  ·  英语 → 中文"
    assert win.windowTitle() == "Fanyi 翻译 — 离线翻译器"
    app.settings.update(ui_language="en")
    qtbot.waitUntil(lambda: win.target.copy_button.text() == "Copy")
    assert win.pack_box.itemText(0) == "tiny-en-zh  ·  English → Chinese"


def test_auto_follows_the_system_locale(monkeypatch):
    from PySide6.QtCore import QLocale

    monkeypatch.setattr(QLocale, "system", lambda: QLocale(QLocale.Language.Chinese, QLocale.Country.China))
    assert i18n.resolve("auto") == "zh_CN"
    monkeypatch.setattr(QLocale, "system", lambda: QLocale(QLocale.Language.German, QLocale.Country.Germany))
    assert i18n.resolve("auto") == "en"


@pytest.mark.skipif(qt_tool("lupdate") is None, reason="pyside6-lupdate is not installed")
def test_every_ui_string_has_a_chinese_translation(tmp_path):
    fresh = tmp_path / "fresh.ts"
    # the language names are marked in fanyi.languages, which the server reads too
    sources = sorted(str(p) for p in (ROOT / "app" / "fanyi" / "ui").rglob("*.py"))
    sources.append(str(ROOT / "app" / "fanyi" / "languages" / "names.py"))
    subprocess.run([qt_tool("lupdate"), *sources, "-ts", str(fresh)], check=True, capture_output=True)
    ours = messages(TS)
    missing = [
        key
        for key in messages(fresh)
        if key not in ours
        or not (ours[key].text or "").strip()
        or ours[key].get("type") in ("unfinished", "obsolete", "vanished")
    ]
    assert missing == [], "run the commands in assets/i18n/README.md"


@pytest.mark.skipif(qt_tool("lrelease") is None, reason="pyside6-lrelease is not installed")
def test_the_compiled_qm_matches_the_ts(tmp_path):
    out = tmp_path / "fanyi_zh_CN.qm"
    subprocess.run([qt_tool("lrelease"), str(TS), "-qm", str(out)], check=True, capture_output=True)
    assert out.read_bytes() == QM.read_bytes(), "run the commands in assets/i18n/README.md"


def test_qts_own_dialogs_speak_chinese(qtbot, ui_dirs):
    """Qt's message boxes and file dialogs take their words from Qt's translation, which the app loads too
    (and the bundle keeps: packaging/pyinstaller/contents.py); two it lacks come from ours."""
    from PySide6.QtWidgets import QDialogButtonBox, QFileDialog, QLabel, QMessageBox

    i18n.install("zh_CN")
    box = QMessageBox(QMessageBox.Icon.Question, "", "", QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
    qtbot.addWidget(box)
    assert sorted(b.text() for b in box.buttons()) == ["否(&N)", "是(&Y)"]
    dialog = QFileDialog(None, "")
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog)
    qtbot.addWidget(dialog)
    assert sorted(b.text() for b in dialog.findChild(QDialogButtonBox).buttons()) == ["取消", "打开(&O)"]
    labels = {label.text() for label in dialog.findChildren(QLabel)}
    assert {"查找范围(&L)：", "文件类型(&T)："} <= labels


def test_no_english_is_left_where_the_engine_or_a_pack_speaks(qtbot, make_app, fake_backend):
    from fanyi.ui.settings_dialog import SettingsDialog

    app = make_app(fake_backend)
    win = app.window
    win.show()
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    i18n.install("zh_CN")
    # an fp32 pack's quantization was shown as "none"
    qtbot.waitUntil(lambda: win.model_label.text() == "tiny-en-zh · 全精度")
    dialog = SettingsDialog(app.settings.current, tray_available=True)
    qtbot.addWidget(dialog)
    assert [dialog.tabs.tabText(i) for i in range(dialog.tabs.count())] == [
        "翻译",
        "外观",
        "快捷键和托盘",
        "下载",
        "其他应用",
        "术语表",
    ]
    win._on_load_failed("manifest.json is missing")
    assert win.target.error.text() == "无法打开模型：manifest.json is missing"
