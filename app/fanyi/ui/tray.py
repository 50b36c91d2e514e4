"""The tray icon: Show, Translate clipboard, Translate a screen region, Quit.

Some sessions have no tray (offscreen, several Wayland desktops); then ``available`` is False and
the app behaves as a plain windowed program: closing the window quits.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QMenu, QSystemTrayIcon

from fanyi.ui.i18n import Retranslating


class _TrayMenu(Retranslating, QMenu):
    def __init__(self, tray: "Tray") -> None:
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

    def __init__(self, icon: QIcon, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.available = QSystemTrayIcon.isSystemTrayAvailable()
        self._icon = None
        if not self.available:
            return
        self.menu = _TrayMenu(self)
        self._icon = QSystemTrayIcon(icon, self)
        self._icon.setToolTip("Fanyi")
        self._icon.setContextMenu(self.menu)
        self._icon.activated.connect(self._on_activated)

    def show(self) -> None:
        """Put the icon in the tray (not done on construction: `--translate-clipboard` needs none)."""
        if self._icon is not None:
            self._icon.show()

    def _on_activated(self, reason: QSystemTrayIcon.ActivationReason) -> None:
        if reason == QSystemTrayIcon.ActivationReason.Trigger:
            self.show_requested.emit()

    def hide(self) -> None:
        if self._icon is not None:
            self._icon.hide()
