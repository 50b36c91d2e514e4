"""Fanyi's own summaries: ``POST /summarize`` with ``{"text", "target_lang"?, "length"?}`` (JSON or form).

Answers what fanyi.summaries makes of the text (as ``fanyi summarize`` prints it, in fields)::

    {"summary": "…", "source_lang": "en", "target_lang": "zh", "model": "bart-large-cnn", "length": "short",
     "english": "…",          (BART's English summary, where "summary" is its translation)
     "note": "…",             (how it was made, when that is worth saying: translated first, given back)
     "sections": [{"title": "…", "summary": "…"}, …]}   (with "length": "sections")

``target_lang``: the summary's language (en, zh, zh-TW …; default the text's own); ``length``: "short" (one
summary) or "sections" (one per section, under its heading). Errors are ``{"error"}`` with a status
(LibreTranslate's shape): 400 for no text, a bad field or nothing installed that can summarize it, 403 without
the key the server asks for, 413 for more than a summary takes, 503 when the models are busy. The packs a
summary needs are held in one order (by folder) for as long as it takes; a client that leaves cancels it.

``POST /summarize_file``: the same for a document (multipart: ``file`` — any format Fanyi translates —,
``target_lang``?, ``length``?), with the same answer. The document is kept only while it is read (the same
store and bounds as /translate_file's documents) and removed before the answer is sent.
"""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from fanyi import limits, summaries
from fanyi.cancel import CancelToken
from fanyi.documents import DocumentError
from fanyi.engine import PackError, TimedOut

from .core import Core
from .errors import ApiError
from .libretranslate import error
from .models import holds
from .web import Fields, guarded, in_line, keep_upload, presented_key, read_fields, read_upload


def routes(core: Core) -> list[Route]:
    async def endpoint(request: Request) -> Response:
        return await guarded(error, lambda: _summarize(core, request))

    async def file_endpoint(request: Request) -> Response:
        return await guarded(error, lambda: _summarize_file(core, request))

    return [
        Route("/summarize", endpoint, methods=["POST"]),
        Route("/summarize_file", file_endpoint, methods=["POST"]),
    ]


async def _summarize(core: Core, request: Request) -> Response:
    fields = await read_fields(request)
    core.authorize(presented_key(request, fields))
    text, target, length = fields.text("text"), fields.text("target_lang"), _length(fields)
    if text is None:
        raise ApiError(400, "text is required")
    paragraphs = summaries.paragraphs_of(text)
    plan = _plan(core, paragraphs, target, too_long=len(text) > limits.MAX_SUMMARY_CHARS)
    summary = await in_line(core, request, lambda token: _run(core, plan, paragraphs, length, token))
    return JSONResponse(answer(summary))


async def _summarize_file(core: Core, request: Request) -> Response:
    fields, upload = await read_upload(request)
    core.authorize(presented_key(request, fields))
    target, length = fields.text("target_lang"), _length(fields)
    document = await keep_upload(core, upload, None)

    def work(token: CancelToken) -> summaries.Summary:
        try:  # read in the line: a scanned PDF's pages are recognised, which takes the CPU a while
            paragraphs = summaries.read_paragraphs(document.source, token)
        except summaries.SummaryError as exc:  # no text, or more than a summary takes: named as the client named it
            raise ApiError(400, str(exc).replace(document.source.name, document.name)) from None
        except DocumentError as exc:
            raise ApiError(400, f"{document.name} cannot be read: {exc}") from None
        plan = _plan(core, paragraphs, target, too_long=False)
        return _run(core, plan, paragraphs, length, token)

    try:
        summary = await in_line(core, request, work)
    finally:
        core.files.remove(document)
    return JSONResponse(answer(summary))


def _length(fields: Fields) -> str:
    length = fields.text("length", summaries.SHORT) or summaries.SHORT
    if length not in summaries.LENGTHS:
        raise ApiError(400, f"length must be {' or '.join(summaries.LENGTHS)}, not {length!r}")
    return length


def _plan(core: Core, paragraphs: list[str], target: str | None, *, too_long: bool) -> summaries.Plan[Any]:
    sample = "\n".join(paragraphs)[: limits.DETECT_SAMPLE_CHARS]
    try:
        summaries.check_text(paragraphs)
        return summaries.plan(core.models.packs(), sample, target or None)
    except summaries.SummaryError as exc:
        raise ApiError(413 if too_long else 400, str(exc)) from None
    except ValueError as exc:  # NoSummarizer, a language code that is none
        raise ApiError(400, str(exc)) from None


def _run(
    core: Core, plan: summaries.Plan[Any], paragraphs: list[str], length: str, token: CancelToken
) -> summaries.Summary:
    needed = [plan.summarizer] + [r.direction.pack for r in (plan.before, plan.after) if r and r.direction]
    packs = sorted({p.path: p for p in needed}.values(), key=lambda p: str(p.path))
    with ExitStack() as held:
        translators = {}
        for pack in packs:
            try:
                gate = core.models.gate(pack)
                translator = held.enter_context(gate.use(token, timeout=limits.API_MAX_WAIT_SECONDS))
            except PackError as exc:
                raise ApiError(500, f"the model {pack.name} cannot be opened: {exc}") from None
            except TimedOut:
                raise ApiError(503, "Fanyi is busy: no turn for the models; try again later", retry_after=5) from None
            if translator is None or not holds(translator, pack):
                raise ApiError(503, "the model is being loaded; try again in a moment", retry_after=1)
            translators[pack.path] = translator
        job = summaries.summarize(paragraphs, plan, translators.__getitem__, length=length, cancel=token)
        while True:
            try:
                next(job)
            except StopIteration as done:
                result: summaries.Summary = done.value
                return result


def answer(summary: summaries.Summary) -> dict[str, Any]:
    body: dict[str, Any] = {
        "summary": summary.text.strip(),
        "source_lang": summary.source_lang,
        "target_lang": summary.target_lang,
        "model": summary.model,
        "length": summary.length,
    }
    if summary.english:
        body["english"] = summary.english.strip()
    if said := summaries.note(summary):
        body["note"] = said
    if summary.sections:
        body["sections"] = [{"title": s.title, "summary": s.text} for s in summary.sections]
    return body
