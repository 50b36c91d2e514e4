"""What web pages may do with the server: nothing, unless the user allowed their origin.

A browser lets any page send a simple request (a form POST) to 127.0.0.1, and reads the answer
when the server says it may (CORS). Without a key, the server answers only requests

- whose ``Host`` is an address of this server: an IP address, ``localhost``, or a name the server
  was told to listen on. A page that re-points its own name at 127.0.0.1 (DNS rebinding) sends its
  own name, and gets 403;
- from no web page at all (no ``Origin``: curl, desktop apps), from a browser extension
  (``chrome-extension://``, ``moz-extension://``, ``safari-web-extension://``), from a desktop app's
  Tauri webview (``tauri://localhost``; ``http(s)://tauri.localhost`` on Windows: Pot's streaming
  OpenAI and Ollama requests come from its webview), or from an origin the user listed
  (``--cors-origin``, the ``api_origins`` setting). Any other ``Origin`` gets 403, and preflights
  (Private Network Access ones included) are answered only for allowed origins.

With a key, any origin may ask (``Access-Control-Allow-Origin: *``): a page still needs the key.
"""

from __future__ import annotations

import ipaddress
import json
import socket
from collections.abc import Iterable
from dataclasses import dataclass

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .web import any_error_body

EXTENSION_SCHEMES = ("chrome-extension", "moz-extension", "safari-web-extension")
# The origins of Tauri apps' webviews (v1 and v2, macOS/Linux and Windows): an app on this computer, as an
# extension is. No page on the web has them (tauri.localhost is this machine's port 80, which no page is served
# from unless a program here serves it).
APP_ORIGINS = frozenset({"tauri://localhost", "http://tauri.localhost", "https://tauri.localhost"})
PREFLIGHT_MAX_AGE = "600"  # seconds a browser may remember a preflight's answer


class OriginError(ValueError):
    """An origin a user listed is not scheme://host[:port]."""


def normalise_origin(origin: str) -> str:
    """``Origin`` as browsers send it: lower-case scheme and host, no path, no trailing slash."""
    text = origin.strip().rstrip("/")
    scheme, sep, rest = text.partition("://")
    if not sep or not scheme or not rest or "/" in rest or any(c.isspace() for c in text):
        raise OriginError(f"{origin!r} is not an origin (scheme://host[:port], e.g. http://localhost:3000)")
    return f"{scheme.lower()}://{rest.lower()}"


@dataclass(frozen=True)
class BrowserPolicy:
    host_names: frozenset[str]  # names besides IP addresses and localhost that mean this server
    origins: frozenset[str]  # origins the user allowed (normalised)
    any_origin: bool  # a key is needed anyway: any origin may ask

    @classmethod
    def of(cls, listen_host: str, origins: Iterable[str] = (), *, keyed: bool) -> BrowserPolicy:
        names = {listen_host.lower().rstrip(".")}
        if _is_wildcard(listen_host):  # every address of this machine: its own names too
            hostname = socket.gethostname().lower()
            names |= {hostname, f"{hostname}.local"}
        return cls(
            frozenset(n for n in names if n and not _is_ip(n)), frozenset(normalise_origin(o) for o in origins), keyed
        )

    def host_allowed(self, host: str | None) -> bool:
        if host is None:  # HTTP/1.0 without Host: no browser sends that
            return True
        name = _host_name(host)
        return _is_ip(name) or name == "localhost" or name.endswith(".localhost") or name in self.host_names

    def origin_allowed(self, origin: str) -> bool:
        if self.any_origin:
            return True
        try:
            normal = normalise_origin(origin)
        except OriginError:
            return False  # "null" (sandboxed pages, file://) among others
        return normal.split("://", 1)[0] in EXTENSION_SCHEMES or normal in APP_ORIGINS or normal in self.origins


def _host_name(host: str) -> str:
    """The name in a Host header: without port and brackets, lower case, no trailing dot."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0].rstrip(".") if host.count(":") == 1 else host.rstrip(".")


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def _is_wildcard(host: str) -> bool:
    return _is_ip(host) and ipaddress.ip_address(host).is_unspecified


class BrowserGuard:
    """ASGI middleware applying a BrowserPolicy to every request."""

    def __init__(self, app: ASGIApp, policy: BrowserPolicy) -> None:
        self.app = app
        self.policy = policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        host = headers.get("host")
        if not self.policy.host_allowed(host):
            await _refuse(
                send,
                f"this server does not answer for the host {host!r}; use http://127.0.0.1 "
                "or http://localhost (a web page cannot re-point its own name at it)",
            )
            return
        origin = headers.get("origin")
        if origin is None or origin == f"{scope.get('scheme', 'http')}://{host}":  # no page, or a page of this server
            await self.app(scope, receive, send)
            return
        allowed = self.policy.origin_allowed(origin)
        if scope["method"] == "OPTIONS" and "access-control-request-method" in headers:
            if not allowed:
                await _refuse(send, f"web pages from {origin} may not use this server (see --cors-origin)")
            else:
                await _preflight(send, headers, self._allow_origin(origin))
            return
        if not allowed:
            await _refuse(send, f"web pages from {origin} may not use this server (see --cors-origin)")
            return

        async def with_cors(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {
                    **message,
                    "headers": [
                        *message.get("headers", []),
                        (b"access-control-allow-origin", self._allow_origin(origin).encode()),
                        (b"vary", b"Origin"),
                    ],
                }
            await send(message)

        await self.app(scope, receive, with_cors)

    def _allow_origin(self, origin: str) -> str:
        return "*" if self.policy.any_origin else origin


async def _preflight(send: Send, headers: Headers, allow_origin: str) -> None:
    answer = [
        (b"access-control-allow-origin", allow_origin.encode()),
        (b"access-control-allow-methods", b"GET, POST"),
        (b"access-control-max-age", PREFLIGHT_MAX_AGE.encode()),
        (b"vary", b"Origin"),
        (b"content-length", b"0"),
    ]
    if requested := headers.get("access-control-request-headers"):
        answer.append((b"access-control-allow-headers", requested.encode("latin-1")))
    if headers.get("access-control-request-private-network", "").lower() == "true":
        answer.append((b"access-control-allow-private-network", b"true"))
    await send({"type": "http.response.start", "status": 204, "headers": answer})
    await send({"type": "http.response.body", "body": b""})


async def _refuse(send: Send, message: str) -> None:
    body = json.dumps(any_error_body(403, message)).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 403,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})
