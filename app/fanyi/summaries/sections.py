"""A long text as sections of paragraphs: where a summary may be cut, and what a per-section outline is made of.

A paragraph is a block of lines between blank lines (a document's unit is one). A section starts at a heading:
a Markdown heading line ("## Results"), or a paragraph of one short line that does not end a sentence ("1
Introduction", "Abstract", "CHAPTER TWO"), as the headings of papers, reports and manuals are laid out. The
text before the first heading is a section without a title. Hard-wrapped lines (a PDF's, a .txt's) are joined
as the engine joins them for translation.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ..engine import join_hard_wrapped

HEADING_CHARS = 80  # a longer line is a sentence or a caption, not a heading
MARKDOWN_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$")
SENTENCE_END = re.compile(r"[.!?;:,。！？；：，…]['\"”’)）]*$")
BLANK_LINES = re.compile(r"\n\s*\n")


@dataclass(frozen=True)
class Section:
    title: str  # "" before the first heading
    paragraphs: tuple[str, ...]

    @property
    def text(self) -> str:
        return "\n\n".join(self.paragraphs)


def heading(paragraph: str) -> str | None:
    """The paragraph's heading text, if it is one."""
    if "\n" in paragraph.strip():
        return None
    line = paragraph.strip()
    if found := MARKDOWN_HEADING.match(line):
        return found.group(1)
    if not line or len(line) > HEADING_CHARS or SENTENCE_END.search(line) or not any(c.isalpha() for c in line):
        return None
    return line


def sections_of(paragraphs: Iterable[str]) -> list[Section]:
    """Paragraphs (a document's units, a text's blocks) grouped under their headings; empty ones dropped."""
    found: list[Section] = []
    title = ""
    body: list[str] = []
    every: list[str] = []
    for paragraph in paragraphs:
        text = paragraph.strip()
        if not text:
            continue
        every.append(text)
        if (name := heading(text)) is not None:
            if body or title:
                found.append(Section(title, tuple(body)))
            title, body = name, []
        else:
            body.append(text)
    if body or title:
        found.append(Section(title, tuple(body)))
    kept = [s for s in found if s.paragraphs]
    # nothing but headings (a list of short lines, a title page): the lines are the text
    return kept or ([Section("", tuple(every))] if every else [])


def paragraphs_of(text: str) -> list[str]:
    """A plain text's paragraphs: blocks between blank lines, hard-wrapped lines joined, and a heading on the
    block's first line ("1 Introduction" right above its text) a paragraph of its own."""
    found: list[str] = []
    for block in BLANK_LINES.split(text.replace("\r\n", "\n")):
        if not block.strip():
            continue
        first, _, rest = join_hard_wrapped(block.strip()).partition("\n")
        if rest.strip() and heading(first) is not None:
            found += [first, rest.strip()]
        else:
            found.append(f"{first}\n{rest}" if rest else first)
    return found
