"""The translation engine: model packs on ONNX Runtime, text in and text out. No Qt.

What it offers, and what the rest of Fanyi (the app, the local API, the command line, documents, OCR)
imports from here rather than from its modules:

- ``Translator``: a verified pack opened for translating, streamed (``StreamEvent``: text, ``Rewind``,
  ``Failure``, ``TermLost``) or whole (``Translation``), with ``DecodeOptions`` (``OutOfRange`` names a bad
  bound); a glossary term whose placeholder the model broke is named (``TermLost``, ``describe_lost_terms``);
  a sentence that degenerates is kept as its source and listed as a ``Failure`` (``LOOP``, ``RUNAWAY``,
  ``EMPTY``; ``NO_MODEL`` for an English sentence that fanyi.rewriter had nothing to translate with; ``REASONS``
  says each in English;
  ``describe_failures`` says them in a line); ``LanguageChoice`` is a request's languages as
  the pack's family takes them.
- ``ModelPack``: a pack's manifest and files, checked (``PackError``, ``MANIFEST``, ``FORMAT_VERSION``,
  ``file_digest``); ``FAMILIES``: the model families by name.
- ``TranslatorGate``: one translator shared by many callers, one at a time (``Busy``, ``TimedOut``).
- ``split_text``, ``separator_text``, ``join_hard_wrapped``, ``limit_length``: sentences as the engine cuts and
  joins them, and a text cut to fit a model's positions.
- ``open_session``, ``needs_reduced_range``, ``few_arenas``: ONNX Runtime as the engine sets it up, for
  the OCR models, the self-test and the server's threads.

Each name is loaded with its module when it is first asked for: ``from fanyi.engine import
DecodeOptions`` must not load the Translator (numpy, the tokenizers, every family), which the app loads in
its worker thread and ``fanyi --help`` never. ONNX Runtime itself is imported with the first session.
The exporter (fanyi.export) works with the families' export-time readers (fanyi.engine.families), which
are no part of what the engine offers at run time.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .allocator import few_arenas
    from .degenerate import EMPTY, LOOP, NO_MODEL, REASONS, RUNAWAY
    from .families import FAMILIES
    from .gate import Busy, TimedOut, TranslatorGate
    from .int8_weights import needs_reduced_range
    from .language_choice import LanguageChoice
    from .options import DecodeOptions, OutOfRange
    from .pack import ModelPack
    from .pack_format import FORMAT_VERSION, MANIFEST, PackError, file_digest
    from .results import Failure, Rewind, StreamEvent, TermLost, Translation, describe_failures, describe_lost_terms
    from .segment import join_hard_wrapped, limit_length, separator_text, split_text
    from .sessions import open_session
    from .translator import Translator

# the module of each name offered; the imports above are for type checkers (ruff and tests/test_layering.py
# hold the imports, this table and __all__ equal)
_HOMES = {
    "few_arenas": "allocator",
    "EMPTY": "degenerate",
    "LOOP": "degenerate",
    "NO_MODEL": "degenerate",
    "REASONS": "degenerate",
    "RUNAWAY": "degenerate",
    "FAMILIES": "families",
    "Busy": "gate",
    "TimedOut": "gate",
    "TranslatorGate": "gate",
    "needs_reduced_range": "int8_weights",
    "LanguageChoice": "language_choice",
    "DecodeOptions": "options",
    "OutOfRange": "options",
    "ModelPack": "pack",
    "FORMAT_VERSION": "pack_format",
    "MANIFEST": "pack_format",
    "PackError": "pack_format",
    "file_digest": "pack_format",
    "Failure": "results",
    "Rewind": "results",
    "StreamEvent": "results",
    "TermLost": "results",
    "Translation": "results",
    "describe_failures": "results",
    "describe_lost_terms": "results",
    "join_hard_wrapped": "segment",
    "limit_length": "segment",
    "separator_text": "segment",
    "split_text": "segment",
    "open_session": "sessions",
    "Translator": "translator",
}

__all__ = [
    "EMPTY",
    "FAMILIES",
    "FORMAT_VERSION",
    "LOOP",
    "MANIFEST",
    "NO_MODEL",
    "REASONS",
    "RUNAWAY",
    "Busy",
    "DecodeOptions",
    "Failure",
    "LanguageChoice",
    "ModelPack",
    "OutOfRange",
    "PackError",
    "Rewind",
    "StreamEvent",
    "TermLost",
    "TimedOut",
    "Translation",
    "Translator",
    "TranslatorGate",
    "describe_failures",
    "describe_lost_terms",
    "few_arenas",
    "file_digest",
    "join_hard_wrapped",
    "limit_length",
    "needs_reduced_range",
    "open_session",
    "separator_text",
    "split_text",
]


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_HOMES[name]}"), name)


def __dir__() -> list[str]:
    return sorted(__all__)
