"""Sections cut into chunks a model reads whole: at paragraph bounds, a paragraph too long for one chunk at the
punctuation nearest its middle (engine.segment.limit_length), never across a section when an outline is asked.

`count(text)` is how many tokens the model reads for `text` (its special tokens, an LLM's whole prompt); a
chunk's count is at most `budget`. Paragraphs are counted one at a time and packed by the sum of their counts;
a chunk whose joined text counts more than the sum (a merge across the blank line) is halved until it fits.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..engine import limit_length
from .sections import Section

Count = Callable[[str], int]
JOINER = "\n\n"


@dataclass(frozen=True)
class Chunk:
    section: int  # the index of the section it belongs to (of its first paragraph's, across sections)
    text: str


def _pieces(paragraph: str, room: int, count: Count, overhead: int) -> list[str]:
    """The paragraph, or its parts cut to fit `room` tokens of text."""
    return [p.strip() for p in limit_length(paragraph, room, lambda s: count(s) - overhead) if p.strip()]


def _fit(section: int, pieces: list[str], budget: int, count: Count) -> list[Chunk]:
    text = JOINER.join(pieces)
    if len(pieces) == 1 or count(text) <= budget:
        return [Chunk(section, text)]
    half = len(pieces) // 2
    return _fit(section, pieces[:half], budget, count) + _fit(section, pieces[half:], budget, count)


def chunk_sections(sections: Sequence[Section], budget: int, count: Count, *, across: bool) -> list[Chunk]:
    """The sections' paragraphs in chunks of at most `budget` tokens each, in order; `across`: a chunk may hold
    the end of one section and the start of the next (a short summary), else each section is chunked alone."""
    overhead = count("")
    room = budget - overhead
    if room < 1:
        raise ValueError(f"the model reads {budget} tokens, which its prompt alone takes")
    chunks: list[Chunk] = []
    held: list[str] = []
    held_tokens, held_section = 0, 0

    def flush() -> None:
        nonlocal held, held_tokens
        if held:
            chunks.extend(_fit(held_section, held, budget, count))
        held, held_tokens = [], 0

    for index, section in enumerate(sections):
        if not across:
            flush()
        for paragraph in section.paragraphs:
            for piece in _pieces(paragraph, room, count, overhead):
                tokens = count(piece) - overhead + 1  # and the blank line joining it
                if held and held_tokens + tokens > room:
                    flush()
                if not held:
                    held_section = index
                held.append(piece)
                held_tokens += tokens
    flush()
    return chunks
