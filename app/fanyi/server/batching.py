"""Requests waiting for the same model with the same options are translated together.

Of the requests waiting for one model and options, one at a time *leads*: it alone waits for the model's
turn, and when the turn comes it takes every such request waiting at that moment (up to
``API_BATCH_TEXTS`` texts and ``API_BATCH_CHARS`` characters; a longer request is translated on its own, so
short ones are never held up by it) and translates all their texts as one batch: on a CPU a batch of eight
short sentences costs about three times one sentence, not eight. The requests it took are finished as soon
as the batch is done; the others wait, not at the model's gate but here, for their answer or for the lead,
which passes to one of them as soon as the leader has taken its batch (that one then waits for the turn the
running batch passes between its steps). So a burst of hundreds of short requests is a line of batches with
one waiter at the gate, not hundreds of threads polling it.

The batch is cancelled only when every request in it was: one client hanging up does not stop the
others' translations.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Hashable
from dataclasses import dataclass, field

from fanyi import limits
from fanyi.cancel import Cancelled, CancelToken
from fanyi.engine import TimedOut, Translation

# How often a request waiting for its batch looks at its own CancelToken (a token has no wake-up of its own);
# a batch done, or the lead free, wakes it at once.
POLL_SECONDS = 0.25


@dataclass(eq=False)
class Order:
    """One request's texts, waiting for a batch to translate them."""

    texts: list[str]
    cancel: CancelToken  # the request's own: its client hung up, or the server stops
    taken: bool = False  # a batch holds it: it waits for that batch, and leads no other
    arrived: float = field(default_factory=time.monotonic)
    results: list[Translation] | None = None
    error: BaseException | None = None
    done: threading.Event = field(default_factory=threading.Event)

    @property
    def chars(self) -> int:
        return sum(map(len, self.texts))

    def finish(self, results: list[Translation] | None = None, error: BaseException | None = None) -> None:
        self.results, self.error = results, error
        self.done.set()


class Orders:
    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._waiting: dict[Hashable, list[Order]] = {}
        self._leading: set[Hashable] = set()
        self._moved: dict[Hashable, float] = {}  # when a batch of the key was last taken or done

    @property
    def count(self) -> int:
        """Requests waiting for a batch to take them."""
        with self._changed:
            return sum(map(len, self._waiting.values()))

    def add(self, key: Hashable, order: Order) -> None:
        with self._changed:
            self._waiting.setdefault(key, []).append(order)

    def discard(self, key: Hashable, order: Order) -> None:
        with self._changed:
            waiting = self._waiting.get(key, [])
            if order in waiting:
                waiting.remove(order)
            if not waiting:
                self._waiting.pop(key, None)
                self._moved.pop(key, None)

    def lead(self, key: Hashable, order: Order) -> bool:
        """Wait until ``order`` is done (False) or may lead its key (True: it then waits for the model's turn, takes
        a batch and calls ``follow``). Cancelled when its own token fires meanwhile; TimedOut when no batch of its
        key moved for API_MAX_WAIT_SECONDS (a long burst waits as long as its batches keep coming)."""
        with self._changed:
            while not order.done.is_set():
                if key not in self._leading and not order.taken:
                    self._leading.add(key)
                    return True
                order.cancel.raise_if_cancelled()
                if order.taken:  # its batch runs: it is answered when that is done
                    self._changed.wait(POLL_SECONDS)
                    continue
                since = max(order.arrived, self._moved.get(key, 0.0))
                left = since + limits.API_MAX_WAIT_SECONDS - time.monotonic()
                if left <= 0:
                    raise TimedOut("waited too long for a batch")
                self._changed.wait(min(left, POLL_SECONDS))
            return False

    def follow(self, key: Hashable) -> None:
        """The leader took its batch (or failed): the lead passes to a request still waiting."""
        with self._changed:
            self._leading.discard(key)
            self._changed.notify_all()

    def finish(
        self, key: Hashable, batch: list[Order], results: list[Translation] | None, error: BaseException | None
    ) -> None:
        """Each order of a batch gets its share of ``results`` (or the error); those waiting for them wake."""
        with self._changed:
            if key in self._waiting:
                self._moved[key] = time.monotonic()
            for order in batch:
                if error is not None:
                    order.finish(error=error)
                else:
                    assert results is not None
                    order.finish(results[: len(order.texts)])
                    results = results[len(order.texts) :]
            self._changed.notify_all()

    def take(self, key: Hashable, first: Order) -> list[Order]:
        """``first`` and the orders waiting with the same key that still want an answer, within the bounds."""
        with self._changed:
            waiting = self._waiting.get(key, [])
            batch, texts, chars = [first], len(first.texts), first.chars
            for order in waiting:
                if order is first or order.cancel.cancelled or order.taken:
                    continue
                if texts + len(order.texts) > limits.API_BATCH_TEXTS or chars + order.chars > limits.API_BATCH_CHARS:
                    break
                batch.append(order)
                texts, chars = texts + len(order.texts), chars + order.chars
            for order in batch:
                order.taken = True
                if order in waiting:
                    waiting.remove(order)
            if waiting:
                self._moved[key] = time.monotonic()
            else:
                self._waiting.pop(key, None)
                self._moved.pop(key, None)
            return batch


def all_cancelled(batch: list[Order]) -> CancelToken:
    """The token a batch is translated under: cancelled when every one of its requests is."""
    return _All(batch)


class _All(CancelToken):
    def __init__(self, batch: list[Order]) -> None:
        super().__init__()
        self._batch = batch

    @property
    def cancelled(self) -> bool:
        return super().cancelled or all(order.cancel.cancelled for order in self._batch)

    def raise_if_cancelled(self) -> None:
        if self.cancelled:
            raise Cancelled()
