"""Requests waiting for the same model with the same options are translated together.

Whoever gets the model's turn takes every such request waiting at that moment (up to
``API_BATCH_TEXTS`` texts and ``API_BATCH_CHARS`` characters; a longer request is translated on its
own, so short ones are never held up by it) and translates all their texts as one batch: on a CPU
a batch of eight short sentences costs about three times one sentence, not eight. The requests it took stop
waiting as soon as the batch is done (their wake-up token fires) and answer with their share.

The batch is cancelled only when every request in it was: one client hanging up does not stop the
others' translations.
"""

from __future__ import annotations

import threading
from collections.abc import Hashable
from dataclasses import dataclass, field

from fanyi import limits
from fanyi.cancel import Cancelled, CancelToken
from fanyi.engine import Translation


@dataclass(eq=False)
class Order:
    """One request's texts, waiting for a batch to translate them."""

    texts: list[str]
    cancel: CancelToken  # the request's own: its client hung up, or the server stops
    results: list[Translation] | None = None
    error: BaseException | None = None
    done: threading.Event = field(default_factory=threading.Event)

    @property
    def chars(self) -> int:
        return sum(map(len, self.texts))

    def wake(self) -> CancelToken:
        """What the request waits for its turn with: fires when it is cancelled or when a batch did its work."""
        return _Either(self)

    def finish(self, results: list[Translation] | None = None, error: BaseException | None = None) -> None:
        self.results, self.error = results, error
        self.done.set()


class Orders:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiting: dict[Hashable, list[Order]] = {}

    def add(self, key: Hashable, order: Order) -> None:
        with self._lock:
            self._waiting.setdefault(key, []).append(order)

    def discard(self, key: Hashable, order: Order) -> None:
        with self._lock:
            waiting = self._waiting.get(key, [])
            if order in waiting:
                waiting.remove(order)
            if not waiting:
                self._waiting.pop(key, None)

    def take(self, key: Hashable, first: Order) -> list[Order]:
        """``first`` and the orders waiting with the same key that still want an answer, within the bounds."""
        with self._lock:
            waiting = self._waiting.get(key, [])
            batch, texts, chars = [first], len(first.texts), first.chars
            for order in waiting:
                if order is first or order.cancel.cancelled:
                    continue
                if texts + len(order.texts) > limits.API_BATCH_TEXTS or chars + order.chars > limits.API_BATCH_CHARS:
                    break
                batch.append(order)
                texts, chars = texts + len(order.texts), chars + order.chars
            for order in batch:
                if order in waiting:
                    waiting.remove(order)
            if not waiting:
                self._waiting.pop(key, None)
            return batch


def all_cancelled(batch: list[Order]) -> CancelToken:
    """The token a batch is translated under: cancelled when every one of its requests is."""
    return _All(batch)


class _Either(CancelToken):
    def __init__(self, order: Order) -> None:
        super().__init__()
        self._order = order

    @property
    def cancelled(self) -> bool:
        return super().cancelled or self._order.cancel.cancelled or self._order.done.is_set()

    def raise_if_cancelled(self) -> None:
        if self.cancelled:
            raise Cancelled()


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
