"""Documents queued for translation with the window's pack and options (the queue itself: fanyi.ui.jobs)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject

from fanyi.documents import Written
from fanyi.ui.controllers.direction import DirectionController
from fanyi.ui.controllers.packs import PackController
from fanyi.ui.controllers.settings import LiveSettings
from fanyi.ui.jobs import DocumentJobs


class DocumentController(QObject):
    def __init__(
        self, jobs: DocumentJobs, settings: LiveSettings, packs: PackController, direction: DirectionController
    ) -> None:
        super().__init__()
        self.jobs = jobs
        self._settings = settings
        self._packs = packs
        self._direction = direction

    def enqueue(self, path: Path) -> bool:
        """Queue ``path``, written as the settings say; False when there is no pack to translate it with."""
        pack = self._packs.current
        if pack is None:
            return False
        settings = self._settings
        written = Written(
            settings.bilingual_documents.value,
            settings.bilingual_layout.value,
            "docx" if path.suffix.lower() == ".pdf" and settings.pdf_output.value == "docx" else None,
        )
        # Documents run in the background at the engine's own default (None) unless the user chose.
        self.jobs.enqueue(
            path,
            pack.path,
            settings.threads.value or None,
            self._direction.options(),
            written,
            instead=self._direction.document_rewriter(),  # a Chinese document asked for in Chinese: OpenCC
        )
        return True

    def shutdown(self) -> None:
        self.jobs.shutdown()
