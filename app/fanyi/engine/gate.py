"""TranslatorGate: one loaded Translator that several threads share, one translation at a time.

The desktop app's worker thread and the local API server both translate through the same gate,
so the model is in memory once and its sentence cache is never used by two threads at once.
Callers are served in turn; an *urgent* caller (the window's translate-as-you-type) goes ahead of
callers still waiting (API requests), never ahead of the one running. A caller may bound how
many callers it is prepared to wait behind (the API answers "busy" beyond that), and a caller
still waiting gives up as soon as its CancelToken is cancelled.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..cancel import Cancelled, CancelToken

# How often a waiting caller looks at its CancelToken; tokens have no wake-up of their own.
CANCEL_POLL_SECONDS = 0.05


class Busy(Exception):
    """More callers are already waiting than this caller accepts to wait behind."""


class _Ticket:
    __slots__ = ("urgent",)

    def __init__(self, urgent: bool) -> None:
        self.urgent = urgent


class TranslatorGate:
    def __init__(self, translator: Any = None) -> None:
        self._translator = translator
        self._changed = threading.Condition()
        self._waiting: list[_Ticket] = []
        self._busy = False

    @property
    def translator(self) -> Any:
        """What is loaded now, to look at (name, languages, pack); translate only inside ``use()``."""
        return self._translator

    @property
    def waiting(self) -> int:
        with self._changed:
            return len(self._waiting)

    @contextmanager
    def use(self, cancel: CancelToken | None = None, *, urgent: bool = False,
            max_waiting: int | None = None) -> Iterator[Any]:
        """Wait for the turn, then hold the translator (None when no model is loaded) until the block ends.

        Raises Busy at once when ``max_waiting`` callers already wait, and Cancelled when ``cancel``
        fires while waiting.
        """
        self._wait_for_turn(cancel, urgent, max_waiting)
        try:
            yield self._translator
        finally:
            with self._changed:
                self._busy = False
                self._changed.notify_all()

    def replace(self, translator: Any) -> None:
        """Load another model (or None) once the running translation is over; callers after it get the new one."""
        self._wait_for_turn(None, urgent=True, max_waiting=None)
        with self._changed:
            self._translator = translator
            self._busy = False
            self._changed.notify_all()

    def _wait_for_turn(self, cancel: CancelToken | None, urgent: bool, max_waiting: int | None) -> None:
        with self._changed:
            if max_waiting is not None and (self._busy or self._waiting) and len(self._waiting) >= max_waiting:
                raise Busy(f"{len(self._waiting)} translations are already waiting")
            ticket = _Ticket(urgent)
            position = len(self._waiting)
            if urgent:  # ahead of every waiting caller that is not urgent itself
                position = next((i for i, t in enumerate(self._waiting) if not t.urgent), position)
            self._waiting.insert(position, ticket)
            try:
                while self._busy or self._waiting[0] is not ticket:
                    if cancel is not None and cancel.cancelled:
                        raise Cancelled()
                    self._changed.wait(CANCEL_POLL_SECONDS if cancel is not None else None)
            except BaseException:
                self._waiting.remove(ticket)
                self._changed.notify_all()  # the next in line may be free to go now
                raise
            self._waiting.pop(0)
            self._busy = True
