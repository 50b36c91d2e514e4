"""Open a file or folder the way the desktop does, or say that it cannot and offer the path to copy.

Qt hands the path to the desktop's launcher (xdg-open and the like on Linux); where there is none it
writes a line on the terminal and nothing happens on screen. Then a small window names the path, with a
button that copies it.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt, QUrl
from PySide6.QtGui import QDesktopServices, QGuiApplication
from PySide6.QtWidgets import QMessageBox, QWidget


def open_path(path: Path, parent: QWidget) -> QMessageBox | None:
    """Open ``path``; None when the desktop did, else the window that says it could not (shown, not waited for)."""
    if QDesktopServices.openUrl(QUrl.fromLocalFile(str(path))):
        return None

    box = QMessageBox(QMessageBox.Icon.Information, "Fanyi", "", parent=parent)
    box.setText(QCoreApplication.translate("OpenPath", "This desktop has no program set to open it. It is here:"))
    box.setInformativeText(str(path))
    box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    copy = box.addButton(QCoreApplication.translate("OpenPath", "Copy the path"), QMessageBox.ButtonRole.AcceptRole)
    copy.clicked.connect(lambda: QGuiApplication.clipboard().setText(str(path)))
    box.addButton(QMessageBox.StandardButton.Close)
    box.setDefaultButton(copy)
    box.open()
    return box
