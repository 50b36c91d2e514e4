"""Screenshots of summaries in the app: the window's Summarize (an English text's summary in Chinese, the English
beside it), Documents → Summarize a document… (by section), and the popup's Summarize for a long selection.

Run under an X server with a window manager, from the repository root (see make_screenshots.py):

    DISPLAY=:99 FANYI_SHOT_DIR=/tmp/shots PYTHONPATH=app:tests python tests/ui/make_summary_screenshots.py

FANYI_SHOT_LANGUAGE (en, zh_CN) chooses the UI language. No real model can be downloaded here: a stand-in BART
pack (listed and planned for as a real one: its manifest is a BART pack's) streams canned English summaries, and
make_screenshots.py's stand-in opus-mt-en-zh translates them with canned Chinese; the window, the worker
threads, fanyi.summaries (chunks, plan, translation of the English summary) and the dialogs are the real ones.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_screenshots import CANNED, DemoTranslator, capture, demo_opener, demo_pack, play
from PySide6.QtCore import QPoint
from PySide6.QtGui import QCursor, QGuiApplication
from PySide6.QtWidgets import QApplication

from fanyi.engine.pack import FORMAT_VERSION

BART_NAME = "bart-large-cnn"
ARTICLE = (
    "The city council voted on Tuesday to build a new light rail line between the airport and the old town. "
    "The line will have twelve stations and is expected to carry forty thousand passengers a day.\n\n"
    "Construction will start next spring and take four years. The council said most of the money will come "
    "from the national transport fund, and the rest from a small increase in parking fees.\n\n"
    "Shop owners along the route welcomed the plan, but some residents worry about noise during the works. "
    "The council promised to keep night work to a minimum and to publish a timetable of the closures."
)
SUMMARIES = {  # the first words of a text → its canned summary
    "The city council": "The city council voted to build a light rail line between the airport and the old town. "
    "Construction starts next spring and takes four years. Residents worry about noise during the works.",
    "Fanyi reads": "Fanyi reads documents offline and keeps them on the computer. It translates as you type.",
    "Energy prices": "Energy prices fell for the third month. Households paid less for heating this winter.",
}
CHINESE = {
    "The city council voted to build a light rail line between the airport and the old town.": (
        "市议会投票决定修建一条连接机场和老城区的轻轨线路。"
    ),
    "Construction starts next spring and takes four years.": "工程将于明年春天开工，工期四年。",
    "Residents worry about noise during the works.": "居民担心施工期间的噪音。",
    "Fanyi reads documents offline and keeps them on the computer.": "Fanyi 离线读取文档，文档始终留在电脑上。",
    "It translates as you type.": "它会在你输入时即时翻译。",
    "Energy prices fell for the third month.": "能源价格连续第三个月下降。",
    "Households paid less for heating this winter.": "今年冬天家庭的取暖费用有所减少。",
    "Overview": "概述",
    "Prices": "价格",
}
DOCUMENT = (
    "# Overview\n\nFanyi reads documents offline and translates them on your own computer. Nothing is sent to a "
    "server, and the documents stay where they are. It also translates as you type, sentence by sentence, and "
    "shows the first sentences before the last ones are done.\n\n"
    "# Prices\n\nEnergy prices fell for the third month in a row, the statistics office said on Monday. "
    "Households paid less for heating this winter than last, and petrol was cheaper too. Economists expect "
    "prices to rise again in the summer, when demand from industry grows.\n"
)


class DemoSummarizer:
    """A BART pack's Translator as fanyi.summaries uses it, with canned English summaries streamed by words."""

    name = BART_NAME

    def __init__(self, pack_dir: Path) -> None:
        manifest = json.loads((pack_dir / "manifest.json").read_text(encoding="utf-8"))
        self.pack = SimpleNamespace(path=pack_dir, name=self.name, generation=manifest["generation"])
        self.max_summary_tokens = 1024

    def summary_tokens(self, text: str, options=None) -> int:
        return 2 + len(text.split()) * 4 // 3

    def summary_stream(self, text: str, options=None, cancel=None):
        summary = next((s for start, s in SUMMARIES.items() if text.lstrip().startswith(start)), "A summary.")
        for word in summary.split(" "):
            if cancel is not None:
                cancel.raise_if_cancelled()
            time.sleep(0.05)
            yield (" " if word != summary.split(" ")[0] else "") + word


def bart_pack(folder: Path) -> None:
    """A pack fanyi.library.installed lists as bart-large-cnn (its manifest; empty files of its sizes)."""
    folder.mkdir(parents=True)
    files = {}
    for name, size in (("encoder.onnx", 205_000_000), ("decoder.onnx", 260_000_000), ("tokenizer.json", 1_360_000)):
        with open(folder / name, "wb") as f:
            f.truncate(size)
        files[name] = {"sha256": "0" * 64, "size": size}
    manifest = {
        "format_version": FORMAT_VERSION,
        "name": BART_NAME,
        "source_model": {"id": f"facebook/{BART_NAME}", "revision": None},
        "architecture": {
            "type": "bart",
            "d_model": 1024,
            "encoder_layers": 12,
            "decoder_layers": 12,
            "heads": 16,
            "head_dim": 64,
            "ffn_dim": 4096,
            "vocab_size": 50264,
            "max_positions": 1024,
            "activation": "gelu",
        },
        "tokenizer": "tokenizers",
        "source_lang": "en",
        "target_lang": "en",
        "special_ids": {"pad": 1, "eos": 2, "eos_all": [2], "unk": 3, "decoder_start": 2, "bos": 0},
        "generation": {"num_beams": 4, "max_length": 142, "min_length": 56, "forced_bos_token_id": 0},
        "source_prefix": " ",
        "quantization": {"mode": "int8"},
        "files": files,
    }
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")


def opener(pack_dir, *args):
    return DemoSummarizer(Path(pack_dir)) if Path(pack_dir).name == BART_NAME else demo_opener(pack_dir, *args)


def main() -> int:
    tmp = Path(tempfile.mkdtemp(prefix="fanyi-summary-shots-"))
    os.environ.update(
        FANYI_DATA_DIR=str(tmp / "data"), FANYI_CONFIG_DIR=str(tmp / "config"), FANYI_MODELS_DIR=str(tmp / "models")
    )
    demo_pack(tmp / "models" / DemoTranslator.name, DemoTranslator)
    bart_pack(tmp / "models" / BART_NAME)
    CANNED.update(CHINESE)
    document = tmp / "documents" / "notes.md"
    document.parent.mkdir()
    document.write_text(DOCUMENT, encoding="utf-8")

    from fanyi.ui import i18n, theme
    from fanyi.ui.app import FanyiApp
    from fanyi.ui.settings import Settings

    qapp = QApplication(sys.argv[:1])
    i18n.install(os.environ.get("FANYI_SHOT_LANGUAGE", "en"))
    theme.apply(os.environ.get("FANYI_SHOT_THEME", "light"))
    app = FanyiApp(Settings(hotkey="", translate_as_you_type=False), opener=opener)
    win = app.window
    win.setGeometry(30, 30, 1000, 600)
    win.show()
    state = {}

    def summarize() -> bool:
        if app.service.model is None:
            return False
        win.source.set_text(ARTICLE)
        win.source.summarize_button.click()
        return True

    def summarized() -> bool:
        if win.summary_stream is None or win.summary_stream.running:
            return False
        capture("summary-window.png")
        win.show_summary_of(document)
        state["dialog"] = win.summary_dialog
        return True

    def by_section() -> bool:
        dialog = state["dialog"]
        if dialog.summary is None:
            return False
        dialog.length.setCurrentIndex(1)
        dialog.length.activated.emit(1)
        return True

    def dialog_done() -> bool:
        dialog = state["dialog"]
        if dialog.summary is None or not dialog.summary.sections:
            return False
        dialog.move(120, 60)
        dialog.save(".md")
        capture("summary-dialog.png")
        dialog.close()
        QGuiApplication.clipboard().setText(ARTICLE.replace("\n\n", " "))
        QCursor.setPos(QPoint(520, 200))
        app.translate_clipboard()
        return True

    def popup_summarize() -> bool:
        if app.popup.stream.req_id is not None or not app.popup.text():
            return False
        assert app.popup.summarize_button.isVisible(), "a long selection is offered a summary"
        app.popup.summarize_button.click()
        return True

    def popup_done() -> bool:
        stream = app.popup.summary_stream
        if stream is None or stream.running or "————" not in app.popup.text():
            return False
        capture("summary-popup.png")
        qapp.quit()
        return True

    play(
        qapp,
        [summarize, summarized, by_section, dialog_done, popup_summarize, popup_done],
        interval_ms=150,
        start_ms=800,
    )
    app.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
