"""The ASGI application: every protocol's routes over one Core.

``POST /translate`` is LibreTranslate's, DeepLX's, MTranServer's (and KISS Translator's), Immersive Translate's
and DeepL's web JSON-RPC's; the body says
which (each protocol's ``wants``; LibreTranslate's takes the rest). ``GET /`` answers a short description,
which is what DeepLX clients and some LibreTranslate clients ask to see that the server is up. Which web
pages may call the server is browsers.py's decision.
"""

from __future__ import annotations

import logging
import re
from typing import Protocol

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from fanyi import __version__
from fanyi.oneline import error_line

from . import (
    deepl,
    deepl_web,
    deeplx,
    dictionary,
    google,
    immersive,
    libretranslate,
    mtranserver,
    ollama,
    openai,
    stream,
    summarize,
)
from .browsers import BrowserGuard, BrowserPolicy
from .core import Core
from .web import Fields, any_error_body, guarded, read_fields

log = logging.getLogger(__name__)


class SharesTranslate(Protocol):
    """A protocol module whose requests come to POST /translate too."""

    def wants(self, fields: Fields) -> bool: ...
    def error(self, status: int, message: str) -> Response: ...
    async def translate(self, core: Core, request: Request, fields: Fields) -> Response: ...


# The protocols that share POST /translate, asked in turn whether a body is theirs
SHARING_TRANSLATE: tuple[SharesTranslate, ...] = (deepl_web, immersive, mtranserver, deeplx)
# Every protocol's own routes
PROTOCOLS = (
    libretranslate,
    deepl,
    stream,
    dictionary,
    mtranserver,
    immersive,
    deepl_web,
    google,
    openai,
    ollama,
    summarize,
)


def create_app(core: Core, browsers: BrowserPolicy) -> Starlette:
    async def translate(request: Request) -> Response:
        shape = libretranslate.error

        async def answer() -> Response:
            nonlocal shape
            fields = await read_fields(request)
            for protocol in SHARING_TRANSLATE:
                if protocol.wants(fields):
                    shape = protocol.error
                    return await protocol.translate(core, request, fields)
            return await libretranslate.translate(core, request, fields)

        # An error while reading the body is told in LibreTranslate's shape: the protocol is not known yet.
        return await guarded(lambda status, message: shape(status, message), answer)

    async def root(request: Request) -> Response:
        return JSONResponse(
            {
                "code": 200,
                "message": f"Fanyi {__version__}: a local translation API. LibreTranslate: POST /translate, "
                "GET /languages, POST /detect. DeepL: POST /v2/translate. DeepLX, MTranServer and DeepL's "
                "JSON-RPC, Immersive Translate, KISS Translator: POST /translate (or /imme, /kiss). "
                "Google: GET /translate_a/single, POST /language/translate/v2. OpenAI: POST /v1/chat/completions, "
                "GET /v1/models. Ollama: POST /api/chat, POST /api/generate, GET /api/tags. "
                "Streaming: POST /stream. Dictionary: GET /dictionary?q=word. "
                "Summaries: POST /summarize, POST /summarize_file.",
            }
        )

    routes = [
        Route("/", root, methods=["GET"]),
        # DeepLX's other paths, and MTranServer's for DeepLX clients: the same body, the same answer
        *(Route(path, translate, methods=["POST"]) for path in ("/translate", "/v1/translate", "/deeplx")),
        *(route for protocol in PROTOCOLS for route in protocol.routes(core)),
    ]
    middleware = [Middleware(BrowserGuard, policy=browsers), Middleware(TidyPaths)]
    return Starlette(
        routes=routes, middleware=middleware, exception_handlers={HTTPException: _routing_error, Exception: _unexpected}
    )


class TidyPaths:
    """``//translate`` and ``/translate/`` are ``/translate``: clients join a base URL that ends in "/"
    with a path that starts with one."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            path = re.sub("/{2,}", "/", scope["path"])
            path = path.rstrip("/") or "/"
            if path != scope["path"]:
                scope = {**scope, "path": path, "raw_path": path.encode()}
        await self.app(scope, receive, send)


async def _routing_error(request: Request, exc: Exception) -> Response:
    """404 (no such path), 405 (a path's other method): JSON every protocol's clients read, not plain text."""
    assert isinstance(exc, HTTPException)  # what it is registered for
    message = {
        404: f"there is no {request.url.path} here",
        405: f"{request.method} is not how {request.url.path} is asked",
    }.get(exc.status_code, exc.detail)
    return JSONResponse(any_error_body(exc.status_code, message), exc.status_code, headers=exc.headers)


async def _unexpected(request: Request, exc: Exception) -> Response:
    """A fault outside every handler's own error handling: one line for the client, the traceback in the log."""
    log.error("local API: %s failed", request.url.path, exc_info=exc)
    return JSONResponse(any_error_body(500, f"the server failed: {error_line(exc)}"), 500)
