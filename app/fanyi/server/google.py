"""Google Translate's two shapes: the web client's ``GET /translate_a/single?client=gtx&sl=…&tl=…&dt=t&q=…``
(KOReader's translator, Zotero PDF Translate's Google services) and the Cloud Translation API v2's ``POST
/language/translate/v2`` (``q`` one or many, ``target``, ``source``, ``format``, ``key``).

``translate_a/single`` answers what those clients read: a list whose first item lists ``[translation,
source, null, null, 1]`` and whose third is the source language (KOReader's ``Translator:translate`` and
``_showTranslation``, Zotero's ``_google``); the other ``dt`` parts (alternatives, definitions) are null.
v2 answers ``{"data": {"translations": [{"translatedText", "detectedSourceLanguage"}]}}`` (the language only
when none was given, as Google does) and errors as ``{"error": {"code", "message", "errors", "status"}}``.
Codes are Google's (``zh-CN``, ``zh-TW``, ``zh``, ``en``, ``auto``); the key as ``key=`` or any of presented_key's.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from fanyi.languages import AUTO

from .core import ApiRequest, Core
from .errors import ApiError
from .web import guarded, presented_key, read_fields, translate_in_line, untranslated_header


def web_error(status: int, message: str) -> Response:
    return JSONResponse({"error": message}, status_code=status)


def v2_error(status: int, message: str) -> Response:
    reasons = [{"message": message, "domain": "global", "reason": "invalid"}]
    body = {"code": status, "message": message, "errors": reasons}
    return JSONResponse({"error": {**body, "status": "INVALID_ARGUMENT" if status == 400 else "ERROR"}}, status)


async def _single(core: Core, request: Request) -> Response:
    fields = await read_fields(request)
    core.authorize(presented_key(request, fields))
    text, target = fields.text("q"), fields.text("tl")
    if text is None or not target:
        raise ApiError(400, "q and tl are required")
    outcome = await translate_in_line(core, request, ApiRequest([text], fields.text("sl") or AUTO, target))
    body: list[Any] = [[[outcome.texts[0], text, None, None, 1]], None, outcome.sources[0], None, None, None, None, []]
    return JSONResponse(body, headers=untranslated_header(len(outcome.untranslated[0])))


async def _v2(core: Core, request: Request) -> Response:
    fields = await read_fields(request)
    core.authorize(presented_key(request, fields))
    texts, target = fields.texts("q"), fields.text("target")
    if texts is None or not target:
        raise ApiError(400, "q and target are required")
    text_format = fields.text("format") or "html"  # Google's default is HTML
    if text_format not in ("text", "html"):
        raise ApiError(400, f"format must be text or html, not {text_format!r}")
    source = fields.text("source") or AUTO
    job = ApiRequest(texts, source, target, html=text_format == "html", glossary=fields.glossary())
    outcome = await translate_in_line(core, request, job)
    translations: list[dict[str, str]] = []
    for text, language in zip(outcome.texts, outcome.sources):
        entry = {"translatedText": text}
        if source.lower() == AUTO:
            entry["detectedSourceLanguage"] = language
        translations.append(entry)
    headers = untranslated_header(sum(map(len, outcome.untranslated)))
    return JSONResponse({"data": {"translations": translations}}, headers=headers)


def routes(core: Core) -> list[Route]:
    async def single(request: Request) -> Response:
        return await guarded(web_error, lambda: _single(core, request))

    async def v2(request: Request) -> Response:
        return await guarded(v2_error, lambda: _v2(core, request))

    return [  # at the root, and under MTranServer's /google, where its README sends these clients
        route
        for prefix in ("", "/google")
        for route in (
            Route(f"{prefix}/translate_a/single", single, methods=["GET", "POST"]),
            Route(f"{prefix}/language/translate/v2", v2, methods=["GET", "POST"]),
        )
    ]
