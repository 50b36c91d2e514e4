"""The history window: search recent translations, reopen one, or clear them all."""

from __future__ import annotations

import datetime

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from fanyi.ui.history import Entry, History

PREVIEW = 90


def _one_line(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= PREVIEW else flat[: PREVIEW - 1] + "…"


class HistoryDialog(QDialog):
    reopen = Signal(str)  # the source text of the chosen entry

    def __init__(self, history: History, recording: bool, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._history = history
        self._recording = recording
        self.search = QLineEdit()
        self.search.setClearButtonEnabled(True)
        self._search_timer = QTimer(self, singleShot=True, interval=200)
        self._search_timer.timeout.connect(self.refresh)
        self.search.textChanged.connect(self._search_timer.start)
        self.list = QListWidget()
        self.list.setWordWrap(True)
        self.list.itemActivated.connect(self._on_activated)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.clear_button = QPushButton(clicked=self.clear)
        footer = QHBoxLayout()
        footer.addWidget(self.note, 1)
        footer.addWidget(self.clear_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.search)
        layout.addWidget(self.list)
        layout.addLayout(footer)
        self.resize(640, 480)
        self.retranslate()

    def entries(self) -> list[Entry]:
        return self._history.search(self.search.text())

    def refresh(self) -> None:
        self.list.clear()
        for entry in self.entries():
            when = datetime.datetime.fromtimestamp(entry.created).strftime("%Y-%m-%d %H:%M")
            item = QListWidgetItem(f"{when}  {_one_line(entry.source)}\n→ {_one_line(entry.target)}")
            item.setData(Qt.ItemDataRole.UserRole, entry.source)
            item.setToolTip(entry.target)
            self.list.addItem(item)
        self.clear_button.setEnabled(self.list.count() > 0)

    def clear(self) -> None:
        answer = QMessageBox.question(self, self.tr("Clear history"), self.tr("Delete every saved translation?"))
        if answer == QMessageBox.StandardButton.Yes:
            self._history.clear()
            self.refresh()

    def _on_activated(self, item: QListWidgetItem) -> None:
        self.reopen.emit(item.data(Qt.ItemDataRole.UserRole))
        self.accept()

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("History"))
        self.search.setPlaceholderText(self.tr("Search"))
        self.clear_button.setText(self.tr("Clear history"))
        if self._recording:
            self.note.setText(self.tr("Double-click an entry to open it again."))
        else:
            self.note.setText(self.tr("History is switched off in Settings: new translations are not saved."))
        self.refresh()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
