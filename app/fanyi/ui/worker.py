"""The translation worker: one QObject in its own QThread owns the Translator.

This is the only UI module that imports the Translator (and with it numpy and the families; onnxruntime
with its first session), and only when a model is opened, so the window appears before the engine is
loaded. The GUI talks to the worker through ``TranslationService``; results come back only as signals.

Requests are "latest wins" per channel (the main window and the clipboard popup are two channels):
a new request cancels the running one of its channel through its CancelToken, and a request still
waiting is replaced rather than queued behind.

The loaded Translator sits in a ``TranslatorGate`` (``TranslationService.gate``) that the local API
server shares: the model is in memory once, and the worker's requests go ahead of API requests
waiting for it.

A request may name another pack than the loaded one (the popup translating Chinese while the window
shows English→Chinese). The worker keeps one such *spare* model besides the loaded one, and the
loaded one becomes the spare when the window switches packs, so that going back and forth between
two directions costs no reload: at most two models are in memory.
"""

from __future__ import annotations

import itertools
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

from PySide6.QtCore import QCoreApplication, QObject, QThread, Signal, Slot

from fanyi.cancel import Cancelled, CancelToken
from fanyi.engine import DecodeOptions, Rewind, Translation, TranslatorGate
from fanyi.languages import ENGLISH, language_of
from fanyi.rewriter import Rewriter

if TYPE_CHECKING:
    from fanyi.engine import Translator

log = logging.getLogger(__name__)

OpenTranslator = Callable[[Path, int | None], "Translator"]


def open_translator(pack_dir: Path, threads: int | None = None) -> Translator:
    """The real engine; passed around as a factory so tests and the document queue can swap or reuse it."""
    from fanyi.engine import Translator  # noqa: PLC0415 - the engine loads in the worker thread

    return Translator.open(pack_dir, threads=threads)


@dataclass(frozen=True)
class ModelInfo:
    """What the GUI needs to know about the loaded model, copied out of the worker thread."""

    path: Path
    name: str
    source_lang: str
    target_lang: str
    quantization: str
    target_tokens: dict[str, str] = field(default_factory=dict)
    default_target: str | None = None
    # many-to-many packs (mBART-50, M2M100, NLLB): the languages, in the model's codes; empty otherwise
    source_languages: tuple[str, ...] = ()
    target_languages: tuple[str, ...] = ()

    @property
    def many_to_many(self) -> bool:
        return bool(self.target_languages)


@dataclass
class _Request:
    req_id: int
    channel: str
    text: str
    options: DecodeOptions | None
    token: CancelToken
    pack: str | None = None  # a pack folder; None for the loaded model
    rewrite: str | None = None  # Chinese written anew by OpenCC (fanyi.rewriter), no model at all


class Channeled(Protocol):
    req_id: int
    channel: str


R = TypeVar("R", bound=Channeled)


class LatestRequests(Generic[R]):
    """Each channel's latest request, waiting for a worker thread: a newer one replaces the one still waiting.
    Its methods are called from both threads; the lock is all they share besides CancelTokens."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pending: dict[str, R] = {}

    def submit(self, request: R) -> None:
        with self._lock:
            self._pending[request.channel] = request

    def take(self) -> R | None:
        """The oldest channel's request, or None."""
        with self._lock:
            if not self._pending:
                return None
            channel = min(self._pending, key=lambda c: self._pending[c].req_id)
            return self._pending.pop(channel)

    def drop_all(self) -> list[R]:
        with self._lock:
            dropped = list(self._pending.values())
            self._pending.clear()
        return dropped


def _message(exc: BaseException) -> str:
    text = str(exc).strip()
    return text if text else type(exc).__name__


class TranslationWorker(QObject):
    """Lives in the worker thread; every slot here runs there."""

    delta = Signal(int, str)
    rewound = Signal(int, int)  # drop the last n characters of the deltas (a sentence is decoded again)
    untranslated = Signal(int, object)  # the Failures of a request, just before its finished, when any
    terms_lost = Signal(int, object)  # the glossary terms a request could not keep (str), just before its finished
    finished = Signal(int, str, object)
    failed = Signal(int, str)
    cancelled = Signal(int)
    loaded = Signal(object)
    load_failed = Signal(str, str)  # pack folder, message

    def __init__(self, opener: OpenTranslator, gate: TranslatorGate) -> None:
        super().__init__()
        self._open = opener
        self._gate = gate
        self._pending: LatestRequests[_Request] = LatestRequests()
        # worker thread only: what the gate holds, the threads it was opened with, and the spare model
        self._loaded: str | None = None
        self._threads: int | None = None
        self._spare: tuple[str, Translator] | None = None

    # Called from the GUI thread.
    def submit(self, request: _Request) -> None:
        self._pending.submit(request)

    def drop_pending(self) -> list[_Request]:
        return self._pending.drop_all()

    @Slot(str, object)
    def load(self, pack_dir: str, threads: int | None) -> None:
        previous = (self._loaded, self._gate.translator) if self._threads == threads else None
        spare, self._spare = self._spare, None
        if spare is not None and spare[0] == pack_dir and self._threads == threads:
            translator = spare[1]
        else:
            spare = None  # free it before the new model is mapped
            if previous is None or previous[0] in (None, pack_dir):
                # the loaded model will not be kept as the spare either (other threads, or this very
                # pack opened again): free it first too, so two copies are never mapped at once
                previous = None
                self._gate.replace(None)
            try:
                translator = self._open(Path(pack_dir), threads)
            except Exception as exc:  # noqa: BLE001 - a broken pack must show as a message, not end the thread
                log.warning("could not open %s: %s", pack_dir, exc)
                self._gate.replace(None)
                self._loaded = None
                self.load_failed.emit(pack_dir, _message(exc))
                return
        self._gate.replace(translator)
        if previous is not None and previous[0] not in (None, pack_dir) and previous[1] is not None:
            self._spare = (previous[0], previous[1])
        self._loaded, self._threads = pack_dir, threads
        self.loaded.emit(
            ModelInfo(
                path=Path(pack_dir),
                name=translator.name,
                source_lang=translator.source_lang,
                target_lang=translator.target_lang,
                quantization=translator.quantization,
                target_tokens=dict(translator.target_tokens),
                default_target=translator.default_target,
                source_languages=tuple(translator.source_languages),
                target_languages=tuple(translator.target_languages),
            )
        )

    @Slot()
    def drop_spare(self) -> None:
        self._spare = None

    def _spare_for(self, pack_dir: str) -> Translator:
        """The spare model of ``pack_dir``, opened (in place of the previous spare) when it is another."""
        if self._spare is None or self._spare[0] != pack_dir:
            self._spare = None
            self._spare = (pack_dir, self._open(Path(pack_dir), self._threads))
        return self._spare[1]

    @Slot()
    def run_next(self) -> None:
        # One wake-up per submit, at most one request per wake-up: replaced requests leave spare
        # wake-ups that find nothing, so no request is ever left waiting.
        request = self._pending.take()
        if request is None:
            return
        if request.token.cancelled:
            self.cancelled.emit(request.req_id)
            return
        try:
            if request.rewrite is not None:
                events, stats = self._rewrite(request)
            elif request.pack is None or request.pack == self._loaded:
                with self._gate.use(request.token, urgent=True) as translator:
                    if translator is None:
                        self.failed.emit(
                            request.req_id, QCoreApplication.translate("TranslationWorker", "No model is loaded.")
                        )
                        return
                    events, stats = self._translate(request, translator)
            else:  # the spare is the worker's own: no gate, the API server never sees it
                events, stats = self._translate(request, self._spare_for(request.pack))
        except Cancelled:
            self.cancelled.emit(request.req_id)
            return
        except Exception as exc:
            log.exception("translation failed")
            self.failed.emit(request.req_id, _message(exc))
            return
        result = Translation.collect(events)
        if result.failures:
            self.untranslated.emit(request.req_id, result.failures)
        if result.lost_terms:
            self.terms_lost.emit(request.req_id, result.lost_terms)
        self.finished.emit(request.req_id, result.text, stats)

    def _rewrite(self, request: _Request) -> tuple[list, dict]:
        """Chinese written anew by OpenCC; its English sentences, where it has any, through the loaded model
        when that translates from English (the window's direction, pinned English → Chinese)."""
        assert request.rewrite is not None
        rewriter = Rewriter(request.rewrite)
        if not rewriter.mixed(request.text) or request.pack not in (None, self._loaded):
            return self._translate(request, rewriter)
        with self._gate.use(request.token, urgent=True) as translator:
            source = (request.options.source if request.options is not None else None) or (
                translator.source_lang if translator is not None else ""
            )
            if translator is not None and language_of(source).code == ENGLISH:
                rewriter = Rewriter(request.rewrite, others=lambda: translator, others_options=request.options)
            return self._translate(request, rewriter)

    def _translate(self, request: _Request, translator: Translator | Rewriter) -> tuple[list, dict]:
        events = []
        for event in translator.translate_stream(request.text, request.options, request.token):
            events.append(event)
            if isinstance(event, str):
                self.delta.emit(request.req_id, event)
            elif isinstance(event, Rewind):
                self.rewound.emit(request.req_id, event.chars)
        return events, dict(translator.last_stats)  # before an API request can overwrite them


class TranslationService(QObject):
    """The GUI-thread handle on the worker. All methods are for the GUI thread."""

    delta = Signal(int, str)
    rewound = Signal(int, int)
    untranslated = Signal(int, object)  # tuple[Failure, ...]
    terms_lost = Signal(int, object)  # tuple[str, ...]
    finished = Signal(int, str, object)
    failed = Signal(int, str)
    cancelled = Signal(int)
    loading = Signal(str)  # the pack folder being opened
    loaded = Signal(object)  # ModelInfo
    load_failed = Signal(str)

    _load = Signal(str, object)
    _wake = Signal()
    _drop_spare = Signal()

    def __init__(self, opener: OpenTranslator = open_translator, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.model: ModelInfo | None = None
        self.gate = TranslatorGate()  # the worker's model, shared with the local API server
        self._ids = itertools.count(1)
        self._tokens: dict[str, CancelToken] = {}
        self._thread = QThread()
        self._thread.setObjectName("fanyi-translator")
        self._worker = TranslationWorker(opener, self.gate)
        self._worker.moveToThread(self._thread)
        self._load.connect(self._worker.load)
        self._wake.connect(self._worker.run_next)
        self._drop_spare.connect(self._worker.drop_spare)
        for name in ("delta", "rewound", "untranslated", "terms_lost", "finished", "failed", "cancelled"):
            getattr(self._worker, name).connect(getattr(self, name))
        self._worker.loaded.connect(self._on_loaded)
        self._worker.load_failed.connect(self._on_load_failed)
        self._loading: str | None = None
        self._thread.start()

    def load(self, pack_dir: Path, threads: int | None = None) -> None:
        """Open a pack in the worker; requests made after this run on the new model."""
        self.model = None
        self._loading = str(pack_dir)
        self._cancel_all()
        self.loading.emit(str(pack_dir))
        self._load.emit(str(pack_dir), threads or None)

    def request(
        self,
        text: str,
        options: DecodeOptions | None = None,
        channel: str = "main",
        pack: Path | None = None,
        rewrite: str | None = None,
    ) -> int:
        """Translate ``text`` with the loaded model, or with the pack in folder ``pack`` (see the module
        docstring), or write Chinese anew the way ``rewrite`` says (OpenCC, no model: fanyi.rewriter)."""
        req_id = next(self._ids)
        self.cancel(channel)
        token = CancelToken()
        self._tokens[channel] = token
        self._worker.submit(_Request(req_id, channel, text, options, token, str(pack) if pack else None, rewrite))
        self._wake.emit()
        return req_id

    def drop_spare(self) -> None:
        """Free the model kept besides the loaded one (its pack may have been removed or updated)."""
        self._drop_spare.emit()

    def cancel(self, channel: str = "main") -> None:
        if token := self._tokens.pop(channel, None):
            token.cancel()  # thread-safe; the engine stops at its next decoder step

    def shutdown(self) -> None:
        self._cancel_all()
        self._thread.quit()
        self._thread.wait()

    def _cancel_all(self) -> None:
        for channel in list(self._tokens):
            self.cancel(channel)
        for request in self._worker.drop_pending():
            self.cancelled.emit(request.req_id)

    # A pack chosen and then replaced before it finished opening reports back too: ignore it.
    @Slot(object)
    def _on_loaded(self, info: ModelInfo) -> None:
        if str(info.path) == self._loading:
            self.model = info
            self.loaded.emit(info)

    @Slot(str, str)
    def _on_load_failed(self, pack_dir: str, message: str) -> None:
        if pack_dir == self._loading:
            self.load_failed.emit(message)
