"""Logits rules, one small object each, applied in the order transformers' `generate()` applies them.

Each rule takes the token ids so far ([rows, length], the decoder start included) and the scores
([rows, vocab] float32) and returns new scores. Greedy search applies them to raw logits, beam search
to log-probabilities, exactly as transformers 4.57 does; matching its arithmetic keeps token ids equal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

NEG_INF = np.float32(-np.inf)


@dataclass(frozen=True)
class RepetitionPenalty:
    penalty: float

    def __call__(self, ids: np.ndarray, scores: np.ndarray) -> np.ndarray:
        picked = np.take_along_axis(scores, ids, axis=1)
        penalty = np.float32(self.penalty)
        picked = np.where(picked < 0, picked * penalty, picked / penalty)
        out = scores.copy()
        np.put_along_axis(out, ids, picked, axis=1)
        return out


@dataclass(frozen=True)
class NoRepeatNGram:
    size: int

    def __call__(self, ids: np.ndarray, scores: np.ndarray) -> np.ndarray:
        length = ids.shape[1]
        if length + 1 < self.size:
            return scores
        out = scores.copy()
        n = self.size
        for row, seq in enumerate(ids.tolist()):
            prefix = tuple(seq[length + 1 - n:length])
            banned = [seq[i + n - 1] for i in range(length - n + 1) if tuple(seq[i:i + n - 1]) == prefix]
            if banned:
                out[row, banned] = NEG_INF
        return out


@dataclass(frozen=True)
class NoBadWords:
    """Bans single tokens always and a multi-token sequence's last token after its prefix."""

    sequences: tuple[tuple[int, ...], ...]

    @classmethod
    def build(cls, bad_words_ids: Sequence[Sequence[int]], eos_ids: Sequence[int]) -> "NoBadWords":
        # generate() never bans a bare end-of-sentence token, even when asked to
        kept = tuple(tuple(s) for s in bad_words_ids if all(list(s) != [e] for e in eos_ids))
        return cls(kept)

    def __call__(self, ids: np.ndarray, scores: np.ndarray) -> np.ndarray:
        bias = np.zeros_like(scores)
        for seq in self.sequences:
            if len(seq) == 1:
                bias[:, seq[0]] += NEG_INF
            elif len(seq) <= ids.shape[1]:
                prefix = np.asarray(seq[:-1], dtype=ids.dtype)
                matching = np.all(ids[:, -len(prefix):] == prefix, axis=1)
                bias[matching, seq[-1]] += NEG_INF
        return scores + bias


@dataclass(frozen=True)
class MinLength:
    min_length: int
    eos_ids: tuple[int, ...]

    def __call__(self, ids: np.ndarray, scores: np.ndarray) -> np.ndarray:
        if ids.shape[1] >= self.min_length:
            return scores
        out = scores.copy()
        out[:, list(self.eos_ids)] = NEG_INF
        return out


@dataclass(frozen=True)
class ForcedEos:
    """At the last allowed position only the end-of-sentence token remains possible."""

    max_length: int
    eos_ids: tuple[int, ...]

    def __call__(self, ids: np.ndarray, scores: np.ndarray) -> np.ndarray:
        if ids.shape[1] != self.max_length - 1:
            return scores
        out = np.full_like(scores, NEG_INF)
        out[:, list(self.eos_ids)] = 0
        return out


@dataclass(frozen=True)
class Renormalize:
    def __call__(self, ids: np.ndarray, scores: np.ndarray) -> np.ndarray:
        return log_softmax(scores)


def log_softmax(x: np.ndarray) -> np.ndarray:
    shifted = x - x.max(axis=-1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))


def build_processors(*, repetition_penalty: float | None, no_repeat_ngram_size: int | None,
                     bad_words_ids: Sequence[Sequence[int]], min_length: int | None,
                     forced_eos_token_id: int | Sequence[int] | None, max_length: int,
                     renormalize: bool, eos_ids: Sequence[int]) -> list:
    rules: list = []
    if repetition_penalty is not None and repetition_penalty != 1.0:
        rules.append(RepetitionPenalty(repetition_penalty))
    if no_repeat_ngram_size:
        rules.append(NoRepeatNGram(no_repeat_ngram_size))
    if bad_words_ids:
        rules.append(NoBadWords.build(bad_words_ids, eos_ids))
    if min_length:
        rules.append(MinLength(min_length, tuple(eos_ids)))
    if forced_eos_token_id is not None:
        forced = (forced_eos_token_id,) if isinstance(forced_eos_token_id, int) else tuple(forced_eos_token_id)
        rules.append(ForcedEos(max_length, forced))
    if renormalize:
        rules.append(Renormalize())
    return rules


def apply(rules: list, ids: np.ndarray, scores: np.ndarray) -> np.ndarray:
    for rule in rules:
        scores = rule(ids, scores)
    return scores
