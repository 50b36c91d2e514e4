"""OpenAI's chat API: ``POST /v1/chat/completions`` (plain, or server-sent events with ``"stream": true``) and
``GET /v1/models``, also without the ``/v1`` (clients join a base URL with the path as they please).

What openai-translator, BabelDOC, PDFMathTranslate, Pot, KISS Translator, STranslate, Zotero PDF Translate and
Calibre's Ebook Translator send and read (tests/server/test_chat_tools.py cites each), and what the official
``openai`` client does. The model is a pack's name or ``fanyi`` (chat.py says which answers how); ``max_tokens``
(or ``max_completion_tokens``) bounds an LLM's answer; sampling options are accepted and ignored (decoding is
greedy). A stream is ``data: {chunk}`` events, the first with the assistant's role, one per piece, the last with
``finish_reason``, a usage chunk when ``stream_options.include_usage`` asks for it, then ``data: [DONE]``.
Errors are OpenAI's ``{"error": {"message", "type", "param", "code"}}``; an unknown model is 404
``model_not_found``. The key as ``Authorization: Bearer KEY``.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import AsyncGenerator, AsyncIterator
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from fanyi.cancel import Cancelled
from fanyi.oneline import error_line

from . import chat
from .core import Core
from .web import guarded, presented_key, read_fields

MOST_TOKENS = 1_000_000  # a max_tokens beyond this is a mistake; the model's positions bound it anyway
OWNER = "fanyi"


def error(status: int, message: str) -> Response:
    kind = {401: "authentication_error", 403: "permission_error", 404: "invalid_request_error"}.get(status)
    code = {403: "invalid_api_key", 404: "model_not_found", 429: "rate_limit_exceeded"}.get(status)
    body = {"message": message, "type": kind or ("server_error" if status >= 500 else "invalid_request_error")}
    return JSONResponse({"error": {**body, "param": None, "code": code}}, status_code=status)


async def _completions(core: Core, request: Request) -> Response:
    fields = await read_fields(request)
    core.authorize(presented_key(request, fields))
    model = fields.text("model") or ""
    limit = fields.count("max_completion_tokens", MOST_TOKENS) or fields.count("max_tokens", MOST_TOKENS)
    pieces = await chat.answer(core, request, model, fields.value("messages"), limit or None)
    first = await anext(pieces)  # anything wrong with the request is told with its status
    name = model or chat.TRANSLATOR
    made = {"id": f"chatcmpl-{uuid.uuid4().hex}", "created": int(time.time()), "model": name}
    if fields.value("stream") is True:
        options = fields.value("stream_options")
        usage_wanted = isinstance(options, dict) and options.get("include_usage") is True
        return StreamingResponse(
            _events(first, pieces, made, usage_wanted),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )
    content = []
    item = first
    while not isinstance(item, chat.Finish):
        content.append(item)
        item = await anext(pieces)
    message = {"role": "assistant", "content": "".join(content)}
    body = {
        **made,
        "object": "chat.completion",
        "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": item.reason}],
        "usage": _usage(item),
    }
    return JSONResponse(body)


def _usage(finish: chat.Finish) -> dict[str, int]:
    total = finish.prompt_tokens + finish.completion_tokens
    return {"prompt_tokens": finish.prompt_tokens, "completion_tokens": finish.completion_tokens, "total_tokens": total}


def _chunk(made: dict[str, Any], delta: dict[str, Any], reason: str | None = None) -> str:
    choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": reason}
    return _event({**made, "object": "chat.completion.chunk", "choices": [choice]})


def _event(data: dict[str, Any]) -> str:
    return f"data: {json.dumps(data, ensure_ascii=False)}\n\n"


async def _events(
    first: str | chat.Finish, pieces: AsyncGenerator[str | chat.Finish, None], made: dict[str, Any], usage_wanted: bool
) -> AsyncIterator[str]:
    item = first
    try:
        yield _chunk(made, {"role": "assistant", "content": ""})
        while not isinstance(item, chat.Finish):
            if item:
                yield _chunk(made, {"content": item})
            item = await anext(pieces)
        yield _chunk(made, {}, item.reason)
        if usage_wanted:
            yield _event({**made, "object": "chat.completion.chunk", "choices": [], "usage": _usage(item)})
        yield "data: [DONE]\n\n"
    except Cancelled:
        return
    except Exception as exc:  # noqa: BLE001 - the status is sent already: the failure goes as an event
        yield _event({"error": {"message": f"the answer failed: {error_line(exc)}", "type": "server_error"}})
    finally:
        await pieces.aclose()


async def _models(core: Core, request: Request) -> Response:
    core.authorize(presented_key(request, await read_fields(request)))
    listed = [{"id": name, "object": "model", "created": 0, "owned_by": OWNER} for name in chat.models(core)]
    return JSONResponse({"object": "list", "data": listed})


async def _model(core: Core, request: Request) -> Response:
    core.authorize(presented_key(request, await read_fields(request)))
    name = request.path_params["model"]
    if name not in chat.models(core):
        raise chat.UnknownModel(name)
    return JSONResponse({"id": name, "object": "model", "created": 0, "owned_by": OWNER})


def routes(core: Core) -> list[Route]:
    async def completions(request: Request) -> Response:
        return await guarded(error, lambda: _completions(core, request))

    async def listing(request: Request) -> Response:
        return await guarded(error, lambda: _models(core, request))

    async def one(request: Request) -> Response:
        return await guarded(error, lambda: _model(core, request))

    return [
        route
        for prefix in ("/v1", "")
        for route in (
            Route(f"{prefix}/chat/completions", completions, methods=["POST"]),
            Route(f"{prefix}/models", listing, methods=["GET"]),
            Route(f"{prefix}/models/{{model}}", one, methods=["GET"]),
        )
    ]
