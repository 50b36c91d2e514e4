"""Screenshots of the dictionary: the clipboard popup with a word's entry above its translation, and the
main window with a phrase's.

Run under an X server (the real xcb platform, not offscreen), from the repository root:

    Xvfb :99 -screen 0 1060x680x24 & DISPLAY=:99 openbox &
    DISPLAY=:99 PYTHONPATH=app:tests python tests/ui/make_dictionary_screenshots.py

FANYI_SHOT_LANGUAGE (en, zh_CN), FANYI_SHOT_THEME (light, dark) and FANYI_SHOT_DIR as for make_screenshots.py.
The dictionary is converted from tests/dictionary_data.py's rows (ECDICT's format and shapes); the model is
make_screenshots.py's stand-in engine with canned translations.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from dictionary_data import write_csv
from make_screenshots import CANNED, DemoTranslator, capture, demo_opener, demo_pack, play
from PySide6.QtCore import QPoint
from PySide6.QtGui import QCursor, QGuiApplication
from PySide6.QtWidgets import QApplication

WORD = "went"
PHRASE = "took off"
CANNED.update({WORD: "去了", PHRASE: "起飞了"})


def main() -> int:
    tmp = Path(tempfile.mkdtemp(prefix="fanyi-dict-shots-"))
    os.environ.update(
        FANYI_DATA_DIR=str(tmp / "data"), FANYI_CONFIG_DIR=str(tmp / "config"), FANYI_MODELS_DIR=str(tmp / "models")
    )
    demo_pack(tmp / "models" / DemoTranslator.name, DemoTranslator)

    from fanyi import paths
    from fanyi.dictionary.build import convert
    from fanyi.ui import i18n, theme
    from fanyi.ui.app import FanyiApp
    from fanyi.ui.settings import Settings

    paths.dictionaries_dir().mkdir(parents=True)
    convert(write_csv(tmp / "ecdict.csv"), paths.dictionaries_dir() / "ecdict.sqlite", meta={"id": "ecdict"})
    language = os.environ.get("FANYI_SHOT_LANGUAGE", "en")
    suffix = "" if language == "en" else "-zh"
    qapp = QApplication(sys.argv[:1])
    i18n.install(language)
    theme.apply(os.environ.get("FANYI_SHOT_THEME", "light"))
    app = FanyiApp(Settings(hotkey="", history=False), opener=demo_opener)
    win = app.window
    win.setGeometry(30, 30, 1000, 600)
    win.show()

    def popup() -> bool:
        if app.service.model is None:
            return False
        QGuiApplication.clipboard().setText(WORD)
        QCursor.setPos(QPoint(420, 120))
        app.translate_clipboard()
        return True

    def popup_done() -> bool:
        if app.popup.text() != CANNED[WORD]:
            return False
        app.popup.card.fold_button.click()  # the English definition unfolded: all of the card shown
        capture(f"popup-dictionary{suffix}.png")
        app.popup.hide()
        win.source.set_text(PHRASE)
        return True

    def window_done() -> bool:
        if win.target.view.text() != CANNED[PHRASE]:
            return False
        capture(f"main-window-dictionary{suffix}.png")
        qapp.quit()
        return True

    play(qapp, [popup, popup_done, window_done], interval_ms=200, start_ms=800)
    app.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
