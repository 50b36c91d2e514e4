"""The tray icon: Show, Translate clipboard, Translate a screen region, Quit.

Some sessions have no tray (offscreen, several Wayland desktops); then ``available`` is False and
the app behaves as a plain windowed program: closing the window quits. A tray that appears later (a
panel started after Fanyi, at login) is picked up: it is looked for every ``LOOK_MS`` until there is one.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QMenu, QSystemTrayIcon

from fanyi.ui.i18n import Retranslating

LOOK_MS = 2000  # how often a desktop without a tray is asked again whether it has one now
NOTICE_MS = 8000


class _TrayMenu(Retranslating, QMenu):
    def __init__(self, tray: Tray) -> None:
        super().__init__()
        self.show_action = self.addAction("", tray.show_requested.emit)
        self.clipboard_action = self.addAction("", tray.translate_clipboard_requested.emit)
        self.region_action = self.addAction("", tray.translate_region_requested.emit)
        self.addSeparator()
        self.quit_action = self.addAction("", tray.quit_requested.emit)
        self.retranslate()

    def retranslate(self) -> None:
        self.show_action.setText(self.tr("Show Fanyi"))
        self.clipboard_action.setText(self.tr("Translate clipboard"))
        self.region_action.setText(self.tr("Translate a screen region"))
        self.quit_action.setText(self.tr("Quit"))


class Tray(QObject):
    show_requested = Signal()
    translate_clipboard_requested = Signal()
    translate_region_requested = Signal()
    quit_requested = Signal()
    available_changed = Signal(bool)  # a tray appeared after Fanyi started

    def __init__(
        self,
        icon: QIcon,
        parent: QObject | None = None,
        is_available: Callable[[], bool] = QSystemTrayIcon.isSystemTrayAvailable,
    ) -> None:
        super().__init__(parent)
        self._image = icon
        self._is_available = is_available
        self._icon: QSystemTrayIcon | None = None
        self._shown = False  # the app asked for the icon (a popup-only launch does not)
        self.available = is_available()
        self._look = QTimer(self, interval=LOOK_MS)
        self._look.timeout.connect(self.look_again)
        if not self.available:
            self._look.start()

    def look_again(self) -> None:
        """Ask the desktop again; once a tray is there, the icon goes into it (if the app wants one)."""
        if self.available or not self._is_available():
            return
        self._look.stop()
        self.available = True
        if self._shown:
            self.show()
        self.available_changed.emit(True)

    def show(self) -> None:
        """Put the icon in the tray (not done on construction: `--translate-clipboard` needs none)."""
        self._shown = True
        if not self.available:
            return  # once a tray appears
        if self._icon is None:
            self.menu = _TrayMenu(self)
            self._icon = QSystemTrayIcon(self._image, self)
            self._icon.setToolTip("Fanyi")
            self._icon.setContextMenu(self.menu)
            self._icon.activated.connect(self._on_activated)
        self._icon.show()

    def notify(self, title: str, text: str) -> None:
        """A balloon by the tray icon (the desktop's notification where it has one)."""
        if self._icon is not None and self._icon.isVisible():
            self._icon.showMessage(title, text, self._image, NOTICE_MS)

    def _on_activated(self, reason: QSystemTrayIcon.ActivationReason) -> None:
        if reason == QSystemTrayIcon.ActivationReason.Trigger:
            self.show_requested.emit()

    def hide(self) -> None:
        self._shown = False
        self._look.stop()
        if self._icon is not None:
            self._icon.hide()
