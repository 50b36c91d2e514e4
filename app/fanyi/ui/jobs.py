"""The document queue: files dropped on the window are translated one after another in a thread.

Documents get their own Translator (opened in the jobs thread through the same factory as the live
worker) so that a long document never holds up translate-as-you-type.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QThread, Signal, Slot

from fanyi.cancel import Cancelled, CancelToken
from fanyi.documents.base import JobReport, TextTranslator
from fanyi.documents.job import JobResult, Written, translate_document
from fanyi.engine import DecodeOptions
from fanyi.ui.worker import OpenTranslator

log = logging.getLogger(__name__)

QUEUED, RUNNING, DONE, FAILED, CANCELLED = "queued", "running", "done", "failed", "cancelled"
FINISHED = (DONE, FAILED, CANCELLED)


RunDocument = Callable[..., JobResult]


@dataclass
class Job:
    """The GUI's view of one job; only the GUI thread changes it."""

    id: int
    source: Path
    bilingual: bool = False
    state: str = QUEUED
    done: int = 0
    total: int = 0
    output: Path | None = None
    summary: str = ""
    report: JobReport | None = None  # of a job that is done
    error: str = ""
    error_kind: str = ""  # the DocumentError's class name, for a headline in the UI language
    token: CancelToken = field(default_factory=CancelToken, repr=False)


@dataclass(frozen=True)
class _Spec:
    """What the jobs thread needs, copied at enqueue time so later model changes do not race."""

    job_id: int
    source: Path
    written: Written
    pack_dir: Path
    threads: int | None
    options: DecodeOptions | None
    token: CancelToken
    # given the document's first text and the documents' translator, what translates it instead (see
    # fanyi.documents.job.translate_document: OpenCC for a Chinese document asked for in Chinese)
    instead: Callable[[str, TextTranslator | None], TextTranslator | None] | None = None


class _Runner(QObject):
    started = Signal(int)
    progress = Signal(int, int, int)
    succeeded = Signal(int, str, object)  # job id, output, JobReport
    failed = Signal(int, str, str)  # job id, message, the exception's class name
    cancelled = Signal(int)

    def __init__(self, opener: OpenTranslator, run_document: RunDocument) -> None:
        super().__init__()
        self._open = opener
        self._run_document = run_document
        self._translator: TextTranslator | None = None
        self._translator_key: tuple | None = None

    def _translator_for(self, spec: _Spec) -> TextTranslator | None:
        key = (spec.pack_dir, spec.threads)
        if key != self._translator_key:
            self._translator = None  # release the old model before mapping the new one
            self._translator = self._open(spec.pack_dir, spec.threads)
            self._translator_key = key
        return self._translator

    @Slot(object)
    def run(self, spec: _Spec) -> None:
        if spec.token.cancelled:
            self.cancelled.emit(spec.job_id)
            return
        self.started.emit(spec.job_id)
        try:
            translator = self._translator_for(spec)
            choose = spec.instead
            result = self._run_document(
                spec.source,
                translator,
                bilingual=spec.written.bilingual,
                layout=spec.written.layout,
                to=spec.written.to,
                options=spec.options,
                progress=lambda done, total: self.progress.emit(spec.job_id, done, total),
                cancel=spec.token,
                instead=None if choose is None else lambda text: choose(text, translator),
            )
        except Cancelled:
            self.cancelled.emit(spec.job_id)
        except Exception as exc:  # noqa: BLE001 - DocumentError carries a sentence for the user; anything else too
            log.warning("document job %s failed: %s", spec.source, exc)
            self.failed.emit(spec.job_id, str(exc) or type(exc).__name__, type(exc).__name__)
        else:
            self.succeeded.emit(spec.job_id, str(result.output), result.report)


class DocumentJobs(QObject):
    added = Signal(object)  # Job
    changed = Signal(object)  # Job
    removed = Signal(int)  # job id

    _submit = Signal(object)

    def __init__(
        self, opener: OpenTranslator, run_document: RunDocument = translate_document, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.jobs: dict[int, Job] = {}
        self._ids = itertools.count(1)
        self._thread = QThread()
        self._thread.setObjectName("fanyi-documents")
        self._runner = _Runner(opener, run_document)
        self._runner.moveToThread(self._thread)
        self._submit.connect(self._runner.run)
        # Slots of this object, not lambdas: a lambda would run in the jobs thread that emitted.
        self._runner.started.connect(self._on_started)
        self._runner.progress.connect(self._on_progress)
        self._runner.succeeded.connect(self._on_succeeded)
        self._runner.failed.connect(self._on_failed)
        self._runner.cancelled.connect(self._on_cancelled)
        self._thread.start()

    def enqueue(
        self,
        source: Path,
        pack_dir: Path,
        threads: int | None,
        options: DecodeOptions | None,
        written: Written = Written(),
        instead: Callable[[str, TextTranslator | None], TextTranslator | None] | None = None,
    ) -> Job:
        job = Job(next(self._ids), Path(source), written.bilingual)
        self.jobs[job.id] = job
        self.added.emit(job)
        self._submit.emit(_Spec(job.id, job.source, written, Path(pack_dir), threads, options, job.token, instead))
        return job

    def cancel(self, job_id: int) -> None:
        job = self.jobs[job_id]
        job.token.cancel()
        if job.state == QUEUED:
            # Shown at once; the runner skips it when its turn comes.
            self._update(job_id, state=CANCELLED)

    def remove(self, job_id: int) -> None:
        """Forget a job that is over (the row's dismiss button)."""
        if self.jobs[job_id].state in FINISHED:
            del self.jobs[job_id]
            self.removed.emit(job_id)

    def clear_finished(self) -> None:
        """Forget every job that is over; running and waiting ones stay."""
        for job_id in [i for i, job in self.jobs.items() if job.state in FINISHED]:
            self.remove(job_id)

    def shutdown(self) -> None:
        for job in self.jobs.values():
            job.token.cancel()
        self._thread.quit()
        self._thread.wait()

    @Slot(int)
    def _on_started(self, job_id: int) -> None:
        self._update(job_id, state=RUNNING)

    @Slot(int, int, int)
    def _on_progress(self, job_id: int, done: int, total: int) -> None:
        self._update(job_id, done=done, total=total)

    @Slot(int, str, object)
    def _on_succeeded(self, job_id: int, output: str, report: JobReport) -> None:
        self._update(job_id, state=DONE, output=Path(output), summary=report.summary(), report=report)

    @Slot(int, str, str)
    def _on_failed(self, job_id: int, message: str, kind: str) -> None:
        self._update(job_id, state=FAILED, error=message, error_kind=kind)

    @Slot(int)
    def _on_cancelled(self, job_id: int) -> None:
        self._update(job_id, state=CANCELLED)

    def _update(self, job_id: int, **changes: Any) -> None:
        job = self.jobs.get(job_id)
        if job is None:
            return
        if job.state == CANCELLED and changes.get("state") in (RUNNING, CANCELLED):
            return  # cancelled while queued: the runner's late report changes nothing
        for name, value in changes.items():
            setattr(job, name, value)
        self.changed.emit(job)
