"""The one path from an API request to a Translator, shared by every protocol; no HTTP here.

An ``ApiRequest`` (texts, source and target as the client named them, plain text or HTML) is checked
against the limits, routed to a pack and target token, and translated under that pack's
TranslatorGate: in turn with the app's own requests, at most ``API_MAX_WAITING`` requests queued
(``Busy`` beyond), and cancelled through its CancelToken when the client goes away.
"""

from __future__ import annotations

import hmac
import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from fanyi import limits, routing
from fanyi.cancel import CancelToken
from fanyi.documents.html import HtmlText
from fanyi.documents.policy import keep_reason
from fanyi.engine.options import DecodeOptions
from fanyi.engine.pack import PackError
from fanyi.routing import NoRoute, Pair, Route

from . import languages
from .languages import UnknownLanguage
from .models import Models, holds

_MARKUP = re.compile(r"<[^>]*>")  # tags are no evidence of the text's language


class ApiError(Exception):
    """A request that cannot be answered: an HTTP status and a sentence for the client."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass(frozen=True)
class ApiRequest:
    texts: list[str]
    source: str  # a client's code, or "auto"
    target: str  # a client's code, or "auto" (the other language of the text)
    html: bool = False


@dataclass(frozen=True)
class Outcome:
    texts: list[str]
    sources: list[str]  # of each text, given or detected
    confidences: list[float]


class Core:
    def __init__(self, models: Models, *, api_key: str | None = None,
                 options: Callable[[], DecodeOptions] = DecodeOptions) -> None:
        self.models = models
        self.api_key = api_key or None
        self._options = options  # beams and lengths as the user set them; read per request
        self._running: set[CancelToken] = set()
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

    def route(self, source_code: str, target_code: str, text: str, *, html: bool = False) -> Route:
        """Which pack and languages translate ``text`` (fanyi.routing); ``auto`` languages are told by the text."""
        _parse(source_code, "source")
        _parse(target_code, "target")
        packs = self.models.packs()
        if not packs:
            raise ApiError(500, "no translation model is installed")
        sample = _MARKUP.sub(" ", text) if html else text
        try:
            return routing.route(packs, source_code, target_code, sample, prefer=self.models.in_memory())
        except NoRoute as exc:
            raise ApiError(400, str(exc)) from None

    def directions(self) -> list[Pair]:
        """Every language pair the installed packs translate."""
        return routing.pairs(self.models.packs())

    # --- translating ----------------------------------------------------------------------------
    def translate(self, job: ApiRequest, cancel: CancelToken) -> Outcome:
        """Each text routed on its own (a list may mix languages), then one batch per pack."""
        self.check(job)
        routes = [self.route(job.source, job.target, text, html=job.html) for text in job.texts]
        results = list(job.texts)  # a text already in the target language comes back as it is
        groups: dict[tuple, list[int]] = {}
        for i, route in enumerate(routes):
            if (d := route.direction) is not None:
                groups.setdefault((d.pack.path, d.source, d.target, route.variant), []).append(i)
        for indices in groups.values():
            route = routes[indices[0]]
            texts = [job.texts[i] for i in indices]
            with self._holding(route, cancel) as (translator, options):
                if job.html:
                    target = routing.language_of(route.direction.to_language).code
                    done = _translate_html(translator, texts, options, cancel, target)
                else:
                    done = translator.translate_batch(texts, options, cancel=cancel)
            for i, text in zip(indices, done):
                results[i] = text
        self._count(job)
        return Outcome(results, [r.source for r in routes], [r.confidence for r in routes])

    @contextmanager
    def streaming(self, job: ApiRequest, cancel: CancelToken) -> Iterator[tuple[Route, Iterator[str]]]:
        """Route the one text of ``job`` and wait for the model; inside the block, its pieces as decided."""
        self.check(job)
        if len(job.texts) != 1 or job.html:
            raise ApiError(400, "the stream translates one plain text at a time")
        route = self.route(job.source, job.target, job.texts[0])
        if route.direction is None:
            yield route, iter(job.texts)
            return
        with self._holding(route, cancel) as (translator, options):
            yield route, translator.translate_stream(job.texts[0], options, cancel)
        self._count(job)

    def cancel_all(self) -> None:
        """Stop every running translation at its next decoder step (the server is stopping)."""
        with self._lock:
            for token in self._running:
                token.cancel()

    @contextmanager
    def _holding(self, route: Route, cancel: CancelToken):
        assert route.direction is not None
        pack = route.direction.pack
        try:
            gate = self.models.gate(pack)
        except PackError as exc:
            raise ApiError(500, f"the model {pack.name} cannot be opened: {exc}") from None
        with self._lock:
            self._running.add(cancel)
        try:
            with gate.use(cancel, max_waiting=limits.API_MAX_WAITING) as translator:
                # The app's window may have switched models between routing and now.
                if translator is None or not holds(translator, pack):
                    raise ApiError(503, "the model is being loaded; try again in a moment")
                yield translator, routing.decode_options(route.direction, route.variant, self._options())
        finally:
            with self._lock:
                self._running.discard(cancel)

    def _count(self, job: ApiRequest) -> None:
        with self._lock:
            self.characters += sum(len(t) for t in job.texts)


def _parse(code: str, what: str) -> None:
    try:
        languages.parse(code)
    except UnknownLanguage:
        raise ApiError(400, f"{what} language {code!r} is not a language code") from None


def _translate_html(translator, texts: list[str], options: DecodeOptions, cancel: CancelToken,
                    target_lang: str) -> list[str]:
    """The text of each HTML fragment translated in place by the documents' HTML code; markup kept as it is."""
    markups = [HtmlText(text, xhtml=False) for text in texts]
    units = [list(markup.units()) for markup in markups]

    def kept(unit) -> bool:  # what the documents leave as it is: code, numbers, text already in the target
        return bool(unit.keep or keep_reason(unit.text, target_lang))

    wanted = [unit.text for group in units for unit in group if not kept(unit)]
    done = iter(translator.translate_batch(wanted, options, cancel=cancel))
    results = []
    for markup, group in zip(markups, units):
        translations = [None if kept(unit) else next(done) for unit in group]
        results.append(markup.rewrite(iter(translations), bilingual=False, target_lang=target_lang))
    return results
