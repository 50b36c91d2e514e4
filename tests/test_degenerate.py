"""Degenerate translations: the detector, the guarded re-decode, and sentences given up on.

The tiny random models loop or say nothing on most sentences, which makes every path testable with
real decoding: normal sentences (the detector finds nothing) must come out exactly as the model says
them, degenerate ones are decoded again with the guard, and two biased models (conftest) loop or
stay silent whatever the input, so the guard cannot save them either.
"""

from __future__ import annotations

import random

import pytest

from fanyi.engine.degenerate import (
    EMPTY,
    GUARD_NGRAM,
    GUARD_REPETITION_PENALTY,
    LENGTH_BOUNDS,
    LOOP,
    MAX_PERIOD,
    RUNAWAY,
    SAME_KIND_BOUND,
    Finding,
    SentenceCheck,
    guarded,
    length_bound,
)
from fanyi.engine.options import DecodeOptions
from fanyi.engine.results import Failure, Rewind, Translation
from fanyi.engine.segment import split_text
from fanyi.engine.translator import Translator
from fanyi.paths import assets_dir

EOS = 0


def check(most_tokens: int = 100, source_run: int = 1) -> SentenceCheck:
    return SentenceCheck(most_tokens, source_run, frozenset({EOS}))


# --- the detector ---------------------------------------------------------------------------------
def test_a_single_token_four_times_is_a_loop_three_times_is_not():
    assert check().runaway([5, 6, 8, 8, 8]) is None  # "very very very", "哈哈哈"
    assert check().runaway([5, 6, 8, 8, 8, 8]) == Finding(LOOP)
    assert check().runaway([8, 8, 8, 8, 5, 6, 7]) == Finding(LOOP)  # anywhere, not only at the end


def test_a_longer_unit_three_times_is_a_loop_up_to_max_period():
    assert check().runaway([1, 7, 8, 7, 8]) is None
    assert check().runaway([1, 7, 8, 7, 8, 7, 8]) == Finding(LOOP)
    unit = list(range(10, 10 + MAX_PERIOD))
    assert check().runaway(unit * 3) == Finding(LOOP)
    longer = list(range(10, 11 + MAX_PERIOD))
    assert check().runaway(longer * 3) is None


def test_a_source_that_repeats_itself_allows_twice_as_many_copies():
    bound = length_bound("en", "zh")
    laughing = SentenceCheck.for_source(["▁Ha", "▁ha", "▁ha", "▁ha"], bound, [EOS])
    assert laughing.source_run == 4
    assert laughing.runaway([3] + [4] * 7) is None
    assert laughing.runaway([3] + [4] * 8) == Finding(LOOP)
    assert SentenceCheck.for_source(["▁Good", "▁morning", "."], bound, [EOS]).source_run == 1


def test_a_translation_that_is_one_unit_said_twice_is_a_loop():
    """ "男性 男性" for "Man": the guard's n-gram rule is made short enough to rule the unit out."""
    assert check().verdict([7, 7, EOS], "男性 男性") == Finding(LOOP, 1)
    assert check().verdict([7, 8, 7, 8], "x y x y") == Finding(LOOP, 2)
    assert check().verdict([7, 8, 9, 7, 8, 9, EOS], "abc abc") == Finding(LOOP, GUARD_NGRAM)
    assert check().verdict([7, 8, EOS], "男性") is None
    assert check(source_run=2).verdict([7, 7, EOS], "no no") is None  # the source said it twice too


def test_more_tokens_than_the_source_warrants_is_a_runaway():
    assert check(most_tokens=5).verdict([1, 2, 3, 4, 5, EOS], "12345") is None
    assert check(most_tokens=5).runaway([1, 2, 3, 4, 5, 6]) == Finding(RUNAWAY)


def test_nothing_is_empty():
    assert check().verdict([EOS], "") == Finding(EMPTY)
    assert check().verdict([3, EOS], " ") == Finding(EMPTY)


def test_the_length_bound_is_a_figure_per_direction():
    en_zh, zh_en = length_bound("en", "zh"), length_bound("zh", "en")
    assert en_zh is LENGTH_BOUNDS[(False, True)] and zh_en is LENGTH_BOUNDS[(True, False)]
    assert length_bound("en", "cmn_Hans") is en_zh and length_bound("en", "de") is SAME_KIND_BOUND
    # Chinese says in fewer tokens what English says in more: zh→en may grow more than en→zh
    assert en_zh.most(20) < SAME_KIND_BOUND.most(20) < zh_en.most(20)


def test_the_watch_gives_the_same_first_sign_however_the_ids_arrive():
    """Loops and runaways are monotone, so a search may stop at the first sign: fed whole or in
    chunks, a sequence is flagged at the same length with the same sign, and stays flagged."""
    rng = random.Random(7)
    flagged = 0
    for _ in range(300):
        ids = [rng.choice([3, 4, 5, 6]) for _ in range(rng.randint(1, 40))]
        watch = check(most_tokens=rng.randint(10, 40), source_run=rng.choice([1, 1, 2]))
        first = next((k for k in range(1, len(ids) + 1) if watch.runaway(ids[:k])), None)
        if first is None:
            continue
        flagged += 1
        assert all(watch.runaway(ids[:k]) == watch.runaway(ids[:first]) for k in range(first, len(ids) + 1))
        checked = 0
        while True:
            end = min(len(ids), checked + rng.randint(1, 5))
            if found := watch.runaway(ids[:end], checked):
                assert (end >= first, found) == (True, watch.runaway(ids[:first]))
                break
            assert end < first
            checked = end
    assert flagged > 100


def test_the_guard_adds_to_the_callers_options():
    assert guarded(None, Finding(LOOP), 20, 100) == DecodeOptions(
        no_repeat_ngram_size=GUARD_NGRAM, repetition_penalty=GUARD_REPETITION_PENALTY, min_length=2, max_new_tokens=22
    )
    mine = DecodeOptions(
        beams=2, max_length=10, min_length=5, no_repeat_ngram_size=2, repetition_penalty=1.5, target="yue"
    )
    assert guarded(None, Finding(EMPTY), 20, 0).max_new_tokens == 1  # max_length=1 asks for no new token
    assert guarded(mine, Finding(LOOP, 1), 20, 9) == DecodeOptions(
        beams=2, min_length=5, no_repeat_ngram_size=1, repetition_penalty=1.5, target="yue", max_new_tokens=9
    )


# --- the search stops a row on request ------------------------------------------------------------
def _run(gen, on_yield):
    while True:
        try:
            row, ids = next(gen)
        except StopIteration as done:
            return done.value
        on_yield(row, ids)


@pytest.mark.parametrize("beams", [1, 4])
def test_a_stopped_row_ends_there_and_the_others_do_not_notice(tiny_translator, beams):
    options = DecodeOptions(beams=beams)
    sources = [tiny_translator.encode(s) for s in _sentences("en")[:8]]
    expected = tiny_translator.generate_ids(sources, options)
    chunks: dict[int, list] = {}
    _run(tiny_translator.decode_ids(sources, options), lambda row, ids: chunks.setdefault(row, []).append(ids))
    victim = next(row for row, got in chunks.items() if len(got) >= 2)
    stop: set[int] = set()

    def on_yield(row, ids):
        if row == victim:
            stop.add(row)

    result = _run(tiny_translator.decode_ids(sources, options, stop=stop), on_yield)
    assert result[victim] == chunks[victim][0] and len(result[victim]) < len(expected[victim])
    assert [r for i, r in enumerate(result) if i != victim] == [e for i, e in enumerate(expected) if i != victim]


# --- the translator -------------------------------------------------------------------------------
def _sentences(lang: str, count: int = 60) -> list[str]:
    lines = (assets_dir() / "corpus" / f"{lang}.txt").read_text(encoding="utf-8").splitlines()
    found: list[str] = []
    for line in lines:
        found += [p.text for p in split_text(line, source_lang=lang) if p.translate and p.text not in found]
    return found[:count]


def _plain(translator: Translator, sentence: str, options: DecodeOptions):
    """What the model says, undisturbed, and what the detector makes of it."""
    source = translator.encode(sentence, options)
    ids = translator.generate_ids([source], options)[0]
    text = translator.tokenizer.decode(ids)
    return ids, text, translator.sentence_check(source).verdict(ids, text)


@pytest.fixture(scope="module")
def zh_en_translator(tiny_pack_zh_en):
    return Translator.open(tiny_pack_zh_en, threads=1)


@pytest.mark.parametrize("beams", [1, 4])
@pytest.mark.parametrize("direction", ["en-zh", "zh-en"])
def test_normal_sentences_come_out_exactly_as_the_model_says_them(request, direction, beams):
    """The guard changes nothing that is not degenerate: alone, batched and streamed."""
    translator = request.getfixturevalue("tiny_translator" if direction == "en-zh" else "zh_en_translator")
    options = DecodeOptions(beams=beams)
    normal = {}
    for sentence in _sentences(direction[:2]):
        _, text, finding = _plain(translator, sentence, options)
        if finding is None:
            normal[sentence] = text
    assert len(normal) >= 8
    translator.clear_cache()
    assert translator.translate_results(list(normal), options) == [Translation(t) for t in normal.values()]
    translator.clear_cache()
    for sentence, text in normal.items():
        events = list(translator.translate_stream(sentence, options))
        assert all(isinstance(e, str) for e in events) and "".join(events) == text


@pytest.mark.parametrize("beams", [1, 4])
def test_degenerate_sentences_are_decoded_again_with_the_guard(tiny_translator, beams):
    options = DecodeOptions(beams=beams)
    max_new_tokens = tiny_translator.pack.generation["max_length"] - 1
    recovered: dict[str, list[str]] = {}
    tiny_translator.clear_cache()
    for sentence in _sentences("en"):
        _, text, finding = _plain(tiny_translator, sentence, options)
        if finding is None:
            continue
        result = tiny_translator.translate_results([sentence], options)[0]
        if result.failures:
            assert result == Translation(sentence, (Failure(sentence, finding.kind),))
            continue
        source = tiny_translator.encode(sentence, options)
        check = tiny_translator.sentence_check(source)
        guard = guarded(options, finding, check.most_tokens, max_new_tokens)
        ids = tiny_translator.generate_ids([source], guard)[0]
        assert result.text == tiny_translator.tokenizer.decode(ids) != text
        assert check.verdict(ids, result.text) is None
        recovered.setdefault(finding.kind, []).append(sentence)
    assert len(recovered.get(LOOP, [])) >= 10 and len(recovered.get(EMPTY, [])) >= 3


def test_a_loop_is_stopped_as_soon_as_it_shows(tiny_translator, monkeypatch):
    options = DecodeOptions(beams=1)
    sentence = next(s for s in _sentences("en") if _plain(tiny_translator, s, options)[2] == Finding(LOOP))
    plain_ids = _plain(tiny_translator, sentence, options)[0]
    first_attempt: list[int] = []
    original = tiny_translator.decode_ids

    def watched(sources, opts, *args, **kwargs):
        for row, ids in original(sources, opts, *args, **kwargs):
            if opts == options:
                first_attempt.extend(ids)
            yield row, ids

    monkeypatch.setattr(tiny_translator, "decode_ids", watched)
    tiny_translator.clear_cache()
    tiny_translator.translate(sentence, options)
    check = tiny_translator.sentence_check(tiny_translator.encode(sentence))
    assert check.runaway(first_attempt) == Finding(LOOP) and check.runaway(first_attempt[:-1]) is None
    assert len(first_attempt) < len(plain_ids)


@pytest.mark.parametrize("beams", [1, 4])
def test_a_stream_takes_back_a_degenerate_sentence(tiny_translator, beams):
    options = DecodeOptions(beams=beams)
    text = " ".join(_sentences("en")[:6])
    tiny_translator.clear_cache()
    events = list(tiny_translator.translate_stream(text, options))
    rewinds = [e for e in events if isinstance(e, Rewind)]
    assert rewinds and all(e.chars > 0 for e in rewinds)
    tiny_translator.clear_cache()
    assert Translation.collect(events) == tiny_translator.translate_results([text], options)[0]
    # from the cache, a degenerate sentence that was saved streams no rewind
    again = list(tiny_translator.translate_stream(text, options))
    assert not any(isinstance(e, Rewind) for e in again) and Translation.collect(again) == Translation.collect(events)


@pytest.mark.parametrize("beams", [1, 4])
def test_a_model_that_only_loops_leaves_every_sentence_as_it_was(looping_pack, beams):
    translator = Translator.open(looping_pack, threads=1)
    options = DecodeOptions(beams=beams)
    assert "好好好好" in _plain(translator, "Hello there.", options)[1]
    text = "Hello there. Good morning!\nHow are you?"
    sentences = ("Hello there.", "Good morning!", "How are you?")
    # the layout is the target's, which writes sentences without a space between them
    expected = Translation("Hello there.Good morning!\nHow are you?", tuple(Failure(s, LOOP) for s in sentences))
    assert translator.translate_results([text], options) == [expected]
    translator.clear_cache()
    events = list(translator.translate_stream(text, options))
    assert Translation.collect(events) == expected
    # the loop was on screen and taken back before the source took its place
    first = events.index(Failure("Hello there.", LOOP))
    assert isinstance(events[first - 2], Rewind) and events[first - 1] == "Hello there."
    assert "好" in "".join(e for e in events[: first - 2] if isinstance(e, str))


def test_a_model_that_says_nothing_leaves_the_sentence_as_it_was(silent_pack):
    translator = Translator.open(silent_pack, threads=1)
    expected = Translation("Hello there.", (Failure("Hello there.", EMPTY),))
    assert translator.translate_results(["Hello there."]) == [expected]
    translator.clear_cache()
    events = list(translator.translate_stream("Hello there."))
    assert events == ["Hello there.", Failure("Hello there.", EMPTY)]  # nothing was shown to take back
    # lines that came back empty used to leave their line breaks alone: blank lines, "translated"
    lines = "First line.\nSecond line.\nThird line."
    assert translator.translate(lines) == lines


# --- what callers make of it ----------------------------------------------------------------------
def test_the_cli_prints_the_sentence_as_it_was_and_warns_in_one_line(looping_pack):
    from test_cli import run

    for stream in ([], ["--stream"]):  # into a pipe, a streamed line is written once it is final
        result = run("translate", "--model", str(looping_pack), *stream, "Hello there.")
        assert result.returncode == 0
        assert result.stdout == "Hello there.\n"
        assert result.stderr == (
            "fanyi: warning: 1 sentence is left untranslated: “Hello there.” (the model kept repeating itself)\n"
        )
    result = run("translate", "--model", str(looping_pack), stdin="Good morning. How are you?\nFine.\n")
    assert result.stdout == "Good morning.How are you?\nFine.\n"
    assert result.stderr.splitlines() == [
        "fanyi: warning: 2 sentences are left untranslated: “Good morning.” (the model kept repeating itself); "
        "“How are you?” (the model kept repeating itself)",
        "fanyi: warning: 1 sentence is left untranslated: “Fine.” (the model kept repeating itself)",
    ]


def test_a_document_the_model_only_loops_on_is_not_written(looping_pack, tmp_path):
    from fanyi.documents import TranslationFailed, translate_document

    src = tmp_path / "notes.txt"
    # short, so that the length bound sits below the tiny model's max_length (40)
    src.write_text("Good morning.\n\nSee you soon.\n", encoding="utf-8")
    with pytest.raises(TranslationFailed, match="none of its text could be translated: the model kept repeating"):
        translate_document(src, Translator.open(looping_pack, threads=1))
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]
