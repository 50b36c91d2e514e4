"""Immersive Translate's custom API: ``POST /imme`` with ``{"source_lang", "target_lang", "text_list"}`` →
``{"translations": [{"detected_source_lang", "text"}]}``, one per text, in order.

The shape is the extension's documentation's ("Custom API", immersivetranslate.com/docs/services/custom) and
MTranServer's ``/imme``, which Immersive Translate users already point the extension at; the extension
itself is closed source. Also on ``POST /translate``, told by its ``text_list``. Codes are Google's
(``zh-CN``, ``zh-TW``, ``en``, ``auto``); the key as ``?token=KEY`` in the URL typed into the extension.
Errors are ``{"error"}`` with the status.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from fanyi.languages import AUTO

from .core import ApiRequest, Core
from .errors import ApiError
from .mtranserver import error as error  # the same shape, {"error"}
from .web import Fields, guarded, presented_key, read_fields, translate_in_line, untranslated_header


def wants(fields: Fields) -> bool:
    return "text_list" in fields


async def translate(core: Core, request: Request, fields: Fields) -> Response:
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
        async def answer() -> Response:
            return await translate(core, request, await read_fields(request))

        return await guarded(error, answer)

    return [Route("/imme", endpoint, methods=["POST"])]
