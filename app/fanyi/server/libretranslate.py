"""LibreTranslate: ``POST /translate``, ``GET /languages``, ``POST /detect``, ``GET /health``,
``GET /frontend/settings``, ``POST /translate_file`` (multipart: ``file``, ``source``, ``target``;
answers ``{"translatedFileUrl"}`` once translated) and ``GET /download_file/<name>``.

``q`` is a string or a list of strings (the answer matches), ``source`` a code or ``auto``,
``format`` ``text`` or ``html``, ``alternatives`` a number of other translations wanted (the beam's
next best; none for HTML), the key in ``api_key``; JSON or form bodies. Errors are
``{"error": "..."}`` with the status. ``/translate`` is shared with DeepLX; app.py tells them apart.
Sentences a pack left as they were (it degenerated on them) are Fanyi's own ``untranslated`` field,
``[{"source", "reason"}]`` (a list of them per text for a list ``q``), and the ``X-Fanyi-Untranslated``
header (their count); a file's, ``untranslatedParts``.
"""

from __future__ import annotations

import urllib.parse
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from fanyi import documents, langid, limits
from fanyi.languages import AUTO, BCP47, CONVERTED, SIMPLIFIED, TRADITIONAL

from . import languages
from .core import ApiRequest, Core
from .errors import ApiError
from .web import (
    Fields,
    document_request,
    guarded,
    in_line,
    presented_key,
    read_fields,
    translate_in_line,
    untranslated,
    untranslated_header,
)


def error(status: int, message: str) -> Response:
    return JSONResponse({"error": message}, status_code=status)


def _detection(language: str, confidence: float) -> dict[str, Any]:
    return {"confidence": round(confidence * 100, 1), "language": language}


async def translate(core: Core, request: Request, fields: Fields) -> Response:
    core.authorize(presented_key(request, fields))
    q = fields.texts("q")
    target = fields.text("target")
    if q is None or target is None:
        raise ApiError(400, "q and target are required")
    text_format = fields.text("format", "text")
    if text_format not in ("text", "html"):
        raise ApiError(400, f"format must be text or html, not {text_format!r}")
    single = not fields.is_list("q")
    source = fields.text("source", AUTO) or AUTO
    wanted = fields.count("alternatives", limits.API_MAX_ALTERNATIVES)
    job = ApiRequest(q, source, target, html=text_format == "html", alternatives=wanted, glossary=fields.glossary())
    outcome = await translate_in_line(core, request, job)
    body: dict[str, Any] = {"translatedText": outcome.texts[0] if single else outcome.texts}
    if source.strip().lower() == AUTO:
        detected = [_detection(s, c) for s, c in zip(outcome.sources, outcome.confidences)]
        body["detectedLanguage"] = detected[0] if single else detected
    if wanted:  # the beam's next best; none for HTML (as in LibreTranslate)
        body["alternatives"] = outcome.alternatives[0] if single else outcome.alternatives
    count = sum(map(len, outcome.untranslated))
    if count:  # Fanyi's own: the sentences left as they were, as the texts are (one list, or one per text)
        lists = [untranslated(failures) for failures in outcome.untranslated]
        body["untranslated"] = lists[0] if single else lists
    return JSONResponse(body, headers=untranslated_header(count))


def routes(core: Core) -> list[Route]:
    async def languages_endpoint(request: Request) -> Response:
        return await guarded(error, lambda: _languages(core))

    async def detect_endpoint(request: Request) -> Response:
        return await guarded(error, lambda: _detect(core, request))

    async def health(request: Request) -> Response:
        return JSONResponse({"status": "ok"})

    async def settings_endpoint(request: Request) -> Response:
        return await guarded(error, lambda: _frontend_settings(core))

    async def translate_file(request: Request) -> Response:
        return await guarded(error, lambda: _translate_file(core, request))

    async def download_file(request: Request) -> Response:
        return await guarded(error, lambda: _download_file(core, request))

    return [
        Route("/languages", languages_endpoint, methods=["GET", "POST"]),
        Route("/detect", detect_endpoint, methods=["POST"]),
        Route("/health", health, methods=["GET"]),
        Route("/frontend/settings", settings_endpoint, methods=["GET"]),
        Route("/translate_file", translate_file, methods=["POST"]),
        Route("/download_file/{name}", download_file, methods=["GET"]),
    ]


async def _translate_file(core: Core, request: Request) -> Response:
    _, document, source, target = await document_request(core, request, "target", "source")
    try:
        await in_line(core, request, lambda token: core.translate_document(document, source, target, token))
    except BaseException:
        core.files.remove(document)
        raise
    name = urllib.parse.quote(f"{document.id}.{document.download_name}")
    body: dict[str, Any] = {"translatedFileUrl": f"{request.base_url}download_file/{name}"}
    if document.untranslated:  # Fanyi's own: parts of the document left as they were
        body["untranslatedParts"] = document.untranslated
    return JSONResponse(body, headers=untranslated_header(document.untranslated))


async def _download_file(core: Core, request: Request) -> Response:
    """A translated document, by the name /translate_file gave: its id, a dot, the name it downloads as."""
    document = core.files.find(request.path_params["name"].split(".", 1)[0])
    if document.output is None:
        raise ApiError(404, "that document has not been translated")
    return FileResponse(document.output, filename=document.download_name)


async def _frontend_settings(core: Core) -> Response:
    """What LibreTranslate's own web page and some clients read first: limits, key, languages, files."""
    directions = core.directions()
    target = directions[0].target if directions else "en"
    keyed = core.api_key is not None
    return JSONResponse(
        {
            "charLimit": limits.API_MAX_CHARS,
            "frontendTimeout": 500,  # ms a page waits after typing before it asks (LibreTranslate's default)
            "apiKeys": keyed,
            "keyRequired": keyed,
            "suggestions": False,
            "filesTranslation": True,
            "supportedFilesFormat": list(documents.SUPPORTED_SUFFIXES),
            "language": {
                "source": {"code": AUTO, "name": "Auto Detect"},
                "target": {"code": target, "name": languages.name(target)},
            },
        }
    )


async def _languages(core: Core) -> Response:
    return JSONResponse(
        [{"code": code, "name": languages.name(code), "targets": found} for code, found in targets(core).items()]
    )


def targets(core: Core) -> dict[str, list[str]]:
    """Every code a client may send, each with the codes it translates into."""
    found: dict[str, list[str]] = {}
    for direction in core.directions():
        into = _codes(direction.target, direction.variants)
        # Chinese is read in either script, Taiwan's and Hong Kong's included: each code a client may send
        written = (SIMPLIFIED, TRADITIONAL, *CONVERTED) if direction.source == "zh" else ()
        for code in _codes(direction.source, written) + into:
            found.setdefault(code, [])
        for code in _codes(direction.source, written):
            found[code] += [c for c in into if c not in found[code]]
    return found


def _codes(language: str, variants: tuple[str, ...]) -> list[str]:
    """A pack language's codes: plain "zh" (what most clients send), then "zh-Hans", "zh-Hant", "yue" as offered."""
    return [language] + [BCP47[v] for v in variants]


async def _detect(core: Core, request: Request) -> Response:
    fields = await read_fields(request)
    core.authorize(presented_key(request, fields))
    text = fields.text("q")
    if text is None:
        raise ApiError(400, "q is required")
    candidates = list(dict.fromkeys(code for d in core.directions() for code in (d.source, d.target)))
    # off the event loop: the first detection between same-script languages loads py3langid (~0.5 s)
    language, confidence = await run_in_threadpool(langid.detect, text, candidates or ["en"])
    return JSONResponse([_detection(language, confidence)])
