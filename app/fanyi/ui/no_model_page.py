"""What the main window shows while no model pack is installed: say so, and offer one button to get one."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from fanyi.library.catalog import Catalog, CatalogEntry
from fanyi.ui import theme
from fanyi.ui.i18n import Retranslating, direction
from fanyi.ui.pack_ops import PackOperations, PackOpProgress, ask_and_import, listed_size_text


class NoModelPage(Retranslating, QWidget):
    def __init__(self, ops: PackOperations, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._ops = ops
        self.heading = QLabel()
        self.heading.setStyleSheet("font-size: 16pt; font-weight: 600;")
        self.explanation = QLabel()
        self.explanation.setWordWrap(True)
        self.download_button = QPushButton(clicked=ops.install_default)
        self.download_button.setDefault(True)
        self.download_button.setMinimumHeight(40)
        self.download_button.setStyleSheet("font-size: 12pt; padding: 4px 18px;")
        self.model_note = QLabel()
        self.model_note.setWordWrap(True)
        self.model_note.setStyleSheet("color: palette(placeholder-text);")
        self.import_label = QLabel()
        self.import_folder_button = QPushButton(clicked=lambda: ask_and_import(ops, self, archive=False))
        self.import_zip_button = QPushButton(clicked=lambda: ask_and_import(ops, self, archive=True))
        self.error = QLabel()
        self.error.setObjectName("errorBanner")
        self.error.setWordWrap(True)
        theme.tint(self.error, "error")
        self.error.hide()

        download_row = QHBoxLayout()
        download_row.addWidget(self.download_button)
        download_row.addStretch()
        import_row = QHBoxLayout()
        import_row.addWidget(self.import_label)
        import_row.addWidget(self.import_folder_button)
        import_row.addWidget(self.import_zip_button)
        import_row.addStretch()

        layout = QVBoxLayout(self)
        layout.setAlignment(Qt.AlignmentFlag.AlignTop)
        layout.setContentsMargins(32, 32, 32, 32)
        layout.addWidget(self.heading)
        layout.addWidget(self.explanation)
        layout.addSpacing(16)
        layout.addLayout(download_row)
        layout.addWidget(self.model_note)
        layout.addWidget(PackOpProgress(ops))
        layout.addWidget(self.error)
        layout.addSpacing(24)
        layout.addLayout(import_row)
        ops.started.connect(self._on_started)
        ops.finished.connect(self._update_buttons)
        ops.failed.connect(self._on_failed)
        ops.catalog_changed.connect(lambda _cat: self.retranslate())
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
        for button in (self.download_button, self.import_folder_button, self.import_zip_button):
            button.setEnabled(not busy)

    def _default_entry(self) -> CatalogEntry | None:
        cat: Catalog | None = self._ops.catalog
        return cat.default_entry() if cat is not None else None

    def retranslate(self) -> None:
        self.heading.setText(self.tr("No translation model is installed"))
        self.explanation.setText(
            self.tr(
                "Fanyi translates on this computer and never sends your text anywhere. It needs a translation "
                "model, downloaded once; after that it works without the internet."
            )
        )
        entry = self._default_entry()
        if entry is None:  # no list of packs on this machine yet: the button reads it first
            self.download_button.setText(self.tr("Download English → Chinese"))
            self.model_note.setText(
                self.tr(
                    "The list of models is fetched first; the model's size and licence are shown once it is here. "
                    "Needs an internet connection once."
                )
            )
        else:
            self.download_button.setText(
                self.tr("Download %1 (%2)")
                .replace("%1", direction(entry.source_langs[0], entry.target_langs[0]))
                .replace("%2", listed_size_text(entry.download_size))
            )
            self.model_note.setText(
                self.tr(
                    "Model %1 from %2, licence %3: downloaded from Hugging Face, hf-mirror.com or ModelScope "
                    "(Settings → Downloads) and converted on this computer. Needs an internet connection once."
                )
                .replace("%1", entry.id)
                .replace("%2", entry.model_id)
                .replace("%3", entry.license.name)
            )
        self.import_label.setText(self.tr("Already have a model pack?"))
        self.import_folder_button.setText(self.tr("Import folder…"))
        self.import_zip_button.setText(self.tr("Import .zip…"))
        if self._ops.failure is not None and not self.error.isHidden():
            self.error.setText(self._ops.failure())  # said again in the UI language now chosen
        self._update_buttons()
