"""The one path from an API request to a Translator, shared by every protocol; no HTTP here.

An ``ApiRequest`` (texts, source and target as the client named them, plain text or HTML) is checked
against the limits, routed to a pack and target token, and translated under that pack's
TranslatorGate: in turn with the app's own requests, in a line of at most ``API_MAX_QUEUED``
requests (line.py), short plain ones together with the others waiting for the same model
(batching.py), and cancelled through its CancelToken when the client goes away. A request
that holds the model longer than ``API_TURN_SECONDS`` passes its turn to those waiting between two
batches (or two pieces of a stream), so short requests are not stuck behind a long one.
"""

from __future__ import annotations

import dataclasses
import functools
import hmac
import logging
import re
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from fanyi import documents, limits, routing
from fanyi.cancel import Cancelled, CancelToken
from fanyi.documents.characters import scrub
from fanyi.documents.html import HtmlText
from fanyi.documents.policy import keep_reason
from fanyi.engine import DecodeOptions, Failure, PackError, TimedOut, Translation, describe_failures
from fanyi.languages import AUTO, language_of
from fanyi.rewriter import Rewriter
from fanyi.routing import NoRoute, Pair, Route

from . import languages
from .batching import Order, Orders, all_cancelled
from .errors import ApiError
from .files import TRANSLATING, Document, Files
from .languages import UnknownLanguage
from .line import Line
from .models import Models, holds

if TYPE_CHECKING:
    from fanyi.dictionary import Dictionary
    from fanyi.documents.base import TextTranslator, Unit
    from fanyi.engine import LanguageChoice, StreamEvent, Translator
    from fanyi.library.installed import PackInfo

    PackRoute = Route[PackInfo]

log = logging.getLogger(__name__)
T = TypeVar("T")
_MARKUP = re.compile(r"<[^>]*>")  # tags are no evidence of the text's language
NO_PACK_HINT = "install one on this computer (fanyi models install opus-mt-en-zh, or the app's Download button)"


@dataclass(frozen=True)
class ApiRequest:
    texts: list[str]
    source: str  # a client's code, or "auto"
    target: str  # a client's code, or "auto" (the other language of the text)
    html: bool = False
    xml: bool = False  # with html: the markup is XML (DeepL's tag_handling=xml), read as XHTML
    alternatives: int = 0  # other translations wanted per text (the beam's next best), plain text only
    glossary: tuple[tuple[str, str], ...] | None = None  # the request's own (term, translation); None: the app's
    pack: Path | None = None  # the pack the client named (a chat model): preferred wherever it translates the pair


@dataclass(frozen=True)
class Outcome:
    texts: list[str]
    sources: list[str]  # of each text, given or detected
    confidences: list[float]
    alternatives: list[list[str]]  # per text: other translations, none equal to it (empty unless asked)
    # per text: the sentences a pack left as they were (it degenerated on them); each protocol says so
    untranslated: list[tuple[Failure, ...]]


class Core:
    def __init__(
        self,
        models: Models,
        *,
        api_key: str | None = None,
        options: Callable[[], DecodeOptions] = DecodeOptions,
        glossary: Callable[[str, str], tuple[tuple[str, str], ...]] | None = None,
        dictionary: Callable[[], Dictionary | None] | None = None,
    ) -> None:
        self.models = models
        # the dictionary /dictionary looks words up in, asked per request; by default the one installed
        self.dictionary = dictionary or _installed_dictionary
        self.api_key = api_key or None
        self._options = options  # beams and lengths as the user set them; read per request
        self._glossary = glossary  # the app's glossary: (term, translation) of a language pair
        self._running: dict[CancelToken, int] = {}  # the requests close() cancels (a token may be in twice)
        self.line = Line()
        self.orders = Orders()
        self.files = Files()
        self.stopping = False  # close() was called: what is cancelled now is answered 503, not dropped
        self._lock = threading.Lock()
        self.characters = 0  # translated since the start, for DeepL's /v2/usage

    # --- what every request goes through --------------------------------------------------------
    def authorize(self, presented: str | None) -> None:
        if self.api_key is not None and not hmac.compare_digest((presented or "").encode(), self.api_key.encode()):
            raise ApiError(403, "a valid API key is required" if presented else "this server needs an API key")

    def check(self, job: ApiRequest) -> None:
        if not job.texts:
            raise ApiError(400, "there is no text to translate")
        if len(job.texts) > limits.API_MAX_TEXTS:
            raise ApiError(413, f"too many texts: {len(job.texts)} (at most {limits.API_MAX_TEXTS} per request)")
        chars = sum(len(t) for t in job.texts)
        if chars > limits.API_MAX_CHARS:
            raise ApiError(413, f"too much text: {chars} characters (at most {limits.API_MAX_CHARS} per request)")

    def route(
        self, source_code: str, target_code: str, text: str, *, html: bool = False, pack: Path | None = None
    ) -> PackRoute:
        """Which pack and languages translate ``text`` (fanyi.routing); ``auto`` languages are told by the text;
        ``pack``, when it translates the pair, before the packs in memory."""
        _parse(source_code, "source")
        _parse(target_code, "target")
        packs = self.models.packs()
        sample = _MARKUP.sub(" ", text) if html else text
        try:
            prefer = ([pack] if pack is not None else []) + self.models.in_memory()
            return routing.route(packs, source_code, target_code, sample, prefer=prefer)
        except NoRoute as exc:  # Chinese asked for in Chinese is OpenCC's: routed even with no model installed
            if not packs:  # the server runs for its dictionary: a translation waits for a pack
                raise ApiError(503, f"{exc}: {NO_PACK_HINT}") from None
            raise ApiError(400, str(exc)) from None

    def directions(self) -> list[Pair]:
        """Every language pair the installed packs translate."""
        return routing.pairs(self.models.packs())

    # --- translating ----------------------------------------------------------------------------
    def translate(self, job: ApiRequest, cancel: CancelToken) -> Outcome:
        """Each text routed on its own (a list may mix languages), then one batch per pack."""
        with self.answering():
            self.check(job)
            routes = [self.route(job.source, job.target, text, html=job.html, pack=job.pack) for text in job.texts]
            # a text already in the target language comes back as it is, or (Chinese) written anew by OpenCC
            results = [Translation(_rewritten(route, text)) for route, text in zip(routes, job.texts)]
            alternatives: list[list[str]] = [[] for _ in job.texts]
            groups: dict[tuple[Path, str | None, str | None, str | None], list[int]] = {}
            for i, route in enumerate(routes):
                if (d := route.direction) is not None:
                    groups.setdefault((d.pack.path, d.source, d.target, route.variant), []).append(i)
            for indices in groups.values():
                route = routes[indices[0]]
                texts = [job.texts[i] for i in indices]
                if not (job.html or job.alternatives):
                    for i, result in zip(indices, self._together(route, texts, cancel, job.glossary)):
                        results[i] = result
                    continue
                with self._holding(route, cancel, glossary=job.glossary) as (translator, options, share):
                    between = _between_batches(share)
                    if job.html:
                        assert route.direction is not None  # grouped: a route with a direction
                        target = language_of(route.direction.to_language).code
                        done = _translate_html(translator, texts, options, cancel, target, between, xml=job.xml)
                    else:
                        done = translator.translate_results(texts, options, between, cancel=cancel)
                    for i, result in zip(indices, done):
                        results[i] = result
                        if job.alternatives and not job.html:
                            others = translator.alternatives(job.texts[i], job.alternatives, options, cancel)
                            alternatives[i] = [other for other in others if other != result.text][: job.alternatives]
                            if i != indices[-1]:
                                share()
        self._count(job)
        if failures := [f for result in results for f in result.failures]:
            log.warning("local API: %s", describe_failures(failures))
        return Outcome(
            [r.text for r in results],
            [r.source for r in routes],
            [r.confidence for r in routes],
            alternatives,
            [r.failures for r in results],
        )

    def _together(
        self,
        route: PackRoute,
        texts: list[str],
        cancel: CancelToken,
        glossary: tuple[tuple[str, str], ...] | None = None,
    ) -> list[Translation]:
        """``texts`` translated in one batch with those of every request waiting for the same model and options
        when the turn comes (batching.py); the request that leads when the turn comes translates the batch."""
        with self._cancellable(cancel):
            return self._batched(route, texts, cancel, glossary)

    def _batched(
        self,
        route: PackRoute,
        texts: list[str],
        cancel: CancelToken,
        glossary: tuple[tuple[str, str], ...] | None,
    ) -> list[Translation]:
        order = Order(texts, cancel)
        assert route.direction is not None  # grouped: a route with a direction
        key = (route.direction.pack.path, self._options_for(route, glossary))
        self.orders.add(key, order)
        try:
            while self.orders.lead(key, order):
                leading = True
                try:
                    with self._holding(route, cancel, glossary=glossary) as (translator, options, share):
                        batch = self.orders.take(key, order)
                        # the next request may wait for the turn now: it gets it when this batch passes it
                        self.orders.follow(key)
                        leading = False
                        token = all_cancelled(batch)
                        try:
                            done = translator.translate_results(
                                [t for o in batch for t in o.texts],
                                options,
                                _between_batches(functools.partial(share, token)),
                                cancel=token,
                            )
                        except BaseException as exc:
                            self.orders.finish(key, batch[1:], None, exc)
                            raise
                        self.orders.finish(key, batch, done, None)
                finally:
                    if leading:
                        self.orders.follow(key)
        except TimedOut:
            raise self._no_turn() from None
        finally:
            self.orders.discard(key, order)
        if order.error is not None:
            raise order.error
        assert order.results is not None  # finished
        return order.results

    @contextmanager
    def streaming(self, job: ApiRequest, cancel: CancelToken) -> Iterator[tuple[PackRoute, Iterator[StreamEvent]]]:
        """Route the one text of ``job`` and wait for the model; inside the block, its pieces as decided."""
        with self.answering():
            self.check(job)
            if len(job.texts) != 1 or job.html:
                raise ApiError(400, "the stream translates one plain text at a time")
            route = self.route(job.source, job.target, job.texts[0])
            if route.direction is None:
                yield route, iter([_rewritten(route, job.texts[0])])
                return
            with self._holding(route, cancel, glossary=job.glossary) as (translator, options, share):
                yield route, _sharing(translator.translate_stream(job.texts[0], options, cancel), share)
        self._count(job)

    def translate_document(self, document: Document, source: str, target: str, cancel: CancelToken) -> None:
        """Translate a stored document into its folder, routed by its first text; the outcome (the output, or
        why there is none) is written on ``document``, and a failure raised too (ApiError, or Cancelled)."""
        try:
            self._translate_document(document, source, target, cancel)
        except documents.DocumentError as exc:  # the document's own fault, told by the client's name for it
            status = 413 if isinstance(exc, documents.DocumentTooLarge) else 400
            document.fail(str(exc).replace(str(document.source), document.name))
            raise ApiError(status, document.error) from None
        except ApiError as exc:
            document.fail(exc.message)
            raise
        except Cancelled:
            document.fail("the translation was cancelled")
            raise
        except Exception as exc:
            log.exception("local API: translating a document failed")
            document.fail(f"translation failed: {' '.join(str(exc).split()) or type(exc).__name__}")
            raise

    def _translate_document(self, document: Document, source: str, target: str, cancel: CancelToken) -> None:
        with self.answering():
            auto = AUTO in (source.strip().lower(), target.strip().lower())
            opened = documents.format_for(document.source).open(document.source, cancel) if auto else None
            sample = documents.sample(opened, cancel) if opened is not None else ""
            route = self.route(source, target, sample)
            if route.direction is None:
                if route.rewrite is None:
                    raise ApiError(400, f"the document is in {languages.name(route.source)} already")
                # Chinese asked for in Chinese: written anew by OpenCC, no model and no turn to wait for
                self._run_document(document, Rewriter(route.rewrite), None, cancel, lambda done, total: None)
                return
            with self._holding(route, cancel) as (translator, options, share):
                self._run_document(document, translator, options, cancel, _between_batches(share))

    def _run_document(
        self,
        document: Document,
        translator: TextTranslator,
        options: DecodeOptions | None,
        cancel: CancelToken,
        between: Callable[[int, int], None],
    ) -> None:
        document.status, document.started = TRANSLATING, time.monotonic()

        def progress(done: int, total: int) -> None:
            document.progress = (done, total)
            between(done, total)

        counting = _Counting(translator)
        result = documents.translate_document(
            document.source,
            counting,
            dst=document.folder,
            options=options,
            cancel=cancel,
            progress=progress,
            bilingual=document.bilingual is not None,
            layout=document.bilingual or "side",
            to=document.to,
        )
        if untranslated := result.report.failed_count:
            log.warning(
                "local API: %s: %d parts left as they were: %s",
                document.name,
                untranslated,
                result.report.failed[0].reason,
            )
        document.succeed(result.output, counting.characters, untranslated)
        with self._lock:
            self.characters += counting.characters

    @contextmanager
    def answering(self) -> Iterator[None]:
        """A translation cancelled because the server stops is answered 503, not dropped like one whose client left."""
        try:
            yield
        except Cancelled:
            if self.stopping:
                raise ApiError(503, "Fanyi is stopping; try again once it runs again") from None
            raise

    def close(self) -> None:
        """The server is stopping: every running or waiting translation stops at its next step."""
        self.stopping = True
        with self._lock:
            for token in self._running:
                token.cancel()
        self.line.close()
        self.files.close()

    def _options_for(self, route: PackRoute, glossary: tuple[tuple[str, str], ...] | None) -> DecodeOptions:
        """The route's decoding options with a glossary: the request's own, else the app's for the route's pair."""
        assert route.direction is not None
        options = routing.decode_options(route.direction, route.variant, self._options())
        if glossary is None:
            d = route.direction
            glossary = self._glossary(d.from_language, d.to_language) if self._glossary is not None else ()
        return dataclasses.replace(options, glossary=glossary)

    @contextmanager
    def _holding(
        self,
        route: PackRoute,
        cancel: CancelToken,
        glossary: tuple[tuple[str, str], ...] | None = None,
    ) -> Iterator[tuple[Translator, DecodeOptions, Callable[..., None]]]:
        """The route's translator and options for the block, and ``share()``: pass the turn when it is
        someone else's (call it between two steps; ``share(token)`` waits for it back under ``token``).
        """
        assert route.direction is not None
        with self._using(route.direction.pack, cancel) as (translator, share):
            yield translator, self._options_for(route, glossary), share

    @contextmanager
    def chatting(self, pack: PackInfo, cancel: CancelToken) -> Iterator[Translator]:
        """A pack's translator for the block, in turn with every other request for it: what the chat
        endpoints (openai.py, ollama.py) answer a conversation with, through the pack's own template."""
        with self.answering(), self._using(pack, cancel) as (translator, _share):
            yield translator

    @contextmanager
    def _using(self, pack: PackInfo, cancel: CancelToken) -> Iterator[tuple[Translator, Callable[..., None]]]:
        try:
            gate = self.models.gate(pack)
        except PackError as exc:
            raise ApiError(500, f"the model {pack.name} cannot be opened: {exc}") from None
        try:
            with self._cancellable(cancel), gate.use(cancel, timeout=limits.API_MAX_WAIT_SECONDS) as translator:
                # The app's window may have switched models between routing and now.
                if translator is None or not holds(translator, pack):
                    raise ApiError(503, "the model is being loaded; try again in a moment", retry_after=1)
                turn_started = started = time.monotonic()

                def share(token: CancelToken = cancel) -> None:
                    nonlocal turn_started
                    if time.monotonic() - turn_started >= limits.API_TURN_SECONDS and gate.pass_turn(token):
                        turn_started = time.monotonic()

                yield translator, share
                self.line.served(time.monotonic() - started)
        except TimedOut:
            raise self._no_turn() from None

    def _no_turn(self) -> ApiError:
        return ApiError(
            503,
            f"Fanyi is busy: no turn for the model within {limits.API_MAX_WAIT_SECONDS:g} s; try again later",
            retry_after=self.line.retry_after(),
        )

    @contextmanager
    def _cancellable(self, cancel: CancelToken) -> Iterator[None]:
        """``cancel`` fires when the server stops (close()) during the block."""
        with self._lock:
            self._running[cancel] = self._running.get(cancel, 0) + 1
        try:
            yield
        finally:
            with self._lock:
                if self._running[cancel] == 1:
                    del self._running[cancel]
                else:
                    self._running[cancel] -= 1

    def _count(self, job: ApiRequest) -> None:
        with self._lock:
            self.characters += sum(len(t) for t in job.texts)


def _parse(code: str, what: str) -> None:
    try:
        languages.parse(code)
    except UnknownLanguage:
        raise ApiError(400, f"{what} language {code!r} is not a language code") from None


class _Counting:
    """A translator for the documents' code that counts what it translates; everything else is the
    translator's own."""

    def __init__(self, translator: TextTranslator) -> None:
        self._translator = translator
        self.characters = 0

    def translate_results(
        self,
        texts: list[str],
        options: DecodeOptions | None = None,
        progress: Callable[[int, int], None] | None = None,
        cancel: CancelToken | None = None,
        contexts: Sequence[str] | None = None,
        formatted: Sequence[bool] | None = None,
    ) -> list[Translation]:
        marks = {} if formatted is None else {"formatted": formatted}  # asked only of packs that take them
        results = self._translator.translate_results(texts, options, progress, cancel, contexts, **marks)
        self.characters += sum(len(text) for text in texts)
        return results

    @property
    def source_lang(self) -> str:
        return str(self._translator.source_lang)

    @property
    def target_lang(self) -> str:
        return str(self._translator.target_lang)

    def languages(self, options: DecodeOptions | None) -> LanguageChoice:
        return self._translator.languages(options)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._translator, name)


def _rewritten(route: PackRoute, text: str) -> str:
    """A text no pack translates (``route`` has no direction): as it is, or Chinese written anew by OpenCC."""
    return text if route.rewrite is None else Rewriter(route.rewrite).translate(text)


def _between_batches(share: Callable[[], None]) -> Callable[[int, int], None]:
    """A progress callback that passes the turn after a batch when more are to come: after the last one
    the request would wait a whole round with nothing left to do."""

    def between(done: int, total: int) -> None:
        if 0 < done < total:
            share()

    return between


def _sharing(pieces: Iterator[T], share: Callable[[], None]) -> Iterator[T]:
    """A stream's pieces, passing the turn between them when it is someone else's."""
    for piece in pieces:
        yield piece
        share()


def _translate_html(
    translator: Translator,
    texts: list[str],
    options: DecodeOptions,
    cancel: CancelToken,
    target_lang: str,
    progress: Callable[[int, int], None],
    *,
    xml: bool,
) -> list[Translation]:
    """The text of each HTML (or XML) fragment translated in place by the documents' HTML code; markup kept
    as it is. Each result lists the sentences of its fragment a pack left as they were."""
    markups = [HtmlText(text, xhtml=xml) for text in texts]
    units = [list(markup.units()) for markup in markups]

    def kept(unit: Unit) -> bool:  # what the documents leave as it is: code, numbers, text already in the target
        return bool(unit.keep or keep_reason(unit.text, target_lang))

    wanted = [unit.text for group in units for unit in group if not kept(unit)]
    done = iter(translator.translate_results(wanted, options, progress, cancel=cancel))
    results = []
    for markup, group in zip(markups, units):
        translations = [None if kept(unit) else next(done) for unit in group]
        written = iter(None if t is None else scrub(t.text)[0] for t in translations)
        failures = tuple(f for t in translations if t is not None for f in t.failures)
        results.append(Translation(markup.rewrite(written, bilingual=False, target_lang=target_lang), failures))
    return results


def _installed_dictionary() -> Dictionary | None:
    from fanyi.library import dictionaries  # noqa: PLC0415 - the library's listing, read when a word is asked

    return dictionaries.open_preferred()
