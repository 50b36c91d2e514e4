"""Logits rules, one small object each, applied in the order transformers' `generate()` applies them.

A rule sees the token ids so far ([rows, length], the decoder start included) and a `Candidates`
table — the scores of some token ids of each row — and returns the new scores of those cells.
Greedy search applies the rules to raw logits, beam search to log-probabilities, exactly as
transformers 4.57 does; matching its arithmetic keeps token ids equal.

Why candidates rather than the whole vocabulary: the decoder hands over each row's few best
tokens, and the rules can only lower a score or raise an end-of-sentence token, which is always a
candidate (the two exceptions, `Renormalize` and a repetition "penalty" below 1, ask for the whole
vocabulary). So a token outside the table can never beat its row's weakest candidate, and the
search can check whether the table was wide enough (see search.py).
The whole vocabulary is the same table with every id in it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

NEG_INF = np.float32(-np.inf)


@dataclass(frozen=True)
class Candidates:
    """Scores [rows, width] of token ids [rows, width]; `dense` means column j holds token j."""

    ids: np.ndarray
    scores: np.ndarray
    dense: bool = False

    @classmethod
    def full(cls, scores: np.ndarray) -> Candidates:
        ids = np.broadcast_to(np.arange(scores.shape[1]), scores.shape)
        return cls(ids, scores, dense=True)

    def holding(self, tokens: Sequence[int]) -> np.ndarray:
        """Boolean [rows, width]: the cells whose token is one of `tokens` (the same for every row)."""
        if self.dense:
            mask = np.zeros(self.scores.shape, bool)
            mask[:, list(tokens)] = True
            return mask
        return among(self.ids, tokens)

    def holding_per_row(self, tokens: Sequence[Sequence[int] | np.ndarray]) -> np.ndarray:
        """Boolean [rows, width]: the cells whose token is one of that row's `tokens[row]`."""
        mask = np.zeros(self.scores.shape, bool)
        for row, wanted in enumerate(tokens):
            if len(wanted):
                if self.dense:
                    mask[row, list(wanted)] = True
                else:
                    mask[row] = np.isin(self.ids[row], wanted)
        return mask

    def with_scores(self, scores: np.ndarray) -> Candidates:
        return Candidates(self.ids, scores, self.dense)


# A logits rule: new scores for the candidates. Some also say when they rule out every other token (closes)
# or that they need every token as a candidate (needs_whole_vocabulary).
Rule = Callable[[np.ndarray, Candidates], np.ndarray]


@dataclass(frozen=True)
class RepetitionPenalty:
    penalty: float

    @property
    def needs_whole_vocabulary(self) -> bool:
        return self.penalty < 1.0  # it then raises the tokens already used, which may be outside the table

    def __call__(self, ids: np.ndarray, cand: Candidates) -> np.ndarray:
        seen = cand.holding_per_row([np.unique(row) for row in ids])
        penalty = np.float32(self.penalty)
        s = cand.scores
        return np.where(seen, np.where(s < 0, s * penalty, s / penalty), s)


@dataclass(frozen=True)
class NoRepeatNGram:
    size: int

    def __call__(self, ids: np.ndarray, cand: Candidates) -> np.ndarray:
        length = ids.shape[1]
        if length + 1 < self.size:
            return cand.scores
        n = self.size
        banned = []
        for seq in ids.tolist():
            prefix = tuple(seq[length + 1 - n : length])
            banned.append([seq[i + n - 1] for i in range(length - n + 1) if tuple(seq[i : i + n - 1]) == prefix])
        return np.where(cand.holding_per_row(banned), NEG_INF, cand.scores)


@dataclass(frozen=True)
class NoBadWords:
    """Bans single tokens always and a multi-token sequence's last token after its prefix."""

    sequences: tuple[tuple[int, ...], ...]

    @classmethod
    def build(cls, bad_words_ids: Sequence[Sequence[int]], eos_ids: Sequence[int]) -> NoBadWords:
        # generate() never bans a bare end-of-sentence token, even when asked to
        kept = tuple(tuple(s) for s in bad_words_ids if all(list(s) != [e] for e in eos_ids))
        return cls(kept)

    def __call__(self, ids: np.ndarray, cand: Candidates) -> np.ndarray:
        singles = [seq[0] for seq in self.sequences if len(seq) == 1]
        banned = cand.holding(singles) if singles else np.zeros(cand.scores.shape, bool)
        per_row: list[list[int]] = [[] for _ in range(ids.shape[0])]
        for seq in self.sequences:
            if 1 < len(seq) <= ids.shape[1]:
                prefix = np.asarray(seq[:-1], dtype=ids.dtype)
                for row in np.flatnonzero(np.all(ids[:, -len(prefix) :] == prefix, axis=1)):
                    per_row[row].append(seq[-1])
        if any(per_row):
            banned |= cand.holding_per_row(per_row)
        return np.where(banned, NEG_INF, cand.scores)


@dataclass(frozen=True)
class MinLength:
    min_length: int
    eos_ids: tuple[int, ...]

    def __call__(self, ids: np.ndarray, cand: Candidates) -> np.ndarray:
        if ids.shape[1] >= self.min_length:
            return cand.scores
        return np.where(cand.holding(self.eos_ids), NEG_INF, cand.scores)


@dataclass(frozen=True)
class ForcedEos:
    """At the last allowed position only the end-of-sentence token remains possible."""

    max_length: int
    eos_ids: tuple[int, ...]

    def closes(self, ids: np.ndarray) -> bool:
        """At this step every token but end-of-sentence (always a candidate) is ruled out."""
        return bool(ids.shape[1] == self.max_length - 1)

    def __call__(self, ids: np.ndarray, cand: Candidates) -> np.ndarray:
        if not self.closes(ids):
            return cand.scores
        scores: np.ndarray = np.where(cand.holding(self.eos_ids), np.float32(0), NEG_INF).astype(np.float32)
        return scores


@dataclass(frozen=True)
class ForcedBos:
    """At the first step only `token_id` remains possible (the target language of mBART-50, M2M100, NLLB)."""

    token_id: int

    def closes(self, ids: np.ndarray) -> bool:
        return bool(ids.shape[1] == 1)

    def __call__(self, ids: np.ndarray, cand: Candidates) -> np.ndarray:
        if not self.closes(ids):
            return cand.scores
        scores: np.ndarray = np.where(cand.holding((self.token_id,)), np.float32(0), NEG_INF).astype(np.float32)
        return scores


@dataclass(frozen=True)
class Renormalize:
    needs_whole_vocabulary = True  # a normalisation cannot be computed from a few candidates

    def __call__(self, ids: np.ndarray, cand: Candidates) -> np.ndarray:
        return log_softmax(cand.scores)


def among(ids: np.ndarray, tokens: Sequence[int] | np.ndarray) -> np.ndarray:
    """np.isin(ids, tokens), faster for the few tokens a rule names (eos, pad): one comparison each."""
    tokens = np.asarray(tokens)
    if tokens.size > 8:
        return np.isin(ids, tokens)
    found = np.zeros(ids.shape, bool)
    for token in tokens.reshape(-1).tolist():
        found |= ids == token
    return found


def log_softmax(x: np.ndarray) -> np.ndarray:
    shifted = x - x.max(axis=-1, keepdims=True)
    out: np.ndarray = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return out


def build_processors(
    *,
    repetition_penalty: float | None,
    no_repeat_ngram_size: int | None,
    bad_words_ids: Sequence[Sequence[int]],
    min_length: int | None,
    forced_eos_token_id: int | Sequence[int] | None,
    max_length: int,
    renormalize: bool,
    eos_ids: Sequence[int],
    forced_bos_token_id: int | None = None,
) -> list[Rule]:
    rules: list[Rule] = []
    if repetition_penalty is not None and repetition_penalty != 1.0:
        rules.append(RepetitionPenalty(repetition_penalty))
    if no_repeat_ngram_size:
        rules.append(NoRepeatNGram(no_repeat_ngram_size))
    if bad_words_ids:
        rules.append(NoBadWords.build(bad_words_ids, eos_ids))
    if min_length:
        rules.append(MinLength(min_length, tuple(eos_ids)))
    if forced_bos_token_id is not None:
        rules.append(ForcedBos(forced_bos_token_id))
    if forced_eos_token_id is not None:
        forced = (forced_eos_token_id,) if isinstance(forced_eos_token_id, int) else tuple(forced_eos_token_id)
        rules.append(ForcedEos(max_length, forced))
    if renormalize:
        rules.append(Renormalize())
    return rules


def closed(rules: Sequence[Rule], ids: np.ndarray) -> bool:
    """Whether a rule rules out every token outside the candidates at this step."""
    return any(rule.closes(ids) for rule in rules if hasattr(rule, "closes"))


def needs_whole_vocabulary(rules: Sequence[Rule]) -> bool:
    return any(getattr(rule, "needs_whole_vocabulary", False) for rule in rules)


def apply(rules: Sequence[Rule], ids: np.ndarray, cand: Candidates) -> np.ndarray:
    for rule in rules:
        cand = cand.with_scores(rule(ids, cand))
    return cand.scores
