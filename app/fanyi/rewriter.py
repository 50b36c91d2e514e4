"""Chinese asked for in Chinese, written anew by OpenCC where a translator would translate it: no model.

The router (fanyi.routing) decides that a text is Chinese already and its target is Chinese written
one way (``Route.rewrite``, ``Choice.rewrite``); a ``Rewriter`` then stands in for the Translator in
the local API, the command line, the window's worker and the documents' code, which call it as they
call a Translator. No Qt, no ONNX Runtime.

A text is Chinese as a whole when most of its letters are; an English sentence in it ("Hello there.
今天天气很好。") goes its own way: to ``others``, a translator from English into the Chinese asked for,
where the caller has one, else it stays as it is and the result lists it as untranslated (a Failure).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from fanyi import langid, variants
from fanyi.cancel import CancelToken
from fanyi.engine import (
    NO_MODEL,
    DecodeOptions,
    Failure,
    LanguageChoice,
    StreamEvent,
    TermLost,
    Translation,
    separator_text,
    split_text,
)
from fanyi.languages import CHINESE, ENGLISH


class SentenceTranslator(Protocol):
    """What translates an English sentence of a Chinese text (a Translator, or the documents' one)."""

    def translate_results(
        self,
        texts: list[str],
        options: DecodeOptions | None = None,
        progress: Callable[[int, int], None] | None = None,
        cancel: CancelToken | None = None,
    ) -> list[Translation]: ...


NAME = "OpenCC"  # what a rewritten text says it came from (the window's history, the status bar)


def english(sentence: str) -> bool:
    """Whether a sentence of a Chinese text is English: more of its letters Latin than Han (a Han character
    weighing as langid weighs it)."""
    found = langid.detect(sentence, [CHINESE, ENGLISH], prefer=[CHINESE], block=False)
    return found.language == ENGLISH and found.confidence > 0


@dataclass
class Rewriter:
    """Writes Chinese text the way ``way`` (a key of variants.REWRITE) says; the options are ignored.
    ``others`` opens (when first needed) what translates its English sentences, with ``others_options``."""

    way: str
    others: Callable[[], SentenceTranslator] | None = None
    others_options: DecodeOptions | None = None
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
        self.last_stats = {"tokens": 0, "seconds": 0.0, "opencc": self.opencc, "written": self.way}
        self._translator: SentenceTranslator | None = None

    def mixed(self, text: str) -> bool:
        """Whether ``text`` has an English sentence, which OpenCC alone would leave English."""
        return any(piece.translate and english(piece.text) for piece in split_text(text, source_lang=CHINESE))

    def translate(self, text: str, options: DecodeOptions | None = None, cancel: CancelToken | None = None) -> str:
        return Translation.collect(self.translate_stream(text, options, cancel)).text

    def translate_stream(
        self, text: str, options: DecodeOptions | None = None, cancel: CancelToken | None = None
    ) -> Iterator[StreamEvent]:
        if cancel is not None:
            cancel.raise_if_cancelled()
        started = time.perf_counter()
        pieces = split_text(text, source_lang=CHINESE)
        if not any(piece.translate and english(piece.text) for piece in pieces):
            yield variants.rewrite(text, self.way)  # the whole text at once: its layout exactly as it was
        else:  # sentence by sentence, joined as Chinese: the Chinese written anew, the English translated
            for i, piece in enumerate(pieces):
                if between := separator_text(pieces, i, CHINESE):
                    yield between
                if not piece.translate:
                    continue
                if not english(piece.text):
                    yield variants.rewrite(piece.text, self.way)
                elif (translator := self._english_translator()) is not None:
                    (result,) = translator.translate_results([piece.text], self.others_options, cancel=cancel)
                    yield result.text
                    yield from result.failures
                    yield from (TermLost(term) for term in result.lost_terms)
                else:  # kept, and listed
                    yield piece.text
                    yield Failure(piece.text, NO_MODEL)
        seconds = time.perf_counter() - started
        self.last_stats = {"tokens": 0, "seconds": seconds, "opencc": self.opencc, "written": self.way}

    def _english_translator(self) -> SentenceTranslator | None:
        if self._translator is None and self.others is not None:
            self._translator = self.others()
        return self._translator

    def translate_results(
        self,
        texts: list[str],
        options: DecodeOptions | None = None,
        progress: Callable[[int, int], None] | None = None,
        cancel: CancelToken | None = None,
        contexts: Sequence[str] | None = None,
        formatted: Sequence[bool] | None = None,  # never set: a rewriter does not take marked text (no takes_formatted)
    ) -> list[Translation]:
        results = [Translation.collect(self.translate_stream(text, options, cancel)) for text in texts]
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
