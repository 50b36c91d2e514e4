"""DeepLX: ``POST /translate`` with ``{"text", "source_lang", "target_lang"}``.

Answers ``{"code": 200, "data": ..., "alternatives": [], ...}`` (with Fanyi's own ``untranslated`` and
``X-Fanyi-Untranslated`` header, as deepl.py says, for sentences left as they were); the key as
``Authorization: Bearer …`` or ``?token=``. Errors are ``{"code": status, "message": "..."}`` with the same HTTP status;
a missing or wrong key is 401, as DeepLX answers it (service.go's authMiddleware), the status its clients tell as a
key error (Bob's DeepLX plugin completes nothing on a 403).
The path is LibreTranslate's too; app.py sends a body with ``text`` (and no ``q``) here.
"""

from __future__ import annotations

import itertools
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from fanyi.languages import AUTO

from . import deepl
from .core import ApiRequest, Core
from .errors import ApiError
from .web import Fields, presented_key, translate_in_line, untranslated, untranslated_header

_ids = itertools.count(1)


def error(status: int, message: str) -> Response:
    if status == 403:  # the key refused (core.authorize): DeepLX's status for it
        status = 401
    return JSONResponse({"code": status, "message": message}, status_code=status)


def wants(fields: Fields) -> bool:
    """A DeepLX request rather than a LibreTranslate one."""
    return "text" in fields and "q" not in fields


async def translate(core: Core, request: Request, fields: Fields) -> Response:
    core.authorize(presented_key(request, fields))
    text, target = fields.text("text"), fields.text("target_lang")
    if text is None or not target:  # an empty text is an empty translation, as LibreTranslate and DeepL answer it
        raise ApiError(400, "text and target_lang are required")
    job = ApiRequest([text], fields.text("source_lang") or AUTO, target)
    outcome = await translate_in_line(core, request, job)
    body: dict[str, Any] = {
        "code": 200,
        "id": next(_ids),
        "data": outcome.texts[0],
        "alternatives": [],  # the model gives one translation
        "source_lang": deepl.code(outcome.sources[0]),
        "target_lang": target.upper(),
        "method": "Fanyi",
    }
    if failures := outcome.untranslated[0]:  # Fanyi's own: the sentences left as they were
        body["untranslated"] = untranslated(failures)
    return JSONResponse(body, headers=untranslated_header(len(failures)))
