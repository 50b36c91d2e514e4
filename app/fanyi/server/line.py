"""The translation requests in line for the model: how many may be, the threads they run in, and how
long a client should wait before it tries again.

A request waits for its turn at the pack's TranslatorGate in a thread of its own (``API_MAX_QUEUED``
threads at most, apart from the pool that answers /detect, so that a crowd of translations never
delays a detection). Only a full line is refused (``QueueFull``, 429 with Retry-After); a request
that waits ``API_MAX_WAIT_SECONDS`` for its turn gives up (503 with Retry-After, see core.py).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from typing import TypeVar

from fanyi import limits
from fanyi.cancel import Cancelled

T = TypeVar("T")
# How much one turn's time counts in the running average the Retry-After estimate uses.
_SMOOTHING = 0.2


class QueueFull(Exception):
    """As many requests as the line holds are in it already."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"{limits.API_MAX_QUEUED} translations are in line already")
        self.retry_after = retry_after


class Line:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._count = 0  # requests in line: waiting for their turn, or translating
        self._seconds_per_request = 1.0  # a running average of how long a request holds the model
        self._threads = ThreadPoolExecutor(max_workers=max(1, limits.API_MAX_QUEUED), thread_name_prefix="fanyi-api")

    @property
    def count(self) -> int:
        return self._count

    @contextmanager
    def place(self) -> Iterator[None]:
        """A place in line for the block, or QueueFull at once."""
        with self._lock:
            if self._count >= limits.API_MAX_QUEUED:
                raise QueueFull(self.retry_after())
            self._count += 1
        try:
            yield
        finally:
            with self._lock:
                self._count -= 1

    def start(self, work: Callable[[], T]) -> Future[T]:
        """``work()`` in one of the line's threads, holding a place in line until it ends.

        QueueFull at once when the line is full; Cancelled once it is closed (the server is stopping)."""
        place = self.place()
        place.__enter__()

        def run() -> T:
            try:
                return work()
            finally:
                place.__exit__(None, None, None)

        try:
            return self._threads.submit(run)
        except RuntimeError:  # "cannot schedule new futures after shutdown"
            place.__exit__(None, None, None)
            raise Cancelled() from None

    def served(self, seconds: float) -> None:
        """One request held the model this long."""
        with self._lock:
            self._seconds_per_request += _SMOOTHING * (seconds - self._seconds_per_request)

    def retry_after(self) -> int:
        """Seconds until the requests in line now are likely served: what a refused client should wait."""
        estimate = math.ceil(self._count * self._seconds_per_request)
        return max(1, min(estimate, math.ceil(limits.API_MAX_WAIT_SECONDS)))

    def close(self) -> None:
        """No new work; the threads end when what runs now ends (it was cancelled)."""
        self._threads.shutdown(wait=False, cancel_futures=True)
