"""What a translation gives back besides text: the sentences that failed, and the stream's events.

A sentence fails when its translation degenerates (see degenerate.py) and decoding it again with a
guard does not help. Its place in the text then holds the source sentence, as it was, and the result
lists it, so a caller can say so (a document's coverage report, the app's warning, the CLI's stderr).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .degenerate import REASONS


@dataclass(frozen=True)
class Failure:
    """A sentence (or part of an over-long one) left untranslated. As a stream event it follows the
    sentence's text, which is the source sentence itself."""

    source: str
    kind: str  # degenerate.LOOP, RUNAWAY or EMPTY

    @property
    def reason(self) -> str:
        return REASONS[self.kind]


@dataclass(frozen=True)
class Rewind:
    """Stream event: drop the last `chars` characters received. They are the text streamed so far
    of the sentence being translated, which is decoded again (or given up on)."""

    chars: int


StreamEvent = str | Rewind | Failure


@dataclass(frozen=True)
class Translation:
    text: str
    failures: tuple[Failure, ...] = ()

    @classmethod
    def collect(cls, events: Iterable[StreamEvent]) -> Translation:
        """What a stream adds up to: its text pieces, rewinds applied, and its failures."""
        pieces: list[str] = []
        failures: list[Failure] = []
        for event in events:
            if isinstance(event, str):
                pieces.append(event)
            elif isinstance(event, Rewind):
                text = "".join(pieces)
                pieces = [text[: len(text) - event.chars]]
            else:
                failures.append(event)
        return cls("".join(pieces), tuple(failures))
