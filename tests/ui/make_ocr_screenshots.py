"""Screenshots for the README and docs/: screenshot translation — the region overlay mid-drag, then the popup.

Run under an X server (the real xcb platform, not offscreen), from the repository root, with the
OCR models in assets/ocr (packaging/ocr_models.py) and xdotool and ImageMagick installed:

    Xvfb :141 -screen 0 1060x680x24 & DISPLAY=:141 PYTHONPATH=app:tests:tests/ui python tests/ui/make_ocr_screenshots.py

A plain window stands in for another application showing text. The screen capture, the overlay,
the mouse drag (real X events from xdotool), the OCR (the real models, in the worker thread) and
the popup are the real application; the translation comes from make_screenshots' scripted stand-in
translator, because no real model can be downloaded here. If OCR misread a sentence, the stand-in
would not know it and the popup would show the English unchanged.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from make_screenshots import CANNED, DemoTranslator, capture, play
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication, QLabel

PAGE = "Screenshot translation needs no cloud service. Fanyi reads the text with an offline OCR model."
CANNED.update(
    {
        "Screenshot translation needs no cloud service.": "截图翻译无需云服务。",
        "Fanyi reads the text with an offline OCR model.": "Fanyi 用离线 OCR 模型识别文字。",
    }
)
DRAG = ((48, 100), (610, 200))  # screen pixels around the page's text


class Translator(DemoTranslator):
    source_languages: tuple[str, ...] = ()  # what the worker asks of a Translator since many-to-many packs
    target_languages: tuple[str, ...] = ()


def demo_pack(tmp: Path) -> None:
    """A tiny random pack named opus-mt-en-zh, so the app lists a valid pack; the stand-in translates."""
    from tiny_models.synthetic import build_tiny_folder

    from fanyi.export.convert import export_pack

    hf = build_tiny_folder(tmp / "hf", direction="en-zh", multi_target=True)
    export_pack(hf, tmp / "models" / DemoTranslator.name, name=DemoTranslator.name)


def xdotool(*args: str) -> None:
    subprocess.run(["xdotool", *args], check=True)


def main() -> int:
    tmp = Path(tempfile.mkdtemp(prefix="fanyi-shots-"))
    os.environ.update(
        FANYI_DATA_DIR=str(tmp / "data"), FANYI_CONFIG_DIR=str(tmp / "config"), FANYI_MODELS_DIR=str(tmp / "models")
    )
    demo_pack(tmp)

    from fanyi.ui import i18n, theme
    from fanyi.ui.app import FanyiApp
    from fanyi.ui.settings import Settings

    qapp = QApplication(sys.argv[:1])
    i18n.install("en")
    theme.apply("light")
    app = FanyiApp(Settings(hotkey="", screenshot_hotkey=""), opener=Translator)
    page = QLabel(PAGE)
    page.setWindowTitle("A page in another application")
    page.setWordWrap(True)
    page.setMargin(28)
    page.setFont(QFont("DejaVu Serif", 15))
    page.setStyleSheet("background: white; color: #202020;")
    page.setGeometry(30, 50, 620, 220)
    page.show()
    (x0, y0), (x1, y1) = DRAG

    def popup_done() -> bool:
        if not app.popup.text().endswith("识别文字。"):
            return False
        capture("screenshot-popup.png")
        qapp.quit()
        return True

    steps = [
        app.translate_screen_region,
        lambda: xdotool("mousemove", str(x0), str(y0), "mousedown", "1"),
        lambda: xdotool("mousemove", str((x0 + x1) // 2), str((y0 + y1) // 2)),
        lambda: xdotool("mousemove", str(x1), str(y1)),
        lambda: capture("screenshot-region.png"),
        lambda: xdotool("mouseup", "1"),
        popup_done,
    ]

    play(qapp, steps, interval_ms=300, start_ms=800)
    app.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
