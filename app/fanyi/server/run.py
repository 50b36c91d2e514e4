"""Running the API: in the foreground for ``fanyi serve``, in a thread of its own in the desktop app.

The listening socket is bound here, before uvicorn starts, so that "port in use" is an error the
caller sees at once, and so that port 0 (any free port) can be told back to the user.
"""

from __future__ import annotations

import errno
import ipaddress
import logging
import re
import socket
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from fanyi import limits
from fanyi.engine import few_arenas

from .core import Core

if TYPE_CHECKING:  # browsers.py imports starlette, which the CLI's error handling (ServerError) need not load
    import uvicorn

    from .browsers import BrowserPolicy

# After a stop, connections get this long to finish; running translations were cancelled first.
GRACEFUL_STOP_SECONDS = 3.0
MAX_PORT = 65535


class ServerError(Exception):
    """The server cannot listen where it was asked to (one sentence for the user)."""


def bind(host: str, port: int) -> socket.socket:
    if not 0 <= port <= MAX_PORT:  # socket.bind would raise OverflowError with a traceback
        raise ServerError(f"cannot listen on port {port}: a port is a number from 0 to {MAX_PORT} (0: any free port)")
    try:
        family = socket.AF_INET6 if ipaddress.ip_address(host).version == 6 else socket.AF_INET
    except ValueError:  # a host name, e.g. localhost
        family = socket.AF_INET
    # IPPROTO_TCP rather than 0: asyncio sets TCP_NODELAY only on sockets whose proto says TCP, and
    # accepted sockets inherit it. Without it every keep-alive answer written in two pieces (head,
    # body) waits ~40 ms for the client's delayed ACK (Nagle).
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        # Reuse a port left in TIME_WAIT by an earlier run; never share a port in use (no SO_REUSEPORT).
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(limits.API_MAX_CONNECTIONS)
    except OSError as exc:
        sock.close()
        in_use = exc.errno in (errno.EADDRINUSE, getattr(errno, "WSAEADDRINUSE", errno.EADDRINUSE))
        reason = "the port is in use" if in_use else (exc.strerror or str(exc))
        raise ServerError(f"cannot listen on {host}:{port}: {reason}") from None
    return sock


def enough_files(wanted: int) -> None:
    """Let this process open ``wanted`` files (sockets) where the system allows it (its hard limit)."""
    try:
        import resource  # noqa: PLC0415 - POSIX only; Windows has no such limit on sockets
    except ImportError:
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    goal = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < goal:
        resource.setrlimit(resource.RLIMIT_NOFILE, (goal, hard))


def address(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"http://{'[' + host + ']' if ':' in host else host}:{port}"


def _server(core: Core, browsers: BrowserPolicy, *, quiet: bool) -> uvicorn.Server:
    # uvicorn and starlette load when a server starts, not with this module (the CLI imports it for ServerError)
    import uvicorn  # noqa: PLC0415

    few_arenas()  # translations run in the line's many threads: without this each kept its own freed memory
    enough_files(limits.API_MAX_CONNECTIONS + 64)  # every connection a socket, and the packs' files besides

    from .app import create_app  # noqa: PLC0415
    from .connections import Connection  # noqa: PLC0415

    # The app keeps its own logging; the command line gets uvicorn's (one line per request).
    logging_config: dict[str, Any] = {"log_config": None} if quiet else {}
    config = uvicorn.Config(
        create_app(core, browsers),
        http=Connection,
        loop="asyncio",
        ws="none",
        lifespan="off",
        interface="asgi3",
        # connections.py bounds connections (closing idle ones first) and waits for heads; the line bounds work
        limit_concurrency=None,
        timeout_keep_alive=int(limits.API_KEEP_ALIVE_SECONDS),
        timeout_graceful_shutdown=int(GRACEFUL_STOP_SECONDS),
        access_log=not quiet,
        log_level="warning" if quiet else "info",
        **logging_config,
    )
    if not quiet:  # after Config, which sets uvicorn's logging up
        logging.getLogger("uvicorn.access").addFilter(_hide_keys)

    class Server(uvicorn.Server):
        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            # Before uvicorn waits for the requests under way: they stop at their next decoder step and are
            # answered 503 within the grace period, instead of being cut off (plain-text 500s) after it.
            core.close()
            await super().shutdown(sockets)

    return Server(config)


_KEY_FIELDS = re.compile(r"((?:^|[?&])(?:api_key|auth_key|token|key)=)[^&]*", re.IGNORECASE)


def _hide_keys(record: logging.LogRecord) -> bool:
    """An access-log line with the value of any key in the query string replaced by ***."""
    if isinstance(record.args, tuple):
        record.args = tuple(_KEY_FIELDS.sub(r"\1***", a) if isinstance(a, str) else a for a in record.args)
    return True


def serve_forever(core: Core, sock: socket.socket, browsers: BrowserPolicy) -> None:
    """Serve until Ctrl+C or SIGTERM (uvicorn handles both): stop listening, answer what runs 503, return."""
    server = _server(core, browsers, quiet=False)
    try:
        server.run(sockets=[sock])
    finally:
        core.close()


class BackgroundServer:
    """The API in a daemon thread; ``stop()`` cancels running translations and returns when it has stopped."""

    def __init__(
        self,
        core: Core,
        sock: socket.socket,
        on_crash: Callable[[BaseException], None] | None = None,
        browsers: BrowserPolicy | None = None,
    ):
        self.core = core
        self.address = address(sock)
        if browsers is None:
            from .browsers import BrowserPolicy  # noqa: PLC0415 - starlette, as above

            browsers = BrowserPolicy.of(sock.getsockname()[0], keyed=core.api_key is not None)
        self._server = _server(core, browsers, quiet=True)
        self._on_crash = on_crash
        self._thread = threading.Thread(target=self._run, args=(sock,), name="fanyi-api", daemon=True)

    def start(self) -> None:
        self._thread.start()

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def stop(self) -> None:
        self._server.should_exit = True
        self.core.close()
        self._thread.join(GRACEFUL_STOP_SECONDS + 5)

    def _run(self, sock: socket.socket) -> None:
        try:
            self._server.run(sockets=[sock])
        except BaseException as exc:  # noqa: BLE001 - uvicorn exits through SystemExit on startup failure
            if self._on_crash is not None:
                self._on_crash(exc)
        finally:
            sock.close()
