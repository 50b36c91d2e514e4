"""DeepL API v2: ``POST /v2/translate``, ``GET /v2/languages``, ``GET /v2/usage``.

Enough of it that DeepL's own clients work with ``server_url`` set to this server: ``text`` a
list (JSON or repeated form fields), ``target_lang`` (ZH, ZH-HANS, ZH-HANT, EN-US …), optional
``source_lang``, ``tag_handling`` (html, or xml: the text of each element translated, markup kept;
its options such as ignore_tags are ignored), the key as ``Authorization: DeepL-Auth-Key …``. Options
this engine has no use for (formality, glossaries, split_sentences …) are accepted and ignored.
Errors are ``{"message": "..."}`` with the status DeepL uses.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from . import languages
from .core import Core, Job
from .errors import ApiError
from .web import guarded, presented_key, read_fields, translate_in_line

# There is no quota here; clients show usage against a limit, so the limit is a number that reads as plenty.
CHARACTER_LIMIT = 10**12


def error(status: int, message: str) -> Response:
    return JSONResponse({"message": message}, status_code=status)


def code(language: str, variant: str | None = None) -> str:
    return languages.DEEPL_CODE.get(variant or "", language.upper())


def routes(core: Core) -> list[Route]:
    async def translate(request: Request) -> Response:
        return await guarded(error, lambda: _translate(core, request))

    async def languages_endpoint(request: Request) -> Response:
        return await guarded(error, lambda: _languages(core, request))

    async def usage(request: Request) -> Response:
        return await guarded(error, lambda: _usage(core, request))

    return [
        Route("/v2/translate", translate, methods=["POST"]),
        Route("/v2/languages", languages_endpoint, methods=["GET", "POST"]),
        Route("/v2/usage", usage, methods=["GET", "POST"]),
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
    job = Job(texts, fields.text("source_lang") or languages.AUTO, target, html=bool(handling), xml=handling == "xml")
    outcome = await translate_in_line(core, request, job)
    return JSONResponse({"translations": [
        {"detected_source_language": code(language), "text": text, "billed_characters": len(source)}
        for text, language, source in zip(outcome.texts, outcome.sources, texts)
    ]})


async def _languages(core: Core, request: Request) -> Response:
    fields = await read_fields(request)
    core.authorize(presented_key(request, fields))
    kind = fields.text("type", "source")
    found: dict[str, dict] = {}
    for direction in core.directions():
        if kind == "target":
            codes = [code(direction.target, v) for v in direction.variants if v in languages.DEEPL_CODE]
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
    return {"ZH": " (simplified)", "ZH-HANS": " (simplified)", "ZH-HANT": " (traditional)", "EN-GB": " (British)",
            "EN-US": " (American)"}.get(deepl_code, "")


async def _usage(core: Core, request: Request) -> Response:
    fields = await read_fields(request)
    core.authorize(presented_key(request, fields))
    return JSONResponse({"character_count": core.characters, "character_limit": CHARACTER_LIMIT})
