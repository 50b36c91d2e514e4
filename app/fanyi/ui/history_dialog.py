"""The history window: search recent translations, star (favourites), delete, export, reopen one, clear."""

from __future__ import annotations

import datetime
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from PySide6.QtCore import QDir, QRect, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QResizeEvent, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QDialog,
    QFileDialog,
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

from fanyi.oneline import one_line
from fanyi.ui import theme
from fanyi.ui.history import Entry, History, export_csv
from fanyi.ui.i18n import Retranslating

T = TypeVar("T")

PREVIEW = 300  # characters of each text kept for an entry's line; the list cuts it to its width
STAR = "★"


class HistoryDialog(Retranslating, QDialog):
    reopen = Signal(object)  # the chosen Entry

    def __init__(self, history: History | None, recording: bool, parent: QWidget | None = None) -> None:
        """``history`` None: history is off and was never kept, so there is nothing to show (nor a file to make)."""
        super().__init__(parent)
        self._history = history
        self._recording = recording
        self._entries: list[Entry] = []
        self.search = QLineEdit()
        self.search.setClearButtonEnabled(True)
        self._search_timer = QTimer(self, singleShot=True, interval=200)
        self._search_timer.timeout.connect(self.refresh)
        self.search.textChanged.connect(self._search_timer.start)
        self.starred_only = QCheckBox()
        self.starred_only.toggled.connect(self.refresh)
        self.list = QListWidget()
        # two lines an entry, each cut with "…" at the list's width (see _label): wrapped, a line ran onto a
        # third with a word or two ("Se…") left on it
        self.list.setWordWrap(False)
        # and never cut again by the view: an entry whose line of Chinese (a taller fallback font) did not fit
        # the height lost its second line, the first ending in a stray "…"
        self.list.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setAlternatingRowColors(True)  # two lines an entry: tell the entries apart
        self.list.setSpacing(2)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.list.itemActivated.connect(self._on_activated)
        self.list.itemSelectionChanged.connect(self._update_buttons)
        QShortcut(QKeySequence(QKeySequence.StandardKey.Delete), self.list, activated=self.delete_selected)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.star_button = QPushButton(clicked=self.toggle_star)
        self.delete_button = QPushButton(clicked=self.delete_selected)
        self.export_button = QPushButton(clicked=self.export)
        self.clear_button = QPushButton(clicked=self.clear)
        top = QHBoxLayout()
        top.addWidget(self.search, 1)
        top.addWidget(self.starred_only)
        actions = QHBoxLayout()
        for button in (self.star_button, self.delete_button):
            actions.addWidget(button)
        actions.addStretch()
        actions.addWidget(self.export_button)
        actions.addWidget(self.clear_button)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.list)
        layout.addLayout(actions)
        layout.addWidget(self.note)
        self.resize(680, 500)
        self.retranslate()

    # --- contents ---------------------------------------------------------------------------------
    def entries(self) -> list[Entry]:
        return self._query(limit=200)

    def _query(self, limit: int | None) -> list[Entry]:
        if self._history is None:
            return []
        return self._history.search(self.search.text(), limit=limit, starred_only=self.starred_only.isChecked())

    def refresh(self) -> None:
        self.list.clear()  # first: clearing the selection asks _update_buttons about the old entries
        self._entries = self._guarded(self.entries) or []
        for entry in self._entries:
            item = QListWidgetItem()
            self._set_label(item, entry)
            item.setData(Qt.ItemDataRole.UserRole, entry.id)
            found = entry.found
            item.setToolTip(entry.target + (f"\n\n{found.entry.word} {found.entry.summary(8)}" if found else ""))
            self.list.addItem(item)
        self._update_buttons()

    def _label(self, entry: Entry) -> str:
        """The entry's two lines, each cut to the list's width."""
        when = datetime.datetime.fromtimestamp(entry.created).strftime("%Y-%m-%d %H:%M")
        star = f"{STAR} " if entry.starred else ""
        width = self.list.viewport().width() - 4 * self.list.spacing() - 8
        metrics = self.list.fontMetrics()
        found = entry.found  # the dictionary's entry kept with a word: after its translation
        said = f"  ·  {found.entry.word} {found.entry.summary()}" if found is not None else ""
        lines = (f"{star}{when}  {one_line(entry.source, PREVIEW)}", f"→ {one_line(entry.target + said, PREVIEW)}")
        return "\n".join(metrics.elidedText(line, Qt.TextElideMode.ElideRight, width) for line in lines)

    def _set_label(self, item: QListWidgetItem, entry: Entry) -> None:
        """The entry's two lines, and room for both in the fonts they are drawn in (Chinese ones are taller)."""
        text = self._label(entry)
        item.setText(text)
        needed = self.list.fontMetrics().boundingRect(QRect(0, 0, 1 << 20, 1 << 20), 0, text)
        item.setSizeHint(QSize(needed.width(), needed.height() + 2 * self.list.spacing() + 4))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.list.doItemsLayout()  # the viewport's new width, before the lines are cut to it
        for row, entry in enumerate(self._entries):
            self._set_label(self.list.item(row), entry)

    def selected(self) -> list[Entry]:
        rows = sorted(index.row() for index in self.list.selectionModel().selectedRows())
        return [self._entries[row] for row in rows]

    def _update_buttons(self) -> None:
        chosen = self.selected()
        self.star_button.setEnabled(bool(chosen))
        self.delete_button.setEnabled(bool(chosen))
        self.export_button.setEnabled(bool(self._entries))
        self.clear_button.setEnabled(self._history is not None and self.list.count() > 0)
        unstar = bool(chosen) and all(e.starred for e in chosen)
        self.star_button.setText(self.tr("Remove from favourites") if unstar else self.tr("Add to favourites"))

    # --- actions ----------------------------------------------------------------------------------
    def toggle_star(self) -> None:
        chosen, history = self.selected(), self._history
        if chosen and history is not None:
            starred = not all(e.starred for e in chosen)
            self._guarded(lambda: history.set_starred([e.id for e in chosen], starred))
            self._refresh_keeping_selection({e.id for e in chosen})

    def delete_selected(self) -> None:
        chosen, history = self.selected(), self._history
        if chosen and history is not None:
            self._guarded(lambda: history.delete([e.id for e in chosen]))
            self.refresh()

    def export(self) -> None:
        """Save what the list shows (all of it, not only the first 200) as a CSV file."""
        name = str(Path(QDir.homePath()) / "fanyi-history.csv")
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Export history"), name, self.tr("CSV files (*.csv)"))
        if not path:
            return
        entries = self._guarded(lambda: self._query(limit=None))
        if entries is None:
            return
        try:
            export_csv(entries, Path(path))
        except OSError as exc:
            self._show_problem(
                self.tr("Could not save %1: %2").replace("%1", path).replace("%2", exc.strerror or str(exc))
            )
            return
        self.note.setText(self.tr("Saved %1 entries to %2.").replace("%1", str(len(entries))).replace("%2", path))

    def clear(self) -> None:
        answer = QMessageBox.question(
            self,
            self.tr("Clear history"),
            self.tr("Delete every saved translation? Favourites (%1) are kept.").replace("%1", STAR),
        )
        if answer == QMessageBox.StandardButton.Yes and self._history is not None:
            self._guarded(self._history.clear)
            self.refresh()

    def _refresh_keeping_selection(self, ids: set[int]) -> None:
        self.refresh()
        for row in range(self.list.count()):
            item = self.list.item(row)
            item.setSelected(item.data(Qt.ItemDataRole.UserRole) in ids)

    def _guarded(self, work: Callable[[], T]) -> T | None:
        """``work()``; a history that cannot be read or written (a locked or full disk) is said, not raised."""
        try:
            return work()
        except (sqlite3.Error, OSError) as exc:
            self._show_problem(self.tr("History cannot be used: %1").replace("%1", str(exc)))
            return None

    def _show_problem(self, text: str) -> None:
        self.note.setText(text)
        theme.tint(self.note, "error")

    def _on_activated(self, item: QListWidgetItem) -> None:
        entry = next(e for e in self._entries if e.id == item.data(Qt.ItemDataRole.UserRole))
        self.reopen.emit(entry)
        self.accept()

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("History"))
        self.search.setPlaceholderText(self.tr("Search"))
        self.starred_only.setText(self.tr("Favourites only"))
        self.delete_button.setText(self.tr("Delete"))
        self.delete_button.setToolTip(self.tr("Delete the selected entries (Del)"))
        self.export_button.setText(self.tr("Export…"))
        self.export_button.setToolTip(self.tr("Save the entries listed here as a CSV file (opens in Excel)"))
        self.clear_button.setText(self.tr("Clear history"))
        theme.tint(self.note, None)
        if self._recording:
            self.note.setText(
                self.tr("Double-click an entry to open it again. Starred entries are kept when the history is cleared.")
            )
        else:
            self.note.setText(self.tr("History is switched off in Settings: new translations are not saved."))
        self.refresh()
