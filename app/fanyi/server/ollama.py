"""Ollama's API: ``POST /api/chat`` (``messages``) and ``POST /api/generate`` (``prompt``, ``system``), streamed
as one JSON object a line (Ollama's default, ``"stream": true``) or answered whole (``"stream": false``);
``GET /api/tags`` (the models), ``GET /api/version``.

What the official ``ollama`` client, Pot's Ollama service (ollama/browser's chat) and the tools that call
``/api/chat`` send and read. The model is a pack's name (``:latest`` or not) or ``fanyi`` (chat.py says which
answers how); ``options.num_predict`` bounds an LLM's answer, other options are ignored (decoding is greedy).
The last line has ``done: true``, ``done_reason`` and the counts (``prompt_eval_count``, ``eval_count``) and
durations in nanoseconds. Errors are Ollama's ``{"error": "…"}`` with the status, a line of its own once a
stream has started; an unknown model is 404.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncGenerator, AsyncIterator
from datetime import datetime, timezone
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from fanyi import __version__
from fanyi.cancel import Cancelled
from fanyi.oneline import error_line

from . import chat
from .core import Core
from .errors import ApiError
from .web import Fields, guarded, presented_key, read_fields

MOST_TOKENS = 1_000_000
NANOSECONDS = 1_000_000_000


def error(status: int, message: str) -> Response:
    return JSONResponse({"error": message}, status_code=status)


def _now() -> str:
    return datetime.now(timezone.utc).isoformat().replace("+00:00", "Z")


def _limit(fields: Fields) -> int | None:
    options = fields.value("options")
    wanted = options.get("num_predict") if isinstance(options, dict) else None
    return min(wanted, MOST_TOKENS) if type(wanted) is int and wanted > 0 else None


async def _answer(core: Core, request: Request, fields: Fields, messages: list[Any], key: str) -> Response:
    """An answer in /api/chat's shape (``key`` "message") or /api/generate's ("response")."""
    model = fields.text("model") or ""
    started = time.monotonic()
    pieces = await chat.answer(core, request, model, messages, _limit(fields))
    first = await anext(pieces)  # anything wrong with the request is told with its status
    name = model or chat.TRANSLATOR

    def part(text: str) -> dict[str, Any]:
        body = {"role": "assistant", "content": text} if key == "message" else text
        return {"model": name, "created_at": _now(), key: body, "done": False}

    def last(finish: chat.Finish, text: str = "") -> dict[str, Any]:
        spent = int((time.monotonic() - started) * NANOSECONDS)
        counts = {"prompt_eval_count": finish.prompt_tokens, "eval_count": finish.completion_tokens}
        durations = {"total_duration": spent, "load_duration": 0, "prompt_eval_duration": 0, "eval_duration": spent}
        return {**part(text), "done": True, "done_reason": finish.reason, **counts, **durations}

    if fields.value("stream") is False:
        content, item = [], first
        while not isinstance(item, chat.Finish):
            content.append(item)
            item = await anext(pieces)
        return JSONResponse(last(item, "".join(content)))
    return StreamingResponse(_lines(first, pieces, part, last), media_type="application/x-ndjson")


async def _lines(
    first: str | chat.Finish, pieces: AsyncGenerator[str | chat.Finish, None], part: Any, last: Any
) -> AsyncIterator[str]:
    item = first
    try:
        while not isinstance(item, chat.Finish):
            if item:
                yield json.dumps(part(item), ensure_ascii=False) + "\n"
            item = await anext(pieces)
        yield json.dumps(last(item), ensure_ascii=False) + "\n"
    except Cancelled:
        return
    except Exception as exc:  # noqa: BLE001 - the status is sent already: the failure goes as a line
        yield json.dumps({"error": f"the answer failed: {error_line(exc)}"}) + "\n"
    finally:
        await pieces.aclose()


async def _chat(core: Core, request: Request) -> Response:
    fields = await read_fields(request)
    core.authorize(presented_key(request, fields))
    messages = fields.value("messages")
    if not isinstance(messages, list):
        raise ApiError(400, "messages must be a list of {role, content}")
    return await _answer(core, request, fields, messages, "message")


async def _generate(core: Core, request: Request) -> Response:
    fields = await read_fields(request)
    core.authorize(presented_key(request, fields))
    prompt, system = fields.text("prompt") or "", fields.text("system") or ""
    if not prompt:  # Ollama's way to load a model: nothing to answer
        chat.named(core, fields.text("model"))  # an unknown model is still 404
        model = fields.text("model") or chat.TRANSLATOR
        return JSONResponse({"model": model, "created_at": _now(), "response": "", "done": True, "done_reason": "load"})
    messages = ([{"role": "system", "content": system}] if system else []) + [{"role": "user", "content": prompt}]
    return await _answer(core, request, fields, messages, "response")


async def _tags(core: Core, request: Request) -> Response:
    core.authorize(presented_key(request, await read_fields(request)))
    packs = {pack.name: pack for pack in core.models.packs() if pack.usable}
    listed = []
    for name in chat.models(core):
        pack = packs.get(name)
        details = {
            "format": "onnx",
            "family": pack.family if pack else "fanyi",
            "families": [pack.family] if pack else ["fanyi"],
            "parameter_size": "",
            "quantization_level": pack.quantization if pack else "",
            "parent_model": "",
        }
        listed.append(
            {
                "name": name + chat.LATEST,
                "model": name + chat.LATEST,
                "modified_at": _now(),
                "size": pack.size_bytes if pack else 0,
                "digest": "",
                "details": details,
            }
        )
    return JSONResponse({"models": listed})


def routes(core: Core) -> list[Route]:
    async def chat_endpoint(request: Request) -> Response:
        return await guarded(error, lambda: _chat(core, request))

    async def generate(request: Request) -> Response:
        return await guarded(error, lambda: _generate(core, request))

    async def tags(request: Request) -> Response:
        return await guarded(error, lambda: _tags(core, request))

    async def version(request: Request) -> Response:
        return JSONResponse({"version": __version__})

    return [
        Route("/api/chat", chat_endpoint, methods=["POST"]),
        Route("/api/generate", generate, methods=["POST"]),
        Route("/api/tags", tags, methods=["GET"]),
        Route("/api/version", version, methods=["GET"]),
    ]
