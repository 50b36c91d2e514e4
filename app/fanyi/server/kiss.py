"""KISS Translator's custom API: ``POST /kiss`` with ``{"text", "from", "to"}`` → ``{"text", "src"}``, or (its
batch mode) ``{"texts", "from", "to"}`` → ``{"translations": [{"text", "src"}]}``.

As KISS Translator's ``genCustom`` sends it and ``parseTransRes`` reads it (src/apis/trans.js): its own codes
(``zh-CN``, ``zh-TW``, ``en``, ``auto``), the key as ``Authorization: Bearer KEY`` — ``Bearer`` and nothing
else when no key is set, which an unkeyed server takes as no key. ``src`` is the detected source language.
Errors are ``{"error"}`` with the status.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from fanyi.languages import AUTO

from .core import ApiRequest, Core
from .errors import ApiError
from .mtranserver import error
from .web import guarded, presented_key, read_fields, translate_in_line, untranslated_header


async def _translate(core: Core, request: Request) -> Response:
    fields = await read_fields(request)
    core.authorize(presented_key(request, fields))
    batch = "texts" in fields
    texts = fields.texts("texts") if batch else fields.texts("text")
    target = fields.text("to")
    if texts is None or not target:
        raise ApiError(400, "text (or texts) and to are required")
    job = ApiRequest(texts, fields.text("from") or AUTO, target, glossary=fields.glossary())
    outcome = await translate_in_line(core, request, job)
    answers = [{"text": text, "src": source} for text, source in zip(outcome.texts, outcome.sources)]
    headers = untranslated_header(sum(map(len, outcome.untranslated)))
    return JSONResponse({"translations": answers} if batch else answers[0], headers=headers)


def routes(core: Core) -> list[Route]:
    async def endpoint(request: Request) -> Response:
        return await guarded(error, lambda: _translate(core, request))

    return [Route("/kiss", endpoint, methods=["POST"])]
