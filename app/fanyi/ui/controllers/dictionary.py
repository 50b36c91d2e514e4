"""The dictionary the window and the popup look words up in: the installed one (fanyi.library.dictionaries).

Looked for again when one is installed, imported or removed (the model manager, or `fanyi models` in a
terminal: the dictionaries folder is watched). A lookup reads a few index pages of a local file, well
under a millisecond (benchmarks/), so it runs where it is asked, in the GUI thread; a dictionary that turns
out damaged is said once in the status bar and then looked in no more until it changes.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer, Signal

from fanyi import paths
from fanyi.dictionary import Dictionary, DictionaryError, Found
from fanyi.library import dictionaries

log = logging.getLogger(__name__)
SETTLE_MS = 400  # a conversion renames its file into place: look once it has settled


class DictionaryController(QObject):
    changed = Signal()  # another dictionary (or none) is installed
    notice = Signal(str)  # for the status bar, said once

    def __init__(self) -> None:
        super().__init__()
        self.dictionary: Dictionary | None = None
        self._watcher = QFileSystemWatcher(self)
        self._settle = QTimer(self, singleShot=True, interval=SETTLE_MS)
        self._settle.timeout.connect(self.refresh)
        self._watcher.directoryChanged.connect(lambda _path: self._settle.start())
        self.refresh()

    def refresh(self) -> None:
        # the folder, or while it does not exist yet, the nearest folder it will be made in
        folder = paths.dictionaries_dir()
        while not folder.is_dir() and folder.parent != folder:
            folder = folder.parent
        watched = self._watcher.directories()
        if watched != [str(folder)]:
            if watched:
                self._watcher.removePaths(watched)
            self._watcher.addPath(str(folder))
        opened = dictionaries.open_preferred()
        before = self.dictionary
        self.dictionary = opened
        if (before and before.path, before and before.info) != (opened and opened.path, opened and opened.info):
            self.changed.emit()

    def lookup(self, text: str) -> Found | None:
        """The entry for `text` when it is a word or a short phrase the dictionary has; else None."""
        if self.dictionary is None:
            return None
        try:
            return self.dictionary.lookup(text)
        except DictionaryError as exc:
            log.warning("dictionary: %s", exc)
            self.dictionary = None  # until it is installed again (refresh)
            self.notice.emit(self.tr("The dictionary cannot be read: %1").replace("%1", str(exc)))
            return None
