"""What the chat endpoints (openai.py, ollama.py) share: which model a request names, and its answer.

The models are the installed packs by name, and ``fanyi`` (whichever pack the languages route to); a request
naming none gets the first LLM pack installed, or ``fanyi`` when there is none. A conversation that is the
translation request a tool sends (prompt_reader.py) is translated as every other protocol's request is — the
router (the named pack first, where it translates the pair; an LLM pack through its card's instruction), the
batches, the glossary, OpenCC — and answered in one piece in the shape the tool asked for; its usage counts
characters. Any other conversation is answered by the named LLM pack (HY-MT1.5, Qwen3, Gemma 3) itself,
rendered by its own chat template (engine.Translator.chat) and streamed as decided, its usage in tokens; a
translation pack refuses it in one line. Every request waits in the one line, holds the model in turn and is
cancelled when its client goes away.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request

from fanyi.cancel import CancelToken
from fanyi.languages import AUTO
from fanyi.library.installed import PackInfo

from . import prompt_reader
from .core import ApiRequest, Core
from .errors import ApiError
from .web import ThreadStream, translate_in_line

TRANSLATOR = "fanyi"  # the model that is whichever pack the request's languages route to
LATEST = ":latest"  # Ollama's tag: "qwen3-1.7b:latest" is "qwen3-1.7b"
MAX_TOKENS = 2048  # an answer's tokens when the request sets no bound
_STARTED = object()


class UnknownModel(ApiError):
    def __init__(self, name: str) -> None:
        super().__init__(404, f"the model {name!r} is not installed here (GET the model list for those that are)")
        self.name = name


@dataclass(frozen=True)
class Finish:
    """How an answer ended: its usage, and why (``stop``, or ``length`` when it reached the token bound)."""

    prompt_tokens: int
    completion_tokens: int
    reason: str = "stop"


def models(core: Core) -> list[str]:
    """The model names a client may ask for: ``fanyi``, then each usable pack."""
    return [TRANSLATOR] + [pack.name for pack in core.models.packs() if pack.usable]


def named(core: Core, name: str | None) -> PackInfo | None:
    """The pack a request names (no name: the first LLM pack); None for ``fanyi`` (whichever pack the languages
    route to) and when no name is given and no LLM pack is installed. UnknownModel for any other name."""
    packs = [pack for pack in core.models.packs() if pack.usable]
    wanted = (name or "").strip()
    if not wanted:
        return next((pack for pack in packs if pack.chat), None)
    base = wanted[: -len(LATEST)] if wanted.endswith(LATEST) else wanted
    if base == TRANSLATOR:
        return None
    for pack in packs:
        if pack.name == base:
            return pack
    raise UnknownModel(wanted)


async def answer(
    core: Core, request: Request, name: str | None, messages: Sequence[Any], max_tokens: int | None
) -> AsyncGenerator[str | Finish, None]:
    """The answer's text pieces, then its Finish. Anything wrong with the request is raised before the first
    piece (ask for it before answering: the status is still to be sent)."""
    if not isinstance(messages, list) or not messages:
        raise ApiError(400, "messages must be a list of {role, content}")
    pack = named(core, name)
    try:
        reading = prompt_reader.read(messages)
    except prompt_reader.Unreadable as exc:
        if pack is None or not pack.chat:
            raise ApiError(400, str(exc)) from None
    else:  # a translation request: translated (by the named pack where it translates the pair), glossary and all
        return _translated(core, request, messages, reading, pack)
    conversation = [
        {"role": str(m.get("role", "user")), "content": prompt_reader.content_of(m.get("content"))}
        for m in messages
        if isinstance(m, dict)
    ]
    return _chatted(core, pack, conversation, max_tokens or MAX_TOKENS)


async def _translated(
    core: Core, request: Request, messages: list[Any], reading: prompt_reader.Reading, pack: PackInfo | None
) -> AsyncGenerator[str | Finish, None]:
    path = pack.path if pack is not None else None
    job = ApiRequest(reading.texts, AUTO, reading.target, html=reading.html, glossary=reading.glossary, pack=path)
    outcome = await translate_in_line(core, request, job)
    content = reading.reply(outcome.texts, outcome.sources)
    yield content
    asked = sum(len(prompt_reader.content_of(m.get("content"))) for m in messages if isinstance(m, dict))
    yield Finish(asked, len(content))


async def _chatted(
    core: Core, pack: PackInfo, messages: list[Any], max_tokens: int
) -> AsyncGenerator[str | Finish, None]:
    def produce(token: CancelToken, post: Callable[[Any], None]) -> None:
        with core.chatting(pack, token) as translator:
            post(_STARTED)
            try:
                for piece in translator.chat(messages, max_tokens, token):
                    post(piece)
            except ValueError as exc:  # too long for the model, or messages its chat template refuses
                raise ApiError(400, f"{pack.name} cannot answer this conversation: {exc}") from None
            stats = translator.last_stats
            post(Finish(stats["prompt_tokens"], stats["tokens"], "length" if stats["truncated"] else "stop"))

    stream = ThreadStream(core.line, produce)
    try:
        await stream.next()  # holding the model: errors so far get a status
        while (item := await stream.next()) is not ThreadStream.END:
            yield item
    finally:
        stream.token.cancel()  # done, failed, or the client left
