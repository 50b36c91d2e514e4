"""The global clipboard hotkey, behind a small interface of ours so that pynput stays replaceable.

Global hotkeys cannot work everywhere: not without an X display, not on Wayland (which by design
does not let applications watch the keyboard), not where pynput is missing. ``availability()`` says
why in one sentence, the settings dialog shows it, and ``fanyi --translate-clipboard`` remains for
binding to a desktop shortcut.
"""

from __future__ import annotations

import logging
import os
import sys
import time
from types import ModuleType
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QObject, Signal

from fanyi.ui.settings import DOUBLE_COPY

if TYPE_CHECKING:
    from pynput.keyboard import Key, KeyCode, Listener

log = logging.getLogger(__name__)

DOUBLE_COPY_WINDOW = 0.5  # seconds between the two Ctrl+C presses

_MODIFIERS = {"ctrl": "<ctrl>", "alt": "<alt>", "shift": "<shift>", "meta": "<cmd>"}


def availability() -> tuple[bool, str]:
    """(True, "") where global hotkeys can work here, else (False, a reason for the user)."""
    if sys.platform.startswith("linux"):
        if os.environ.get("XDG_SESSION_TYPE") == "wayland" or (
            os.environ.get("WAYLAND_DISPLAY") and not os.environ.get("DISPLAY")
        ):
            reason = QCoreApplication.translate("hotkey", "Wayland does not let applications watch the keyboard.")
            return False, reason
        if not os.environ.get("DISPLAY"):
            return False, QCoreApplication.translate("hotkey", "There is no X display.")
    try:
        import pynput.keyboard  # noqa: F401  (connects to the display on import)
    except Exception as exc:  # noqa: BLE001 - ImportError, or Xlib failing to reach the display
        reason = QCoreApplication.translate("hotkey", "The pynput library is not usable: %1")
        return False, reason.replace("%1", str(exc))
    return True, ""


def to_pynput(sequence: str) -> str:
    """Turn a QKeySequence string such as "Ctrl+Alt+F" into pynput's "<ctrl>+<alt>+f"."""
    parts = [p for p in sequence.replace(" ", "").split("+") if p]
    if sequence.rstrip().endswith("++"):
        parts.append("+")
    if not parts or all(p.lower() in _MODIFIERS for p in parts):
        raise ValueError(f"not a key combination: {sequence!r}")
    out = []
    for part in parts:
        low = part.lower()
        if low in _MODIFIERS:
            out.append(_MODIFIERS[low])
        elif len(part) == 1:
            out.append(low)
        else:
            out.append(f"<{low}>")
    return "+".join(out)


class DoubleCopyDetector:
    """Recognises Ctrl+C pressed twice within DOUBLE_COPY_WINDOW seconds (the DeepL gesture)."""

    def __init__(self) -> None:
        self._ctrl_down = False
        self._last_copy = float("-inf")

    def press(self, key: str, now: float | None = None) -> bool:
        """Feed a key press ("ctrl" or a character); True when it completes a double copy."""
        now = time.monotonic() if now is None else now
        if key == "ctrl":
            self._ctrl_down = True
            return False
        if key != "c" or not self._ctrl_down:
            self._last_copy = float("-inf")
            return False
        if now - self._last_copy <= DOUBLE_COPY_WINDOW:
            self._last_copy = float("-inf")
            return True
        self._last_copy = now
        return False

    def release(self, key: str) -> None:
        if key == "ctrl":
            self._ctrl_down = False


def _key_name(key: Key | KeyCode | None) -> str:
    from pynput import keyboard

    if key in (keyboard.Key.ctrl, keyboard.Key.ctrl_l, keyboard.Key.ctrl_r):
        return "ctrl"
    char = getattr(key, "char", None)
    if char == "\x03":  # some layouts report Ctrl+C as the control character
        return "c"
    vk = getattr(key, "vk", None)
    if not char and vk is not None and 32 < vk < 127:
        char = chr(vk)
    return (char or str(key)).lower()


class GlobalHotkey(QObject):
    """Emits ``triggered`` (in the GUI thread) when the configured global hotkey is pressed."""

    triggered = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._listener: Listener | None = None
        self.status = ""  # a user-facing sentence when the hotkey is not active

    @property
    def active(self) -> bool:
        return self._listener is not None

    def set_hotkey(self, sequence: str) -> bool:
        """Listen for ``sequence`` (a QKeySequence string, DOUBLE_COPY, or "" for none)."""
        self.stop()
        if not sequence:
            self.status = ""
            return False
        ok, self.status = availability()
        if not ok:
            return False
        from pynput import keyboard

        try:
            if sequence == DOUBLE_COPY:
                self._listener = self._double_copy_listener(keyboard)
            else:
                # pynput callbacks run in its own thread; emitting a signal from there is queued.
                self._listener = keyboard.GlobalHotKeys({to_pynput(sequence): self.triggered.emit})
            self._listener.start()
        except Exception as exc:  # noqa: BLE001 - pynput's backends fail in their own ways
            self._listener = None
            self.status = QCoreApplication.translate("hotkey", "The hotkey could not be set: %1").replace(
                "%1", str(exc)
            )
            log.warning("hotkey %r: %s", sequence, exc)
            return False
        return True

    def stop(self) -> None:
        if self._listener is not None:
            self._listener.stop()
            self._listener = None

    def _double_copy_listener(self, keyboard: ModuleType) -> Listener:
        detector = DoubleCopyDetector()

        def on_press(key: Key | KeyCode | None) -> None:
            if detector.press(_key_name(key)):
                self.triggered.emit()

        return keyboard.Listener(on_press=on_press, on_release=lambda key: detector.release(_key_name(key)))
