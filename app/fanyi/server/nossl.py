"""Serving plain HTTP where Python has no ``ssl`` module (the bundle leaves OpenSSL out).

uvicorn and anyio import ``ssl`` at the top of some modules (anyio's when its asyncio backend is
first used), and uvicorn reads two constants of it
as default values of its TLS options; a plain-HTTP server uses nothing else of it. Where ``ssl``
cannot be imported, ``import_server_stack()`` lets those imports see a stand-in with the two
constants and a context class that refuses to be built, and takes the stand-in away again
afterwards, so everything else still finds no ``ssl`` and behaves as it would without one.
"""

from __future__ import annotations

import sys
import types

# The values of CPython's ssl module; uvicorn only stores them.
CERT_NONE = 0
PROTOCOL_TLS_SERVER = 17


_ABSENT = object()


class _NoTLS:
    def __init__(self, *args: object, **kwargs: object) -> None:
        raise RuntimeError("TLS is not available: this Python has no ssl module; serve plain HTTP on localhost")


def _stand_in() -> types.ModuleType:
    module = types.ModuleType("ssl", "Stand-in for a missing ssl module: enough to import a plain-HTTP server.")
    module.CERT_NONE = CERT_NONE
    module.PROTOCOL_TLS_SERVER = PROTOCOL_TLS_SERVER
    module.SSLContext = _NoTLS
    module.SSLError = type("SSLError", (OSError,), {})
    return module


def import_server_stack() -> None:
    """Import uvicorn, starlette and anyio, with the stand-in when ``ssl`` is missing."""
    try:
        import ssl  # noqa: F401
    except ImportError:
        pass
    else:
        _import()
        return
    import asyncio  # noqa: F401 - imported first, it keeps its own "no ssl" fallback and never sees the stand-in

    before = sys.modules.get("ssl", _ABSENT)  # None where ssl was blocked on purpose
    sys.modules["ssl"] = _stand_in()
    try:
        _import()
    finally:
        if before is _ABSENT:
            del sys.modules["ssl"]
        else:
            sys.modules["ssl"] = before


def _import() -> None:
    # anyio imports its sockets module (which imports ssl) only with its asyncio backend, on first use.
    import anyio._backends._asyncio  # noqa: F401
    import anyio._core._sockets  # noqa: F401
    import anyio.to_thread  # noqa: F401
    import starlette.applications  # noqa: F401
    import uvicorn  # noqa: F401
    import uvicorn.lifespan.off  # noqa: F401
    import uvicorn.loops.asyncio  # noqa: F401
    import uvicorn.protocols.http.h11_impl  # noqa: F401
