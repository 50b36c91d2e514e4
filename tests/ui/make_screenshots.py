"""Screenshots for the README and docs/: the main window mid-translation, the clipboard popup, and the language
pickers of a many-to-many (NLLB) pack.

Run under an X server (the real xcb platform, not offscreen), from the repository root:

    Xvfb :99 -screen 0 1060x680x24 & DISPLAY=:99 PYTHONPATH=app:tests python tests/ui/make_screenshots.py

FANYI_SHOT_LANGUAGE (en, zh_CN) and FANYI_SHOT_THEME (light, dark) choose how the app looks, and
FANYI_SHOT_DIR another folder for the pictures (to look at them without replacing the committed ones).
The popup translates copied Chinese, so it shows the direction it detected (Chinese → English).

No real model can be downloaded here, so a stand-in engine streams canned Chinese translations of
the demo sentences at a human-visible pace; everything else (window, worker thread, streaming view,
popup) is the real application. The NLLB pack is a tiny random one exported here (it needs the dev
extra's torch), listed and opened for real; only its translations are canned. Captures use
ImageMagick's ``import -window root``.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from PySide6.QtCore import QPoint, QTimer
from PySide6.QtGui import QCursor, QGuiApplication
from PySide6.QtWidgets import QApplication

from fanyi.engine.pack import FORMAT_VERSION

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "assets" / "screenshots"

SOURCE = (
    "Offline translation keeps your documents on your own computer. "
    "Nothing you type is sent to a server.\n\n"
    "Fanyi streams the translation while you type, so you can read the first sentences before the last ones "
    "are finished. Unchanged sentences come from the cache."
)
CLIPBOARD = "会议已改到星期四下午。请带上报告的最新草稿。"
CLIPBOARD_EN = "Please watch the video before you install the software update."
CANNED = {
    "Offline translation keeps your documents on your own computer.": "离线翻译让你的文档留在自己的电脑上。",
    "Nothing you type is sent to a server.": "你输入的任何内容都不会发送到服务器。",
    "Fanyi streams the translation while you type, so you can read the first sentences before the last ones "
    "are finished.": "Fanyi 会在你输入时流式显示译文，因此在最后几句完成之前，你就可以先阅读前面的句子。",
    "Unchanged sentences come from the cache.": "未改动的句子直接来自缓存，软件不必再翻译一遍。",
    "The meeting has been moved to Thursday afternoon.": "会议已改到星期四下午。",
    "Please bring the latest draft of the report.": "请带上报告的最新草稿。",
    "会议已改到星期四下午。": "The meeting has been moved to Thursday afternoon. ",
    "请带上报告的最新草稿。": "Please bring the latest draft of the report.",
    "Please watch the video before you install the software update.": "安装软件更新之前，请先观看视频。",
}


class DemoTranslator:
    name, source_lang, target_lang, quantization = "opus-mt-en-zh", "en", "zh", "int8"
    target_tokens = {"cmn_Hans": ">>cmn_Hans<<", "cmn_Hant": ">>cmn_Hant<<", "yue": ">>yue<<"}
    default_target = "cmn_Hans"
    source_languages = target_languages = ()

    def __init__(self, *_args) -> None:
        self.last_stats = {"tokens": 0, "seconds": 0.0}

    def translate_stream(self, text, options=None, cancel=None):
        if options is not None and options.convert:  # 台灣正體 / 香港繁體: OpenCC, as the engine does
            from dataclasses import replace

            from fanyi.engine.converted import convert_stream

            yield from convert_stream(
                self.translate_stream(text, replace(options, convert=None), cancel), options.convert
            )
            return
        started = time.perf_counter()
        self.last_stats = {"tokens": 0, "seconds": 0.0}
        for part in re.split(r"(?<=[.!?])( +|\n+)|(?<=。)(?=\S)", text):
            if part is None:
                continue
            if not part.strip():
                if "\n" in part:
                    yield part
                continue
            out = CANNED.get(part.strip(), part)
            for i in range(0, len(out), 2):
                if cancel is not None:
                    cancel.raise_if_cancelled()
                time.sleep(0.06)
                self.last_stats["tokens"] += 1
                yield out[i : i + 2]
        self.last_stats["seconds"] = time.perf_counter() - started

    def translate_batch(self, texts, options=None, progress=None, cancel=None):
        return ["".join(self.translate_stream(t, options, cancel)) for t in texts]


class DemoTranslatorZhEn(DemoTranslator):
    name, source_lang, target_lang = "opus-mt-zh-en", "zh", "en"
    target_tokens, default_target = {}, None


NLLB_NAME = "nllb-200-distilled-600M"


class DemoTranslatorNllb(DemoTranslator):
    """The real tiny NLLB pack's languages and defaults; canned translations."""

    def __init__(self, pack_dir: Path) -> None:
        from fanyi.engine.translator import Translator

        super().__init__()
        real = Translator.open(pack_dir)
        self.name, self.source_lang, self.target_lang = real.name, real.source_lang, real.target_lang
        self.quantization = real.quantization
        self.target_tokens, self.default_target = real.target_tokens, real.default_target
        self.source_languages, self.target_languages = real.source_languages, real.target_languages


def demo_opener(pack_dir, *_args):
    name = Path(pack_dir).name
    if name == NLLB_NAME:
        return DemoTranslatorNllb(Path(pack_dir))
    return DemoTranslatorZhEn() if name == DemoTranslatorZhEn.name else DemoTranslator()


def nllb_pack(folder: Path) -> None:
    from tiny_models.synthetic import build_many_to_many_folder

    from fanyi.export.convert import export_pack

    hf = build_many_to_many_folder(folder.parent.parent / "hf-nllb", "nllb")
    export_pack(hf, folder, name=NLLB_NAME, model_id=f"facebook/{NLLB_NAME}")


def demo_pack(folder: Path, engine: type[DemoTranslator]) -> None:
    """A pack fanyi.library.installed lists as opus-mt's (its manifest, and files of the sizes it gives, sparse);
    the stand-in engine never reads them."""
    folder.mkdir(parents=True)
    files = {}
    for name, size in (
        ("encoder.onnx", 20_100_000),
        ("decoder.onnx", 57_300_000),
        ("source.spm", 806_000),
        ("target.spm", 805_000),
        ("vocab.json", 1_600_000),
    ):
        with open(folder / name, "wb") as f:
            f.truncate(size)
        files[name] = {"sha256": "0" * 64, "size": size}
    manifest = {
        "format_version": FORMAT_VERSION,
        "name": engine.name,
        "source_model": {"id": f"Helsinki-NLP/{engine.name}", "revision": None},
        "architecture": {
            "type": "marian",
            "d_model": 512,
            "encoder_layers": 6,
            "decoder_layers": 6,
            "heads": 8,
            "head_dim": 64,
            "ffn_dim": 2048,
            "vocab_size": 65001,
            "max_positions": 512,
            "activation": "swish",
            "pre_norm": False,
            "layernorm_embedding": False,
            "positions": "sinusoidal",
            "embed_scale": True,
        },
        "tokenizer": "marian",
        "source_lang": engine.source_lang,
        "target_lang": engine.target_lang,
        "special_ids": {"pad": 65000, "eos": 0, "eos_all": [0], "unk": 1, "decoder_start": 65000},
        "generation": {"num_beams": 4, "max_length": 512},
        "target_tokens": engine.target_tokens,
        "quantization": {"mode": "int8"},
        "files": files,
    }
    if engine.default_target:
        manifest["default_target"] = engine.default_target
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")


def capture(name: str) -> None:
    QApplication.processEvents()
    out = Path(os.environ.get("FANYI_SHOT_DIR", OUT))
    out.mkdir(parents=True, exist_ok=True)
    subprocess.run(["import", "-window", "root", str(out / name)], check=True)
    print("saved", out / name)


def play(qapp: QApplication, steps: list, *, interval_ms: int, start_ms: int) -> None:
    """Runs the steps in order, one per tick; a step that returns False is tried again at the next tick.
    Gives up after a minute (a step that never succeeds must not hang the script)."""

    def tick() -> None:
        if steps and steps[0]() is not False:
            steps.pop(0)

    timer = QTimer(interval=interval_ms)
    timer.timeout.connect(tick)
    QTimer.singleShot(start_ms, timer.start)
    QTimer.singleShot(60_000, qapp.quit)
    qapp.exec()


def main() -> int:
    tmp = Path(tempfile.mkdtemp(prefix="fanyi-shots-"))
    os.environ.update(
        FANYI_DATA_DIR=str(tmp / "data"), FANYI_CONFIG_DIR=str(tmp / "config"), FANYI_MODELS_DIR=str(tmp / "models")
    )
    demo_pack(tmp / "models" / DemoTranslator.name, DemoTranslator)
    demo_pack(tmp / "models" / DemoTranslatorZhEn.name, DemoTranslatorZhEn)
    nllb_pack(tmp / "models" / NLLB_NAME)

    from fanyi.ui import i18n, theme
    from fanyi.ui.app import FanyiApp
    from fanyi.ui.settings import Settings

    qapp = QApplication(sys.argv[:1])
    i18n.install(os.environ.get("FANYI_SHOT_LANGUAGE", "en"))
    theme.apply(os.environ.get("FANYI_SHOT_THEME", "light"))
    app = FanyiApp(Settings(hotkey=""), opener=demo_opener)
    win = app.window
    win.setGeometry(30, 30, 1000, 600)
    win.show()

    def mid_translation() -> bool:
        if len(win.target.view.text()) < 45:
            return False
        capture("main-window.png")
        return True

    def popup() -> bool:
        if win.stream.req_id is not None:
            return False  # let the main window finish first
        QGuiApplication.clipboard().setText(CLIPBOARD)
        QCursor.setPos(QPoint(560, 250))
        app.translate_clipboard()
        return True

    def popup_done() -> bool:
        if not app.popup.text().endswith("report."):
            return False
        capture("popup.png")
        app.popup.hide()
        taiwan = next(b for b in win.variant_group.buttons() if b.property("variant") == "zh-TW")
        taiwan.click()  # 台灣正體: the Simplified translation, converted by OpenCC
        return True

    def taiwan_done() -> bool:
        if win.stream.req_id is not None or "軟體" not in win.target.view.text():
            return False
        QGuiApplication.clipboard().setText(CLIPBOARD_EN)
        QCursor.setPos(QPoint(560, 250))
        app.translate_clipboard()
        return True

    def popup_taiwan() -> bool:
        if app.popup.stream.req_id is not None or not app.popup.text():
            return False
        capture("traditional-taiwan.png")
        app.popup.hide()
        app.direction.set_variant("cmn_Hans")
        index = win.pack_box.findData(NLLB_NAME)
        win.pack_box.setCurrentIndex(index)
        win.pack_box.activated.emit(index)  # as when a person picks it
        return True

    def pickers() -> bool:
        if app.service.model is None or app.service.model.name != NLLB_NAME or win.stream.req_id is not None:
            return False
        if not win.target.view.text():
            win.source.set_text(SOURCE.split("\n\n")[0])  # English → Chinese (Simplified), the pack's default
            return False
        win.target_picker.showPopup()
        return True

    def pickers_open() -> bool:
        capture("language-pickers.png")
        qapp.quit()
        return True

    steps = [
        lambda: win.source.set_text(SOURCE),
        mid_translation,
        popup,
        popup_done,
        taiwan_done,
        popup_taiwan,
        pickers,
        pickers_open,
    ]

    play(qapp, steps, interval_ms=100, start_ms=500)
    app.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
