"""The candidate-table step must choose what scoring the whole vocabulary chooses, for every rule."""

from __future__ import annotations

import numpy as np
import pytest

from fanyi.engine import search
from fanyi.engine.processors import build_processors, log_softmax
from fanyi.engine.search import SearchSettings, StepOutput

VOCAB, EOS, PAD = 300, 0, 299


def _settings(beams: int, *, max_length: int = 30, **rules) -> SearchSettings:
    args = dict(
        repetition_penalty=None,
        no_repeat_ngram_size=None,
        bad_words_ids=[[PAD], [5, 6]],
        min_length=None,
        forced_eos_token_id=EOS,
        max_length=max_length,
        renormalize=False,
        eos_ids=[EOS],
    )
    args.update(rules)
    return SearchSettings(
        num_beams=beams,
        max_length=max_length,
        length_penalty=1.0,
        early_stopping=False,
        eos_ids=(EOS,),
        pad_id=PAD,
        decoder_start_id=PAD,
        rules=tuple(build_processors(**args)),
    )


def _step(rng, rows: int, width: int, *, peaked: bool) -> StepOutput:
    logits = rng.normal(0, 1, (rows, VOCAB)).astype(np.float32)
    if peaked:  # a few tokens far ahead, as a trained model's logits usually are
        logits[:, rng.integers(0, VOCAB, 6)] += 8
    top = np.argsort(-logits, axis=1, kind="stable")[:, :width]
    return StepOutput(logits, log_softmax(logits), top)


def _history(rng, rows: int, length: int) -> np.ndarray:
    ids = rng.integers(1, 12, (rows, length))  # small ids: repeats, n-grams and the bad pair 5 6 occur
    ids[:, 0] = PAD
    return ids


RULES = [
    {},
    {"repetition_penalty": 1.3},
    {"no_repeat_ngram_size": 2},
    {"min_length": 40},
    {"renormalize": True},
    {"repetition_penalty": 0.7, "no_repeat_ngram_size": 3},
]


@pytest.mark.parametrize("rules", RULES, ids=repr)
@pytest.mark.parametrize("length", [1, 6, 29])  # 29: the last position, where eos is forced
@pytest.mark.parametrize("peaked", [True, False])
def test_greedy_candidates_equal_whole_vocabulary(rules, length, peaked):
    rng = np.random.default_rng(length)
    settings = _settings(1, **rules)
    ids, out = _history(rng, 7, length), _step(rng, 7, 3, peaked=peaked)
    chosen = search._greedy_pick(settings, ids, out)
    assert chosen.tolist() == search._greedy_pick(settings, ids, search._whole(out)).tolist()


@pytest.mark.parametrize("rules", RULES, ids=repr)
@pytest.mark.parametrize("length", [1, 6, 29])
@pytest.mark.parametrize("peaked", [True, False])
def test_beam_candidates_equal_whole_vocabulary(rules, length, peaked):
    rng = np.random.default_rng(100 + length)
    beams, sources = 3, 4
    settings = _settings(beams, **rules)
    ids, out = _history(rng, sources * beams, length), _step(rng, sources * beams, 8, peaked=peaked)
    run_scores = rng.normal(-3, 2, (sources, beams)).astype(np.float32)
    totals, flat = search._beam_candidates(settings, ids, out, run_scores, 2 * beams)
    whole_totals, whole_flat = search._beam_candidates(settings, ids, search._whole(out), run_scores, 2 * beams)
    np.testing.assert_array_equal(totals, whole_totals)
    # which ruled-out (-inf) continuations fill the tail cannot change the search's outcome
    finite = np.isfinite(totals)
    assert flat[finite].tolist() == whole_flat[finite].tolist()


def test_a_narrow_table_falls_back_to_the_whole_vocabulary():
    """Every top candidate banned: the answer must come from outside the table."""
    rng = np.random.default_rng(0)
    out = _step(rng, 2, 2, peaked=True)
    banned = [[int(t)] for t in np.unique(out.top_ids)]
    settings = SearchSettings(
        1,
        30,
        1.0,
        False,
        (EOS,),
        PAD,
        PAD,
        tuple(
            build_processors(
                repetition_penalty=None,
                no_repeat_ngram_size=None,
                bad_words_ids=banned,
                min_length=None,
                forced_eos_token_id=None,
                max_length=30,
                renormalize=False,
                eos_ids=[EOS],
            )
        ),
    )
    chosen = search._greedy_pick(settings, _history(rng, 2, 3), out)
    assert not set(chosen.tolist()) & set(np.unique(out.top_ids).tolist())
    scores = out.logits.copy()
    scores[:, [b[0] for b in banned]] = -np.inf
    assert chosen.tolist() == scores.argmax(axis=1).tolist()


def test_peaked_logits_need_no_fallback(monkeypatch):
    """With a clear winner the table decides alone: the whole vocabulary is never scored."""

    def refuse(out):
        raise AssertionError("fell back to the whole vocabulary")

    monkeypatch.setattr(search, "_whole", refuse)
    rng = np.random.default_rng(7)
    out = _step(rng, 6, 16, peaked=True)
    ids = _history(rng, 6, 4)
    search._greedy_pick(_settings(1), ids, out)
    search._beam_candidates(_settings(3), ids, out, np.zeros((2, 3), np.float32), 6)


def test_forced_eos_step_needs_no_fallback(monkeypatch):
    """At the last position only eos is possible: the table decides alone, as the whole vocabulary would."""
    rng = np.random.default_rng(3)
    out, ids = _step(rng, 6, 16, peaked=True), _history(rng, 6, 29)
    settings = _settings(3)
    expected = search._beam_candidates(settings, ids, search._whole(out), np.zeros((2, 3), np.float32), 6)
    monkeypatch.setattr(search, "_whole", lambda out: pytest.fail("fell back to the whole vocabulary"))
    totals, flat = search._beam_candidates(settings, ids, out, np.zeros((2, 3), np.float32), 6)
    finite = np.isfinite(expected[0])
    assert finite.sum() == 6  # one eos per beam
    assert flat[finite].tolist() == expected[1][finite].tolist()
    assert search._greedy_pick(_settings(1), ids, out).tolist() == [EOS] * 6
