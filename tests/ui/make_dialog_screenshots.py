"""Screenshots of the windows besides the main one, as a person sees them: a document's job row and
coverage report, Settings (the Chinese variant, the tray options without a tray, downloads, other apps), the
model manager with the catalog the app ships (its recipes) and a licence asked about, the history, and the
page shown without a model (FANYI_SHOT_EMPTY), also while a model is converted.

Run under an X server with a window manager, from the repository root (see make_screenshots.py):

    DISPLAY=:99 FANYI_SHOT_DIR=/tmp/shots PYTHONPATH=app python tests/ui/make_dialog_screenshots.py

FANYI_SHOT_LANGUAGE (en, zh_CN) chooses the UI language. The document is translated by the tests'
stand-in engine (tests/ui/ui_fakes.py: capitals for a translation, and a sentence with LOOPS that
fails as a degenerate one does), so its report has every kind of row. The model manager lists the
checkout's assets/catalog.json, as the installed app lists the one it ships. The page without a model is
shown as it looks mid-conversion: a stand-in operation keeps the page busy and this script sends its progress
(a tiny model converts too fast to be caught), through the real widgets.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_screenshots import DemoTranslator, capture, demo_pack, play
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from ui_fakes import LOOPS, FakeTranslator

DOCUMENT = (
    f"# Release notes\n\nThe new version starts faster.\n\nThis sentence {LOOPS} and is left as it was.\n\n"
    "```\nfanyi --version\n```\n\n2024-05-01\n"
)
HISTORY = [
    (
        "Offline translation keeps your documents on your own computer, and nothing you type is ever sent to a "
        "server somewhere else.",
        "离线翻译让你的文档留在自己的电脑上，你输入的任何内容都不会发送到别处的服务器。",
    ),
    ("Please bring the latest draft of the report.", "请带上报告的最新草稿。"),
    (
        "Selected text can be translated with the hotkey without copying it first, on X11 desktops.",
        "在 X11 桌面上，选中的文字不必先复制，按快捷键即可翻译。",
    ),
]


def main() -> int:
    tmp = Path(tempfile.mkdtemp(prefix="fanyi-dialog-shots-"))
    empty = bool(os.environ.get("FANYI_SHOT_EMPTY"))
    os.environ.update(
        FANYI_DATA_DIR=str(tmp / "data"),
        FANYI_CONFIG_DIR=str(tmp / "config"),
        FANYI_MODELS_DIR=str(tmp / "models"),
    )
    (tmp / "models").mkdir(parents=True)
    if not empty:
        demo_pack(tmp / "models" / DemoTranslator.name, DemoTranslator)

    from fanyi.ui import i18n, theme
    from fanyi.ui.app import FanyiApp
    from fanyi.ui.settings import Settings

    qapp = QApplication(sys.argv[:1])
    i18n.install(os.environ.get("FANYI_SHOT_LANGUAGE", "en"))
    theme.apply("light")
    app = FanyiApp(Settings(hotkey="", target_variant="zh-TW"), opener=FakeTranslator.opener(slow=False))
    win = app.window
    win.setGeometry(30, 30, 1000, 600)
    win.show()
    if empty:

        def converting() -> bool:
            from fanyi.library.download import TransferProgress

            # an operation that runs until cancelled, so the page is busy as during a real one
            app.ops._start(
                app.ops.tr("Getting %1…").replace("%1", "opus-mt-en-zh"),
                lambda token: token.wait(60),
                lambda _result: None,
                cancellable=True,
            )
            app.ops.transfer.emit(TransferProgress("converting", 7, 12, 0.0, None, "building the MarianMT graphs"))
            return True

        def cancel() -> bool:
            app.ops.cancel()
            app.ops.wait()
            qapp.quit()
            return True

        steps = [
            lambda: capture("no-model.png") is None,
            converting,
            lambda: capture("no-model-converting.png") is None,
            cancel,
        ]
        play(qapp, steps, interval_ms=300, start_ms=800)
        app.shutdown()
        return 0

    source = tmp / "release-notes.md"
    source.write_text(DOCUMENT, encoding="utf-8")
    dialogs = {}

    def document() -> bool:
        if app.service.model is None:
            return False
        win.enqueue_document(source)
        return True

    def report() -> bool:
        rows = list(win.jobs_panel.rows.values())
        if not rows or rows[0].report_dialog is None:
            return False
        rows[0].report_dialog.move(120, 40)  # the job row stays in sight below it
        return True

    def report_shown() -> bool:
        capture("documents-report.png")
        list(win.jobs_panel.rows.values())[0].report_dialog.close()
        for text, translation in HISTORY:
            app.history.record(text, translation, pack=DemoTranslator.name)
        app.dialogs.show_history()
        dialogs["history"] = app.dialogs.open["history"]
        dialogs["history"].move(160, 80)
        return True

    def history_shown() -> bool:
        capture("history.png")
        dialogs["history"].close()
        from fanyi.ui.settings_dialog import SettingsDialog

        dialog = dialogs["settings"] = SettingsDialog(app.settings.current, app.tray.available, win)
        dialog.move(200, 60)
        dialog.show()
        return True

    def settings_tab(index: int, name: str):
        def step() -> bool:
            dialogs["settings"].tabs.setCurrentIndex(index)
            QApplication.processEvents()
            capture(name)
            return True

        return step

    def models() -> bool:
        dialogs["settings"].close()
        app.dialogs.show_models()
        manager = dialogs["models"] = app.dialogs.open["models"]
        manager.move(30, 100)
        manager.tabs.setCurrentIndex(1)
        return True

    def models_listed() -> bool:
        capture("models-available.png")
        manager = dialogs["models"]
        row = next(i for i, r in enumerate(manager.rows) if r.entry.id == "hy-mt1.5-1.8b")
        manager.available.selectRow(row)
        QTimer.singleShot(600, lambda: capture("licence-terms.png"))
        QTimer.singleShot(900, lambda: QApplication.activeModalWidget().reject())
        manager.download_selected()  # asks about the licence (a modal box: the timers above run inside it)
        return True

    def done() -> bool:
        qapp.quit()
        return True

    steps = [
        document,
        report,
        report_shown,
        history_shown,
        settings_tab(0, "settings-translation.png"),
        settings_tab(2, "settings-tray.png"),
        settings_tab(3, "settings-downloads.png"),
        settings_tab(4, "settings-apps.png"),
        models,
        models_listed,
        done,
    ]
    play(qapp, steps, interval_ms=300, start_ms=800)
    app.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
