"""What the clipboard hotkey translates: the copied text, or on X11 the selected text when asked to."""

from __future__ import annotations

from PySide6.QtGui import QClipboard, QGuiApplication


def copied_text(selection: bool) -> str:
    """The clipboard's text, or with ``selection`` (the setting; X11 only) the selected text when there is some."""
    clipboard = QGuiApplication.clipboard()
    if selection and clipboard.supportsSelection() and (selected := clipboard.text(QClipboard.Mode.Selection)):
        return selected
    return clipboard.text()
