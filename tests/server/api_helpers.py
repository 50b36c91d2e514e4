"""Sample texts for the tiny packs, and translators for what the tiny model cannot show: one that
fails, one that takes its time.

The translators have the real Translator's surface that the server uses (translate_batch, translate_stream,
pack, languages, target tokens) and are built over a real pack's manifest.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

from fanyi.cancel import CancelToken
from fanyi.engine.options import DecodeOptions
from fanyi.engine.pack import ModelPack
from fanyi.engine.results import Translation
from fanyi.library.installed import PackInfo

# The tools' tests (test_tools.py, test_chat_tools.py): the key of a keyed server, and the options a client's
# Simplified and Traditional (Taiwan's, by OpenCC) come out as
KEY = "s3cret-key"
HANS = DecodeOptions(target="cmn_Hans")
TAIWAN = DecodeOptions(target="cmn_Hans", convert="zh-TW")

# Texts the tiny random packs translate into something non-empty (and different per target token).
EN = ["Good morning.", "The weather is fine today.", "Where is the station?", "Thank you very much."]
ZH = ["今天天气很好。", "我喜欢看书。"]


def pack_info(path: Path) -> PackInfo:
    return PackInfo.of(ModelPack.open(path, verify=False), bundled=False)


WAIT_SECONDS = 30.0  # what a condition may take on a busy machine before a test fails


def wait_until(condition, what: str = "the condition", seconds: float = WAIT_SECONDS) -> None:
    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.01)


def en_zh_gate(server):
    """The TranslatorGate of the pack a test server translates English into Chinese with (opened now)."""
    return server.core.models.gate(server.core.route("en", "zh", "").direction.pack)


STEP_SECONDS = 0.005
MAX_STEPS = 4000  # 20 s: a translation nobody cancels still ends, so a broken test fails instead of hanging


class _Double:
    def __init__(self, pack_dir: Path) -> None:
        self.pack = ModelPack.open(pack_dir, verify=False)
        self.name, self.source_lang, self.target_lang = self.pack.name, self.pack.source_lang, self.pack.target_lang
        self.target_tokens = dict(self.pack.target_tokens)
        self.default_target = self.pack.default_target
        self.last_stats = {"tokens": 0, "seconds": 0.0}

    def translate_results(self, texts, options=None, progress=None, cancel=None, contexts=None):
        """What Translator.translate_results gives, made of the double's translate_batch (no failures)."""
        return [Translation(text) for text in self.translate_batch(texts, options, progress, cancel)]


class ExplodingTranslator(_Double):
    def translate_batch(self, texts, options=None, progress=None, cancel=None):
        raise RuntimeError("the decoder exploded\n  at step 3")

    def translate_stream(self, text, options=None, cancel=None):
        yield "半"
        raise RuntimeError("the decoder exploded")


class SlowTranslator(_Double):
    """Decodes one step every few milliseconds until its CancelToken fires; records every token it got."""

    def __init__(self, pack_dir: Path) -> None:
        super().__init__(pack_dir)
        self.tokens: list[CancelToken] = []
        self.started = threading.Event()
        self.stopped_early = threading.Event()

    def _steps(self, cancel: CancelToken | None):
        self.tokens.append(cancel)
        self.started.set()
        for step in range(MAX_STEPS):
            if cancel is not None and cancel.cancelled:
                self.stopped_early.set()
                cancel.raise_if_cancelled()
            time.sleep(STEP_SECONDS)
            yield step

    def translate_batch(self, texts, options=None, progress=None, cancel=None):
        for _ in self._steps(cancel):
            pass
        return ["慢" for _ in texts]

    def translate_stream(self, text, options=None, cancel=None):
        for step in self._steps(cancel):
            if step % 10 == 0:
                yield "慢"


class BatchedTranslator(_Double):
    """Translates in batches of one step each, calling ``progress`` between them as Translator does;
    a text holding "long" takes steps until its CancelToken fires, any other text two steps."""

    def __init__(self, pack_dir: Path) -> None:
        super().__init__(pack_dir)
        self.long_started = threading.Event()
        self.finished: list[str] = []  # texts, in the order their translations ended

    def translate_batch(self, texts, options=None, progress=None, cancel=None):
        long = any("long" in text for text in texts)
        if long:
            self.long_started.set()
        try:
            for step in range(MAX_STEPS if long else 2):
                if cancel is not None:
                    cancel.raise_if_cancelled()
                time.sleep(STEP_SECONDS)
                if progress is not None:
                    progress(step + 1, MAX_STEPS)
        finally:
            self.finished += texts
        return ["译" for _ in texts]

    def translate_stream(self, text, options=None, cancel=None):
        for _step in range(MAX_STEPS if "long" in text else 2):
            if cancel is not None:
                cancel.raise_if_cancelled()
            time.sleep(STEP_SECONDS)
            yield "译"
        self.finished.append(text)


class EchoTranslator(_Double):
    """Gives every text back as it was, as a model does with names or a sentence it leaves untranslated."""

    def translate_batch(self, texts, options=None, progress=None, cancel=None):
        return list(texts)


class SteppedTranslator(_Double):
    """Translates in BATCHES batches of BATCH_SECONDS each, telling progress(done, total) after each batch
    as Translator does; records when each translation ended."""

    BATCHES = 3
    BATCH_SECONDS = 0.1

    def __init__(self, pack_dir: Path) -> None:
        super().__init__(pack_dir)
        self.ended: dict[str, float] = {}

    def translate_batch(self, texts, options=None, progress=None, cancel=None):
        if progress is not None:
            progress(0, self.BATCHES)
        for done in range(1, self.BATCHES + 1):
            time.sleep(self.BATCH_SECONDS)
            if progress is not None:
                progress(done, self.BATCHES)
        for text in texts:
            self.ended[text] = time.monotonic()
        return ["译" for _ in texts]


class RecordingTranslator(_Double):
    """Translates each text as "译" + the text, recording every batch it was given; while ``hold`` is
    clear it goes on stepping (and checking its CancelToken) without ending."""

    def __init__(self, pack_dir: Path) -> None:
        super().__init__(pack_dir)
        self.batches: list[list[str]] = []
        self.hold = threading.Event()
        self.hold.set()

    def translate_batch(self, texts, options=None, progress=None, cancel=None):
        self.batches.append(list(texts))
        for step in range(MAX_STEPS):
            if cancel is not None:
                cancel.raise_if_cancelled()
            time.sleep(STEP_SECONDS)
            if step >= 20 and self.hold.is_set():
                break
        return ["译" + text for text in texts]
