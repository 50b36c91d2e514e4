"""Saving finished translations while history is on, and saying once when that cannot be done.

The history file is opened on first use: while history is off, none is created, not even to be
looked at. A locked, read-only or full disk never stops translating.
"""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from fanyi.dictionary import Found
from fanyi.ui.controllers.settings import LiveSettings
from fanyi.ui.history import Draft, History, history_path

log = logging.getLogger(__name__)


class HistoryController(QObject):
    notice = Signal(str)  # for the status bar, said once

    def __init__(self, settings: LiveSettings) -> None:
        super().__init__()
        self._settings = settings
        self._store: History | None = None
        self._failed = False  # said once; the next attempt may work again

    @property
    def store(self) -> History:
        """The history file, opened (or created) now if it is not yet; sqlite3.Error or OSError if it cannot be."""
        if self._store is None:
            self._store = History(on_moved_aside=self._moved_aside)
        return self._store

    def for_viewing(self) -> History | None:
        """The history to show; None while it is off and there is none yet (it is not created to be looked
        at), or when it cannot be opened (said once in the status bar)."""
        if not (self._settings.history.value or self._store is not None or history_path().exists()):
            return None
        try:
            return self.store
        except (sqlite3.Error, OSError) as exc:
            self._unavailable(exc)
            raise

    def record(
        self, source: str, target: str, draft: Draft | None = None, *, pack: str, found: Found | None = None
    ) -> Draft | None:
        """Save a finished translation by ``pack`` (and the dictionary's entry for its text, `found`) when history
        is on; returns the draft to pass next time.

        The main window passes the draft it got last, so that a text being edited stays one entry;
        without one (the clipboard popup), each translation is an entry of its own.
        """
        if not self._settings.history.value:
            return None
        try:
            return self.store.record(source, target, pack, draft, found=found)
        except (sqlite3.Error, OSError) as exc:  # a locked, read-only or full disk: translating goes on
            self._unavailable(exc)
            return None

    def close(self) -> None:
        if self._store is not None:
            self._store.close()

    def _moved_aside(self, kept: Path) -> None:
        self.notice.emit(
            self.tr("The history file was damaged. It was kept as %1 and a new history was started.").replace(
                "%1", str(kept)
            )
        )

    def _unavailable(self, exc: Exception) -> None:
        log.warning("history: %s", exc)
        if not self._failed:
            self._failed = True
            self.notice.emit(self.tr("History cannot be saved: %1").replace("%1", str(exc)))
