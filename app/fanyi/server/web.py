"""What the protocol modules share on the HTTP side: reading a request's fields within the limits,
running a translation in a worker thread that a client's disconnect cancels, and turning every
failure into a response in the protocol's own shape (never a traceback, never a hang).
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import urllib.parse
from collections.abc import Awaitable, Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Message

from fanyi import documents, limits
from fanyi.cancel import Cancelled, CancelToken
from fanyi.engine import Failure
from fanyi.glossary import ANY, GlossaryError, parse_csv
from fanyi.languages import AUTO
from fanyi.limits import MiB
from fanyi.oneline import error_line

from .core import ApiRequest, Core, Outcome
from .errors import ApiError
from .files import Document, client_name
from .line import Line, QueueFull

log = logging.getLogger(__name__)
T = TypeVar("T")
Shape = Callable[[int, str], Response]  # (status, message) → the protocol's error response
BUSY = "Fanyi is busy with other translations; try again in a moment"
CLIENT_GONE = 499  # nginx's code for "the client closed the request"; nobody reads it


class Fields:
    """A request's parameters: the query string, then its JSON or form body (the body wins).

    Values are as sent: JSON values as they are; a form or query field as a string, or as a list
    when it was repeated.
    """

    def __init__(self, values: dict[str, Any]) -> None:
        self._values = values

    def __contains__(self, name: str) -> bool:
        return name in self._values

    def value(self, name: str) -> Any:
        """A field as sent (JSON objects and lists as they are), for protocols whose fields are structured."""
        return self._values.get(name)

    def is_list(self, name: str) -> bool:
        return isinstance(self._values.get(name), list)

    def text(self, name: str, default: str | None = None) -> str | None:
        value = self._values.get(name)
        if value is None:
            return default
        if not isinstance(value, str):
            raise ApiError(400, f"{name} must be a string, not {_json_type(value)}")
        return _checked(name, value)

    def count(self, name: str, most: int) -> int:
        """A whole number from 0 to ``most`` (a negative one is 0), as JSON or as a field's digits; 0 when absent."""
        value = self._values.get(name)
        if value is None or value == "":
            return 0
        if isinstance(value, str) and re.fullmatch(r"\s*-?\d{1,9}\s*", value):
            value = int(value)
        if type(value) is not int:
            raise ApiError(400, f"{name} must be a whole number, not {value!r}"[:200])
        if value > most:
            raise ApiError(400, f"{name} must be at most {most}, not {value}")
        return max(0, value)

    def texts(self, name: str) -> list[str] | None:
        """A string or a list of strings, as a list; None when absent."""
        value = self._values.get(name)
        if value is None:
            return None
        values = value if isinstance(value, list) else [value]
        if not all(isinstance(v, str) for v in values):
            wrong = next(v for v in values if not isinstance(v, str))
            raise ApiError(400, f"{name} must be a string or a list of strings, not one holding {_json_type(wrong)}")
        return [_checked(name, v) for v in values]

    def glossary(self, name: str = "glossary") -> tuple[tuple[str, str], ...] | None:
        """Fanyi's own field: a request's glossary as [[term, translation], …], {term: translation} or CSV text
        (fanyi.glossary's columns); None when absent (the app's glossary then applies)."""
        value = self._values.get(name)
        if value is None:
            return None
        if isinstance(value, str):
            try:
                return parse_csv(value.encode("utf-8", "surrogatepass"), name).for_pair(ANY, ANY)
            except GlossaryError as exc:
                raise ApiError(400, str(exc)) from None
        pairs = list(value.items()) if isinstance(value, dict) else value
        if (
            not isinstance(pairs, list)
            or len(pairs) > limits.MAX_GLOSSARY_TERMS
            or not all(
                isinstance(p, (list, tuple)) and len(p) == 2 and all(isinstance(x, str) and x.strip() for x in p)
                for p in pairs
            )
        ):
            raise ApiError(
                400,
                f"{name} must be [[term, translation], …], {{term: translation}} or CSV text, with "
                f"at most {limits.MAX_GLOSSARY_TERMS} non-empty terms",
            )
        return tuple((_checked(name, t).strip(), _checked(name, r).strip()) for t, r in pairs)


def _checked(name: str, value: str) -> str:
    """A string that is text: JSON's \\ud800 escapes can spell lone surrogates, which no tokenizer takes."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ApiError(
            400,
            f"{name} is not valid text: it holds a lone surrogate "
            f"(\\u{ord(value[exc.start]):04x}) at character {exc.start}",
        ) from None
    return value


def _json_type(value: Any) -> str:
    return {bool: "a boolean", int: "a number", float: "a number", list: "a list", dict: "an object"}.get(
        type(value), type(value).__name__
    )


def _multi(pairs: Iterable[tuple[str, Any]]) -> dict[str, Any]:
    """(name, value) pairs as fields: a repeated name becomes a list."""
    values: dict[str, Any] = {}
    for name, value in pairs:
        if name in values:
            values[name] = (values[name] if isinstance(values[name], list) else [values[name]]) + [value]
        else:
            values[name] = value
    return values


async def read_fields(request: Request) -> Fields:
    values = _multi(request.query_params.multi_items())
    body = await _read_body(request)
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind == "application/x-www-form-urlencoded":
        values.update(_urlencoded(body))
    elif kind == "multipart/form-data":
        values.update(await _multipart(request, body))
    elif body.strip():
        values.update(_json(body))
    return Fields(values)


async def _read_body(request: Request) -> bytes:
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limits.API_MAX_BODY_BYTES:
        raise ApiError(413, f"the request is too large (at most {limits.API_MAX_BODY_BYTES} bytes)")

    async def read() -> bytes:
        chunks, size = [], 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > limits.API_MAX_BODY_BYTES:
                raise ApiError(413, f"the request is too large (at most {limits.API_MAX_BODY_BYTES} bytes)")
            chunks.append(chunk)
        return b"".join(chunks)

    try:
        return await asyncio.wait_for(read(), limits.API_BODY_SECONDS)
    except asyncio.TimeoutError:  # a body sent a byte at a time would hold the connection for ever
        raise ApiError(408, f"the request's body did not arrive within {limits.API_BODY_SECONDS:g} s") from None


def _json(body: bytes) -> dict[str, Any]:
    try:
        # strict=False: raw line breaks inside strings, as clients that fill a JSON template with text send them
        data = json.loads(body, strict=False)
    except UnicodeDecodeError:  # JSON is UTF-8 (RFC 8259); a client that sent Latin-1 or GBK is told so
        raise ApiError(400, "the JSON body is not UTF-8 text (JSON is sent in UTF-8)") from None
    except ValueError:
        raise ApiError(400, "the body is neither JSON nor a form") from None
    except RecursionError:  # arrays in arrays … tens of thousands deep: the parser's recursion limit
        raise ApiError(400, "the JSON body is nested too deeply") from None
    if not isinstance(data, dict):
        raise ApiError(400, "the JSON body must be an object")
    return data


def _urlencoded(body: bytes) -> dict[str, Any]:
    # Parsed here rather than by starlette, which reads bytes that are not %-escaped as Latin-1:
    # `curl -d 'q=你好'` sends them raw, as UTF-8.
    try:
        pairs = urllib.parse.parse_qsl(
            body.decode("utf-8"), keep_blank_values=True, max_num_fields=limits.API_MAX_TEXTS + 20
        )
    except (UnicodeDecodeError, ValueError) as exc:
        raise ApiError(400, f"the form cannot be read: {exc}") from None
    return _multi(pairs)


async def _multipart(request: Request, body: bytes) -> dict[str, Any]:
    async def replay() -> dict[str, Any]:  # the body was read already, within the limit; the form parser reads it again
        return {"type": "http.request", "body": body, "more_body": False}

    try:
        form = await Request(request.scope, replay).form(max_files=0, max_fields=limits.API_MAX_TEXTS + 20)
    except Exception as exc:  # noqa: BLE001 - starlette raises HTTPException or MultiPartException with a reason
        raise ApiError(400, f"the form cannot be read: {getattr(exc, 'detail', None) or exc}") from None
    if any(not isinstance(value, str) for _, value in form.multi_items()):
        raise ApiError(400, "files are not translated here; send text")
    return _multi(form.multi_items())


async def read_upload(request: Request) -> tuple[Fields, UploadFile]:
    """A multipart form holding one document in its ``file`` field (at most ``API_MAX_DOCUMENT_BYTES``),
    and its other fields. The file is spooled to disk as it arrives."""
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "multipart/form-data":
        raise ApiError(400, "send the document as multipart/form-data, in a field named file")
    too_large = ApiError(413, f"the document is too large (at most {limits.API_MAX_DOCUMENT_BYTES // MiB} MiB)")
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limits.API_MAX_DOCUMENT_BYTES + MiB:  # a form's own fields: small
        raise too_large
    received = 0

    async def receive() -> Message:
        nonlocal received
        message = await request.receive()
        received += len(message.get("body", b""))
        if received > limits.API_MAX_DOCUMENT_BYTES + MiB:
            raise too_large
        return message

    try:
        form = await asyncio.wait_for(
            Request(request.scope, receive).form(max_files=1, max_fields=20), limits.API_BODY_SECONDS
        )
    except ApiError:
        raise
    except asyncio.TimeoutError:
        raise ApiError(408, f"the document did not arrive within {limits.API_BODY_SECONDS:g} s") from None
    except Exception as exc:  # noqa: BLE001 - starlette raises HTTPException or MultiPartException with a reason
        raise ApiError(400, f"the form cannot be read: {getattr(exc, 'detail', None) or exc}") from None
    upload = form.get("file")
    if not isinstance(upload, UploadFile):
        raise ApiError(400, "the form has no document in a field named file")
    values = _multi(request.query_params.multi_items())
    values.update(_multi((name, value) for name, value in form.multi_items() if isinstance(value, str)))
    return Fields(values), upload


BILINGUAL_LAYOUTS = ("side", "alternate")  # a bilingual document; for a PDF, its pages side by side or alternating


async def document_request(
    core: Core, request: Request, target_field: str, source_field: str, name_field: str | None = None
) -> tuple[Fields, Document, str, str]:
    """A request that sends a document: its fields, the document (stored), its source and target codes."""
    fields, upload = await read_upload(request)
    core.authorize(presented_key(request, fields))
    target = fields.text(target_field)
    if not target:
        raise ApiError(400, f"{target_field} is required")
    source = fields.text(source_field) or AUTO
    bilingual = (fields.text("bilingual") or "").strip().lower() or None  # Fanyi's own: side | alternate
    if bilingual is not None and bilingual not in BILINGUAL_LAYOUTS:
        raise ApiError(400, f"bilingual must be one of {', '.join(BILINGUAL_LAYOUTS)}")
    document = await keep_upload(core, upload, fields.text(name_field) if name_field else None)
    document.bilingual = bilingual
    return fields, document, source, target


async def keep_upload(core: Core, upload: UploadFile, name: str | None) -> Document:
    """An uploaded document stored for translation (``name``: the client's name for it, when not the
    upload's); 400 for a format Fanyi does not translate, 429 when too many are kept."""
    name = client_name(name or upload.filename)
    suffix = Path(name).suffix.lower()
    if suffix not in documents.SUPPORTED_SUFFIXES:
        raise ApiError(
            400,
            f"{name!r} is not a document Fanyi translates: it translates "
            f"{', '.join(documents.SUPPORTED_SUFFIXES)} files",
        )
    return await run_in_threadpool(core.files.add, name, upload.file, suffix)


_SCHEMES = ("deepl-auth-key", "bearer")


def presented_key(request: Request, fields: Fields) -> str | None:
    """An API key in any of the places clients put one: ``Authorization`` with DeepL's or a Bearer scheme, or
    bare (``Authorization: KEY``, as Zotero's and Pot's MTranServer services send it), MTranServer's
    ``X-API-Token``, or a field. An empty ``Bearer`` (a client with no key set) presents none."""
    header = request.headers.get("authorization", "").strip()
    scheme, _, value = header.partition(" ")
    if scheme.lower() in _SCHEMES:
        if value.strip():
            return value.strip()
    elif header and not value:
        return header
    if token := request.headers.get("x-api-token", "").strip():
        return token
    for name in ("api_key", "auth_key", "token", "api_token", "key"):
        if name in fields:
            return fields.text(name)
    return None


async def in_line(core: Core, request: Request, work: Callable[[CancelToken], T]) -> T:
    """``work(token)`` in a thread of the line; the client's disconnect cancels it."""
    token = CancelToken()
    with core.answering():
        future = core.line.start(lambda: work(token))
    # A plain task rather than a task group, whose errors would come wrapped in an ExceptionGroup.
    watcher = asyncio.ensure_future(_cancel_on_disconnect(request, token))
    try:
        return await asyncio.wrap_future(future)
    finally:
        token.cancel()  # a no-op once done; stops the thread when this task was cancelled (the server stops)
        watcher.cancel()


async def translate_in_line(core: Core, request: Request, job: ApiRequest) -> Outcome:
    return await in_line(core, request, lambda token: core.translate(job, token))


# Fanyi's own response header: how many sentences (texts) or parts (documents) a pack left as they were,
# when any; the body says which in each protocol's shape
UNTRANSLATED_HEADER = "X-Fanyi-Untranslated"


def untranslated_header(count: int) -> dict[str, str]:
    return {UNTRANSLATED_HEADER: str(count)} if count else {}


def untranslated(failures: Sequence[Failure]) -> list[dict[str, str]]:
    """Sentences a pack left as they were, as the protocols' ``untranslated`` field lists them."""
    return [{"source": f.source, "reason": f.reason} for f in failures]


async def _cancel_on_disconnect(request: Request, token: CancelToken) -> None:
    while (await request.receive())["type"] != "http.disconnect":
        pass
    token.cancel()


class ThreadStream:
    """What a worker thread produces, received in the event loop one item at a time.

    ``produce(token, post)`` runs in a thread of the line, holding a place in it (QueueFull at
    once when there is none), and calls ``post(item)`` for each item; its error, if any, is raised
    by ``next()`` in the event loop. The stream's owner cancels ``token`` when it stops listening
    (the client went away), which stops the translation at its next step.
    """

    END = object()

    def __init__(self, line: Line, produce: Callable[[CancelToken, Callable[[Any], None]], None]) -> None:
        self.token = CancelToken()
        self._items: asyncio.Queue[Any] = asyncio.Queue()
        loop = asyncio.get_running_loop()

        def post(item: Any) -> None:
            try:
                loop.call_soon_threadsafe(self._items.put_nowait, item)
            except RuntimeError:  # the server has stopped and its loop is closed: nobody listens
                self.token.cancel()

        def run() -> None:
            try:
                produce(self.token, post)
            except BaseException as exc:  # noqa: BLE001 - every outcome goes to the event loop
                post(_Failure(exc))
            finally:
                post(self.END)

        line.start(run)

    async def next(self) -> Any:
        item = await self._items.get()
        if isinstance(item, _Failure):
            raise item.error
        return item


class _Failure:
    def __init__(self, error: BaseException) -> None:
        self.error = error


async def guarded(shape: Shape, handler: Callable[[], Awaitable[Response]]) -> Response:
    """The handler's response, or the failure in the protocol's shape."""
    try:
        return await handler()
    except ApiError as exc:
        return _retry_after(shape(exc.status, exc.message), exc.retry_after)
    except QueueFull as exc:
        return _retry_after(shape(429, BUSY), exc.retry_after)
    except Cancelled:
        return Response(status_code=CLIENT_GONE)
    except Exception as exc:  # the client gets one line; the log gets the traceback
        log.exception("local API request failed")
        return shape(500, f"translation failed: {error_line(exc)}")


def any_error_body(status: int, message: str) -> dict[str, Any]:
    """An error in a shape that LibreTranslate's ("error"), DeepL's ("message") and DeepLX's ("code")
    clients all read: for answers given before the protocol is known."""
    return {"error": message, "message": message, "code": status}


def _retry_after(response: Response, seconds: int | None) -> Response:
    if seconds is not None:
        response.headers["Retry-After"] = str(seconds)
    return response
