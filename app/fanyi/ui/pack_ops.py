"""Installing model packs from the UI: import a folder or .zip, or download and build the default.

Both take from seconds (checksums of ~100 MB) to minutes (a download and an export), so they run in
a thread and report through signals; the model manager and the no-model page share one instance and
show it with ``PackOpProgress``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QThread, Signal
from PySide6.QtWidgets import QFileDialog, QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

from fanyi import library
from fanyi.engine.options import CancelToken, Cancelled

log = logging.getLogger(__name__)


class _Call(QThread):
    def __init__(self, fn: Callable[[], object], done: Callable[[object], None], fail: Callable[[str], None]) -> None:
        super().__init__()
        self._fn, self._done, self._fail = fn, done, fail

    def run(self) -> None:
        try:
            result = self._fn()
        except Cancelled:
            self._fail("")
        except Exception as exc:  # LibraryError/PackError carry a sentence; a bug still shows, not crashes
            log.warning("pack operation failed: %s", exc)
            self._fail(str(exc) or type(exc).__name__)
        else:
            self._done(result)


class PackOperations(QObject):
    started = Signal(str)  # what is being done, for the user
    progress = Signal(int, int)  # done, total (0 total: no measure, show a busy bar)
    message = Signal(str)  # a stage of a download/build
    succeeded = Signal(object)  # library.PackInfo
    failed = Signal(str)  # "" when cancelled by the user
    finished = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._call: _Call | None = None
        self._token: CancelToken | None = None
        self.can_cancel = False

    @property
    def busy(self) -> bool:
        return self._call is not None

    def import_pack(self, source: Path) -> None:
        self._start(
            self.tr("Importing %1…").replace("%1", Path(source).name),
            lambda: library.import_pack(Path(source), progress=self.progress.emit),
            cancellable=False,  # library.import_pack has no cancel point; it is bounded by disk speed
        )

    def fetch_default(self) -> None:
        token = CancelToken()
        self._token = token
        self._start(
            self.tr("Downloading and building %1…").replace("%1", library.DEFAULT_PACK),
            lambda: library.fetch_default(progress=self.message.emit, cancel=token),
            cancellable=True,
        )

    def cancel(self) -> None:
        if self._token is not None:
            self._token.cancel()

    def wait(self) -> None:
        """Block until a running operation ends (at shutdown)."""
        self.cancel()
        if self._call is not None:
            self._call.wait()

    def _start(self, description: str, fn: Callable[[], object], cancellable: bool) -> None:
        if self.busy:
            raise RuntimeError("a pack operation is already running")
        self.can_cancel = cancellable
        # The thread reports through this object's signals, which Qt queues into the GUI thread.
        self._call = _Call(fn, self.succeeded.emit, self.failed.emit)
        self._call.finished.connect(self._on_thread_finished)
        self.started.emit(description)
        self.progress.emit(0, 0)
        self._call.start()

    def _on_thread_finished(self) -> None:
        self._call = None
        self._token = None
        self.can_cancel = False
        self.finished.emit()


class PackOpProgress(QWidget):
    """A label, a progress bar and Cancel for the running pack operation; hidden when idle."""

    def __init__(self, ops: PackOperations, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._ops = ops
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.bar = QProgressBar()
        self.cancel_button = QPushButton(clicked=ops.cancel)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.bar, 1)
        layout.addWidget(self.cancel_button)
        ops.started.connect(self._on_started)
        ops.progress.connect(self._on_progress)
        ops.message.connect(self.label.setText)
        ops.finished.connect(self.hide)
        self.setVisible(ops.busy)
        self.retranslate()

    def _on_started(self, description: str) -> None:
        self.label.setText(description)
        self.cancel_button.setVisible(self._ops.can_cancel)
        self.show()

    def _on_progress(self, done: int, total: int) -> None:
        self.bar.setRange(0, max(total, 0))
        self.bar.setValue(done)

    def retranslate(self) -> None:
        self.cancel_button.setText(self.tr("Cancel"))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)


def ask_and_import(ops: PackOperations, parent: QWidget, archive: bool) -> None:
    """Let the user pick a pack folder (or a .zip) and import it."""
    if archive:
        title = QCoreApplication.translate("pack_ops", "Import a model pack (.zip)")
        path, _ = QFileDialog.getOpenFileName(
            parent, title, "", QCoreApplication.translate("pack_ops", "Model pack (*.zip)")
        )
    else:
        title = QCoreApplication.translate("pack_ops", "Import a model pack folder")
        path = QFileDialog.getExistingDirectory(parent, title)
    if path:
        ops.import_pack(Path(path))
