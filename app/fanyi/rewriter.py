"""Chinese asked for in Chinese, written anew by OpenCC where a translator would translate it: no model.

The router (fanyi.routing) decides that a text is Chinese already and its target is Chinese written
one way (``Route.rewrite``, ``Choice.rewrite``); a ``Rewriter`` then stands in for the Translator in
the local API, the command line, the window's worker and the documents' code, which call it as they
call a Translator. No Qt, no ONNX Runtime.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from fanyi import variants
from fanyi.cancel import CancelToken
from fanyi.engine import DecodeOptions, LanguageChoice, StreamEvent, Translation

NAME = "OpenCC"  # what a rewritten text says it came from (the window's history, the status bar)


@dataclass
class Rewriter:
    """Writes Chinese text the way ``way`` (a key of variants.REWRITE) says; the options are ignored."""

    way: str
    name: str = NAME
    source_lang: str = "zh"
    takes_context: bool = False
    # the text is in the target language already: a document keeps nothing for being Chinese (documents.job)
    rewrites: bool = True
    last_stats: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.way not in variants.REWRITE:
            raise ValueError(f"Chinese cannot be written as {self.way!r} (one of {', '.join(variants.REWRITE)})")
        self.opencc, self.target_lang = variants.REWRITE[self.way]  # "s2twp", and the result's tag "zh-TW"
        self.last_stats = {"tokens": 0, "seconds": 0.0, "opencc": self.opencc}

    def translate(self, text: str, options: DecodeOptions | None = None, cancel: CancelToken | None = None) -> str:
        if cancel is not None:
            cancel.raise_if_cancelled()
        started = time.perf_counter()
        written = variants.rewrite(text, self.way)
        self.last_stats = {"tokens": 0, "seconds": time.perf_counter() - started, "opencc": self.opencc}
        return written

    def translate_stream(
        self, text: str, options: DecodeOptions | None = None, cancel: CancelToken | None = None
    ) -> Iterator[StreamEvent]:
        yield self.translate(text, options, cancel)

    def translate_results(
        self,
        texts: list[str],
        options: DecodeOptions | None = None,
        progress: Callable[[int, int], None] | None = None,
        cancel: CancelToken | None = None,
        contexts: Sequence[str] | None = None,
        formatted: Sequence[bool] | None = None,  # never set: a rewriter does not take marked text (no takes_formatted)
    ) -> list[Translation]:
        results = [Translation(self.translate(text, options, cancel)) for text in texts]
        if progress is not None:
            progress(len(texts), len(texts))
        return results

    def translate_batch(
        self,
        texts: list[str],
        options: DecodeOptions | None = None,
        progress: Callable[[int, int], None] | None = None,
        cancel: CancelToken | None = None,
    ) -> list[str]:
        return [r.text for r in self.translate_results(texts, options, progress, cancel)]

    def languages(self, options: DecodeOptions | None) -> LanguageChoice:
        return LanguageChoice(None, None, self.source_lang, self.target_lang)
