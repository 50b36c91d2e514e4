"""DeepL's web JSON-RPC (``LMT_handle_texts``), which Zotero PDF Translate's "DeepLX" service and Pot's free
DeepL send: ``{"jsonrpc": "2.0", "method": "LMT_handle_texts", "id", "params": {"texts": [{"text"}], "lang":
{"source_lang_user_selected", "target_lang"}, …}}`` → ``{"jsonrpc": "2.0", "id", "result": {"texts": [{"text",
"alternatives": []}], "lang"}}``.

Served on DeepLX's path, ``POST /translate`` (app.py tells it by its ``jsonrpc`` field), and on ``POST
/jsonrpc``, the path of DeepL's own address that Zotero's default ends in. Codes are DeepL's (``ZH``,
``ZH-HANS``, ``ZH-HANT``, ``EN``, ``auto``). Errors are JSON-RPC's ``{"jsonrpc", "id", "error": {"code",
"message"}}`` with the HTTP status. These clients send no key: on a server with one they are refused.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from fanyi.languages import AUTO

from . import deepl
from .core import ApiRequest, Core
from .errors import ApiError
from .web import Fields, guarded, presented_key, read_fields, translate_in_line, untranslated_header

METHOD = "LMT_handle_texts"


def error(status: int, message: str) -> Response:
    return JSONResponse({"jsonrpc": "2.0", "error": {"code": status, "message": message}}, status_code=status)


def wants(fields: Fields) -> bool:
    return "jsonrpc" in fields


async def translate(core: Core, request: Request, fields: Fields) -> Response:
    core.authorize(presented_key(request, fields))
    if fields.text("method") != METHOD:
        raise ApiError(400, f"the method must be {METHOD}")
    params = fields.value("params")
    lang = params.get("lang") if isinstance(params, dict) else None
    entries = params.get("texts") if isinstance(params, dict) else None
    if not isinstance(lang, dict) or not isinstance(entries, list):
        raise ApiError(400, "params must hold texts and lang")
    inner = Fields({"text": [e.get("text") if isinstance(e, dict) else e for e in entries], **lang})
    texts, target = inner.texts("text") or [], inner.text("target_lang")
    if not target:
        raise ApiError(400, "params.lang.target_lang is required")
    source = inner.text("source_lang_user_selected") or AUTO
    outcome = await translate_in_line(core, request, ApiRequest(texts, source, target))
    result: dict[str, Any] = {
        "texts": [{"text": text, "alternatives": []} for text in outcome.texts],
        "lang": deepl.code(outcome.sources[0]) if outcome.sources else "",
        "lang_is_confident": source.lower() != AUTO,
    }
    headers = untranslated_header(sum(map(len, outcome.untranslated)))
    return JSONResponse({"jsonrpc": "2.0", "id": fields.value("id"), "result": result}, headers=headers)


def routes(core: Core) -> list[Route]:
    async def endpoint(request: Request) -> Response:
        async def answer() -> Response:
            return await translate(core, request, await read_fields(request))

        return await guarded(error, answer)

    return [Route("/jsonrpc", endpoint, methods=["POST"])]
