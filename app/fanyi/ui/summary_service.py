"""Summaries in the app: one QObject in its own QThread runs fanyi.summaries jobs; the GUI follows them by signal.

The window, the documents dialog and the popup are channels, each with its latest request (a new one cancels
the running one of its channel). A job reads its text (a document's, in this thread), asks fanyi.summaries
which packs make the summary, and holds their models while it runs: the window's own model through the
TranslationService's gate (one copy in memory, its turn shared with the window and the local API), the others
opened here and kept for the next summary until a summary needs other packs.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QThread, Signal, Slot

from fanyi import limits, summaries
from fanyi.cancel import Cancelled, CancelToken
from fanyi.documents.base import DocumentError
from fanyi.engine import Rewind, TranslatorGate
from fanyi.ui.panes import TargetView
from fanyi.ui.worker import LatestRequests, OpenTranslator, open_translator

if TYPE_CHECKING:
    from fanyi.library.installed import PackInfo

log = logging.getLogger(__name__)


@dataclass
class _Request:
    req_id: int
    channel: str
    packs: list[PackInfo]  # the installed packs when it was asked (read in the GUI thread)
    text: str | None  # typed or copied text, or
    path: Path | None  # a document
    target: str | None
    length: str
    token: CancelToken


class SummaryWorker(QObject):
    progress = Signal(int, str, int, int)  # req_id, stage (summaries.Progress), done, total
    delta = Signal(int, str)
    rewound = Signal(int, int)
    finished = Signal(int, object)  # summaries.Summary
    failed = Signal(int, str)
    cancelled = Signal(int)

    def __init__(self, opener: OpenTranslator, gate: TranslatorGate) -> None:
        super().__init__()
        self._open, self._gate = opener, gate
        self.pending: LatestRequests[_Request] = LatestRequests()  # submitted from the GUI thread
        self._own: dict[Path, Any] = {}  # Translators, worker thread only (worker.py imports the engine)

    @Slot()
    def run_next(self) -> None:
        request = self.pending.take()
        if request is None:
            return
        try:
            summary = self._summarize(request)
        except Cancelled:
            self.cancelled.emit(request.req_id)
        except (ValueError, OSError, DocumentError) as exc:  # what the text, the document or the packs say
            self.failed.emit(request.req_id, str(exc).strip() or type(exc).__name__)
        except Exception as exc:
            log.exception("summary failed")
            self.failed.emit(request.req_id, str(exc).strip() or type(exc).__name__)
        else:
            self.finished.emit(request.req_id, summary)

    def _summarize(self, request: _Request) -> summaries.Summary:
        token = request.token
        if request.path is not None:
            paragraphs = summaries.read_paragraphs(request.path, token)
        else:
            paragraphs = summaries.paragraphs_of(request.text or "")
        summaries.check_text(paragraphs)
        token.raise_if_cancelled()
        sample = "\n".join(paragraphs)[: limits.DETECT_SAMPLE_CHARS]
        plan = summaries.plan(request.packs, sample, request.target)
        needed = [plan.summarizer] + [r.direction.pack for r in (plan.before, plan.after) if r and r.direction]
        with ExitStack() as held:
            translators = self._hold(needed, held, token)
            job = summaries.summarize(paragraphs, plan, translators.__getitem__, length=request.length, cancel=token)
            while True:
                try:
                    event = next(job)
                except StopIteration as done:
                    result: summaries.Summary = done.value
                    return result
                if isinstance(event, summaries.Progress):
                    self.progress.emit(request.req_id, event.stage, event.done, event.total)
                elif isinstance(event, Rewind):
                    self.rewound.emit(request.req_id, event.chars)
                else:
                    self.delta.emit(request.req_id, event)

    def _hold(self, packs: Sequence[PackInfo], held: ExitStack, token: CancelToken) -> dict[Path, Any]:
        """The packs' translators for the job: the window's through its gate, the others this worker's own
        (the ones no summary needs now are let go first, so at most the packs of one summary are in memory)."""
        shared = self._gate.translator
        shared_path = getattr(getattr(shared, "pack", None), "path", None)
        wanted = {Path(p.path) for p in packs}
        for path in list(self._own):
            if path not in wanted or path == shared_path:
                del self._own[path]
        translators: dict[Path, Any] = {}
        for pack in sorted(packs, key=lambda p: str(p.path)):
            path = Path(pack.path)
            if shared_path is not None and path == Path(shared_path):
                translator = held.enter_context(self._gate.use(token))
                if translator is not None and Path(translator.pack.path) == path:
                    translators[path] = translator
                    continue
            if path not in self._own:
                self._own[path] = self._open(path, None)
            translators[path] = self._own[path]
        return translators


class SummaryService(QObject):
    """The GUI-thread handle on the summary worker."""

    progress = Signal(int, str, int, int)
    delta = Signal(int, str)
    rewound = Signal(int, int)
    finished = Signal(int, object)
    failed = Signal(int, str)
    cancelled = Signal(int)
    _wake = Signal()

    def __init__(
        self, gate: TranslatorGate, packs: Callable[[], list[PackInfo]], opener: OpenTranslator = open_translator
    ) -> None:
        super().__init__()
        self._packs = packs  # the usable packs, summarizers included (PackController.usable)
        self._ids = itertools.count(1)
        self._tokens: dict[str, CancelToken] = {}
        self._thread = QThread()
        self._thread.setObjectName("fanyi-summaries")
        self._worker = SummaryWorker(opener, gate)
        self._worker.moveToThread(self._thread)
        self._wake.connect(self._worker.run_next)
        for name in ("progress", "delta", "rewound", "finished", "failed", "cancelled"):
            getattr(self._worker, name).connect(getattr(self, name))
        self._thread.start()

    def request(
        self,
        channel: str,
        *,
        text: str | None = None,
        path: Path | None = None,
        target: str | None = None,
        length: str = summaries.SHORT,
    ) -> int:
        req_id = next(self._ids)
        self.cancel(channel)
        token = self._tokens[channel] = CancelToken()
        self._worker.pending.submit(_Request(req_id, channel, list(self._packs()), text, path, target, length, token))
        self._wake.emit()
        return req_id

    def cancel(self, channel: str) -> None:
        if token := self._tokens.pop(channel, None):
            token.cancel()

    def shutdown(self) -> None:
        for channel in list(self._tokens):
            self.cancel(channel)
        self._thread.quit()
        self._thread.wait()


class SummaryStream(QObject):
    """One channel's summary as it streams into a TargetView, as RequestStream follows a translation."""

    def __init__(
        self,
        service: SummaryService,
        channel: str,
        view: TargetView,
        *,
        progress: Callable[[str, int, int], None],
        finished: Callable[[summaries.Summary], None],
        failed: Callable[[str], None],
    ) -> None:
        super().__init__(view)
        self.req_id: int | None = None
        self._service, self._channel, self._view = service, channel, view
        self._progress, self._finished, self._failed = progress, finished, failed
        service.progress.connect(self._on_progress)
        service.delta.connect(lambda req_id, text: self._view.append(text) if req_id == self.req_id else None)
        service.rewound.connect(lambda req_id, chars: self._view.rewind(chars) if req_id == self.req_id else None)
        service.finished.connect(self._on_finished)
        service.failed.connect(self._on_failed)
        service.cancelled.connect(lambda req_id: self._forget(req_id))

    def request(self, **asked: Any) -> None:
        self._view.set_text("")
        self._view.begin()
        self.req_id = self._service.request(self._channel, **asked)

    def cancel(self) -> None:
        self._service.cancel(self._channel)
        self.req_id = None

    @property
    def running(self) -> bool:
        return self.req_id is not None

    def _forget(self, req_id: int) -> bool:
        if req_id != self.req_id:
            return False
        self.req_id = None
        return True

    def _on_progress(self, req_id: int, stage: str, done: int, total: int) -> None:
        if req_id == self.req_id:
            self._progress(stage, done, total)

    def _on_finished(self, req_id: int, summary: summaries.Summary) -> None:
        if self._forget(req_id):
            self._finished(summary)

    def _on_failed(self, req_id: int, message: str) -> None:
        if self._forget(req_id):
            self._failed(message)
