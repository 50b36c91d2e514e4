"""Immersive Translate's custom API: ``POST /imme`` with ``{"source_lang", "target_lang", "text_list"}`` →
``{"translations": [{"detected_source_lang", "text"}]}``, one per text, in order.

The shape is the extension's documentation's ("Custom API", immersivetranslate.com/docs/services/custom) and
MTranServer's ``/imme``, which Immersive Translate users already point the extension at; the extension
itself is closed source. Codes are Google's (``zh-CN``, ``zh-TW``, ``en``, ``auto``); the key as
``?token=KEY`` in the URL typed into the extension. Errors are ``{"error"}`` with the status.
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
    texts, target = fields.texts("text_list"), fields.text("target_lang")
    if texts is None or not target:
        raise ApiError(400, "text_list and target_lang are required")
    job = ApiRequest(texts, fields.text("source_lang") or AUTO, target, glossary=fields.glossary())
    outcome = await translate_in_line(core, request, job)
    translations = [
        {"detected_source_lang": source, "text": text} for source, text in zip(outcome.sources, outcome.texts)
    ]
    count = sum(map(len, outcome.untranslated))
    return JSONResponse({"translations": translations}, headers=untranslated_header(count))


def routes(core: Core) -> list[Route]:
    async def endpoint(request: Request) -> Response:
        return await guarded(error, lambda: _translate(core, request))

    return [Route("/imme", endpoint, methods=["POST"])]
