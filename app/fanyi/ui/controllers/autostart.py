"""Starting at login: the entry (fanyi.autostart) written or removed as the setting says.

Where it cannot be changed (a read-only home, a locked-down registry) the user is told, and the
setting goes back to what is true.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from PySide6.QtCore import QObject, Signal

from fanyi import autostart
from fanyi.ui.controllers.settings import LiveSettings

log = logging.getLogger(__name__)


class AutostartController(QObject):
    notice = Signal(str)

    def __init__(self, settings: LiveSettings) -> None:
        super().__init__()
        self._setting = settings.start_at_login
        self._reverting = False
        self._setting.changed.connect(self._on_changed)

    def refresh(self) -> None:
        """Rewrite the entry if there is one: the app may have moved since it was written."""
        if self._setting.value:
            self._change(autostart.refresh)

    def _on_changed(self, on: bool) -> None:
        if self._reverting or self._change(lambda: autostart.set_enabled(on)):
            return
        self._reverting = True
        try:
            self._setting.set(not on)  # as it still is
        finally:
            self._reverting = False

    def _change(self, change: Callable[[], None]) -> bool:
        try:
            change()
        except OSError as exc:  # say so, keep running
            log.warning("start at login: %s", exc)
            self.notice.emit(self.tr("Starting at login could not be changed: %1").replace("%1", str(exc)))
            return False
        return True
