"""Sentence splitting, length limiting, re-joining, PDF unwrapping and the sentence cache."""

from __future__ import annotations

import random
import re
import threading
import time

import pytest

from fanyi.engine.segment import (
    Segment,
    SentenceCache,
    join_hard_wrapped,
    join_translations,
    limit_length,
    part_joiner,
    separator_text,
    split_text,
)


def sentences(text: str, lang: str = "en") -> list[str]:
    return [p.text for p in split_text(text, source_lang=lang) if p.translate]


def bracket(pieces: list[Segment], target_lang: str) -> str:
    return join_translations(pieces, [f"[{p.text}]" for p in pieces if p.translate], target_lang=target_lang)


# --- split_text: the lossless invariant --------------------------------------------------------

# fmt: off
FUZZ_ATOMS = [
    "a", "Z", "é", "中", "文", "😀", " ", "  ", "\t", "\n", "\r\n", "\r", "\n\n", "\u3000", "\u00a0",
    "\u2028", "\f", ".", "!", "?", "…", "...", "。", "！", "？", "；", "”", "“", '"', "'", ")", "(",
    "1", "3.14", "Mr.", "e.g.", "J.", "No.", "http://x.y/?a=1!", "a@b.cn", "-", "—", "\u0301", "\x85",
]
# fmt: on


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_split_is_lossless_on_random_text(lang):
    rng = random.Random(20240105)
    for _ in range(3000):
        text = "".join(rng.choice(FUZZ_ATOMS) for _ in range(rng.randrange(0, 40)))
        pieces = split_text(text, source_lang=lang)
        assert "".join(p.text for p in pieces) == text
        assert all(p.text for p in pieces)
        for p in pieces:
            if p.translate:
                assert p.text == p.text.strip() and any(c.isalpha() for c in p.text)
        # A line break is never inside a sentence, and all of them survive re-joining.
        assert not any(p.translate and re.search(r"[\n\r\f\u2028\x85]", p.text) for p in pieces)
        for target in ("zh", "en"):
            breaks = re.findall(r"[\n\r\f\u2028\x85]", bracket(pieces, target))
            assert breaks == re.findall(r"[\n\r\f\u2028\x85]", text)


def test_split_of_empty_and_blank_text():
    assert split_text("") == []
    assert split_text(" \n\t ") == [Segment(" \n\t ", False)]


# --- split_text: English -----------------------------------------------------------------------


def test_english_sentences_split_at_final_punctuation():
    assert sentences("It is late. We should go! Should we? Yes… Home.") == [
        "It is late.",
        "We should go!",
        "Should we?",
        "Yes…",
        "Home.",
    ]
    assert split_text("One.  Two.") == [Segment("One.", True), Segment("  ", False), Segment("Two.", True)]


def test_english_closing_quotes_and_brackets_stay_with_their_sentence():
    assert sentences('He said "Stop." Then he left. (It was late.) "Why?" she asked.') == [
        'He said "Stop."',
        "Then he left.",
        "(It was late.)",
        '"Why?" she asked.',
    ]


def test_english_split_needs_a_sentence_start_after_the_space():
    assert sentences("Wait... what happened? 3 people left. 中文也行.") == [
        "Wait... what happened?",
        "3 people left.",
        "中文也行.",
    ]
    assert sentences("It ended. and then") == ["It ended. and then"]


@pytest.mark.parametrize(
    "text",
    [
        "Mr. Smith and Mrs. Jones met Dr. Brown and Prof. White at St. Paul's.",
        "It was Kramer vs. Kramer, apples etc. And more.",
        "Use a tool, e.g. A hammer, i.e. The big one.",
        "He moved to the U.S. In 1990 he left.",
        "Acme Inc. Sold it to Foo Ltd. Yesterday.",
        "See No. 5 and Fig. 3 from Jan. 2024 on p. 7.",
        "J. R. R. Tolkien wrote it.",
        "Pi is 3.14 and e is 2.718 here.",
        "Version v1.2.3 replaced 1.2.2 today.",
        "Mail john.doe@example.com or see https://example.com/A.B?x=1.",
        "Wait... what is that?",
    ],
)
def test_english_traps_are_one_sentence(text):
    assert sentences(text) == [text]


def test_words_that_are_abbreviations_only_before_numbers_still_end_sentences():
    assert sentences("I said no. Then I left. We met at 5 p.m. The end.") == [
        "I said no.",
        "Then I left.",
        "We met at 5 p.m.",
        "The end.",
    ]


def test_a_sentence_ending_in_a_url_or_number_ends_there():
    assert sentences("Visit https://example.com. Then call 555. It is 3.14. Done.") == [
        "Visit https://example.com.",
        "Then call 555.",
        "It is 3.14.",
        "Done.",
    ]


def test_layout_is_separate_from_sentences():
    text = "  Title\r\n\r\n\tFirst one. Second one.\n- item one\n\n"
    assert split_text(text) == [
        Segment("  ", False),
        Segment("Title", True),
        Segment("\r\n\r\n\t", False),
        Segment("First one.", True),
        Segment(" ", False),
        Segment("Second one.", True),
        Segment("\n", False),
        Segment("- item one", True),
        Segment("\n\n", False),
    ]


def test_a_line_is_never_joined_with_the_next():
    assert sentences("a sentence that goes\non and on") == ["a sentence that goes", "on and on"]


def test_pieces_without_letters_are_not_translated():
    assert split_text("1. Introduction") == [Segment("1.", False), Segment(" ", False), Segment("Introduction", True)]
    assert split_text("2024-01-05\n—") == [Segment("2024-01-05", False), Segment("\n", False), Segment("—", False)]


# --- split_text: Chinese -----------------------------------------------------------------------


def test_chinese_sentences_split_without_whitespace():
    assert sentences("你好。我很好！你呢？第一；第二……第三", "zh") == [
        "你好。",
        "我很好！",
        "你呢？",
        "第一；",
        "第二……",
        "第三",
    ]


def test_chinese_closing_quotes_and_ascii_marks():
    assert sentences("他说：“走吧。”我们就走了。『好！』「真的?」（对。）然后!?结束", "zh") == [
        "他说：“走吧。”",
        "我们就走了。",
        "『好！』",
        "「真的?」",
        "（对。）",
        "然后!?",
        "结束",
    ]


def test_chinese_does_not_split_inside_a_url_or_after_a_plain_comma():
    assert sentences("详情见https://example.com/a?b=1&c=2!x。谢谢，再见。", "zh") == [
        "详情见https://example.com/a?b=1&c=2!x。",
        "谢谢，再见。",
    ]


def test_chinese_mode_still_splits_english_and_keeps_spaces_as_separators():
    assert split_text("你好。 Hello. World.", source_lang="zh_Hans") == [
        Segment("你好。", True),
        Segment(" ", False),
        Segment("Hello.", True),
        Segment(" ", False),
        Segment("World.", True),
    ]


def test_abbreviations_right_after_chinese_are_still_abbreviations():
    assert sentences("我们见了Dr. Wang和Mr. Li。", "zh") == ["我们见了Dr. Wang和Mr. Li。"]


def test_english_mode_does_not_split_chinese_without_spaces():
    assert sentences("你好。我很好。") == ["你好。我很好。"]


# --- join_translations -------------------------------------------------------------------------


def test_paragraphs_blank_lines_and_indentation_survive():
    text = "  First one. Second one.\n\n\tThird one!\r\n4. Fourth?  "
    assert bracket(split_text(text), "zh") == "  [First one.][Second one.]\n\n\t[Third one!]\r\n4. [Fourth?]  "
    assert bracket(split_text(text), "en") == "  [First one.] [Second one.]\n\n\t[Third one!]\r\n4. [Fourth?]  "


def test_no_stray_spaces_between_chinese_sentences():
    pieces = split_text("It is late.  We should go. Now!")
    out = join_translations(pieces, ["天晚了。", "我们该走了。 ", " 现在！"], target_lang="zh")
    assert out == "天晚了。我们该走了。现在！"
    out = join_translations(pieces, ["天晚了。", "我们该走了。", "现在！"], target_lang="cmn_Hans")
    assert out.count(" ") == 0


def test_chinese_source_gets_single_spaces_in_english():
    pieces = split_text("天晚了。我们该走了。\n现在！", source_lang="zh")
    out = join_translations(pieces, ["It is late. ", "We should go.", "Now!"], target_lang="en")
    assert out == "It is late. We should go.\nNow!"


def test_untranslated_middle_piece_is_kept_between_chinese_sentences():
    pieces = split_text("你好。123。谢谢。", source_lang="zh")
    assert pieces[1] == Segment("123。", False)
    assert join_translations(pieces, ["Hello.", "Thanks."], target_lang="en") == "Hello.123。Thanks."


def test_join_needs_one_translation_per_sentence():
    with pytest.raises(ValueError):
        join_translations(split_text("One. Two."), ["一。"], target_lang="zh")


def test_separator_text_renders_exactly_what_join_translations_does():
    for lang, text in (("en", " A b. C d.\n\nE. 1. F"), ("zh", "甲。乙！ 丙\n 丁。")):
        pieces = split_text(text, source_lang=lang)
        translations = [f"<{i}>" for i, p in enumerate(pieces) if p.translate]
        for target in ("zh", "en"):
            streamed, remaining = [], iter(translations)
            for i, p in enumerate(pieces):
                streamed.append(separator_text(pieces, i, target))
                if p.translate:
                    streamed.append(next(remaining))
            assert "".join(streamed) == join_translations(pieces, translations, target_lang=target)


def test_part_joiner():
    assert part_joiner("zh") == part_joiner("ja") == ""
    assert part_joiner("en") == part_joiner("de") == " "


# --- limit_length ------------------------------------------------------------------------------


def words(text: str) -> int:
    return len(text.split())


def check_parts(sentence: str, parts: list[str], max_tokens: int, count) -> None:
    assert "".join(parts) == sentence
    assert all(parts) and all(count(part) <= max_tokens for part in parts)


def test_a_sentence_that_fits_is_returned_whole():
    assert limit_length("Short one.", 5, words) == ["Short one."]


def test_long_sentence_is_cut_at_whitespace_into_fitting_parts():
    sentence = " ".join(f"w{i}" for i in range(100))
    parts = limit_length(sentence, 30, words)
    check_parts(sentence, parts, 30, words)
    assert len(parts) == 4  # ceil(100 / 30): cutting where the counts say, not always at the middle
    assert all(not part[0].isspace() for part in parts)  # the space stays at the end of the left part


def test_commas_are_preferred_to_spaces():
    sentence = "one two three four five, six seven eight nine ten"
    assert limit_length(sentence, 6, words) == ["one two three four five, ", "six seven eight nine ten"]
    chinese = "我们今天去公园散步，然后回家吃饭睡觉"
    assert limit_length(chinese, 10, len) == ["我们今天去公园散步，", "然后回家吃饭睡觉"]


def test_slightly_too_long_is_cut_in_two_balanced_parts():
    sentence = " ".join(["word"] * 11)
    assert [words(part) for part in limit_length(sentence, 10, words)] == [5, 6]


def test_text_without_boundaries_is_hard_split():
    sentence = "x" * 1000
    parts = limit_length(sentence, 64, len)
    check_parts(sentence, parts, 64, len)


@pytest.mark.parametrize("mark", ["\u0301", "\ufe0f", "\u200d"])
def test_hard_split_keeps_combining_marks_with_their_letter(mark):
    sentence = f"e{mark}" * 50
    parts = limit_length(sentence, 9, len)
    check_parts(sentence, parts, 9, len)
    assert all(not part.startswith(mark) for part in parts)


def test_a_single_character_over_the_limit_is_returned_as_is():
    assert limit_length("ab", 1, lambda s: 5 * len(s)) == ["a", "b"]


def test_invalid_limit():
    with pytest.raises(ValueError):
        limit_length("text", 0, len)


@pytest.mark.parametrize("unit", ["x", "ab "], ids=["no spaces", "spaces"])
def test_megabyte_input_needs_few_counts(unit):
    sentence = unit * (1_000_000 // len(unit))
    calls = 0
    counted = 0

    def count(text: str) -> int:
        nonlocal calls, counted
        calls += 1
        counted += len(text)
        return -(-len(text) // 4)  # ~4 characters a token

    started = time.thread_time()  # CPU, not wall: a busy machine must not fail this
    parts = limit_length(sentence, 512, count)
    elapsed = time.thread_time() - started
    assert "".join(parts) == sentence and all(-(-len(p) // 4) <= 512 for p in parts)
    minimum = -(-count(sentence) // 512)
    assert len(parts) <= minimum + minimum // 4 + 1
    assert calls <= 2 * len(parts) + 1  # one count per part tried: a binary tree over the parts
    assert counted <= 25 * len(sentence)  # n·log(n), not n²
    assert elapsed < 5


# --- join_hard_wrapped -------------------------------------------------------------------------


def test_lines_wrapped_inside_a_sentence_are_joined():
    text = (
        "The quick brown fox jumps over the lazy dog and then it\n"
        "runs away into the forest where nobody can ever find it\n"
        "Again, and nobody knows why it keeps on running like that."
    )
    assert join_hard_wrapped(text) == (
        "The quick brown fox jumps over the lazy dog and then it runs away into the forest where "
        "nobody can ever find it Again, and nobody knows why it keeps on running like that."
    )


def test_hyphenated_words_are_rejoined():
    assert join_hard_wrapped("This is a hyphen-\nated word.") == "This is a hyphenated word."
    assert join_hard_wrapped("The well-known\nfact.") == "The well-known fact."
    assert join_hard_wrapped("Results on pages 10-\n20 were lost.") == "Results on pages 10-20 were lost."


def test_paragraphs_lists_and_final_lines_stay():
    text = (
        "A paragraph that ends here.\n\n"
        "Another paragraph with a list:\n"
        "- apples\n* pears\n1. one\n2) two\n(3) three\n"
        "Last paragraph.\r\nNew line after a sentence."
    )
    assert join_hard_wrapped(text) == text


def test_headings_and_short_lines_stay():
    text = (
        "Introduction\n"
        "This chapter describes how the translator splits text into sentences\n"
        "Before translating them one at a time with the model that was chosen.\n"
        "Short line\n"
        "Then a long line that starts with a capital letter and goes on."
    )
    assert join_hard_wrapped(text) == (
        "Introduction\n"
        "This chapter describes how the translator splits text into sentences "
        "Before translating them one at a time with the model that was chosen.\n"
        "Short line\n"
        "Then a long line that starts with a capital letter and goes on."
    )


def test_chinese_lines_are_joined_without_spaces():
    text = "第一章 总论\n这是一个很长的句子，在复制的时候被PDF\n截断了，所以需要重新连接起来。\n下一段。"
    assert join_hard_wrapped(text) == (
        "第一章 总论\n这是一个很长的句子，在复制的时候被PDF截断了，所以需要重新连接起来。\n下一段。"
    )
    assert join_hard_wrapped("一、总则\n二、细则") == "一、总则\n二、细则"


def test_unwrapping_keeps_text_without_breaks():
    assert join_hard_wrapped("") == ""
    assert join_hard_wrapped("one line") == "one line"
    assert join_hard_wrapped("\n\n") == "\n\n"


# --- SentenceCache -----------------------------------------------------------------------------


def test_cache_evicts_the_least_recently_used():
    cache = SentenceCache(maxsize=2)
    cache.put(("m", "a"), "A")
    cache.put(("m", "b"), "B")
    assert cache.get(("m", "a")) == "A"  # now "b" is the oldest
    cache.put(("m", "c"), "C")
    assert len(cache) == 2
    assert cache.get(("m", "b")) is None
    assert cache.get(("m", "a")) == "A" and cache.get(("m", "c")) == "C"
    cache.put(("m", "a"), "A2")
    assert cache.get(("m", "a")) == "A2" and len(cache) == 2
    cache.clear()
    assert len(cache) == 0 and cache.get(("m", "a")) is None


def test_cache_rejects_zero_size():
    with pytest.raises(ValueError):
        SentenceCache(maxsize=0)


def test_cache_is_thread_safe():
    cache = SentenceCache(maxsize=64)
    errors: list[BaseException] = []

    def work(seed: int) -> None:
        rng = random.Random(seed)
        try:
            for _ in range(5000):
                key = ("model", rng.randrange(200))
                if rng.random() < 0.5:
                    cache.put(key, f"value {key[1]}")
                else:
                    value = cache.get(key)
                    assert value is None or value == f"value {key[1]}"
        except BaseException as error:  # noqa: BLE001 - reported to the main thread
            errors.append(error)

    threads = [threading.Thread(target=work, args=(seed,)) for seed in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert len(cache) == 64
