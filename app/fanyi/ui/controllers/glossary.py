"""The user's glossary (fanyi.glossary), kept in the config folder as glossary.csv and given to every request.

A file that cannot be read is kept aside as glossary.csv.corrupt-<date>-<time> (said once in the status
bar) and an empty glossary used, as a damaged settings file is.
"""

from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from fanyi import paths
from fanyi.fsutil import move_aside
from fanyi.glossary import Glossary, GlossaryError, read_csv, write_csv
from fanyi.ui.glossary_messages import message

log = logging.getLogger(__name__)


def glossary_path() -> Path:
    return paths.user_config_dir() / "glossary.csv"


class GlossaryController(QObject):
    changed = Signal()  # what is shown must be translated again
    notice = Signal(str)  # for the status bar

    def __init__(self, path: Path | None = None) -> None:
        super().__init__()
        self._path = path or glossary_path()
        self._problem: GlossaryError | None = None  # why a damaged file was put aside, until said
        self._glossary = self._load()

    @property
    def glossary(self) -> Glossary:
        return self._glossary

    def entries(self, source: str, target: str) -> tuple[tuple[str, str], ...]:
        """The (term, translation) pairs of a language pair, for DecodeOptions.glossary; read by the API's thread."""
        return self._glossary.for_pair(source, target)

    def set(self, glossary: Glossary) -> None:
        """Keep `glossary` (written at once, atomically); OSError when it cannot be saved, the old one kept."""
        if glossary == self._glossary:
            return
        self._path.parent.mkdir(parents=True, exist_ok=True)
        write_csv(glossary, self._path)
        self._glossary = glossary
        self.changed.emit()

    def _load(self) -> Glossary:
        if not self._path.exists():
            return Glossary()
        try:
            return read_csv(self._path)
        except GlossaryError as exc:
            try:
                kept = move_aside(self._path)
            except OSError:
                kept = None
            log.warning("glossary: %s; kept as %s, starting empty", exc, kept)
            self._problem = exc
            return Glossary()

    def announce(self) -> None:
        """Say once, in the status bar, that a damaged glossary was put aside (called when the window exists)."""
        if self._problem is not None:
            problem = message(self._problem)  # in the UI language of the moment it is said
            self.notice.emit(self.tr("The glossary could not be read and was put aside: {0}").format(problem))
            self._problem = None
