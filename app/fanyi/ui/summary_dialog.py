"""Documents → Summarize…: a document's summary in a dialog, short or by section, saved beside it as .md or .docx.

The summary streams in as it is made, with what is being done above it; Save writes ``name.summary.zh.md``
(or .docx) beside the document, numbered when taken, all at once or not at all (fanyi.summaries.render).
Closing the dialog cancels a summary still running.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QApplication, QComboBox, QDialog, QLabel, QProgressBar, QPushButton, QWidget

from fanyi import summaries
from fanyi.ui import summary_text
from fanyi.ui.i18n import Retranslating
from fanyi.ui.layout import STRETCH, hbox, vbox
from fanyi.ui.panes import TargetView
from fanyi.ui.summary_service import SummaryService, SummaryStream

CHANNEL = "document-summary"


class SummaryDialog(Retranslating, QDialog):
    def __init__(
        self,
        service: SummaryService,
        path: Path,
        target: str | None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("summaryDialog")
        self.path, self.target = path, target
        self.summary: summaries.Summary | None = None
        self.saved: Path | None = None
        self.length = QComboBox()
        self.length.addItems(["", ""])
        self.length.activated.connect(lambda _index: self.start())
        self.length_label = QLabel()
        self.activity = QLabel()
        self.activity.setWordWrap(True)
        self.busy = QProgressBar()
        self.busy.setRange(0, 0)  # moving: the parts of a long document take their time
        self.busy.setMaximumHeight(8)
        self.busy.setTextVisible(False)
        self.view = TargetView()
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.setStyleSheet("color: palette(placeholder-text);")
        self.copy_button = QPushButton(clicked=self.copy)
        self.save_md_button = QPushButton(clicked=lambda: self.save(".md"))
        self.save_docx_button = QPushButton(clicked=lambda: self.save(".docx"))
        self.close_button = QPushButton(clicked=self.close)
        self.setLayout(
            vbox(
                hbox(self.length_label, self.length, STRETCH),
                self.activity,
                self.busy,
                (self.view, 1),
                self.note,
                hbox(self.copy_button, STRETCH, self.save_md_button, self.save_docx_button, self.close_button),
            )
        )
        self.stream = SummaryStream(
            service, CHANNEL, self.view, progress=self._progress, finished=self._finished, failed=self._failed
        )
        self.resize(760, 560)
        self.retranslate()
        self.start()

    def start(self) -> None:
        self.summary, self.saved = None, None
        self._set_saving(False)
        self.note.setText("")
        self.busy.show()
        self.activity.setText(self.tr("Reading %1…").replace("%1", self.path.name))
        length = summaries.SECTIONS if self.length.currentIndex() == 1 else summaries.SHORT
        self.stream.request(path=self.path, target=self.target, length=length)

    def copy(self) -> None:
        QApplication.clipboard().setText(self.view.text())

    def save(self, suffix: str) -> None:
        if self.summary is None:
            return
        target = summaries.output_path(self.path, self.summary.target_lang, suffix)
        try:
            self.saved = summaries.save(self.summary, target, self._file_text(self.summary))
        except OSError as exc:
            self.activity.setText(self.tr("Could not save %1: %2").replace("%1", str(target)).replace("%2", str(exc)))
            return
        self.activity.setText(self.tr("Saved: %1").replace("%1", str(self.saved)))

    def _file_text(self, summary: summaries.Summary) -> str:
        return f"{summary_text.shown(summary)}\n\n*{summary_text.note(summary)}*\n"

    def _set_saving(self, ready: bool) -> None:
        for button in (self.save_md_button, self.save_docx_button, self.copy_button):
            button.setEnabled(ready)

    def _progress(self, stage: str, done: int, total: int) -> None:
        self.activity.setText(summary_text.stage(stage, done, total))

    def _finished(self, summary: summaries.Summary) -> None:
        self.summary = summary
        self.view.finish(summary_text.shown(summary))
        self.busy.hide()
        self.activity.setText(self.tr("Summary of %1").replace("%1", self.path.name))
        self.note.setText(summary_text.note(summary))
        self._set_saving(True)

    def _failed(self, message: str) -> None:
        self.busy.hide()
        self.activity.setText(self.tr("No summary: %1").replace("%1", message))

    def closeEvent(self, event: QCloseEvent) -> None:
        self.stream.cancel()
        super().closeEvent(event)

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Summary of %1").replace("%1", self.path.name))
        self.length_label.setText(self.tr("Length:"))
        self.length.setItemText(0, self.tr("Short summary"))
        self.length.setItemText(1, self.tr("By section"))
        self.copy_button.setText(self.tr("Copy"))
        self.save_md_button.setText(self.tr("Save as Markdown"))
        self.save_docx_button.setText(self.tr("Save as Word"))
        self.close_button.setText(self.tr("Close"))
        self.view.setPlaceholderText(self.tr("The summary appears here."))
        if self.summary is not None:
            self._finished(self.summary)
