"""What the main window shows while no model pack is installed: say so, and offer the ways to get one."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from fanyi import library
from fanyi.ui.pack_ops import PackOperations, PackOpProgress, ask_and_import


class NoModelPage(QWidget):
    def __init__(self, ops: PackOperations, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._ops = ops
        self.heading = QLabel()
        self.heading.setStyleSheet("font-size: 16pt; font-weight: 600;")
        self.explanation = QLabel()
        self.explanation.setWordWrap(True)
        self.import_folder_button = QPushButton(clicked=lambda: ask_and_import(ops, self, archive=False))
        self.import_zip_button = QPushButton(clicked=lambda: ask_and_import(ops, self, archive=True))
        self.fetch_button = QPushButton(clicked=ops.fetch_default)
        self.fetch_note = QLabel()
        self.fetch_note.setWordWrap(True)
        self.error = QLabel()
        self.error.setObjectName("errorBanner")
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #b3261e;")
        self.error.hide()
        buttons = QHBoxLayout()
        for button in (self.import_folder_button, self.import_zip_button, self.fetch_button):
            buttons.addWidget(button)
        buttons.addStretch()

        layout = QVBoxLayout(self)
        layout.setAlignment(Qt.AlignmentFlag.AlignTop)
        layout.setContentsMargins(32, 32, 32, 32)
        layout.addWidget(self.heading)
        layout.addWidget(self.explanation)
        layout.addSpacing(12)
        layout.addLayout(buttons)
        layout.addWidget(self.fetch_note)
        layout.addWidget(PackOpProgress(ops))
        layout.addWidget(self.error)
        ops.started.connect(self._on_started)
        ops.finished.connect(self._update_buttons)
        ops.failed.connect(self._on_failed)
        self.retranslate()

    def _on_started(self) -> None:
        self.error.hide()
        self._update_buttons()

    def _on_failed(self, message: str) -> None:
        if message:  # "" means the user cancelled
            self.error.setText(message)
            self.error.show()

    def _update_buttons(self) -> None:
        busy = self._ops.busy
        can_build, why = library.can_build_default()
        self.import_folder_button.setEnabled(not busy)
        self.import_zip_button.setEnabled(not busy)
        self.fetch_button.setEnabled(can_build and not busy)
        self.fetch_note.setText(why)
        self.fetch_note.setVisible(bool(why))

    def retranslate(self) -> None:
        self.heading.setText(self.tr("No translation model is installed"))
        self.explanation.setText(
            self.tr(
                "Fanyi translates on this computer with a model pack. Import a pack (a folder or a .zip), "
                "or download and build the default English→Chinese model (%1), which needs an internet "
                "connection once."
            ).replace("%1", library.DEFAULT_PACK)
        )
        self.import_folder_button.setText(self.tr("Import folder…"))
        self.import_zip_button.setText(self.tr("Import .zip…"))
        self.fetch_button.setText(self.tr("Download and build"))
        self._update_buttons()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
