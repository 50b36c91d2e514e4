"""DeepL API v2: ``POST /v2/translate``, ``GET /v2/languages``, ``GET /v2/usage``, and documents:
``POST /v2/document`` (multipart: ``file``, ``target_lang``, ``source_lang``), then
``POST /v2/document/<id>`` for its status and ``POST /v2/document/<id>/result`` for the translation,
each with its ``document_key`` (what ``deepl.Translator.translate_document`` does).

Enough of it that DeepL's own clients work with ``server_url`` set to this server: ``text`` a
list (JSON or repeated form fields), ``target_lang`` (ZH, ZH-HANS, ZH-HANT, EN-US …), optional
``source_lang``, ``tag_handling`` (html, or xml: the text of each element translated, markup kept;
its options such as ignore_tags are ignored), the key as ``Authorization: DeepL-Auth-Key …``. Options
this engine has no use for (formality, glossaries, split_sentences …) are accepted and ignored.
Errors are ``{"message": "..."}`` with the status DeepL uses. Sentences a pack left as they were are
Fanyi's own ``untranslated`` field of a translation, ``[{"source", "reason"}]``, and the
``X-Fanyi-Untranslated`` header (their count); a document's status has ``untranslated_parts``.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from fanyi import documents
from fanyi.languages import AUTO, DEEPL

from . import files, languages
from .core import ApiRequest, Core
from .errors import ApiError
from .files import Document
from .web import (
    document_request,
    guarded,
    presented_key,
    read_fields,
    translate_in_line,
    untranslated,
    untranslated_header,
)

# There is no quota here; clients show usage against a limit, so the limit is a number that reads as plenty.
CHARACTER_LIMIT = 10**12
STATUS_WAIT_SECONDS = 2.0  # a status request waits this long for the document to be done


def error(status: int, message: str) -> Response:
    return JSONResponse({"message": message}, status_code=status)


def code(language: str, variant: str | None = None) -> str:
    return DEEPL.get(variant or "", language.upper())


def routes(core: Core) -> list[Route]:
    async def translate(request: Request) -> Response:
        return await guarded(error, lambda: _translate(core, request))

    async def languages_endpoint(request: Request) -> Response:
        return await guarded(error, lambda: _languages(core, request))

    async def usage(request: Request) -> Response:
        return await guarded(error, lambda: _usage(core, request))

    async def upload(request: Request) -> Response:
        return await guarded(error, lambda: _upload(core, request))

    async def status(request: Request) -> Response:
        return await guarded(error, lambda: _status(core, request))

    async def result(request: Request) -> Response:
        return await guarded(error, lambda: _result(core, request))

    return [
        Route("/v2/translate", translate, methods=["POST"]),
        Route("/deepl", translate, methods=["POST"]),  # MTranServer's path for DeepL API clients
        Route("/v2/languages", languages_endpoint, methods=["GET", "POST"]),
        Route("/v2/usage", usage, methods=["GET", "POST"]),
        Route("/v2/document", upload, methods=["POST"]),
        Route("/v2/document/{document_id}", status, methods=["GET", "POST"]),
        Route("/v2/document/{document_id}/result", result, methods=["GET", "POST"]),
    ]


async def _translate(core: Core, request: Request) -> Response:
    fields = await read_fields(request)
    core.authorize(presented_key(request, fields))
    texts, target = fields.texts("text"), fields.text("target_lang")
    if texts is None or target is None:
        raise ApiError(400, "text and target_lang are required")
    handling = fields.text("tag_handling")
    if handling not in (None, "", "html", "xml"):
        raise ApiError(400, f"tag_handling must be html or xml, not {handling!r}")
    job = ApiRequest(
        texts,
        fields.text("source_lang") or AUTO,
        target,
        html=bool(handling),
        xml=handling == "xml",
        glossary=fields.glossary(),
    )
    outcome = await translate_in_line(core, request, job)
    translations = []
    for text, language, source, failures in zip(outcome.texts, outcome.sources, texts, outcome.untranslated):
        entry: dict[str, Any] = {"detected_source_language": code(language), "text": text}
        entry["billed_characters"] = len(source)
        if failures:  # Fanyi's own: the sentences of this text left as they were
            entry["untranslated"] = untranslated(failures)
        translations.append(entry)
    count = sum(map(len, outcome.untranslated))
    return JSONResponse({"translations": translations}, headers=untranslated_header(count))


async def _languages(core: Core, request: Request) -> Response:
    fields = await read_fields(request)
    core.authorize(presented_key(request, fields))
    kind = fields.text("type", "source")
    found: dict[str, dict[str, Any]] = {}
    for direction in core.directions():
        if kind == "target":
            codes = [code(direction.target, v) for v in direction.variants if v in DEEPL]
            if codes:  # plain ZH too, as DeepL lists it: clients offer what this list holds
                codes.insert(0, code(direction.target))
            codes = codes or (["EN-GB", "EN-US"] if direction.target == "en" else [code(direction.target)])
            for name in codes:
                label = languages.name(direction.target) + _variant_label(name)
                found.setdefault(name, {"language": name, "name": label, "supports_formality": False})
        else:
            name = code(direction.source)
            found.setdefault(name, {"language": name, "name": languages.name(direction.source)})
    return JSONResponse(list(found.values()))


def _variant_label(deepl_code: str) -> str:
    return {
        "ZH": " (simplified)",
        "ZH-HANS": " (simplified)",
        "ZH-HANT": " (traditional)",
        "EN-GB": " (British)",
        "EN-US": " (American)",
    }.get(deepl_code, "")


async def _usage(core: Core, request: Request) -> Response:
    fields = await read_fields(request)
    core.authorize(presented_key(request, fields))
    return JSONResponse({"character_count": core.characters, "character_limit": CHARACTER_LIMIT})


async def _upload(core: Core, request: Request) -> Response:
    """Store the document and translate it in the background: its status and result are asked for by id."""
    fields, document, source, target = await document_request(core, request, "target_lang", "source_lang", "filename")
    wanted = (fields.text("output_format") or "").lower().lstrip(".") or None
    try:
        try:
            documents.format_for(document.source).output_suffix(document.source, wanted)
        except documents.UnsupportedFormat as error:
            raise ApiError(400, f"output_format={wanted} cannot be made from this document: {error}") from None
        document.to = wanted
        core.line.start(lambda: _translate_kept(core, document, source, target))
    except BaseException:
        core.files.remove(document)
        raise
    return JSONResponse({"document_id": document.id, "document_key": document.key})


def _translate_kept(core: Core, document: Document, source: str, target: str) -> None:
    with contextlib.suppress(Exception):  # the outcome is on the document, for /v2/document/<id> to tell
        core.translate_document(document, source, target, document.cancel)


async def _kept(core: Core, request: Request) -> Document:
    fields = await read_fields(request)
    core.authorize(presented_key(request, fields))
    key = fields.text("document_key")
    if not key:
        raise ApiError(400, "document_key is required")
    return core.files.find(request.path_params["document_id"], key)


async def _status(core: Core, request: Request) -> Response:
    document = await _kept(core, request)
    # A short wait saves a client's next poll (DeepL's waits 5 s) for most documents, which take a moment.
    for _ in range(int(STATUS_WAIT_SECONDS / 0.05)):
        if document.finished.is_set():
            break
        await asyncio.sleep(0.05)
    body: dict[str, Any] = {"document_id": document.id, "status": document.status}
    if document.status == files.DONE:
        body["billed_characters"] = document.characters
        if document.untranslated:  # Fanyi's own: parts of the document left as they were
            body["untranslated_parts"] = document.untranslated
    elif document.status == files.ERROR:
        body["error_message"] = document.error
    elif (seconds := document.seconds_remaining()) is not None:
        body["seconds_remaining"] = seconds
    return JSONResponse(body, headers=untranslated_header(document.untranslated))


async def _result(core: Core, request: Request) -> Response:
    document = await _kept(core, request)
    if document.status == files.ERROR:
        raise ApiError(400, document.error)
    if document.output is None:
        raise ApiError(503, "the document is not translated yet; ask for its status", retry_after=5)
    return FileResponse(document.output, filename=document.download_name)
