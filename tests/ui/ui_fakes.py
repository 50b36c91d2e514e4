"""A translator with the real Translator's surface and a realistic cost per token.

Each token burns a little CPU while holding the GIL and then sleeps, like a decoder step that runs
Python code around an ONNX Runtime call, so the stall test measures something real.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

from fanyi.cancel import CancelToken
from fanyi.engine.degenerate import LOOP
from fanyi.engine.options import DecodeOptions
from fanyi.engine.pack import ModelPack
from fanyi.engine.results import Failure, Rewind, Translation

TOKEN_CPU = 0.0008  # seconds of pure-Python work per token (holds the GIL)
TOKEN_SLEEP = 0.002  # seconds per token outside the GIL (the ONNX Runtime call)
EXPLODE = "EXPLODE"  # a source containing this makes the engine raise, as a broken model would
LOOPS = "LOOPS"  # a sentence containing this loops, is taken back and is left untranslated, as the engine does

LOAD_TIMEOUT = 30_000  # ms, for qtbot waits
TRANSLATE_TIMEOUT = 60_000

_SENTENCE = re.compile(r"(?<=[.!?])([ \t]+|\n+)|(\n+)")


def _burn(seconds: float) -> None:
    end = time.perf_counter() + seconds
    x = 0
    while time.perf_counter() < end:
        x += 1


class FakeTranslator:
    opened: list[FakeTranslator] = []  # every instance, so tests can look at what a worker did

    def __init__(self, pack_dir: Path, threads: int | None = None, slow: bool = True) -> None:
        pack = ModelPack.open(pack_dir, verify=False)
        self.pack = pack
        self.name, self.source_lang, self.target_lang = pack.name, pack.source_lang, pack.target_lang
        self.quantization = pack.quantization
        self.target_tokens = dict(pack.target_tokens)
        self.default_target = pack.default_target
        self.source_languages, self.target_languages = pack.source_languages, pack.target_languages
        self.threads = threads
        self.slow = slow
        self.last_stats = {"tokens": 0, "seconds": 0.0}
        self.cancelled = 0
        self.requests: list[str] = []
        self._cache: dict[tuple, str] = {}
        FakeTranslator.opened.append(self)

    @classmethod
    def opener(cls, slow: bool = True):
        return lambda pack_dir, threads=None: cls(pack_dir, threads, slow)

    @staticmethod
    def words(sentence: str, target: str | None, convert: str | None = None) -> list[str]:
        # Taiwan's and Hong Kong's Traditional (OpenCC, which the engine applies) marked as the tokens are
        mark = {"cmn_Hant": "繁", "yue": "粤"}.get(target or "", "") or {"zh-TW": "台", "zh-HK": "港"}.get(
            convert or "", ""
        )
        return [mark + w.strip(".,!?").upper() for w in sentence.split()] + ["。"]

    def _pieces(self, text: str, options: DecodeOptions | None, cancel: CancelToken | None, slow: bool):
        target = (options.target if options else None) or self.default_target
        convert = options.convert if options else None
        for part in _SENTENCE.split(text):
            if part is None or part == "":
                continue
            if not part.strip():
                if "\n" in part:
                    yield part  # paragraphs survive; spaces between sentences do not (as in Chinese)
                continue
            if EXPLODE in part:
                raise RuntimeError("the decoder exploded")
            if LOOPS in part:
                looped = self.words(part, target, convert)[:2] + ["又"] * 4
                yield from looped
                yield Rewind(len("".join(looped)))
                yield part
                yield Failure(part, LOOP)
                continue
            key = (part, target, convert)
            if key in self._cache:
                yield self._cache[key]
                continue
            out = []
            for word in self.words(part, target, convert):
                if cancel is not None and cancel.cancelled:
                    self.cancelled += 1
                    cancel.raise_if_cancelled()
                if slow:
                    _burn(TOKEN_CPU)
                    time.sleep(TOKEN_SLEEP)
                self.last_stats["tokens"] += 1
                out.append(word)
                yield word
            self._cache[key] = "".join(out)

    def translate_stream(self, text, options=None, cancel=None):
        started = time.perf_counter()
        self.requests.append(text)
        self.last_stats = {"tokens": 0, "seconds": 0.0}
        yield from self._pieces(text, options, cancel, self.slow)
        self.last_stats["seconds"] = time.perf_counter() - started

    def translate_results(self, texts, options=None, progress=None, cancel=None):
        out = []
        for done, text in enumerate(texts, 1):
            out.append(Translation.collect(self._pieces(text, options, cancel, slow=False)))
            if progress:
                progress(done, len(texts))
        return out

    def translate_batch(self, texts, options=None, progress=None, cancel=None):
        return [result.text for result in self.translate_results(texts, options, progress, cancel)]
