"""fanyi.oneline: what error messages, reports and previews are cut with."""

from __future__ import annotations

from fanyi.oneline import error_line, one_line


def test_one_line_joins_lines_and_cuts_at_the_width_with_an_ellipsis():
    assert one_line("  a\n\tb  c \r\n") == "a b c"
    assert one_line("abcdef", 6) == "abcdef"
    assert one_line("abcdefg", 6) == "abcde…" and len(one_line("x" * 1000, 40)) == 40


def test_an_error_without_a_message_is_named_by_its_type():
    assert error_line(KeyError()) == "KeyError"
    assert error_line(ValueError("bad\nvalue"), 5) == "bad …"
