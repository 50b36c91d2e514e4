"""The dialogs the window opens: Settings (modal), and Models and History, kept open beside the window.

Each dialog's module is loaded when it is first opened. Models and History are one window each: opening
one again closes the old one, and ``open`` holds those showing.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QDialog

from fanyi.ui.controllers.glossary import GlossaryController
from fanyi.ui.controllers.history import HistoryController
from fanyi.ui.controllers.packs import PackController
from fanyi.ui.controllers.settings import LiveSettings
from fanyi.ui.main_window import MainWindow
from fanyi.ui.pack_ops import PackOperations
from fanyi.ui.tray import Tray


class Dialogs(QObject):
    notice = Signal(str)  # for the status bar

    def __init__(
        self,
        settings: LiveSettings,
        packs: PackController,
        ops: PackOperations,
        glossary: GlossaryController,
        history: HistoryController,
        tray: Tray,
        window: Callable[[], MainWindow],
    ) -> None:
        super().__init__()
        self._settings, self._packs, self._ops = settings, packs, ops
        self._glossary, self._history, self._tray = glossary, history, tray
        self._window = window  # the main window, which the dialogs belong to; built when first asked for
        self.open: dict[str, QDialog] = {}  # non-modal windows kept alive while open

    def show_settings(self) -> None:
        from fanyi.ui.settings_dialog import SettingsDialog  # noqa: PLC0415 - loaded when first opened

        dialog = SettingsDialog(self._settings.current, self._tray.available, self._window(), self._glossary.glossary)
        self._tray.available_changed.connect(dialog.set_tray_available)
        if dialog.exec():
            self._settings.apply(dialog.result_settings())
            try:
                self._glossary.set(dialog.result_glossary())
            except OSError as exc:
                self.notice.emit(self.tr("The glossary could not be saved: {0}").format(exc.strerror or exc))
        dialog.deleteLater()  # parented to the window, it would otherwise live as long as the window

    def show_models(self) -> None:
        from fanyi.ui.model_manager import ModelManager  # noqa: PLC0415 - loaded when first opened

        default = self._packs.default()
        manager = ModelManager(self._ops, default.name if default else "", self._window())
        manager.packs_changed.connect(self._packs.refresh)
        manager.default_chosen.connect(self._packs.set_default)
        self._keep_open("models", manager)

    def show_history(self) -> None:
        from fanyi.ui.history_dialog import HistoryDialog  # noqa: PLC0415 - loaded when first opened

        try:
            history = self._history.for_viewing()
        except (sqlite3.Error, OSError):
            return  # said in the status bar
        window = self._window()
        dialog = HistoryDialog(history, self._settings.history.value, window)
        dialog.reopen.connect(window.reopen)
        self._keep_open("history", dialog)

    def _keep_open(self, name: str, dialog: QDialog) -> None:
        if old := self.open.pop(name, None):
            old.close()
        self.open[name] = dialog
        dialog.finished.connect(lambda _result: self.open.pop(name, None))
        dialog.show()
