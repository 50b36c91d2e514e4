"""Cancelling long work from another thread: translations, document jobs, downloads and installs."""

from __future__ import annotations

import threading


class Cancelled(Exception):
    """Raised by the work a CancelToken was cancelled for; nothing partial is returned."""


class CancelToken:
    """Checked at every decoder step, between document units and between download chunks; cancel() may be
    called from any thread."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def raise_if_cancelled(self) -> None:
        if self._event.is_set():
            raise Cancelled()

    def wait(self, seconds: float) -> bool:
        """Sleep up to `seconds`, waking at once on cancel; True when cancelled."""
        return self._event.wait(seconds)
