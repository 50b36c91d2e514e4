"""Connections that a few idle or slow sockets cannot exhaust, and no plain-text answer from below the app.

uvicorn's own HTTP/1.1 protocol, with three changes:

- A request's head must arrive within ``API_HEAD_SECONDS`` of the connection (or of the last
  answer on it); a socket that sends nothing, or headers a byte at a time, is closed then.
- At ``API_MAX_CONNECTIONS`` open connections a new one closes the connection idle the longest
  (no request under way) instead of being refused; only when every connection is busy is the new
  one answered 503. uvicorn's own limit would answer every request 503 while enough idle sockets
  stay open.
- The answers uvicorn writes itself (a request that is not HTTP, too many connections) are JSON in
  a shape every protocol's clients read (``web.any_error``), not plain text.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from fanyi import limits

from .web import any_error_body

if TYPE_CHECKING:
    from starlette.types import Receive, Scope, Send


class Connection(H11Protocol):
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._idle_since = time.monotonic()
        self._head_timer: asyncio.TimerHandle | None = None
        if len(self.connections) > limits.API_MAX_CONNECTIONS and not _close_longest_idle(self.connections, self):
            self.app = _too_many_connections  # its request is read, then answered 503 (no reset of unread data)
        self._wait_for_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head_timer()
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._idle_since = time.monotonic()
        self._wait_for_head()

    def send_400_response(self, msg: str) -> None:
        self._refuse(400, "the request is not valid HTTP/1.1")

    @property
    def idle(self) -> bool:
        """No request under way: waiting for one, or for the rest of its head."""
        return self.conn.their_state is h11.IDLE and (self.cycle is None or self.cycle.response_complete)

    def _wait_for_head(self) -> None:
        self._cancel_head_timer()
        self._head_timer = self.loop.call_later(limits.API_HEAD_SECONDS, self._head_overdue)

    def _head_overdue(self) -> None:
        self._head_timer = None
        if self.idle and not self.transport.is_closing():
            self.transport.close()

    def _cancel_head_timer(self) -> None:
        timer = getattr(self, "_head_timer", None)
        if timer is not None:
            timer.cancel()
            self._head_timer = None

    def _refuse(self, status: int, message: str) -> None:
        """Answer outside any request cycle (the request could not be read), and close."""
        body = json.dumps(any_error_body(status, message)).encode()
        headers = [(b"content-type", b"application/json"), (b"connection", b"close")]
        for event in (h11.Response(status_code=status, headers=headers), h11.Data(data=body), h11.EndOfMessage()):
            self.transport.write(self.conn.send(event))
        self.transport.close()


async def _too_many_connections(scope: Scope, receive: Receive, send: Send) -> None:
    body = json.dumps(any_error_body(503, "too many connections to Fanyi are busy; try again in a moment")).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 503,
            "headers": [(b"content-type", b"application/json"), (b"retry-after", b"1"), (b"connection", b"close")],
        }
    )
    await send({"type": "http.response.body", "body": body})


def _close_longest_idle(connections: Iterable[object], newcomer: Connection) -> bool:
    idle = [
        c
        for c in connections
        if c is not newcomer and isinstance(c, Connection) and c.idle and not c.transport.is_closing()
    ]
    if not idle:
        return False
    min(idle, key=lambda c: c._idle_since).transport.close()
    return True
