"""The model manager: installed packs, import, remove (user packs only), choose the default."""

from __future__ import annotations

import os

from PySide6.QtCore import QEvent, QLocale, Qt, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMessageBox,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from fanyi import library
from fanyi.ui.i18n import direction
from fanyi.ui.pack_ops import PackOperations, PackOpProgress, ask_and_import

COLUMNS = 6


class ModelManager(QDialog):
    packs_changed = Signal()
    default_chosen = Signal(str)  # pack name

    def __init__(self, ops: PackOperations, default_pack: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._ops = ops
        self.default_pack = default_pack
        self.packs: list[library.PackInfo] = []

        self.table = QTableWidget(0, COLUMNS)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.itemSelectionChanged.connect(self._update_buttons)
        self.empty = QLabel()
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #b3261e;")
        self.error.hide()

        self.import_folder_button = QPushButton(clicked=lambda: ask_and_import(ops, self, archive=False))
        self.import_zip_button = QPushButton(clicked=lambda: ask_and_import(ops, self, archive=True))
        self.fetch_button = QPushButton(clicked=ops.fetch_default)
        self.remove_button = QPushButton(clicked=self.remove_selected)
        self.default_button = QPushButton(clicked=self.set_selected_default)
        actions = QHBoxLayout()
        for button in (self.import_folder_button, self.import_zip_button, self.fetch_button):
            actions.addWidget(button)
        actions.addStretch()
        actions.addWidget(self.default_button)
        actions.addWidget(self.remove_button)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(self.empty)
        layout.addWidget(self.error)
        layout.addLayout(actions)
        layout.addWidget(PackOpProgress(ops))
        layout.addWidget(buttons)
        self.resize(760, 360)

        ops.started.connect(self._update_buttons)
        ops.finished.connect(self._update_buttons)
        ops.succeeded.connect(lambda _info: self.refresh())
        ops.failed.connect(self._show_error)
        self.retranslate()

    def refresh(self) -> None:
        self.error.hide()
        self.packs = library.list_packs()
        self.table.clearSpans()
        self.table.setRowCount(len(self.packs))
        locale = QLocale()
        greyed = self.palette().color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
        for row, pack in enumerate(self.packs):
            kind = self.tr("bundled") if pack.bundled else self.tr("user-installed")
            marker = "✓" if pack.name == self.default_pack and pack.usable else ""
            if pack.usable:
                details = (direction(pack.source_lang, pack.target_lang), locale.formattedDataSize(pack.size_bytes),
                           pack.quantization)
            else:  # one cell across languages, size and quantization: the reason, without the folder
                reason = pack.problem.replace(f"{pack.path}{os.sep}", "")
                details = (self.tr("Broken: %1").replace("%1", reason), "", "")
                self.table.setSpan(row, 1, 1, len(details))
            for column, text in enumerate((pack.name, *details, kind, marker)):
                item = QTableWidgetItem(text)
                if column == 2:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if not pack.usable:  # still selectable, so that it can be removed
                    item.setForeground(greyed)
                    item.setToolTip(pack.problem)
                self.table.setItem(row, column, item)
        self.table.setVisible(bool(self.packs))
        self.empty.setVisible(not self.packs)
        self._update_buttons()

    def selected(self) -> library.PackInfo | None:
        rows = self.table.selectionModel().selectedRows()
        return self.packs[rows[0].row()] if rows else None

    def select(self, name: str) -> None:
        for row, pack in enumerate(self.packs):
            if pack.name == name:
                self.table.selectRow(row)

    def remove_selected(self) -> None:
        pack = self.selected()
        if pack is None or pack.bundled:
            return
        answer = QMessageBox.question(
            self, self.tr("Remove model"), self.tr("Remove %1 from this computer?").replace("%1", pack.name)
        )
        if answer != QMessageBox.StandardButton.Yes:
            return
        try:
            library.remove_pack(str(pack.path))  # by folder: a broken pack has no name of its own
        except (library.LibraryError, OSError) as exc:
            self._show_error(str(exc))
            return
        self.refresh()
        self.packs_changed.emit()

    def set_selected_default(self) -> None:
        if (pack := self.selected()) and pack.usable:
            self.default_pack = pack.name
            self.default_chosen.emit(pack.name)
            self.refresh()
            self.select(pack.name)

    def _show_error(self, message: str) -> None:
        if message:  # "" means the user cancelled
            self.error.setText(message)
            self.error.show()

    def _update_buttons(self) -> None:
        pack = self.selected()
        busy = self._ops.busy
        self.remove_button.setEnabled(pack is not None and not pack.bundled and not busy)
        self.default_button.setEnabled(pack is not None and pack.usable and pack.name != self.default_pack)
        for button in (self.import_folder_button, self.import_zip_button):
            button.setEnabled(not busy)
        can_build, why = library.can_build_default()
        self.fetch_button.setEnabled(can_build and not busy)
        self.fetch_button.setToolTip(why)

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Models"))
        self.table.setHorizontalHeaderLabels(
            [self.tr("Name"), self.tr("Languages"), self.tr("Size"), self.tr("Quantization"), self.tr("Installed"),
             self.tr("Default")]
        )
        self.empty.setText(self.tr("No model is installed."))
        self.import_folder_button.setText(self.tr("Import folder…"))
        self.import_zip_button.setText(self.tr("Import .zip…"))
        self.fetch_button.setText(self.tr("Download default model"))
        self.remove_button.setText(self.tr("Remove"))
        self.default_button.setText(self.tr("Set as default"))
        self.refresh()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
