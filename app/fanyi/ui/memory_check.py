"""Asking before a pack is loaded that needs more memory than the computer has (library.memory)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMessageBox, QWidget

from fanyi.library.memory import physical_memory
from fanyi.ui.pack_ops import size_text


def too_big(needed: int) -> bool:
    total = physical_memory()
    return total is not None and needed > total


def memory_text(needed: int) -> str:
    """The memory a pack needs, for a table cell; marked where this computer has less."""
    return ("⚠ " if too_big(needed) else "") + size_text(needed, 1) if needed else ""


def confirm_load(parent: QWidget | None, name: str, needed: int) -> bool:
    """True when the pack fits this computer's memory, or the user chooses to load it anyway."""
    if not too_big(needed):
        return True
    answer = QMessageBox.warning(
        parent,
        QCoreApplication.translate("memory_check", "Not enough memory"),
        QCoreApplication.translate(
            "memory_check",
            "%1 needs about %2 of memory to translate; this computer has "
            "%3. The computer may become very slow, or Fanyi may be closed by the system. "
            "Load it anyway?",
        )
        .replace("%1", name)
        .replace("%2", size_text(needed, 1))
        .replace("%3", size_text(physical_memory() or 0, 1)),
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        QMessageBox.StandardButton.No,
    )
    return answer == QMessageBox.StandardButton.Yes
