"""Telling a degenerate translation from a real one, by its token ids and its source's.

MarianMT models, opus-mt-en-zh among them, sometimes loop on a sentence — one word repeated hundreds
of times, "男性 男性" for "Man", "(掌声) (掌声) …" — or return nothing for it. A translation is
degenerate when it shows one of three signs, each measured against what its source warrants:

- a loop: a unit of up to MAX_PERIOD tokens repeated back to back MIN_COPIES times or more (one more
  for a single token, which real text doubles and triples: "谢谢", "very very"), or the whole
  translation being one unit said twice or more ("男性 男性"). A source that repeats itself
  ("ha ha ha ha") allows its translation twice as many copies as it has;
- a runaway: more tokens than the source warrants in this direction (LENGTH_BOUNDS);
- nothing: an empty translation of a sentence with letters in it (Translator never decodes others).

A loop anywhere and a runaway are monotone: once a prefix of a translation shows them, every longer
translation does. So a search can stop a sentence as soon as its decided prefix shows them, and a
sentence gets the same verdict streamed, batched or alone.

The Translator decodes such a sentence again with a guard (`guarded`): a no-repeat n-gram rule, a
repetition penalty, a length cap just past the bound and at least one token. Under a 3-gram rule no
unit repeats often enough to count as a loop (3 copies of one token, 2 of a pair, 1 of anything
longer), so a guarded translation fails only when it runs past the cap, comes back empty, or is
still one unit said over ("男性 男性 男性"); only then is the sentence given up on.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace

from ..languages import is_cjk_language
from .options import DecodeOptions

LOOP, RUNAWAY, EMPTY = "loop", "runaway", "empty"
# not a model's: an English sentence in Chinese text that is written anew with no model (fanyi.rewriter)
NO_MODEL = "no model"
REASONS = {
    LOOP: "the model kept repeating itself",
    RUNAWAY: "the model's output ran far longer than the source",
    EMPTY: "the model returned nothing",
    NO_MODEL: "it is English in Chinese text, and no model was there to translate it",
}

MAX_PERIOD = 16  # longest repeated unit looked for, in tokens ("I don't know, " is 5 or 6)
MIN_COPIES = 3  # copies of a unit of two or more tokens that make a loop; a single token needs one more
GUARD_NGRAM = 3  # the re-decode's no_repeat_ngram_size, the value fairseq and Hugging Face suggest
GUARD_REPETITION_PENALTY = 1.2  # and its repetition penalty, the value of the paper that introduced it (CTRL)


@dataclass(frozen=True)
class LengthBound:
    """The most target tokens a translation of `source` tokens may take: ratio × source + slack."""

    ratio: float
    # for short sources, where one word can become a phrase ("Man" → "男人", "画蛇添足" → "to draw legs on a snake")
    slack: int

    def most(self, source_tokens: int) -> int:
        return math.ceil(self.ratio * source_tokens) + self.slack


# By direction: (source written without spaces, target written without spaces) → bound. Tokens are
# counted without special tokens. In OPUS-MT's SentencePiece vocabularies an English word is about 1.3
# pieces and a Chinese word (one or two characters) about one, so a faithful en→zh translation takes
# roughly 0.8 target tokens per source token and zh→en roughly 1.3 (estimates, not measured on real
# packs here). The bounds are three times that: far above any real translation, far below where a
# loop stops (max_length, 512 tokens for opus-mt-en-zh).
LENGTH_BOUNDS = {
    (False, True): LengthBound(2.5, 10),  # en → zh
    (True, False): LengthBound(4.0, 10),  # zh → en
}
SAME_KIND_BOUND = LengthBound(3.0, 10)  # en → de, zh → ja, …


def length_bound(source_lang: str, target_lang: str) -> LengthBound:
    return LENGTH_BOUNDS.get((is_cjk_language(source_lang), is_cjk_language(target_lang)), SAME_KIND_BOUND)


@dataclass(frozen=True)
class Finding:
    """A sign of degeneration, and the no_repeat_ngram_size of its re-decode (short enough to rule
    out a repeated whole translation)."""

    kind: str  # LOOP, RUNAWAY or EMPTY
    ngram: int = GUARD_NGRAM


def copies_ending_at(items: Sequence[Hashable], end: int, period: int, enough: int) -> int:
    """How many copies of items[end - period:end] stand back to back ending at `end` (counting stops at `enough`)."""
    if period > end:
        return 0
    unit = items[end - period : end]
    copies = 1
    while copies < enough and (start := end - (copies + 1) * period) >= 0 and items[start : start + period] == unit:
        copies += 1
    return copies


def longest_run(items: Sequence[Hashable]) -> int:
    """The most copies of any unit (up to MAX_PERIOD long) standing back to back anywhere in `items`."""
    best = 1 if items else 0
    for end in range(2, len(items) + 1):
        for period in range(1, min(MAX_PERIOD, end // 2) + 1):
            best = max(best, copies_ending_at(items, end, period, len(items)))
    return best


def loop_threshold(period: int, source_run: int) -> int:
    """Copies of a unit of `period` tokens that make a loop, for a source repeating itself `source_run` times."""
    return max(MIN_COPIES + (period == 1), 2 * source_run)


def whole_repetition(ids: Sequence[int]) -> tuple[int, int]:
    """(period, copies) when `ids` is one unit said `copies` ≥ 2 times, the shortest such unit; else (0, 0)."""
    n = len(ids)
    for period in range(1, n // 2 + 1):
        if n % period == 0 and list(ids[:period]) * (n // period) == list(ids):
            return period, n // period
    return 0, 0


@dataclass(frozen=True)
class SentenceCheck:
    """What the translation of one source sentence may look like. Target ids are passed without the
    decoder start; a final end-of-sentence id is not counted."""

    most_tokens: int
    source_run: int
    eos_ids: frozenset[int]

    @classmethod
    def for_source(cls, source: Sequence[str], bound: LengthBound, eos_ids: Sequence[int]) -> SentenceCheck:
        """`source`: the sentence's SentencePiece pieces, without special tokens."""
        # "Ha ha" is the pieces ▁Ha ▁ha: a source repeats a word whatever its case or place
        normalized = [piece.lstrip("▁").casefold() for piece in source]
        return cls(bound.most(len(source)), longest_run(normalized), frozenset(eos_ids))

    def _length(self, ids: Sequence[int]) -> int:
        return len(ids) - 1 if ids and ids[-1] in self.eos_ids else len(ids)

    def runaway(self, ids: Sequence[int], checked: int = 0) -> Finding | None:
        """A loop or too many tokens in `ids`, of which the first `checked` were found clean before
        (a decoder hands them over a few at a time; only the ends of what is new are looked at)."""
        for end in range(checked + 1, self._length(ids) + 1):  # the earliest sign wins, however ids arrive
            if end > self.most_tokens:
                return Finding(RUNAWAY)
            for period in range(1, min(MAX_PERIOD, end // 2) + 1):
                enough = loop_threshold(period, self.source_run)
                if period * enough <= end and copies_ending_at(ids, end, period, enough) >= enough:
                    return Finding(LOOP)
        return None

    def verdict(self, ids: Sequence[int], text: str) -> Finding | None:
        """The complete translation `ids`, decoded to `text`: degenerate or not."""
        if finding := self.runaway(ids):
            return finding
        if not text.strip():
            return Finding(EMPTY)
        period, copies = whole_repetition(ids[: self._length(ids)])
        if copies > self.source_run:
            return Finding(LOOP, min(GUARD_NGRAM, period))  # "男性 男性": the unit may not come twice
        return None


def guarded(options: DecodeOptions | None, finding: Finding, most_tokens: int, max_new_tokens: int) -> DecodeOptions:
    """The options of a re-decode: the caller's, with a no-repeat n-gram rule that rules out what was
    found, a repetition penalty that steers away from the tokens the loop was made of, at most one
    token past the length bound (so a runaway shows as one), and at least one token."""
    o = options or DecodeOptions()
    return replace(
        o,
        no_repeat_ngram_size=min(o.no_repeat_ngram_size or finding.ngram, finding.ngram),
        repetition_penalty=max(o.repetition_penalty or 1.0, GUARD_REPETITION_PENALTY),
        min_length=max(o.min_length or 0, 2),
        max_length=None,
        max_new_tokens=max(1, min(most_tokens + 2, max_new_tokens)),
    )
