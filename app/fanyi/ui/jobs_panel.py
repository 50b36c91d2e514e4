"""The list of document jobs under the panes: progress and Cancel while running, Open when done.

The rows scroll in a list a few rows high, the newest on top, so that any number of documents leaves
the text panes their room; "Clear finished" forgets the jobs that are over. A job's coverage report
(ReportDialog) opens from its row's Report button; it opens by itself only when parts of the document
could not be translated, and then only when no other report is open (parts left as they were by design,
code or numbers, are not a loss).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from fanyi.ui.i18n import Retranslating
from fanyi.ui.jobs import CANCELLED, DONE, FAILED, FINISHED, QUEUED, RUNNING, DocumentJobs, Job
from fanyi.ui.open_path import open_path

if TYPE_CHECKING:
    from fanyi.ui.report_dialog import ReportDialog


class JobRow(Retranslating, QWidget):
    def __init__(self, jobs: DocumentJobs, job: Job, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._jobs = jobs
        self.job = job
        self.name = QLabel(job.source.name)
        self.name.setToolTip(str(job.source))
        self.state = QLabel()
        self.state.setWordWrap(True)
        self.bar = QProgressBar()
        self.bar.setMaximumWidth(220)
        self.cancel_button = QPushButton(clicked=lambda: jobs.cancel(job.id))
        self.open_button = QPushButton(clicked=lambda: self._open(self.job.output))
        self.folder_button = QPushButton(clicked=lambda: self._open(self.job.output and self.job.output.parent))
        self.cannot_open: QMessageBox | None = None  # the desktop could not open the output: where it is
        self.report_button = QPushButton(clicked=self.show_report)
        self.report_dialog: ReportDialog | None = None
        self.dismiss_button = QPushButton("×", clicked=lambda: jobs.remove(job.id))
        self.dismiss_button.setFlat(True)
        self.dismiss_button.setFixedWidth(28)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.name)
        layout.addWidget(self.bar)
        layout.addWidget(self.state, 1)
        for button in (
            self.cancel_button,
            self.open_button,
            self.folder_button,
            self.report_button,
            self.dismiss_button,
        ):
            layout.addWidget(button)
        self.retranslate()

    def _open(self, path: Path | None) -> None:
        if path is not None:
            self.cannot_open = open_path(path, self)

    def show_report(self) -> None:
        from fanyi.ui.report_dialog import ReportDialog  # noqa: PLC0415 - loaded when first opened

        if self.report_dialog is None:
            assert self.job.report is not None  # the button shows only then
            self.report_dialog = ReportDialog(self.job.report, self.window())
        self.report_dialog.show()
        self.report_dialog.raise_()

    def refresh(self) -> None:
        job = self.job
        running = job.state in (QUEUED, RUNNING)
        self.bar.setVisible(running)
        if job.total:
            self.bar.setRange(0, job.total)
            self.bar.setValue(job.done)
        else:
            self.bar.setRange(0, 0)  # busy until the document says how many units it has
        self.cancel_button.setVisible(running)
        self.open_button.setVisible(job.state == DONE)
        self.folder_button.setVisible(job.state == DONE)
        self.report_button.setVisible(job.report is not None)
        self.dismiss_button.setVisible(not running)
        texts = {
            QUEUED: self.tr("Waiting"),
            RUNNING: self.tr("Translating"),
            DONE: self._done(),
            FAILED: self._failure(),
            CANCELLED: self.tr("Cancelled"),
        }
        self.state.setText(texts[job.state])
        self.state.setToolTip(self._counts() if job.report is not None else job.error)

    def _done(self) -> str:
        """Where the translation is; and, when parts of it could not be translated, how many (its report says
        which)."""
        job = self.job
        text = f"→ {job.output.name}" if job.output else ""
        if job.report is not None and job.report.failed_count:
            lost = self.tr("parts not translated: %1").replace("%1", str(job.report.failed_count))
            text = f"{text} · {lost}"
        return text

    def _failure(self) -> str:
        """What went wrong, in the UI language where the kind of error is known; its details (in English,
        naming the file) are in the tooltip."""
        headlines = {
            "UnsupportedFormat": self.tr("Not a kind of document Fanyi translates"),
            "CorruptDocument": self.tr("The file is damaged"),
            "EncryptedDocument": self.tr("The file is protected by a password"),
            "NoTextFound": self.tr("Nothing in it to translate"),
            "NotTextFile": self.tr("Not a text file"),
            "NotReadable": self.tr("The file cannot be read"),
            "NotWritable": self.tr("The translation cannot be saved"),
            "DocumentTooLarge": self.tr("The file is too large"),
            "TranslationFailed": self.tr("The text could not be translated"),
        }
        return headlines.get(self.job.error_kind, self.job.error)

    def _counts(self) -> str:
        r = self.job.report
        assert r is not None  # asked only then
        return (
            self.tr("Translated %1 of %2 parts; %3 left as they were; %4 failed")
            .replace("%1", str(r.translated))
            .replace("%2", str(r.total))
            .replace("%3", str(r.kept_count))
            .replace("%4", str(r.failed_count))
        )

    def retranslate(self) -> None:
        self.cancel_button.setText(self.tr("Cancel"))
        self.open_button.setText(self.tr("Open"))
        self.folder_button.setText(self.tr("Show in folder"))
        self.report_button.setText(self.tr("Report"))
        self.dismiss_button.setToolTip(self.tr("Remove from the list"))
        self.refresh()


class JobsPanel(Retranslating, QWidget):
    """Hidden while there is no job."""

    VISIBLE_ROWS = 4  # the list's height at most, in rows; more scroll

    def __init__(self, jobs: DocumentJobs, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._jobs = jobs
        self.rows: dict[int, JobRow] = {}
        self.title = QLabel()
        self.clear_button = QPushButton(clicked=jobs.clear_finished)
        header = QHBoxLayout()
        header.setContentsMargins(0, 0, 0, 0)
        header.addWidget(self.title, 1)
        header.addWidget(self.clear_button)
        self._list = QWidget()
        self._rows = QVBoxLayout(self._list)
        self._rows.setContentsMargins(0, 0, 0, 0)
        self._rows.addStretch(1)
        self.list_area = QScrollArea()
        self.list_area.setWidgetResizable(True)
        self.list_area.setFrameShape(QFrame.Shape.NoFrame)
        self.list_area.setWidget(self._list)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addLayout(header)
        layout.addWidget(self.list_area)
        jobs.added.connect(self._on_added)
        jobs.changed.connect(self._on_changed)
        jobs.removed.connect(self._on_removed)
        self.retranslate()
        self.hide()

    def retranslate(self) -> None:
        self.clear_button.setText(self.tr("Clear finished"))
        self.clear_button.setToolTip(self.tr("Remove the documents that are done, failed or cancelled"))
        self._update_header()

    def _update_header(self) -> None:
        self.title.setText(self.tr("Documents (%1)").replace("%1", str(len(self.rows))))
        self.clear_button.setEnabled(any(row.job.state in FINISHED for row in self.rows.values()))

    def _fit(self) -> None:
        """As high as its rows, up to VISIBLE_ROWS of them; the rest scroll."""
        shown = list(self.rows.values())[-self.VISIBLE_ROWS :]
        spacing = self._rows.spacing()
        height = sum(row.sizeHint().height() + spacing for row in shown)
        self.list_area.setFixedHeight(max(height, 1))

    def _on_added(self, job: Job) -> None:
        row = JobRow(self._jobs, job)
        self.rows[job.id] = row
        self._rows.insertWidget(0, row)  # the newest on top, in sight
        self.list_area.verticalScrollBar().setValue(0)
        self._fit()
        self._update_header()
        self.show()

    def _on_changed(self, job: Job) -> None:
        if row := self.rows.get(job.id):
            row.refresh()
            report = job.report
            if report is not None and row.report_dialog is None and report.failed_count and not self._report_open():
                row.show_report()  # once, when the job is done, and only when parts of it could not be translated
            self._update_header()

    def _report_open(self) -> bool:
        return any(row.report_dialog is not None and row.report_dialog.isVisible() for row in self.rows.values())

    def _on_removed(self, job_id: int) -> None:
        if row := self.rows.pop(job_id, None):
            if row.report_dialog is not None:
                row.report_dialog.close()
                row.report_dialog.deleteLater()
            self._rows.removeWidget(row)
            row.deleteLater()
        self._fit()
        self._update_header()
        self.setVisible(bool(self.rows))
