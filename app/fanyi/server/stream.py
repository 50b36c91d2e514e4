"""Fanyi's own streaming endpoint: ``POST /stream`` (or ``GET /stream?q=…`` for EventSource).

Takes LibreTranslate's fields (``q`` one string, ``source``, ``target``, ``api_key``) and answers
server-sent events, each piece of the translation as soon as the decoder has decided it::

    event: start   data: {"source": "en", "target": "zh"}
                   data: {"text": "你好"}           (one per piece, appended to what came before)
    event: rewind  data: {"chars": 3}             (drop the last 3 characters: a sentence the model
                                                   looped on is being translated again)
    event: untranslated  data: {"source": "…", "reason": "…"}   (a sentence left as it was)
    event: done    data: {"translatedText": "…"}  (the whole translation, rewinds applied; with
                   "untranslated": [{"source", "reason"}, …] when sentences were left as they were)
    event: error   data: {"error": "…"}             (instead of done, when it fails midway)

A request that fails before it starts is answered like LibreTranslate: ``{"error"}`` with a status.
A client that closes the connection cancels the translation at its next decoder step.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from fanyi.cancel import Cancelled, CancelToken
from fanyi.engine import Failure, Rewind, TermLost, Translation, describe_failures
from fanyi.languages import AUTO
from fanyi.oneline import error_line

from . import libretranslate
from .core import ApiRequest, Core
from .errors import ApiError
from .web import ThreadStream, guarded, presented_key, read_fields, untranslated

log = logging.getLogger(__name__)


def event(data: dict[str, Any], name: str | None = None) -> str:
    head = f"event: {name}\n" if name else ""
    return f"{head}data: {json.dumps(data, ensure_ascii=False)}\n\n"


def routes(core: Core) -> list[Route]:
    async def endpoint(request: Request) -> Response:
        return await guarded(libretranslate.error, lambda: _stream(core, request))

    return [Route("/stream", endpoint, methods=["GET", "POST"])]


async def _stream(core: Core, request: Request) -> Response:
    fields = await read_fields(request)
    core.authorize(presented_key(request, fields))
    text, target = fields.text("q"), fields.text("target")
    if text is None or target is None:
        raise ApiError(400, "q (one text) and target are required")
    job = ApiRequest([text], fields.text("source", AUTO) or AUTO, target, glossary=fields.glossary())

    def produce(token: CancelToken, post: Callable[[Any], None]) -> None:
        with core.streaming(job, token) as (route, pieces):
            post(route)
            for piece in pieces:
                post(piece)

    stream = ThreadStream(core.line, produce)
    try:
        route = await stream.next()  # routed and holding the model; errors so far get a status
    except BaseException:
        stream.token.cancel()
        raise
    return StreamingResponse(
        _events(stream, route.source, target),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


async def _events(stream: ThreadStream, source: str, target: str) -> AsyncIterator[str]:
    pieces: list[str | Rewind | Failure | TermLost] = []
    try:
        yield event({"source": source, "target": target}, "start")
        while (piece := await stream.next()) is not ThreadStream.END:
            pieces.append(piece)
            if isinstance(piece, Rewind):
                yield event({"chars": piece.chars}, "rewind")
            elif isinstance(piece, Failure):
                yield event({"source": piece.source, "reason": piece.reason}, "untranslated")
            elif isinstance(piece, TermLost):
                log.info("local API: the glossary's %r could not be kept: translated without it", piece.term)
            else:
                yield event({"text": piece})
        done = Translation.collect(pieces)
        answer: dict[str, Any] = {"translatedText": done.text}
        if done.failures:  # as the untranslated events said, all together
            answer["untranslated"] = untranslated(done.failures)
            log.warning("local API: %s", describe_failures(done.failures))
        yield event(answer, "done")
    except Cancelled:
        return
    except Exception as exc:  # noqa: BLE001 - the status is sent already; the failure goes as an event
        yield event({"error": f"translation failed: {error_line(exc)}"}, "error")
    finally:
        stream.token.cancel()  # done, failed, or the client left (the task is cancelled here)
