"""Hostile and oversized documents: refused with one line before the expensive work, or read in bounded pieces."""

from __future__ import annotations

import importlib

import pytest

from fanyi import limits
from fanyi.documents import DocumentTooLarge, translate_document
from fanyi.documents.registry import format_for

from docfixtures import leftovers, mark


def blocks_of(path):
    """The blocks a streamed format holds one at a time."""
    module = importlib.import_module(f"fanyi.documents.{format_for(path).module}")
    return list(module.parse(path.read_text(encoding="utf-8").splitlines(keepends=True)))


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("unclosed-fence.md", "Intro.\n\n```\n" + "x = 1\n" * 20_000, "x = 1\n" * 20_000),
        ("front-matter.md", "---\n" + "key: value\n" * 5_000 + "---\n\nText.\n", "key: value\n" * 5_000),
        ("indented.md", "Intro.\n\n" + "    code line\n" * 5_000, "    code line\n" * 5_000),
        ("list.md", "- item\n" + "  continued line of the same item\n" * 3_000, "- ⟦ITEM CONTINUED LINE"),
        ("no-blank-lines.srt", "1\n00:00:01,000 --> 00:00:02,000\n" + "Hello there.\n" * 5_000, "⟦HELLO THERE. HELLO THERE."),
    ],
)
def test_no_block_of_a_streamed_format_holds_more_than_the_unit_limit(tmp_path, translator, name, text, expected):
    src = tmp_path / name
    src.write_text(text, encoding="utf-8")
    assert len(text) > 2 * limits.MAX_UNIT_CHARS
    blocks = blocks_of(src)
    assert "".join(block.raw for block in blocks) == text
    assert max(len(block.raw) for block in blocks) <= limits.MAX_UNIT_CHARS
    out = translate_document(src, translator).output.read_text(encoding="utf-8")
    assert expected in out


@pytest.mark.parametrize("suffix", [".txt", ".md", ".srt"])
def test_a_line_longer_than_the_limit_is_refused_in_one_line(tmp_path, translator, suffix):
    src = tmp_path / f"one-line{suffix}"
    src.write_text("Hello there. " * (limits.MAX_LINE_CHARS // 13 + 10), encoding="utf-8")
    with pytest.raises(DocumentTooLarge, match=r"has a line longer than 1,048,576 characters \(line 1\)") as caught:
        translate_document(src, translator)
    assert "\n" not in str(caught.value)
    assert translator.calls == [] and leftovers(tmp_path) == [] and len(list(tmp_path.iterdir())) == 1


def test_a_line_just_at_the_limit_is_read_with_its_crlf(tmp_path, translator):
    line = "a" * (limits.MAX_LINE_CHARS - 1) + "."
    src = tmp_path / "edge.txt"
    src.write_bytes(f"{line}\r\n\r\nNext.\r\n".encode())
    out = translate_document(src, translator).output.read_bytes().decode()
    assert out == f"{mark(line)}\r\n\r\n{mark('Next.')}\r\n"
