"""fanyi.documents.pdf.linebreak: every rule of breaking a translation into lines, fitting it into its box and
choosing one scale per role, on examples and on generated text (hypothesis, derandomized: the same cases on every
run, no example database written)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fanyi.documents.pdf.linebreak import (
    ELLIPSIS,
    NO_END,
    NO_START,
    Box,
    break_lines,
    common_scale,
    fit,
    spaced,
)

PROPERTY = settings(database=None, deadline=None, derandomize=True, max_examples=300)


def measure(text: str, size: float) -> float:
    """An additive measure like a CJK face's: full-width characters an em, Latin half, a space a quarter."""
    return sum(0.25 if c == " " else 1.0 if ord(c) >= 0x2E80 else 0.5 for c in text) * size


def _visible(text: str) -> str:
    return re.sub(r"\s+", "", text)


# --- breaking: examples --------------------------------------------------------------------------------------
def test_chinese_breaks_between_any_two_han_characters():
    assert break_lines("机器翻译离线即时", 3, 1, measure) == ["机器翻", "译离线", "即时"]


def test_a_line_never_starts_with_a_closing_mark_nor_ends_with_an_opening_one():
    # "，" may not start the second line: "译" goes down with it
    assert break_lines("机器翻译，离线", 4, 1, measure) == ["机器翻", "译，离线"]
    # "（" may not end the first line: it goes down with "离"
    assert break_lines("机器翻（离线）", 4, 1, measure) == ["机器翻", "（离线）"]
    assert break_lines("他说：“离线”。", 4, 1, measure) == ["他说：", "“离线”。"]
    assert break_lines("等等……真的", 2.5, 1, measure) == ["等", "等……", "真的"]  # "…" is half an em here


def test_dashes_and_ellipses_are_never_split():
    for width in (2, 3, 4, 5):
        for line in break_lines("是的——离线……可以", width, 1, measure):
            assert not re.search(r"(^—[^—])|([^—]—$)|(^…[^…])|([^…]…$)", line + "\n"), (width, line)


def test_latin_words_are_not_split_unless_one_is_wider_than_a_line():
    assert break_lines("offline translation works", 6, 1, measure) == ["offline", "translation", "works"]
    assert break_lines("https://example.com/path", 4, 1, measure) == ["https://", "example.", "com/path"]


def test_a_half_width_space_goes_between_han_and_latin_or_digits_where_none_is_written():
    assert spaced("用Fanyi翻译3个PDF文件") == "用 Fanyi 翻译 3 个 PDF 文件"
    assert spaced("用 Fanyi 翻译，PDF。") == "用 Fanyi 翻译，PDF。"  # written spaces and punctuation: nothing added
    assert break_lines("用Fanyi翻译", 20, 1, measure) == ["用 Fanyi 翻译"]


def test_written_spaces_and_newlines_are_kept_and_continuation_lines_start_with_no_space():
    assert break_lines("a  b\n\nc", 20, 1, measure) == ["a  b", "", "c"]
    assert break_lines("  indented first line of text", 6, 1, measure) == ["  indented", "first line of", "text"]
    assert break_lines("one   two", 2, 1, measure) == ["one", "two"]
    assert break_lines("", 10, 1, measure) == [""]


def test_lines_are_filled_greedily():
    lines = break_lines("一二三四五六七八九十", 4, 1, measure)
    assert lines == ["一二三四", "五六七八", "九十"]


# --- breaking: properties ------------------------------------------------------------------------------------
HAN = st.sampled_from("机器翻译离线即时私密文档的是在你电脑上完成不联网")
WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABC0123456789", min_size=1, max_size=8)
CLOSING = st.sampled_from("，。、；：？！）」』】》”")
OPENING = st.sampled_from("（「『【《“")


@st.composite
def translations(draw) -> str:
    """Text like a model's Chinese translation: Han, Latin words and numbers, spaces, punctuation closing what
    comes before it and opening what comes after it, newlines now and then."""
    parts: list[str] = []
    for _ in range(draw(st.integers(0, 60))):
        kind = draw(st.sampled_from(["han", "han", "han", "word", "space", "close", "open", "newline"]))
        if kind == "han":
            parts.append(draw(HAN))
        elif kind == "word":
            parts.append(draw(WORD))
        elif kind == "space":
            parts.append(" " * draw(st.integers(1, 2)))
        elif kind == "close" and parts and parts[-1][-1] not in NO_START | NO_END | {" ", "\n"}:
            parts.append(draw(CLOSING))
        elif kind == "open":
            parts.append(draw(OPENING) + draw(HAN))
        elif kind == "newline":
            parts.append("\n")
    return "".join(parts)


@PROPERTY
@given(text=st.text(alphabet="机器翻译，。（）“”ab c—…\n", max_size=80), width=st.floats(1, 30))
def test_no_line_is_wider_than_the_width(text, width):
    assert all(measure(line, 1) <= width + 1e-9 for line in break_lines(text, width, 1, measure))


@PROPERTY
@given(text=translations(), width=st.integers(12, 40))
def test_no_line_starts_with_a_closing_mark_or_ends_with_an_opening_one(text, width):
    lines = break_lines(text, width, 1, measure)
    paragraphs = spaced(text).split("\n")
    index = 0
    for paragraph in paragraphs:  # the lines of each paragraph, which begin and end where the paragraph does
        count = len(break_lines(paragraph, width, 1, measure))
        own = lines[index : index + count]
        index += count
        for line in own[1:]:
            assert line and line[0] not in NO_START, own
        for line in own[:-1]:
            assert line[-1] not in NO_END, own
    assert index == len(lines)


@PROPERTY
@given(text=translations(), width=st.integers(8, 40))
def test_the_text_is_kept_but_for_the_spaces_added_and_the_breaks(text, width):
    lines = break_lines(text, width, 1, measure)
    assert _visible("".join(lines)) == _visible(text)
    assert len(lines) >= text.count("\n") + 1
    for line in lines:
        assert line == line.rstrip()


@PROPERTY
@given(words=st.lists(WORD, min_size=1, max_size=30), width=st.integers(4, 30))
def test_words_that_fit_on_a_line_are_never_split(words, width):
    lines = break_lines(" ".join(words), width, 1, measure)
    pieces = [piece for line in lines for piece in line.split(" ")]
    for word in words:
        if measure(word, 1) <= width:
            assert word in pieces
    assert all(not line.startswith(" ") for line in lines)


# --- fitting -------------------------------------------------------------------------------------------------
TEXT = "机器翻译在你的电脑上完成，不联网。Fanyi keeps the layout."
BOX = Box(100, 500, 200, 530)  # 100 × 30 points
ROOM = Box(100, 460, 300, 530)  # free space to the right and below


def _inside(result, box: Box, ascent=0.88, descent=0.12) -> bool:
    return all(
        line.x >= box.x0 - 1e-6
        and line.x + line.width <= box.x1 + 1e-6
        and line.y + ascent * result.size <= box.y1 + 1e-6
        and line.y - descent * result.size >= box.y0 - 1e-6
        for line in result.lines
    )


def test_a_translation_that_fits_keeps_its_size_and_its_box():
    result = fit("机器翻译", BOX, ROOM, 10, measure)
    assert (result.size, result.scale, result.box, result.overflowed, result.cut) == (10, 1.0, BOX, False, False)
    assert [(line.text, line.x, line.y) for line in result.lines] == [("机器翻译", 100, pytest.approx(521.2))]


def test_the_free_room_is_used_before_the_size_shrinks():
    result = fit(TEXT, BOX, ROOM, 10, measure)
    assert (result.size, result.box, result.overflowed) == (10, ROOM, False)
    assert _inside(result, ROOM) and len(result.lines) >= 2


def test_without_room_the_size_shrinks_in_steps_to_the_largest_that_fits():
    result = fit(TEXT, BOX, BOX, 10, measure, leading=12)
    assert result.scale in {round(1 - 0.05 * k, 2) for k in range(7)} and not result.overflowed
    assert result.leading == pytest.approx(12 * result.scale)  # the original leading, scaled
    assert _inside(result, BOX)
    bigger = fit(
        TEXT, BOX, BOX, 10, measure, leading=12, largest=round(result.scale + 0.05, 2), floor=result.scale + 0.05
    )
    assert bigger.overflowed  # one step larger does not fit


def test_below_the_floor_it_is_shrunk_further_and_marked_overflowed():
    small = Box(0, 0, 60, 24)
    result = fit(TEXT * 2, small, small, 10, measure)
    assert result.overflowed and not result.cut
    assert 0.4 <= result.scale < 0.7 and _inside(result, small)
    assert _visible("".join(line.text for line in result.lines)) == _visible(spaced(TEXT * 2))


def test_what_does_not_fit_at_the_minimum_is_cut_with_an_ellipsis_and_never_drawn_outside():
    tiny = Box(0, 0, 30, 12)
    result = fit(TEXT * 5, tiny, tiny, 10, measure, minimum=4)
    assert result.cut and result.overflowed and result.size == 4
    assert result.lines and result.lines[-1].text.endswith(ELLIPSIS)
    assert _inside(result, tiny)
    nothing = Box(0, 0, 30, 2)  # not even one line's height
    assert fit(TEXT, nothing, nothing, 10, measure).lines == ()


def test_the_line_height_is_the_original_leading_or_a_default_never_tighter_than_the_glyphs():
    assert fit("机器", BOX, ROOM, 10, measure, leading=15).leading == 15
    assert fit("机器", BOX, ROOM, 10, measure).leading == pytest.approx(12)
    assert fit("机器", BOX, ROOM, 10, measure, leading=6).leading == pytest.approx(10)


@PROPERTY
@given(
    text=translations(),
    x0=st.floats(0, 400),
    y0=st.floats(0, 700),
    width=st.floats(1, 300),
    height=st.floats(1, 200),
    extra_width=st.floats(0, 200),
    extra_height=st.floats(0, 200),
    size=st.floats(4, 24),
    leading=st.one_of(st.none(), st.floats(1, 40)),
)
def test_lines_never_leave_the_box_they_are_fitted_into(
    text, x0, y0, width, height, extra_width, extra_height, size, leading
):
    box = Box(x0, y0, x0 + width, y0 + height)
    room = Box(x0, y0 - extra_height, x0 + width + extra_width, y0 + height)
    result = fit(text, box, room, size, measure, leading=leading)
    assert result.box in (box, room) and _inside(result, result.box)
    assert result.size <= size
    if not result.cut:
        assert result.overflowed == (result.scale < 0.7 - 1e-9)
        assert _visible("".join(line.text for line in result.lines)) == _visible(text)


# --- one scale per role --------------------------------------------------------------------------------------
def test_a_role_takes_the_smallest_scale_its_paragraphs_need_when_it_has_fewer_than_ten():
    assert common_scale([1.0, 0.9, 0.85, 1.0]) == 0.85
    assert common_scale([]) == 1.0


def test_one_paragraph_in_ten_may_need_less_and_is_shrunk_on_its_own():
    needed = [1.0] * 17 + [0.5, 0.95, 0.9]
    scale = common_scale(needed)
    assert scale == 0.95  # 18 of 20 fit at it
    assert sum(s < scale for s in needed) == 2  # the caller counts them


def test_the_common_scale_never_goes_below_the_floor_or_above_one():
    assert common_scale([0.3, 0.4, 0.5]) == 0.7
    assert common_scale([0.3], floor=0.5) == 0.5
    assert common_scale([1.4, 1.2]) == 1.0


def test_a_role_drawn_at_its_common_scale_fits_every_paragraph_that_reached_it():
    texts = ["机器翻译。", TEXT, TEXT + "离线", "短"]
    alone = [fit(t, BOX, BOX, 10, measure) for t in texts]
    scale = common_scale(r.scale for r in alone)
    assert scale == min(r.scale for r in alone)
    drawn = [fit(t, BOX, BOX, 10, measure, largest=scale) for t in texts]
    assert {r.scale for r in drawn} == {scale} and all(_inside(r, BOX) for r in drawn)
