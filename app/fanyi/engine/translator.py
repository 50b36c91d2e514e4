"""Translator: text in, text out, streamed or batched, over a verified model pack.

Text is split into sentences (layout kept as untranslated separator pieces), long sentences are cut
to fit the model's positions, each part is translated once and cached, and the result is re-joined
the way the target language writes (no spaces between Chinese sentences).

Every part's translation is watched as it is decoded (degenerate.py): one that loops, runs far past
its source or comes back empty is decoded again with a repetition guard, and when that fails too the
part keeps its source text and is listed in the result's failures.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Collection, Generator, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from .. import limits, variants
from ..cancel import CancelToken
from ..progress import ProgressCallback
from . import search
from .allocator import keep_freed_memory
from .converted import convert_stream
from .degenerate import EMPTY, REASONS, Finding, SentenceCheck, guarded, length_bound
from .language_choice import LanguageChoice
from .options import DecodeOptions
from .pack import ModelPack
from .results import Failure, Rewind, StreamEvent, TermLost, Translation
from .search_settings import resolve
from .segment import Segment, SentenceCache, limit_length, part_joiner, separator_text
from .terms import Placed, lost_terms, protect, restore, terms_in

if TYPE_CHECKING:
    from .causal_runner import CausalRunner
    from .runner import Runner

log = logging.getLogger(__name__)
R = TypeVar("R")

# What the watched decoder yields: (row, newly decided ids), or (row, None) when the row starts over
Decoded = tuple[int, list[int] | None]


@dataclass(frozen=True)
class _Part:
    """A sentence (an LLM's paragraph), or a part of one cut to fit the model's positions."""

    text: str
    ids: tuple[int, ...]
    placed: Placed = ()  # the glossary terms of the placeholders its ids hold, with their translations (terms.py)


@dataclass(frozen=True)
class _Outcome:
    """A part's translation as cached, or why there is none (the part then stands as it was)."""

    text: str
    failed: str | None = None  # a degenerate.* kind
    lost: tuple[str, ...] = ()  # glossary terms the model lost: the text is the part translated without them

    def text_for(self, part: _Part) -> str:
        if self.failed:
            return part.text.strip()
        if not part.placed or self.lost:
            return self.text
        return restore(self.text, part.placed)


class Translator:
    def __init__(self, pack: ModelPack, *, threads: int | None = None, cache_size: int = 4096):
        self.pack = pack
        self.family = pack.family
        self._runner: Runner | CausalRunner = self.family.open_runner(pack, threads)
        self.tokenizer = self.family.open_tokenizer(pack)
        self._cache: SentenceCache[_Outcome] = SentenceCache(cache_size)
        self.last_stats: dict[str, Any] = {"tokens": 0, "seconds": 0.0}
        keep_freed_memory()  # after loading, so what loading freed goes back to the system

    @classmethod
    def open(cls, path: str | Path, *, threads: int | None = None) -> Translator:
        """Open a pack; its checksums are verified while the sessions load, before this returns.

        Any error is a PackError naming the file: a damaged one (its checksum), or one that passes
        its checksum and still cannot be loaded.
        """
        pack = ModelPack.open(path, verify=False)
        # hashing and session creation both release the GIL: on two cores the check costs no time
        with ThreadPoolExecutor(max_workers=1) as pool:
            check = pool.submit(pack.verify)
            try:
                translator = cls(pack, threads=threads)
            finally:
                check.result()  # a damaged file is reported as such, even when loading failed on it
        return translator

    # --- what callers show ----------------------------------------------------------------------
    name = property(lambda self: self.pack.name)
    source_lang = property(lambda self: self.pack.source_lang)
    target_lang = property(lambda self: self.pack.target_lang)
    quantization = property(lambda self: self.pack.quantization)
    target_tokens = property(lambda self: self.pack.target_tokens)
    default_target = property(lambda self: self.pack.default_target)
    # many-to-many packs (mBART-50, M2M100, NLLB): the languages, in the model's codes; empty for Marian
    source_languages = property(lambda self: self.pack.source_languages)
    target_languages = property(lambda self: self.pack.target_languages)

    @property
    def runner(self) -> Runner | CausalRunner:  # by family
        """What runs the pack's graphs (benchmarks/llm_engines.py drives a decoder-only one directly)."""
        return self._runner

    @property
    def takes_context(self) -> bool:
        """Whether translate_results uses `contexts` (an LLM pack whose card has a context prompt)."""
        return self.family.takes_context(self.tokenizer)

    @property
    def takes_formatted(self) -> bool:
        """Whether translate_results takes texts marking their formatted spans <sn>…</sn> (`formatted`)."""
        return self.family.takes_formatted(self.tokenizer)

    @property
    def max_source_tokens(self) -> int:
        return self.family.max_source_tokens(self.pack)

    @property
    def max_summary_tokens(self) -> int:
        """The most tokens encode() may give for a text to summarize in one go (summary_stream)."""
        return self.family.max_summary_source_tokens(self.pack)

    # --- ids level: what the parity tests compare with generate() --------------------------------
    def languages(self, options: DecodeOptions | None) -> LanguageChoice:
        """The request's languages as the pack's family takes them; ValueError for one it does not offer, and
        for a summary asked of a pack that does not write them or a translation of one that only does."""
        if options is not None and options.summary and not self.pack.summarizes:
            raise ValueError(f"the model {self.pack.name} does not summarize")
        if not (options is not None and options.summary) and not self.pack.translates:
            raise ValueError(f"the model {self.pack.name} summarizes English texts; it does not translate")
        return self.family.choose(self.pack, options)

    def encode(self, text: str, options: DecodeOptions | None = None) -> list[int]:
        """A source's ids as the model reads them: with its language token, or the whole prompt of an LLM."""
        return self.family.encode(self.tokenizer, text, self.languages(options))

    def decode_ids(
        self,
        sources: list[list[int]],
        options: DecodeOptions | None = None,
        cancel: CancelToken | None = None,
        stop: Collection[int] = (),
        ranked: dict[int, list[list[int]]] | None = None,
    ) -> Generator[tuple[int, list[int]], None, list[list[int]]]:
        """Yields (row, newly decided ids) and returns each row's ids, the decoder start excluded.

        For many-to-many packs the first id is the target language token that `options` asks for.
        Rows the caller puts into `stop` while handling a yield end there (see search.py). A beam
        search puts each row's finished hypotheses into `ranked`, best first."""
        choice = self.languages(options)
        settings = resolve(self.pack, options, choice.forced_bos_id)
        state, settings = self.family.start(self._runner, self.tokenizer, choice, sources, settings)
        if settings.num_beams > 1:
            return (yield from search.beam(state, settings, cancel, stop, ranked))
        return (yield from search.greedy(state, settings, cancel, stop))

    def generate_ids(
        self, sources: list[list[int]], options: DecodeOptions | None = None, cancel: CancelToken | None = None
    ) -> list[list[int]]:
        """Exactly what generate() chooses: no watch for degeneration, no guard."""
        return _drain(self.decode_ids(sources, options, cancel))

    def summary_stream(
        self, text: str, options: DecodeOptions | None = None, cancel: CancelToken | None = None
    ) -> Iterator[str]:
        """The summary of the whole text as one source (a summary, unlike a translation, is not made sentence by
        sentence), streamed as it is decided; `options.summary` is set here. The text must fit
        max_summary_tokens (fanyi.summaries cuts a longer one); the search is generate()'s, unwatched."""
        options = dataclasses.replace(options or DecodeOptions(), summary=True)
        source = self.encode(text, options)
        if len(source) > self.max_summary_tokens:
            raise ValueError(f"the text is {len(source)} tokens, more than {self.max_summary_tokens} the model reads")
        streamer = self.family.stream_decoder(self.tokenizer)
        self.last_stats = {"tokens": 0, "seconds": 0.0}
        started = time.perf_counter()
        for _row, new_ids in self.decode_ids([source], options, cancel):
            self.last_stats["tokens"] += len(new_ids)
            if delta := streamer.push(new_ids):
                yield delta
        if rest := streamer.finish():
            yield rest
        self.last_stats["seconds"] = time.perf_counter() - started

    def summary_tokens(self, text: str, options: DecodeOptions | None = None) -> int:
        """How many of max_summary_tokens the text takes (its prompt, for an LLM)."""
        return len(self.encode(text, dataclasses.replace(options or DecodeOptions(), summary=True)))

    def sentence_check(
        self, source: Sequence[int], options: DecodeOptions | None = None, text: str | None = None
    ) -> SentenceCheck:
        """What the translation of one sentence's source ids (as encode() gives them) may look like; an
        LLM's prompt is more than its text, so its check is made from the text's own ids."""
        choice = self.languages(options)
        source = self.family.checked_ids(self.tokenizer, source, text)
        # the language tokens encode() adds (Marian's >>id<< first, the families' source language) are not text
        special = {self.tokenizer.eos_id, *(i for _token, i in self.pack.language_tokens.values())}
        if source and (self.tokenizer.id_to_piece(source[0]) or "").startswith(">>"):
            special.add(source[0])
        pieces = [self.tokenizer.id_to_piece(i) or "" for i in source if i not in special]
        ids = self.pack.special_ids
        return SentenceCheck.for_source(
            pieces, length_bound(choice.source_lang, choice.target_lang), ids.get("eos_all") or [ids["eos"]]
        )

    def forced_logits(self, source: list[int], prefix: list[int]) -> np.ndarray:
        """Decoder logits at every step when fed `prefix` (teacher forcing); [len(prefix), vocab]."""
        state = self._runner.encode([source], max_steps=len(prefix))
        # each step's logits live in a buffer the next step overwrites
        return np.stack([state.run(np.array([[tok]], dtype=np.int64)).logits[0].copy() for tok in prefix])

    # --- text level -----------------------------------------------------------------------------
    def _plan(
        self, text: str, options: DecodeOptions | None, context: str = "", formatted: bool = False
    ) -> tuple[list[Segment], list[list[_Part]]]:
        """Segments of the text, and for each piece to translate its parts: their ids with the glossary's
        terms in the prompt or placeholders in their place, and `context` and `formatted` where the pack
        takes them."""
        if not text.strip():
            return [], []
        choice = self.languages(options)
        glossary = options.glossary if options else ()
        terms_in_prompt = self.family.takes_terms(self.tokenizer)
        context = context[-limits.MAX_CONTEXT_CHARS :] if self.family.takes_context(self.tokenizer) else ""
        formatted = formatted and self.family.takes_formatted(self.tokenizer)

        def count(s: str) -> int:
            return len(self.family.encode(self.tokenizer, s, choice))

        def part(s: str) -> _Part:
            if glossary and not terms_in_prompt:
                protected, placed = protect(s, glossary)
                ids = self.family.encode(self.tokenizer, protected, choice, (), context, formatted)
                return _Part(s, tuple(ids), placed)
            terms = terms_in(s, glossary) if glossary else ()
            return _Part(s, tuple(self.family.encode(self.tokenizer, s, choice, terms, context, formatted)))

        pieces = self.family.split(text, choice.source_lang, self.max_source_tokens, count)
        parts = [
            [part(p) for p in limit_length(piece.text, self.max_source_tokens, count)]
            for piece in pieces
            if piece.translate
        ]
        return pieces, parts

    def _key(self, ids: tuple[int, ...], options: DecodeOptions | None) -> tuple[Path, DecodeOptions, tuple[int, ...]]:
        return (self.pack.path, options or DecodeOptions(), ids)

    def _render(
        self,
        pieces: list[Segment],
        parts: list[list[_Part]],
        outcomes: dict[tuple[int, ...], _Outcome],
        target_lang: str,
    ) -> Translation:
        groups = iter(parts)
        out: list[str] = []
        failures: list[Failure] = []
        lost: list[str] = []
        joiner = part_joiner(target_lang)
        for i, piece in enumerate(pieces):
            out.append(separator_text(pieces, i, target_lang))
            if piece.translate:
                group = next(groups)
                out.append(joiner.join(outcomes[part.ids].text_for(part) for part in group))
                failures += [
                    Failure(part.text.strip(), failed) for part in group if (failed := outcomes[part.ids].failed)
                ]
                lost += [term for part in group for term in outcomes[part.ids].lost]
        return Translation("".join(out), tuple(failures), tuple(dict.fromkeys(lost)))

    def translate_results(
        self,
        texts: list[str],
        options: DecodeOptions | None = None,
        progress: ProgressCallback | None = None,
        cancel: CancelToken | None = None,
        contexts: Sequence[str] | None = None,
        formatted: Sequence[bool] | None = None,
    ) -> list[Translation]:
        """Translate many texts; sentences are batched by length and each is translated once.

        Each result lists the sentences that could not be translated (they keep their source text).
        `contexts`: the text before each one (a document's previous paragraph), for packs that take it;
        `formatted`: whether each one marks its formatted spans <sn>…</sn>, for packs that take that (the
        translation, wrapped <target>…</target>, marks them back: documents/inline.py reads it)."""
        if options is not None and options.convert:  # decoded in Simplified, cached as such
            results = self.translate_results(
                texts, dataclasses.replace(options, convert=None), progress, cancel, contexts, formatted
            )
            return [dataclasses.replace(r, text=variants.convert(r.text, options.convert)) for r in results]
        started = time.perf_counter()
        self.last_stats = {"tokens": 0, "seconds": 0.0}
        plans = [
            self._plan(t, options, contexts[i] if contexts else "", bool(formatted and formatted[i]))
            for i, t in enumerate(texts)
        ]
        outcomes: dict[tuple[int, ...], _Outcome] = {}
        todo: dict[tuple[int, ...], _Part] = {}
        for part in (part for _, parts in plans for group in parts for part in group):
            if part.ids not in outcomes and part.ids not in todo:
                cached = self._cache.get(self._key(part.ids, options))
                if cached is None:
                    todo[part.ids] = part
                else:
                    outcomes[part.ids] = cached
        ordered = sorted(todo.values(), key=lambda part: len(part.ids))
        if progress:
            progress(0, len(ordered))
        size = self.family.batch_size
        for start in range(0, len(ordered), size):
            if cancel is not None:
                cancel.raise_if_cancelled()
            batch = ordered[start : start + size]
            decoded = self._terms_kept(batch, _drain(self._decode_checked(batch, options, cancel)), options, cancel)
            for part, outcome in zip(batch, decoded):
                outcomes[part.ids] = outcome
                self._cache.put(self._key(part.ids, options), outcome)
            if progress:
                progress(min(start + size, len(ordered)), len(ordered))
        self.last_stats["seconds"] = time.perf_counter() - started
        target_lang = self.languages(options).target_lang
        return [self._render(pieces, parts, outcomes, target_lang) for pieces, parts in plans]

    def translate_batch(
        self,
        texts: list[str],
        options: DecodeOptions | None = None,
        progress: ProgressCallback | None = None,
        cancel: CancelToken | None = None,
    ) -> list[str]:
        """translate_results without the failures: a failed sentence is there as it was in the source."""
        return [result.text for result in self.translate_results(texts, options, progress, cancel)]

    def translate(self, text: str, options: DecodeOptions | None = None, cancel: CancelToken | None = None) -> str:
        return self.translate_batch([text], options, cancel=cancel)[0]

    def translate_stream(
        self, text: str, options: DecodeOptions | None = None, cancel: CancelToken | None = None
    ) -> Iterator[StreamEvent]:
        """Yield the translation as it is decided: text pieces, and the events of results.py.

        Applying the events in order — append each piece, drop the last n characters at a Rewind(n) —
        gives exactly translate(text); the Failure events are translate_results' failures
        (Translation.collect does both). Without a degenerate sentence the stream is only text.
        A Rewind comes when a sentence being streamed turns out degenerate: it takes back that
        sentence's text, which is then streamed again from a guarded decode, or given up on (the
        source sentence, then a Failure).

        Separators are rendered from the layout alone and sentences from their tokens, by the same
        two functions translate_results uses, so the stream and the batch result cannot drift apart.
        """
        if options is not None and options.convert:
            unconverted = self.translate_stream(text, dataclasses.replace(options, convert=None), cancel)
            yield from convert_stream(unconverted, options.convert)
            return
        started = time.perf_counter()
        self.last_stats = {"tokens": 0, "seconds": 0.0}
        pieces, parts = self._plan(text, options)
        target_lang = self.languages(options).target_lang
        groups = iter(parts)
        for i, piece in enumerate(pieces):
            if sep := separator_text(pieces, i, target_lang):
                yield sep
            if not piece.translate:
                continue
            for j, part in enumerate(next(groups)):
                if j and (joiner := part_joiner(target_lang)):
                    yield joiner
                yield from self._stream_part(part, options, cancel)
        self.last_stats["seconds"] = time.perf_counter() - started

    def _stream_part(
        self, part: _Part, options: DecodeOptions | None, cancel: CancelToken | None
    ) -> Iterator[StreamEvent]:
        key = self._key(part.ids, options)
        outcome = self._cache.get(key)
        if outcome is None and part.placed:  # placeholders are put back at the end: no text before that
            outcome = self._terms_kept([part], _drain(self._decode_checked([part], options, cancel)), options, cancel)[
                0
            ]
            self._cache.put(key, outcome)
            if text := outcome.text_for(part):
                yield text
        elif outcome is None:
            outcome = yield from self._stream_decode(part, options, cancel)
            self._cache.put(key, outcome)
        elif text := outcome.text_for(part):
            yield text
        if outcome.failed:
            yield Failure(part.text.strip(), outcome.failed)
        for term in outcome.lost:
            yield TermLost(term)

    def _terms_kept(
        self, parts: list[_Part], outcomes: list[_Outcome], options: DecodeOptions | None, cancel: CancelToken | None
    ) -> list[_Outcome]:
        """The outcomes with every glossary placeholder come back whole: a part whose placeholder the model lost
        or split (its output would hold "ZX" where the term belongs) is translated again without placeholders,
        and its outcome names the terms lost."""
        again = {
            i: lost
            for i, (part, outcome) in enumerate(zip(parts, outcomes))
            if part.placed and not outcome.failed and (lost := lost_terms(outcome.text, part.placed, part.text))
        }
        if not again:
            return outcomes
        choice = self.languages(options)
        plain = [_Part(parts[i].text, tuple(self.family.encode(self.tokenizer, parts[i].text, choice))) for i in again]
        kept = list(outcomes)
        for (i, lost), outcome in zip(again.items(), _drain(self._decode_checked(plain, options, cancel))):
            log.info("the model broke the glossary placeholder of %s in %r: translated without it", lost, parts[i].text)
            kept[i] = dataclasses.replace(outcome, lost=lost)
        return kept

    def _stream_decode(
        self, part: _Part, options: DecodeOptions | None, cancel: CancelToken | None
    ) -> Generator[StreamEvent, None, _Outcome]:
        streamer = self.family.stream_decoder(self.tokenizer)
        shown = 0  # characters of this part streamed so far
        decoding = self._decode_checked([part], options, cancel)
        outcome: _Outcome
        while True:
            try:
                _row, new_ids = next(decoding)
            except StopIteration as done:
                (outcome,) = done.value
                break
            if new_ids is None:  # what was decided so far no longer counts: take back what was shown
                streamer.finish()
                if shown:
                    yield Rewind(shown)
                shown = 0
            elif delta := streamer.push(new_ids):
                shown += len(delta)
                yield delta
        if rest := (outcome.text_for(part) if outcome.failed else streamer.finish()):
            yield rest
        return outcome

    def _decode_checked(
        self, parts: list[_Part], options: DecodeOptions | None, cancel: CancelToken | None
    ) -> Generator[Decoded, None, list[_Outcome]]:
        """Decode parts as one batch; one that degenerates is decoded again alone with a guard, and
        fails (keeping its source text) when that degenerates too. Yields (row, new ids) as they are
        decided and (row, None) when what was yielded for a row no longer counts."""
        checks = [self.sentence_check(part.ids, options, part.text) for part in parts]
        results, findings = yield from self._watched(parts, options, checks, cancel, list(range(len(parts))))
        max_new_tokens = resolve(self.pack, options).max_length - 1
        outcomes = []
        for row, (part, ids, finding) in enumerate(zip(parts, results, findings)):
            if finding is not None:
                log.info("%s on %r; decoding it again with a repetition guard", REASONS[finding.kind], part.text)
                yield row, None
                guard = guarded(options, finding, checks[row].most_tokens, max_new_tokens)
                (ids,), (again,) = yield from self._watched([part], guard, [checks[row]], cancel, [row])
                if again is not None:
                    log.info(
                        "%s on %r, also with a repetition guard; left untranslated", REASONS[finding.kind], part.text
                    )
                    yield row, None
                    outcomes.append(_Outcome("", finding.kind))
                    continue
            outcomes.append(_Outcome(self.tokenizer.decode(ids)))
        return outcomes

    def _watched(
        self,
        parts: list[_Part],
        options: DecodeOptions | None,
        checks: list[SentenceCheck],
        cancel: CancelToken | None,
        rows: list[int],
    ) -> Generator[Decoded, None, tuple[list[list[int]], list[Finding | None]]]:
        """Decode, stopping a row as soon as its decided ids loop or run away; yields (rows[i], new ids)
        and returns each row's ids and what is wrong with them (None: nothing)."""
        decided: list[list[int]] = [[] for _ in parts]
        findings: list[Finding | None] = [None] * len(parts)
        stopped: set[int] = set()
        for i, new_ids in self.decode_ids([list(p.ids) for p in parts], options, cancel, stopped):
            checked = len(decided[i])
            decided[i] += new_ids
            self.last_stats["tokens"] += len(new_ids)
            yield rows[i], new_ids
            if (finding := checks[i].runaway(decided[i], checked)) is not None:
                findings[i] = finding
                stopped.add(i)
        for i, ids in enumerate(decided):
            if findings[i] is None:
                findings[i] = checks[i].verdict(ids, self.tokenizer.decode(ids))
        return decided, findings

    def alternatives(
        self, text: str, count: int, options: DecodeOptions | None = None, cancel: CancelToken | None = None
    ) -> list[str]:
        """Up to ``count`` other translations of ``text`` from the beam's n-best, best first: the k-th
        has each sentence's k-th best hypothesis (its best where the beam finished fewer).

        The beam is widened to at least count + 1. They are offered beside the translation, which
        translate() guards; these are not watched for degeneration, nor cached. Decoder-only (LLM)
        packs decode greedily and have none.
        """
        if self.family.decoder_only:  # greedy: there is no n-best
            return []
        pieces, parts = self._plan(text, options)
        unique = list(dict.fromkeys(part.ids for group in parts for part in group))
        beams = min(max(resolve(self.pack, options).num_beams, count + 1), limits.MAX_BEAMS)
        wide = dataclasses.replace(options or DecodeOptions(), beams=beams)
        ranked: dict[tuple[int, ...], list[list[int]]] = {}
        size = self.family.batch_size
        for start in range(0, len(unique), size):
            batch = unique[start : start + size]
            found: dict[int, list[list[int]]] = {}
            _drain(self.decode_ids([list(ids) for ids in batch], wide, cancel, ranked=found))
            ranked.update((ids, found.get(row, [])) for row, ids in enumerate(batch))
        target_lang = self.languages(options).target_lang
        texts: list[str] = []
        for k in range(1, count + 1):
            outcomes = {
                ids: _Outcome(self.tokenizer.decode(found[min(k, len(found) - 1)])) if found else _Outcome("", EMPTY)
                for ids, found in ranked.items()
            }
            texts.append(self._render(pieces, parts, outcomes, target_lang).text)
        return list(dict.fromkeys(texts))

    def chat(
        self, messages: Sequence[dict[str, Any]], max_new_tokens: int, cancel: CancelToken | None = None
    ) -> Iterator[str]:
        """A chat client's conversation answered through the pack's own chat template, greedily, streamed as
        text (the pack's strip rule applied, as to a translation): decoder-only packs only (ValueError for
        others and for a conversation longer than the model's positions; PromptError for messages the
        template cannot render). Afterwards ``last_stats`` holds the prompt's and the answer's token counts
        (``prompt_tokens``, ``tokens``) and whether the answer stopped at ``max_new_tokens`` (``truncated``)."""
        if not self.family.decoder_only:
            raise ValueError(f"{self.name} is a translation model, not a chat model")
        started = time.perf_counter()
        ids = self.tokenizer.encode_text(self.tokenizer.prompts.conversation(list(messages)))
        room = int(self.pack.architecture["max_positions"]) - len(ids)
        if room < 1:
            raise ValueError(
                f"the conversation takes {len(ids)} tokens, more than the model's "
                f"{self.pack.architecture['max_positions']} positions"
            )
        wanted = max(1, min(max_new_tokens, room))
        settings = dataclasses.replace(resolve(self.pack, None), num_beams=1, max_length=wanted + 1)
        runner: Any = self._runner  # decoder-only: a CausalRunner, whose state the search drives as the families do
        state = runner.encode([ids], 1, wanted)
        streamer = self.family.stream_decoder(self.tokenizer)
        stats: dict[str, Any] = {"prompt_tokens": len(ids), "tokens": 0, "seconds": 0.0, "truncated": False}
        self.last_stats = stats
        decided: list[int] = []
        for _row, new_ids in search.greedy(state, settings, cancel):
            decided += new_ids
            if delta := streamer.push(new_ids):
                yield delta
        if rest := streamer.finish():
            yield rest
        stats["tokens"] = len(decided)
        stats["truncated"] = len(decided) >= wanted and decided[-1] not in settings.eos_ids
        stats["seconds"] = time.perf_counter() - started

    def clear_cache(self) -> None:
        self._cache.clear()


def _drain(gen: Generator[Any, None, R]) -> R:
    """Run a generator to its end and return its return value."""
    while True:
        try:
            next(gen)
        except StopIteration as done:
            value: R = done.value
            return value
