"""A text's summary, made by the packs a Plan names: chunked, summarized, combined, translated; streamed.

"short": the chunks (which may span sections) are summarized one by one, then their summaries together, again
until one summary is left (at most limits.MAX_SUMMARY_ROUNDS rounds; a round that does not shrink the text ends
it, its summaries kept side by side). "sections": each section's chunks are summarized and combined the same
way, under the section's title: an outline. A text (a section) shorter than a summary would be is given back as
it is. BART's English summary is translated into the target by the translation pack the plan names; a text it
cannot read is translated into English first.

The job is a generator: it yields the target text as it is decided (str, and the Rewind of a translation's
stream) and Progress between steps, and returns the Summary; the text pieces add up to Summary.text. Memory is
one chunk's decode at a time and the chunk summaries; time is bounded by the text's length (MAX_SUMMARY_CHARS).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import limits, routing, variants
from ..cancel import CancelToken
from ..engine import DecodeOptions, Rewind, Translation
from .chunks import JOINER, chunk_sections
from .plan import Plan
from .sections import Section, sections_of

if TYPE_CHECKING:
    from ..engine import Translator

SHORT, SECTIONS = "short", "sections"
LENGTHS = (SHORT, SECTIONS)
# the stages Progress names
TRANSLATING, SUMMARIZING, COMBINING, TRANSLATING_SUMMARY = (
    "translating",
    "summarizing",
    "combining",
    "translating summary",
)

Opener = Callable[[Path], "Translator"]  # a pack's folder → its Translator (the caller keeps them open)


class SummaryError(ValueError):
    """The text cannot be summarized (empty, too long); one line for the user."""


@dataclass(frozen=True)
class Progress:
    stage: str
    done: int
    total: int


Event = str | Rewind | Progress


@dataclass(frozen=True)
class SectionSummary:
    title: str
    text: str  # in the target language
    english: str | None = None  # BART's, where `text` is its translation
    given_back: bool = False  # the section was shorter than a summary: its own text


@dataclass(frozen=True)
class Summary:
    text: str  # in the target language; for "sections" the outline as Markdown
    source_lang: str  # the text's language
    target_lang: str  # the summary's, as asked ("zh", "zh-TW", "en")
    model: str  # the summarizer's pack
    length: str
    english: str | None = None  # BART's English summary, where `text` is its translation
    sections: tuple[SectionSummary, ...] = ()
    pretranslated_with: str | None = None  # the pack that translated the text into English first
    translated_with: str | None = None  # the pack that translated the English summary
    given_back: bool = False  # the whole text was shorter than a summary: it is given back as it is
    chunks: int = 0  # read by the summarizer in the first round


def check_text(paragraphs: Sequence[str]) -> None:
    """SummaryError (one line) for no text or more than limits.MAX_SUMMARY_CHARS."""
    total = sum(len(p) for p in paragraphs)
    if total > limits.MAX_SUMMARY_CHARS:
        raise SummaryError(
            f"the text is {total:,} characters; Fanyi summarizes at most {limits.MAX_SUMMARY_CHARS:,} "
            "(about 250 pages) at a time"
        )
    if not any(p.strip() for p in paragraphs):
        raise SummaryError("there is no text to summarize")


class _Summarizer:
    """One pack's summaries, with what the plan asks of it."""

    def __init__(self, translator: Translator, plan: Plan[Any], cancel: CancelToken | None) -> None:
        self.translator = translator
        self.options = DecodeOptions(summary=True, source=plan.reads, target=plan.writes)
        self.cancel = cancel
        self.budget = translator.max_summary_tokens
        self._overhead = self.count("")
        generation = translator.pack.generation
        self.min_tokens = max(int(generation.get("min_length") or 0), limits.SUMMARY_MIN_TOKENS)

    def count(self, text: str) -> int:
        return self.translator.summary_tokens(text, self.options)

    def too_short(self, text: str) -> bool:
        return self.count(text) - self._overhead < self.min_tokens

    def stream(self, text: str) -> Generator[str, None, None]:
        yield from self.translator.summary_stream(text, self.options, self.cancel)

    def once(self, text: str) -> str:
        return "".join(self.stream(text)).strip()


def summarize(
    paragraphs: Sequence[str],
    plan: Plan[Any],
    open_translator: Opener,
    *,
    length: str = SHORT,
    cancel: CancelToken | None = None,
) -> Generator[Event, None, Summary]:
    """The summary of a text given as its paragraphs (a document's units, sections.paragraphs_of(text))."""
    if length not in LENGTHS:
        raise SummaryError(f"length must be {' or '.join(LENGTHS)}, not {length!r}")
    check_text(paragraphs)
    pretranslated = None
    original = list(paragraphs)
    if plan.before is not None and plan.before.direction is not None:
        direction = plan.before.direction
        paragraphs = yield from _translated(
            open_translator(direction.pack.path),
            paragraphs,
            routing.decode_options(direction, plan.before.variant),
            cancel,
        )
        pretranslated = direction.pack.name
    summarizer = _Summarizer(open_translator(plan.summarizer.path), plan, cancel)
    sections = sections_of(paragraphs)
    after = None
    if plan.after is not None and plan.after.direction is not None:
        after = (open_translator(plan.after.direction.pack.path), plan.after)
    target = _target_code(plan)
    base = Summary("", plan.source, target, plan.summarizer.name, length, pretranslated_with=pretranslated)
    if summarizer.too_short("\n\n".join(paragraphs)):
        text = "\n\n".join(original)  # as it was written, not its translation
        yield text
        return dataclasses.replace(base, text=text, given_back=True)
    if length == SHORT:
        chunks = chunk_sections(sections, summarizer.budget, summarizer.count, across=True)
        english = yield from _condense(
            [c.text for c in chunks], summarizer, streamed=after is None and not plan.rewrite
        )
        text = yield from _finish(english, plan, after, cancel)
        return dataclasses.replace(
            base,
            text=text,
            english=english if after is not None else None,
            translated_with=after[1].direction.pack.name if after and after[1].direction else None,
            chunks=len(chunks),
        )
    return (yield from _outline(sections, summarizer, plan, after, cancel, base))


def _target_code(plan: Plan[Any]) -> str:
    return plan.rewrite or (plan.target.code if plan.target.code != "zh" else "zh")


def _translated(
    translator: Translator, paragraphs: Sequence[str], options: DecodeOptions, cancel: CancelToken | None
) -> Generator[Event, None, list[str]]:
    """The paragraphs translated (into English, for BART), a progress event per batch."""
    done: list[str] = []
    batch = 64
    for start in range(0, len(paragraphs), batch):
        yield Progress(TRANSLATING, start, len(paragraphs))
        done += translator.translate_batch(list(paragraphs[start : start + batch]), options, cancel=cancel)
    yield Progress(TRANSLATING, len(paragraphs), len(paragraphs))
    return done


def _condense(texts: list[str], summarizer: _Summarizer, *, streamed: bool) -> Generator[Event, None, str]:
    """One summary of the texts (a section's chunks, or all of them, each fitting the model): each summarized,
    then their summaries together, round after round; the last one streamed when `streamed`."""
    for round_ in range(limits.MAX_SUMMARY_ROUNDS + 1):
        stage = SUMMARIZING if round_ == 0 else COMBINING
        if len(texts) > 1 and round_ == limits.MAX_SUMMARY_ROUNDS:  # still too long: the summaries side by side
            text = JOINER.join(texts)
            if streamed:
                yield text
            return text
        if len(texts) == 1:
            text = texts[0]
            yield Progress(stage, 0, 1)
            if not streamed:
                summary = summarizer.once(text)
            else:
                pieces = []
                for piece in summarizer.stream(text):
                    pieces.append(piece)
                    yield piece
                summary = "".join(pieces).strip()
            yield Progress(stage, 1, 1)
            return summary
        summaries = []
        for i, text in enumerate(texts):
            yield Progress(stage, i, len(texts))
            summaries.append(summarizer.once(text))
        yield Progress(stage, len(texts), len(texts))
        if sum(map(len, summaries)) >= sum(map(len, texts)):  # no shorter: the summaries side by side
            text = JOINER.join(summaries)
            if streamed:
                yield text
            return text
        texts = [
            c.text
            for c in chunk_sections([Section("", tuple(summaries))], summarizer.budget, summarizer.count, across=True)
        ]
    raise AssertionError("unreachable: the last round returns")


def _finish(
    english: str, plan: Plan[Any], after: tuple[Translator, routing.Route[Any]] | None, cancel: CancelToken | None
) -> Generator[Event, None, str]:
    """The summary in the target language: translated (streamed), or written in Traditional by OpenCC."""
    if after is not None:
        translator, route = after
        assert route.direction is not None
        options = routing.decode_options(route.direction, route.variant)
        yield Progress(TRANSLATING_SUMMARY, 0, 1)
        events: list[str | Rewind] = []
        for event in _stream_translation(translator, english, options, cancel, plan.rewrite):
            events.append(event)
            yield event
        yield Progress(TRANSLATING_SUMMARY, 1, 1)
        return Translation.collect(events).text
    if plan.rewrite:
        text = variants.rewrite(english, plan.rewrite)
        yield text
        return text
    return english


def _stream_translation(
    translator: Translator, text: str, options: DecodeOptions, cancel: CancelToken | None, rewrite: str | None
) -> Generator[str | Rewind, None, None]:
    if rewrite:  # OpenCC works on whole text: the translation is converted once it is complete
        translation = translator.translate(text, options, cancel)
        yield variants.rewrite(translation, rewrite)
        return
    for event in translator.translate_stream(text, options, cancel):
        if isinstance(event, (str, Rewind)):
            yield event


def _outline(
    sections: list[Section],
    summarizer: _Summarizer,
    plan: Plan[Any],
    after: tuple[Translator, routing.Route[Any]] | None,
    cancel: CancelToken | None,
    base: Summary,
) -> Generator[Event, None, Summary]:
    """Each section's summary under its title, as Markdown, a section at a time; titles are translated with
    the summaries."""
    done: list[SectionSummary] = []
    english: list[str] = []
    chunks = 0
    for index, section in enumerate(sections):
        yield Progress(SUMMARIZING, index, len(sections))
        title = section.title or (f"Part {index + 1}" if len(sections) > 1 else "")
        given_back = summarizer.too_short(section.text)
        if given_back:
            summary = section.text
        else:
            parts = chunk_sections([section], summarizer.budget, summarizer.count, across=False)
            chunks += len(parts)
            summary = yield from _condense([c.text for c in parts], summarizer, streamed=False)
        english.append(_entry(title, summary))
        text, shown_title = summary, title
        if after is not None and not given_back:
            text = _translation(after, summary, plan.rewrite, cancel)
            shown_title = _translation(after, title, plan.rewrite, cancel) if section.title else title
        elif plan.rewrite and not given_back:
            text = variants.rewrite(summary, plan.rewrite)
        yield _entry(shown_title, text)
        done.append(SectionSummary(shown_title, text, summary if after is not None else None, given_back))
    yield Progress(SUMMARIZING, len(sections), len(sections))
    return dataclasses.replace(
        base,
        text="".join(_entry(s.title, s.text) for s in done),
        english="".join(english) if after is not None else None,
        sections=tuple(done),
        translated_with=after[1].direction.pack.name if after and after[1].direction else None,
        chunks=chunks,
    )


def _entry(title: str, text: str) -> str:
    return f"## {title}\n\n{text}\n\n" if title else f"{text}\n\n"


def _translation(
    after: tuple[Translator, routing.Route[Any]], text: str, rewrite: str | None, cancel: CancelToken | None
) -> str:
    translator, route = after
    assert route.direction is not None
    return Translation.collect(
        _stream_translation(translator, text, routing.decode_options(route.direction, route.variant), cancel, rewrite)
    ).text
