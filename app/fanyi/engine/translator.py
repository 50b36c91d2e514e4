"""Translator: text in, text out, streamed or batched, over a verified model pack.

Text is split into sentences (layout kept as untranslated separator pieces), long sentences are cut
to fit the model's positions, each part is translated once and cached, and the result is re-joined
the way the target language writes (no spaces between Chinese sentences).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from . import search
from .allocator import keep_freed_memory
from .detok import StreamDecoder
from .language_choice import LanguageChoice, choose
from .options import CancelToken, DecodeOptions
from .pack import ModelPack
from .pack_tokenizer import open_tokenizer
from .runner import Runner
from .segment import Piece, SentenceCache, limit_length, part_joiner, separator_text, split_text
from .settings import resolve

Progress = Callable[[int, int], None]
BATCH_SIZE = 16


class Translator:
    def __init__(self, pack: ModelPack, *, threads: int | None = None, cache_size: int = 4096):
        self.pack = pack
        self._runner = Runner(pack, threads)
        self.tokenizer = open_tokenizer(pack)
        self._cache = SentenceCache(cache_size)
        self.last_stats: dict = {"tokens": 0, "seconds": 0.0}
        keep_freed_memory()  # after loading, so what loading freed goes back to the system

    @classmethod
    def open(cls, path: str | Path, *, threads: int | None = None) -> "Translator":
        """Open a pack; its checksums are verified while the sessions load, before this returns."""
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
    def max_source_tokens(self) -> int:
        return int(self.pack.architecture["max_positions"])

    # --- ids level: what the parity tests compare with generate() --------------------------------
    def languages(self, options: DecodeOptions | None) -> LanguageChoice:
        """The request's languages as the pack's family takes them; ValueError for one it does not offer."""
        return choose(self.pack, options)

    def encode(self, text: str, options: DecodeOptions | None = None) -> list[int]:
        return self.tokenizer.encode(text, self.languages(options).source_token)

    def decode_ids(self, sources: list[list[int]], options: DecodeOptions | None = None,
                   cancel: CancelToken | None = None) -> Iterator[tuple[int, list[int]]]:
        """Yields (row, newly decided ids) and returns each row's ids, the decoder start excluded.

        For many-to-many packs the first id is the target language token that `options` asks for.
        """
        settings = resolve(self.pack, options, self.languages(options).forced_bos_id)
        state = self._runner.encode(sources)
        run = search.beam if settings.num_beams > 1 else search.greedy
        return (yield from run(state, settings, cancel))

    def generate_ids(self, sources: list[list[int]], options: DecodeOptions | None = None,
                     cancel: CancelToken | None = None) -> list[list[int]]:
        gen = self.decode_ids(sources, options, cancel)
        while True:
            try:
                next(gen)
            except StopIteration as done:
                return done.value

    def forced_logits(self, source: list[int], prefix: list[int]) -> np.ndarray:
        """Decoder logits at every step when fed `prefix` (teacher forcing); [len(prefix), vocab]."""
        state = self._runner.encode([source])
        return np.stack([state.run(np.array([[tok]], dtype=np.int64)).logits[0] for tok in prefix])

    # --- text level -----------------------------------------------------------------------------
    def _plan(self, text: str, options: DecodeOptions | None) -> tuple[list[Piece], list[list[list[int]]]]:
        """Pieces of the text, and for each piece to translate the token ids of its parts."""
        if not text.strip():
            return [], []
        choice = self.languages(options)
        pieces = split_text(text, source_lang=choice.source_lang)
        token = choice.source_token

        def count(s: str) -> int:
            return len(self.tokenizer.encode(s, token))

        parts = [[self.tokenizer.encode(part, token)
                  for part in limit_length(p.text, self.max_source_tokens, count)]
                 for p in pieces if p.translate]
        return pieces, parts

    def _key(self, ids: list[int], options: DecodeOptions | None) -> tuple:
        return (self.pack.path, options or DecodeOptions(), tuple(ids))

    def _render(self, pieces: list[Piece], parts: list[list[list[int]]], options) -> str:
        groups = iter(parts)
        out = []
        target_lang = self.languages(options).target_lang
        joiner = part_joiner(target_lang)
        for i, piece in enumerate(pieces):
            out.append(separator_text(pieces, i, target_lang))
            if piece.translate:
                out.append(joiner.join(self._cache.get(self._key(ids, options)) for ids in next(groups)))
        return "".join(out)

    def translate_batch(self, texts: list[str], options: DecodeOptions | None = None,
                        progress: Progress | None = None, cancel: CancelToken | None = None) -> list[str]:
        """Translate many texts; sentences are batched by length and each is translated once."""
        started, tokens = time.perf_counter(), 0
        plans = [self._plan(t, options) for t in texts]
        todo = {tuple(ids) for _, parts in plans for group in parts for ids in group
                if self._cache.get(self._key(ids, options)) is None}
        ordered = sorted(todo, key=len)
        if progress:
            progress(0, len(ordered))
        for start in range(0, len(ordered), BATCH_SIZE):
            if cancel is not None:
                cancel.raise_if_cancelled()
            batch = [list(ids) for ids in ordered[start:start + BATCH_SIZE]]
            for ids, out in zip(batch, self.generate_ids(batch, options, cancel)):
                tokens += len(out)
                self._cache.put(self._key(ids, options), self.tokenizer.decode(out))
            if progress:
                progress(min(start + BATCH_SIZE, len(ordered)), len(ordered))
        self.last_stats = {"tokens": tokens, "seconds": time.perf_counter() - started}
        return [self._render(pieces, parts, options) for pieces, parts in plans]

    def translate(self, text: str, options: DecodeOptions | None = None, cancel: CancelToken | None = None) -> str:
        return self.translate_batch([text], options, cancel=cancel)[0]

    def translate_stream(self, text: str, options: DecodeOptions | None = None,
                         cancel: CancelToken | None = None) -> Iterator[str]:
        """Yield the translation as it is decided; the pieces concatenate to translate(text).

        Separators are rendered from the layout alone and sentences from their tokens, by the same
        two functions translate_batch uses, so the stream and the batch result cannot drift apart.
        """
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
            for j, ids in enumerate(next(groups)):
                if j and (joiner := part_joiner(target_lang)):
                    yield joiner
                yield from self._stream_part(ids, options, cancel)
        self.last_stats["seconds"] = time.perf_counter() - started

    def _stream_part(self, ids: list[int], options: DecodeOptions | None, cancel: CancelToken | None) -> Iterator[str]:
        key = self._key(ids, options)
        cached = self._cache.get(key)
        if cached is not None:
            if cached:
                yield cached
            return
        streamer = StreamDecoder(self.tokenizer)
        decided: list[int] = []
        for _row, new_ids in self.decode_ids([ids], options, cancel):
            decided += new_ids
            if delta := streamer.push(new_ids):
                yield delta
        if rest := streamer.finish():
            yield rest
        self.last_stats["tokens"] += len(decided)
        self._cache.put(key, self.tokenizer.decode(decided))

    def clear_cache(self) -> None:
        self._cache.clear()
