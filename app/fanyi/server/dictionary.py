"""Fanyi's own dictionary endpoint: ``GET /dictionary?q=word`` (or ``POST /dictionary`` with ``q``, JSON or form).

Answers the installed dictionary's entry for a word or a short phrase (English), or the English words for a
Chinese one, as fanyi.dictionary.Found.as_json writes it::

    {"query": "went", "match": "lemma", "form_of": "p", "dictionary": "ecdict",
     "entries": [{"word": "go", "phonetic": "gəʊ", "senses": [{"label": "v.", "text": "去；走"}, …],
                  "definitions": […], "pos": [{"pos": "v", "percent": 95}], "forms": {"p": "went", …},
                  "lemma": "", "lemma_forms": "", "tags": ["zk", "gk", "cet4"], "collins": 5, "oxford": true,
                  "bnc": 33, "frq": 45}]}

Nothing found is ``"match": null`` and no entries. Errors are ``{"error"}`` with a status (LibreTranslate's
shape): 400 without ``q`` or for a text that is no word or short phrase (at most limits.MAX_LOOKUP_CHARS
characters and MAX_LOOKUP_WORDS words, or MAX_LOOKUP_HAN Chinese characters, no control characters), 403
without the key the server asks for, 404 when no dictionary is installed, 500 for a damaged one. A lookup
never waits behind translations: it reads the dictionary file, not the model.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from fanyi import limits
from fanyi.dictionary import Dictionary, DictionaryError, lookup_text

from .core import Core
from .errors import ApiError
from .libretranslate import error
from .web import guarded, presented_key, read_fields

NOT_INSTALLED = "no dictionary is installed: install one in Models (fanyi models install ecdict)"


def routes(core: Core) -> list[Route]:
    """``core.dictionary`` is asked for the installed dictionary per request: one installed meanwhile is found."""

    async def endpoint(request: Request) -> Response:
        return await guarded(error, lambda: _lookup(core, core.dictionary, request))

    return [Route("/dictionary", endpoint, methods=["GET", "POST"])]


async def _lookup(core: Core, dictionary: Callable[[], Dictionary | None], request: Request) -> Response:
    fields = await read_fields(request)
    core.authorize(presented_key(request, fields))
    q = fields.text("q")
    if q is None:
        raise ApiError(400, "q (a word or a short phrase) is required")
    if lookup_text(q) is None:
        raise ApiError(
            400,
            f"q is no word or short phrase: at most {limits.MAX_LOOKUP_CHARS} characters and "
            f"{limits.MAX_LOOKUP_WORDS} words, or {limits.MAX_LOOKUP_HAN} Chinese characters, without control "
            "characters",
        )

    def look() -> dict[str, Any]:
        opened = dictionary()
        if opened is None:
            raise ApiError(404, NOT_INSTALLED)
        try:
            found = opened.lookup(q)
        except DictionaryError as exc:
            raise ApiError(500, str(exc)) from None
        body: dict[str, Any] = found.as_json() if found else {"query": q, "match": None, "form_of": "", "entries": []}
        return {**body, "dictionary": opened.name}

    return JSONResponse(await run_in_threadpool(look))
