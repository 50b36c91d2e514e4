"""MTranServer: ``POST /translate`` with ``{"text", "from", "to", "html"}`` → ``{"result"}``, ``POST
/translate/batch`` with ``{"texts", …}`` → ``{"results"}``, ``GET /version`` → ``{"version"}`` (``GET /health``
is LibreTranslate's ``{"status": "ok"}``, the same answer).

What Zotero PDF Translate's, STranslate's and Pot's MTranServer services send (read from their sources: the
tests cite them). Codes as MTranServer takes them (``zh``, ``zh-Hans``, ``zh-Hant``, ``en``); the key in any of
the places presented_key reads, a bare ``Authorization: KEY`` (Zotero's and Pot's) included. Errors are
``{"error"}`` with the status. ``/translate`` is LibreTranslate's and DeepLX's too: a body with ``from`` or
``to`` and ``text`` (no ``q``, no ``target_lang``) is this one's. MTranServer's ``GET /languages`` answers
LibreTranslate's list here (the path is LibreTranslate's too; none of these tools reads it).
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from fanyi import __version__
from fanyi.languages import AUTO

from .core import ApiRequest, Core
from .errors import ApiError
from .web import Fields, guarded, presented_key, read_fields, translate_in_line, untranslated_header


def error(status: int, message: str) -> Response:
    return JSONResponse({"error": message}, status_code=status)


def wants(fields: Fields) -> bool:
    """An MTranServer body rather than LibreTranslate's (``q``) or DeepLX's (``target_lang``)."""
    return ("from" in fields or "to" in fields) and ("text" in fields or "texts" in fields) and "q" not in fields


async def translate(core: Core, request: Request, fields: Fields) -> Response:
    text = fields.text("text")
    if text is None:
        raise ApiError(400, "text and to are required")
    results, count = await _translated(core, request, fields, [text])
    return JSONResponse({"result": results[0]}, headers=untranslated_header(count))


async def _batch(core: Core, request: Request) -> Response:
    fields = await read_fields(request)
    texts = fields.texts("texts")
    if texts is None:
        raise ApiError(400, "texts and to are required")
    results, count = await _translated(core, request, fields, texts)
    return JSONResponse({"results": results}, headers=untranslated_header(count))


async def _translated(core: Core, request: Request, fields: Fields, texts: list[str]) -> tuple[list[str], int]:
    core.authorize(presented_key(request, fields))
    target = fields.text("to")
    if not target:
        raise ApiError(400, "to (the target language) is required")
    html = fields.value("html") is True
    job = ApiRequest(texts, fields.text("from") or AUTO, target, html=html, glossary=fields.glossary())
    outcome = await translate_in_line(core, request, job)
    return outcome.texts, sum(map(len, outcome.untranslated))


def routes(core: Core) -> list[Route]:
    async def batch(request: Request) -> Response:
        return await guarded(error, lambda: _batch(core, request))

    async def version(request: Request) -> Response:
        return JSONResponse({"version": __version__})

    return [
        Route("/translate/batch", batch, methods=["POST"]),
        Route("/version", version, methods=["GET"]),
    ]
