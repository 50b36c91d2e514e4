"""A translation's stream converted by OpenCC (fanyi.variants) as it comes."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .. import variants
from .results import Rewind, StreamEvent

# a converted stream's text up to the end of one of these is final: no OpenCC phrase spans them
_SETTLED = frozenset("。！？；!?;\n")


def convert_stream(events: Iterable[StreamEvent], region: str) -> Iterator[StreamEvent]:
    """A translation's stream (text pieces, Rewinds, Failures) converted as it comes.

    A phrase may be split between two pieces (软 then 件: 軟 then 體, where 軟件 alone would be wrong),
    and a later character can change an earlier one (干 then 净: 乾淨), so the text since the last
    sentence end is converted again at every piece, and what changed on screen is taken back with a
    Rewind and written again. Applying the events in order gives exactly ``convert`` of the whole
    Simplified text whenever no phrase spans a sentence end (OpenCC's dictionaries hold none).
    """
    source = ""  # the Simplified text so far
    settled: list[tuple[int, int]] = [(0, 0)]  # (source, shown) lengths at sentence ends already final
    shown = ""  # what the events given out add up to
    for event in events:
        if isinstance(event, str):
            source += event
        elif isinstance(event, Rewind):
            source = source[: len(source) - event.chars]
            while settled[-1][0] > len(source):
                settled.pop()
        else:
            yield event  # a Failure: its sentence is the source text, already given out
            continue
        start, kept = settled[-1]
        tail = variants.convert(source[start:], region)
        common = _common_prefix(shown[kept:], tail)
        if taken := len(shown) - kept - common:
            yield Rewind(taken)
        if added := tail[common:]:
            yield added
        shown = shown[:kept] + tail
        end = max((start + i + 1 for i, c in enumerate(source[start:]) if c in _SETTLED), default=start)
        if end > start and tail.startswith(head := variants.convert(source[start:end], region)):
            settled.append((end, kept + len(head)))


def _common_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n
