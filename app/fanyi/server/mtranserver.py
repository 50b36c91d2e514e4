"""MTranServer: ``POST /translate`` with ``{"text", "from", "to", "html"}`` → ``{"result"}``, ``POST
/translate/batch`` with ``{"texts", …}`` → ``{"results"}``, ``GET /version`` → ``{"version"}`` (``GET /health``
is LibreTranslate's ``{"status": "ok"}``, the same answer); and KISS Translator's custom API, whose body is
MTranServer's (``{"text", "from", "to"}``, or ``{"texts", …}`` in its batch mode) and whose answer is ``{"text",
"src"}`` or ``{"translations": [{"text", "src"}]}`` (its ``genCustom`` and ``parseTransRes``, src/apis/trans.js):
on ``/translate`` an answer carries both tools' fields, and ``POST /kiss`` (MTranServer's path for KISS) is
the same. KISS sends ``Authorization: Bearer`` with nothing after it when no key is set: no key.

What Zotero PDF Translate's, STranslate's and Pot's MTranServer services send (read from their sources: the
tests cite them). Codes as MTranServer takes them (``zh``, ``zh-Hans``, ``zh-Hant``, ``en``); the key in any of
the places presented_key reads, a bare ``Authorization: KEY`` (Zotero's and Pot's) included. Errors are
``{"error"}`` with the status. ``/translate`` is LibreTranslate's and DeepLX's too: a body with ``from`` or
``to`` and ``text`` (no ``q``, no ``target_lang``) is this one's. ``GET /languages`` is LibreTranslate's list
(the path is LibreTranslate's too), which Zotero's, STranslate's and Pot's services never read; Bob's MTranServer
plugin reads MTranServer's (``{"languages": [code, …], "pairs": [{"from", "to"}]}``, src/controllers/
language.controller.ts) and cannot read LibreTranslate's. For it the whole of MTranServer's API is also served
under ``/mtranserver`` (``/mtranserver/languages`` in MTranServer's shape, ``/translate``, ``/translate/batch``,
``/health``, ``/version``): the plugin's API URL is ``http://127.0.0.1:5000/mtranserver``.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route

from fanyi import __version__
from fanyi.languages import AUTO

from . import libretranslate
from .core import ApiRequest, Core, Outcome
from .errors import ApiError
from .web import Fields, guarded, presented_key, read_fields, translate_in_line, untranslated_header


def error(status: int, message: str) -> Response:
    return JSONResponse({"error": message}, status_code=status)


def wants(fields: Fields) -> bool:
    """An MTranServer body rather than LibreTranslate's (``q``) or DeepLX's (``target_lang``)."""
    return ("from" in fields or "to" in fields) and ("text" in fields or "texts" in fields) and "q" not in fields


async def translate(core: Core, request: Request, fields: Fields) -> Response:
    """MTranServer's one text, or KISS Translator's one text or batch: each tool reads its own fields."""
    batch = "texts" in fields
    texts = fields.texts("texts") if batch else fields.texts("text")
    if texts is None:
        raise ApiError(400, "text (or texts) and to are required")
    outcome = await _translated(core, request, fields, texts)
    answers = [{"text": text, "src": source} for text, source in zip(outcome.texts, outcome.sources)]
    body = {"results": outcome.texts, "translations": answers} if batch else {"result": outcome.texts[0], **answers[0]}
    return JSONResponse(body, headers=untranslated_header(sum(map(len, outcome.untranslated))))


async def _batch(core: Core, request: Request) -> Response:
    fields = await read_fields(request)
    texts = fields.texts("texts")
    if texts is None:
        raise ApiError(400, "texts and to are required")
    outcome = await _translated(core, request, fields, texts)
    return JSONResponse({"results": outcome.texts}, headers=untranslated_header(sum(map(len, outcome.untranslated))))


async def _translated(core: Core, request: Request, fields: Fields, texts: list[str]) -> Outcome:
    core.authorize(presented_key(request, fields))
    target = fields.text("to")
    if not target:
        raise ApiError(400, "to (the target language) is required")
    html = fields.value("html") is True
    job = ApiRequest(texts, fields.text("from") or AUTO, target, html=html, glossary=fields.glossary())
    return await translate_in_line(core, request, job)


def routes(core: Core) -> list[BaseRoute]:
    async def batch(request: Request) -> Response:
        return await guarded(error, lambda: _batch(core, request))

    async def one(request: Request) -> Response:  # MTranServer's one text, or KISS Translator's text or batch
        async def answer() -> Response:
            return await translate(core, request, await read_fields(request))

        return await guarded(error, answer)

    async def beat(request: Request) -> Response:  # MTranServer's liveness checks: 200, nothing to read
        return Response(status_code=200)

    async def version(request: Request) -> Response:
        return JSONResponse({"version": __version__})

    async def health(request: Request) -> Response:
        return JSONResponse({"status": "ok"})

    async def languages(request: Request) -> Response:
        found = libretranslate.targets(core)
        pairs = [{"from": source, "to": target} for source, into in found.items() for target in into]
        return JSONResponse({"languages": list(found), "pairs": pairs})

    own = [  # MTranServer's paths that are its own, wherever they are served
        Route("/translate/batch", batch, methods=["POST"]),
        Route("/version", version, methods=["GET"]),
    ]
    return [
        *own,
        Route("/kiss", one, methods=["POST"]),
        *(Route(path, beat, methods=["GET"]) for path in ("/__heartbeat__", "/__lbheartbeat__")),
        Mount(
            "/mtranserver",
            routes=[
                *own,
                Route("/translate", one, methods=["POST"]),
                Route("/languages", languages, methods=["GET"]),
                Route("/health", health, methods=["GET"]),
            ],
        ),
    ]
