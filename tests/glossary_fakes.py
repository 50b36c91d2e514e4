"""An encoder-decoder model that loses a glossary term, as MarianMT did: it split the placeholder ZXQ1 into "ZX".

``scripted`` replaces the decoding of every Translator (the worker's, the command line's, a test's own) with one
that writes ``answer(source)`` for each sentence; ``SPLIT`` is the answer that breaks the placeholder of "hidden".
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from fanyi.engine import FAMILIES
from fanyi.engine.translator import Translator, _Outcome

SPLIT = {
    "Show the ZXQ1 files.": "显示 ZX 的文件。",  # the model split the placeholder
    "Show the hidden files.": "显示隐藏的文件。",  # the sentence as the model translates it without the glossary
    "Reset the ZXQ1.": "重置 ZXQ1。",
}


def scripted(monkeypatch: pytest.MonkeyPatch, answer: Callable[[str], str] = str.upper) -> list[str]:
    """The tiny (Marian) pack's model replaced by one that writes ``answer(source)``: by default its source
    upper-cased, as a model copies names; the sources it was given are listed."""
    seen: dict[tuple[int, ...], str] = {}
    sources: list[str] = []
    family = FAMILIES["marian"]
    real = family.encode

    def encode(tokenizer, text, choice, terms=(), context="", formatted=False):
        ids = real(tokenizer, text, choice, terms, context, formatted)
        seen[tuple(ids)] = text
        return ids

    def decode(self, parts, options, cancel):
        if False:  # a generator, as Translator._decode_checked is
            yield
        sources.extend(seen[p.ids] for p in parts)
        return [_Outcome(answer(seen[p.ids])) for p in parts]

    monkeypatch.setattr(family, "encode", encode)
    monkeypatch.setattr(Translator, "_decode_checked", decode)
    return sources
