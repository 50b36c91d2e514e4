"""TranslatorGate: one loaded Translator that several threads share, one translation at a time.

The desktop app's worker thread and the local API server both translate through the same gate,
so the model is in memory once and its sentence cache is never used by two threads at once.
Callers are served in turn; an *urgent* caller (the window's translate-as-you-type) goes ahead of
callers still waiting (API requests), never ahead of the one running. A caller may bound how
many callers it is prepared to wait behind and for how long (the API answers "busy" beyond that),
and a caller still waiting gives up as soon as its CancelToken is cancelled. A long translation
may pass its turn between two steps to the callers waiting (``pass_turn``), so that a short
request does not wait for the whole of a long one.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..cancel import Cancelled, CancelToken

# How often a waiting caller looks at its CancelToken; tokens have no wake-up of their own.
CANCEL_POLL_SECONDS = 0.05


class Busy(Exception):
    """More callers are already waiting than this caller accepts to wait behind."""


class TimedOut(Busy):
    """The caller waited as long as it accepted to, and its turn has not come."""


class _Ticket:
    __slots__ = ("urgent",)

    def __init__(self, urgent: bool) -> None:
        self.urgent = urgent


class TranslatorGate:
    def __init__(self, translator: Any = None) -> None:
        self._translator = translator
        self._changed = threading.Condition()
        self._waiting: list[_Ticket] = []
        self._holder: _Ticket | None = None  # who holds the translator now

    @property
    def translator(self) -> Any:
        """What is loaded now, to look at (name, languages, pack); translate only inside ``use()``."""
        return self._translator

    @property
    def waiting(self) -> int:
        with self._changed:
            return len(self._waiting)

    @contextmanager
    def use(
        self,
        cancel: CancelToken | None = None,
        *,
        urgent: bool = False,
        max_waiting: int | None = None,
        timeout: float | None = None,
    ) -> Iterator[Any]:
        """Wait for the turn, then hold the translator (None when no model is loaded) until the block ends.

        Raises Busy at once when ``max_waiting`` callers already wait, TimedOut after waiting
        ``timeout`` seconds, and Cancelled when ``cancel`` fires while waiting.
        """
        ticket = _Ticket(urgent)
        self._wait_for_turn(ticket, cancel, max_waiting, timeout)
        try:
            yield self._translator
        finally:
            with self._changed:
                if self._holder is ticket:  # not when it passed its turn and was cancelled waiting for it back
                    self._release()

    def pass_turn(self, cancel: CancelToken | None = None) -> bool:
        """Inside ``use()``: let every caller waiting now go first, then hold the translator again.

        Returns False at once when nobody waits. The holder must be between two steps that do not
        share state with other callers (the translator's own state is its cache and its model).
        Raises Cancelled when ``cancel`` fires while waiting; the turn is then not held any more.
        """
        with self._changed:
            ticket = self._holder
            if ticket is None or not self._waiting:
                return False
            self._release()
        self._wait_for_turn(ticket, cancel, None, None)
        return True

    def _release(self) -> None:  # with self._changed held
        self._holder = None
        self._changed.notify_all()

    def replace(self, translator: Any) -> None:
        """Load another model (or None) once the running translation is over; callers after it get the new one."""
        self._wait_for_turn(_Ticket(urgent=True), None, None, None)
        with self._changed:
            self._translator = translator
            self._release()

    def _wait_for_turn(
        self, ticket: _Ticket, cancel: CancelToken | None, max_waiting: int | None, timeout: float | None
    ) -> None:
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._changed:
            crowded = max_waiting is not None and len(self._waiting) >= max_waiting
            if crowded and (self._holder is not None or self._waiting):
                raise Busy(f"{len(self._waiting)} translations are already waiting")
            position = len(self._waiting)
            if ticket.urgent:  # ahead of every waiting caller that is not urgent itself
                position = next((i for i, t in enumerate(self._waiting) if not t.urgent), position)
            self._waiting.insert(position, ticket)
            try:
                while self._holder is not None or self._waiting[0] is not ticket:
                    if cancel is not None and cancel.cancelled:
                        raise Cancelled()
                    left = None if deadline is None else deadline - time.monotonic()
                    if left is not None and left <= 0:
                        raise TimedOut(f"waited {timeout:g} s for the model")
                    waits = [w for w in (left, CANCEL_POLL_SECONDS if cancel is not None else None) if w is not None]
                    self._changed.wait(min(waits) if waits else None)
            except BaseException:
                self._waiting.remove(ticket)
                self._changed.notify_all()  # the next in line may be free to go now
                raise
            self._waiting.pop(0)
            self._holder = ticket
