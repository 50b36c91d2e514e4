"""fanyi.ocr.layout: reading order and paragraphs of recognised lines, on boxes laid out by hand."""

from __future__ import annotations

from fanyi.ocr import Line
from fanyi.ocr.layout import paragraphs, reading_order, text

H = 20  # a line's height in these layouts


def line(text: str, x: int, y: int, width: int | None = None) -> Line:
    return Line(text, (x, y, x + (width if width is not None else 10 * len(text)), y + H), 0.99)


def test_rows_are_read_top_to_bottom_and_left_to_right_whatever_order_they_come_in():
    lines = [line("world", 200, 102), line("second", 10, 130), line("Hello", 10, 100)]
    assert [ln.text for ln in reading_order(lines)] == ["Hello", "world", "second"]


def test_pieces_of_one_row_are_joined_with_a_space_but_chinese_with_nothing():
    assert text([line("Hello", 10, 10), line("world.", 70, 11)]) == "Hello world."
    assert text([line("今天天气", 10, 10), line("很好。", 60, 10)]) == "今天天气很好。"
    assert text([line("Fanyi", 10, 10), line("翻译", 70, 10)]) == "Fanyi 翻译"


def test_a_wrapped_sentence_is_joined_and_a_gap_starts_a_paragraph():
    lines = [
        line("A sentence that is wrapped over", 10, 10),
        line("two lines.", 10, 34),
        line("Another paragraph.", 10, 34 + H + 2 * H),
    ]
    assert paragraphs(lines) == ["A sentence that is wrapped over two lines.", "Another paragraph."]


def test_a_first_line_indent_starts_a_paragraph():
    lines = [
        line("The end of one paragraph here.", 10, 10),
        line("A new one begins indented", 60, 34),
        line("and continues here.", 10, 58),
    ]
    assert paragraphs(lines) == ["The end of one paragraph here.", "A new one begins indented and continues here."]


def test_lines_ending_sentences_keep_their_breaks():
    lines = [line("File", 10, 10), line("Edit", 10, 34), line("View", 10, 58)]
    assert paragraphs(lines) == ["File\nEdit\nView"]


def test_a_title_then_two_columns_of_text():
    title = line("A title across the page", 200, 10)
    left = [line(f"left column line {i} of its text", 10, 60 + 24 * i, 400) for i in range(3)]
    right = [line(f"right column line {i} of its text", 500, 60 + 24 * i, 400) for i in range(3)]
    order = [ln.text for ln in reading_order([title, *right, *left])]
    assert order == [title.text, *(ln.text for ln in left), *(ln.text for ln in right)]


def test_a_column_with_a_blank_line_stays_a_column():
    left = [
        line("left text one two three four", 10, 10, 400),
        line("left text five six", 10, 34, 400),
        line("left text seven eight", 10, 58, 400),
    ]
    right = [line("right text one two three four", 500, 10, 400), line("right text after a gap", 500, 58, 400)]
    assert [ln.text for ln in reading_order(left + right)] == [ln.text for ln in left + right]


def test_labels_and_values_of_a_form_are_read_across_not_as_columns():
    lines = [line("Name:", 10, 10), line("Ada Lovelace", 300, 10), line("Born:", 10, 34), line("1815", 300, 34)]
    assert [ln.text for ln in reading_order(lines)] == ["Name:", "Ada Lovelace", "Born:", "1815"]


def test_no_lines_no_text():
    assert reading_order([]) == [] and paragraphs([]) == [] and text([]) == ""
