"""Greedy and beam search over the one-step decoder with its key/value cache.

The arithmetic follows transformers 4.57 `generate()` step for step (float32 scores, the -1e9
sentinels, the length penalty and early-stopping heuristic), so an fp32 pack chooses the same
token ids. Rows are independent, so a row whose search is over is dropped from the batch.

Both searches are generators: they yield (row, ids) each time more tokens of a row are decided —
greedy every step, beam search when the prefix shared by every hypothesis that can still win grows —
and return the final id lists (without the decoder start token). A caller may put a row into `stop`
while handling a yield (its translation is degenerate, see degenerate.py): the row is dropped before
the next step, and its result is what was yielded for it.

Each step scores only a few candidates per row: the decoder's top ids plus the end-of-sentence
tokens. The logits rules never raise any other token (see processors.py), so a token outside the
table scores at most its row's weakest candidate; when the chosen tokens beat that bound the step
is exactly what scoring the whole vocabulary gives, and otherwise the step is redone on the whole
vocabulary. Sorting 65k scores per row in numpy cost more than the decoder step it followed.
"""

from __future__ import annotations

from collections.abc import Collection, Generator
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from ..cancel import CancelToken
from . import processors as proc

SENTINEL = np.float32(-1.0e9)
Decided = tuple[int, list[int]]
SPARE_CANDIDATES = 8  # room for tokens the rules ban (pad, repeated n-grams) without leaving the table


@dataclass
class StepOutput:
    """What one decoder step returns for every row."""

    logits: np.ndarray  # [rows, vocab]
    log_probs: np.ndarray | None  # [rows, vocab] when the step was asked for them (beam search)
    top_ids: np.ndarray  # [rows, top_k] ids of the largest logits, best first


@dataclass(frozen=True)
class SearchSettings:
    num_beams: int
    max_length: int  # counts the decoder start token, as generate()'s max_length does
    length_penalty: float
    early_stopping: bool | str
    eos_ids: tuple[int, ...]
    pad_id: int
    decoder_start_id: int
    rules: tuple[proc.Rule, ...]
    forced_bos_id: int | None = None  # the target language token of mBART-50, M2M100 and NLLB

    @property
    def fixed_candidates(self) -> tuple[int, ...]:
        """Tokens a logits rule may raise: always in a step's candidate table."""
        forced = () if self.forced_bos_id is None else (self.forced_bos_id,)
        return tuple(dict.fromkeys(self.eos_ids + forced))


class Decoder(Protocol):
    """The decoder state a search drives (fanyi.engine.runner.Decoding): `beams` rows per source."""

    sources: int

    def run(self, tokens: np.ndarray, top_k: int = 1, log_probs: bool = False) -> StepOutput:
        """One step for every row; the arrays are valid until the next step."""

    def reorder(self, origins: np.ndarray) -> None:
        """Beam b of source s continues what beam origins[s, b] of that source decoded so far."""

    def keep(self, sources: np.ndarray) -> None:
        """Keep only these sources (all their beams), in this order."""


def greedy(
    state: Decoder, settings: SearchSettings, cancel: CancelToken | None, stop: Collection[int] = ()
) -> Generator[Decided, None, list[list[int]]]:
    n = state.sources
    seqs = np.full((n, 1), settings.decoder_start_id, dtype=np.int64)
    active = np.arange(n)
    results: list[list[int]] = [[] for _ in range(n)]
    eos = np.asarray(settings.eos_ids)
    width = 1 + SPARE_CANDIDATES
    while active.size:
        if cancel is not None:
            cancel.raise_if_cancelled()
        out = state.run(seqs[:, -1:], width)
        tokens = _greedy_pick(settings, seqs, out)
        seqs = np.concatenate([seqs, tokens[:, None]], axis=1)
        for row, tok in zip(active.tolist(), tokens.tolist()):
            results[row].append(tok)
            yield row, [tok]
        done = proc.among(tokens, eos) | (seqs.shape[1] >= settings.max_length)
        if stop:
            done |= np.isin(active, list(stop))
        if done.any():
            keep = np.flatnonzero(~done)
            active, seqs = active[keep], seqs[keep]
            state.keep(keep)
    return results


def _table(
    settings: SearchSettings, ids: np.ndarray, out: StepOutput, scores: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Processed scores of each row's candidates, their token ids, and the bound for every other token.

    The candidates are the decoder's top ids and the fixed ones (end-of-sentence ids, which ForcedEos
    may raise, and a forced first token); a fixed id already among the top ids is scored once.
    """
    top = out.top_ids
    rows, width = top.shape
    if width >= scores.shape[1] or proc.needs_whole_vocabulary(settings.rules):
        full = proc.Candidates.full(scores)
        return proc.apply(settings.rules, ids, full), full.ids, np.full(rows, -np.inf, np.float32)
    fixed = np.asarray(settings.fixed_candidates, dtype=top.dtype)
    cand_ids = np.concatenate([top, np.broadcast_to(fixed, (rows, fixed.size))], axis=1)
    cand = proc.Candidates(cand_ids, _take(scores, cand_ids))
    processed = proc.apply(settings.rules, ids, cand)
    repeated = np.zeros(cand_ids.shape, bool)
    repeated[:, width:] = (top[:, :, None] == fixed).any(axis=1)
    processed[repeated] = -np.inf
    bound = np.full(rows, -np.inf, np.float32) if proc.closed(settings.rules, ids) else cand.scores[:, width - 1]
    return processed, cand_ids, bound


def _take(values: np.ndarray, index: np.ndarray) -> np.ndarray:
    """values[i, index[i, j]] (np.take_along_axis on axis 1 without its checks: a step calls it often)."""
    taken: np.ndarray = values[np.arange(index.shape[0])[:, None], index]
    return taken


def _greedy_pick(settings: SearchSettings, ids: np.ndarray, out: StepOutput) -> np.ndarray:
    """argmax of the processed logits (lowest id among equals), as over the whole vocabulary."""
    processed, cand_ids, bound = _table(settings, ids, out, out.logits)
    best = processed.max(axis=1)
    if not np.all(best > bound):
        processed, cand_ids, _ = _table(settings, ids, _whole(out), out.logits)
        best = processed.max(axis=1)
    picked: np.ndarray = np.where(processed == best[:, None], cand_ids, np.iinfo(np.int64).max).min(axis=1)
    return picked


def _whole(out: StepOutput) -> StepOutput:
    """The same step with every token a candidate: the fallback when the table was too narrow."""
    vocab = out.logits.shape[1]
    return StepOutput(out.logits, out.log_probs, np.broadcast_to(np.arange(vocab), out.logits.shape))


def _best(totals: np.ndarray, flat: np.ndarray, keep: int) -> tuple[np.ndarray, np.ndarray]:
    """The `keep` largest totals per row, best first, lower flat id first among equals."""
    if totals.shape[1] > 8 * keep:
        # the whole vocabulary: partition first, sorting beams × 65k scores would be slow
        part = np.argpartition(-totals, keep - 1, axis=1)[:, :keep]
        totals, flat = _take(totals, part), _take(flat, part)
    order = np.lexsort((flat, -totals), axis=-1)[:, :keep]
    return _take(totals, order), _take(flat, order)


def _beam_candidates(
    settings: SearchSettings, ids: np.ndarray, out: StepOutput, run_scores: np.ndarray, keep: int
) -> tuple[np.ndarray, np.ndarray]:
    """The `keep` best (beam, token) continuations of each source row: scores, and flat ids beam * vocab + token."""
    r, k = run_scores.shape
    log_probs = out.log_probs
    assert log_probs is not None  # asked for
    vocab = log_probs.shape[1]
    step = out
    while True:
        processed, cand_ids, bound = _table(settings, ids, step, log_probs)
        width = cand_ids.shape[1]
        totals = (processed.reshape(r, k, width) + run_scores[:, :, None]).reshape(r, k * width)
        flat = (np.arange(k)[:, None] * vocab + cand_ids.reshape(r, k, width)).reshape(r, k * width)
        totals, flat = _best(totals, flat, keep)
        outside = (bound.reshape(r, k) + run_scores).max(axis=1)
        # with every other token ruled out (-inf), which -inf candidates fill the tail does not matter
        if step is not out or np.all((totals[:, -1] > outside) | np.isneginf(outside)):
            return totals, flat
        step = _whole(out)


def _topk(values: np.ndarray, k: int) -> np.ndarray:
    """Indices of the k largest values per row, best first (ties: lower index first)."""
    if k < values.shape[1]:
        part = np.argpartition(-values, k - 1, axis=1)[:, :k]
    else:
        part = np.broadcast_to(np.arange(values.shape[1]), values.shape).copy()
    order = np.argsort(-_take(values, part), axis=1, kind="stable")
    return _take(part, order)


def _common_prefix(seqs: list[list[int]]) -> int:
    first = seqs[0]
    length = min(len(s) for s in seqs)
    for i in range(length):
        tok = first[i]
        if any(s[i] != tok for s in seqs):
            return i
    return length


def beam(
    state: Decoder,
    settings: SearchSettings,
    cancel: CancelToken | None,
    stop: Collection[int] = (),
    ranked: dict[int, list[list[int]]] | None = None,
) -> Generator[Decided, None, list[list[int]]]:
    """Beam search; `state` holds num_beams rows per source. `ranked`, when given, receives each
    source's finished hypotheses, best first (the n-best list)."""
    k = settings.num_beams
    n = state.sources
    keep_k = max(2, 1 + len(settings.eos_ids)) * k
    lp, early = settings.length_penalty, settings.early_stopping
    eos = np.asarray(settings.eos_ids)

    rows = np.arange(n)  # original index of each active row
    running = np.full((n, k, 1), settings.decoder_start_id, dtype=np.int64)
    run_scores = np.zeros((n, k), np.float32)
    run_scores[:, 1:] = SENTINEL
    fin_scores = np.full((n, k), SENTINEL, np.float32)
    fin_done = np.zeros((n, k), bool)
    fin_seqs: list[list[list[int]]] = [[[] for _ in range(k)] for _ in range(n)]
    hopeful = np.ones(n, bool)  # generate()'s early-stop heuristic: may a running beam still improve?
    emitted = np.zeros(n, np.int64)  # tokens of each source yielded so far
    results: list[list[int]] = [[] for _ in range(n)]
    cur_len = 1
    top_mask = np.arange(keep_k) < k

    while rows.size:
        if cancel is not None:
            cancel.raise_if_cancelled()
        r = rows.size
        flat = running.reshape(r * k, cur_len)
        out = state.run(flat[:, -1:], keep_k + SPARE_CANDIDATES, log_probs=True)
        assert out.log_probs is not None
        vocab = out.log_probs.shape[-1]
        cand_scores, top = _beam_candidates(settings, flat, out, run_scores, keep_k)
        cand_beam, cand_tok = top // vocab, top % vocab
        hits = proc.among(cand_tok, eos) | (cur_len + 1 >= settings.max_length)

        # the best unfinished candidates continue
        live_scores = cand_scores + hits.astype(np.float32) * SENTINEL
        pick = _topk(live_scores, k)
        run_scores = _take(live_scores, pick)
        source_beam = _take(cand_beam, pick)
        previous = running
        running = np.concatenate([_take(previous, source_beam), _take(cand_tok, pick)[:, :, None]], axis=2)

        # finished candidates compete with the hypotheses finished so far
        just = hits & top_mask[None, :]
        final = cand_scores / ((cur_len + 1 - 1) ** lp)
        if early is True:
            final = final + (np.all(fin_done, axis=1, keepdims=True)).astype(np.float32) * SENTINEL
        final = final + (~hopeful)[:, None].astype(np.float32) * SENTINEL
        final = final + (~just).astype(np.float32) * SENTINEL
        merged = np.concatenate([fin_scores, final], axis=1)
        best = _topk(merged, k)
        merged_done = np.concatenate([fin_done, just], axis=1)
        # a source's finished list changes only where a candidate entered it
        for i in np.flatnonzero((best != np.arange(k)).any(axis=1)).tolist():
            fin_seqs[i] = [
                fin_seqs[i][j] if j < k else previous[i, cand_beam[i, j - k], 1:].tolist() + [int(cand_tok[i, j - k])]
                for j in best[i].tolist()
            ]
        fin_scores = _take(merged, best)
        fin_done = _take(merged_done, best)

        state.reorder(source_beam)
        cur_len += 1

        best_len = (settings.max_length - 1) if (early == "never" and lp > 0.0) else (cur_len - 1)
        best_running = run_scores[:, :1] / (best_len**lp)
        worst_finished = np.where(fin_done, fin_scores.min(axis=1, keepdims=True), SENTINEL)
        hopeful = hopeful & np.any(best_running > worst_finished, axis=1)

        over = ~hopeful | np.all(hits, axis=1)
        if early is True:
            over |= np.all(fin_done, axis=1)
        # what every hypothesis that can still win agrees on: the running beams' shared prefix,
        # cut where a finished hypothesis departs from it (looked at only where it would grow)
        body = running[:, :, 1:]
        agree = (body == body[:, :1]).all(axis=1)
        shared = np.where(agree.all(axis=1), agree.shape[1], agree.argmin(axis=1))
        for i in np.flatnonzero(over | (shared > emitted[rows])).tolist():
            orig = int(rows[i])
            if over[i]:
                final_ids = fin_seqs[i][0]
                if ranked is not None:
                    ranked[orig] = [seq for seq, done in zip(fin_seqs[i], fin_done[i].tolist()) if done]
                yield orig, final_ids[emitted[orig] :]
                results[orig] = final_ids
                continue
            first = body[i, 0].tolist()
            count = min(
                [int(shared[i])]
                + [_common_prefix([first, seq]) for seq, done in zip(fin_seqs[i], fin_done[i].tolist()) if done]
            )
            if count > emitted[orig]:
                results[orig] = first[:count]
                yield orig, first[emitted[orig] : count]
                emitted[orig] = count
        if stop:
            over |= np.isin(rows, list(stop))
        if over.any():
            keep = np.flatnonzero(~over)
            rows, running, run_scores = rows[keep], running[keep], run_scores[keep]
            fin_scores, fin_done, hopeful = fin_scores[keep], fin_done[keep], hopeful[keep]
            fin_seqs = [fin_seqs[i] for i in keep.tolist()]
            state.keep(keep)
    return results
