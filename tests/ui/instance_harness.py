"""`fanyi` (the app's own run()) with a line on stdout for what the single-instance tests watch.

Prints "started" once the event loop runs, and "window" / "popup" when the window is brought forward
or the popup opens, so that a test in another process can tell what a later launch made this one do.
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QTimer

from fanyi.ui.app import FanyiApp, run


def _say(word: str) -> None:
    print(word, flush=True)


def _wrap(name: str, word: str) -> None:
    original = getattr(FanyiApp, name)

    def wrapped(self, *args, **kwargs):
        _say(word)
        return original(self, *args, **kwargs)

    setattr(FanyiApp, name, wrapped)


if __name__ == "__main__":
    _wrap("show_main", "window")
    _wrap("translate_clipboard", "popup")
    QTimer.singleShot(0, lambda: _say("started"))
    sys.exit(run(sys.argv[1:]))
