"""What a translation gives back besides text: the sentences that failed, the glossary terms lost, and the
stream's events.

A sentence fails when its translation degenerates (see degenerate.py) and decoding it again with a
guard does not help. Its place in the text then holds the source sentence, as it was, and the result
lists it, so a caller can say so (a document's coverage report, the app's warning, the CLI's stderr).
A glossary term is lost when an encoder-decoder model breaks the placeholder that stood for it
(engine/terms.py): its sentence is translated without the glossary, and the result names the term.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from fanyi.limits import REPORT_ENTRIES_PER_REASON

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


@dataclass(frozen=True)
class TermLost:
    """Stream event: the glossary's term could not be kept (the model broke its placeholder); the sentence
    streamed before it was translated without the glossary."""

    term: str


StreamEvent = str | Rewind | Failure | TermLost


@dataclass(frozen=True)
class Translation:
    text: str
    failures: tuple[Failure, ...] = ()
    lost_terms: tuple[str, ...] = ()  # glossary terms whose sentences were translated without them

    @classmethod
    def collect(cls, events: Iterable[StreamEvent]) -> Translation:
        """What a stream adds up to: its text pieces, rewinds applied, its failures and lost terms."""
        pieces: list[str] = []
        failures: list[Failure] = []
        lost: list[str] = []
        for event in events:
            if isinstance(event, str):
                pieces.append(event)
            elif isinstance(event, Rewind):
                text = "".join(pieces)
                pieces = [text[: len(text) - event.chars]]
            elif isinstance(event, TermLost):
                lost.append(event.term)
            else:
                failures.append(event)
        return cls("".join(pieces), tuple(failures), tuple(dict.fromkeys(lost)))


def describe_failures(failures: Sequence[Failure]) -> str:
    """One line, however many: how many sentences are left as they were, and why, naming the first few
    of each reason (as a document's report does): the command line's warning, the local API's log."""

    def quoted(text: str) -> str:
        return f"“{text}”" if len(text) <= 60 else f"“{text[:59]}…”"

    by_reason: dict[str, list[str]] = {}
    for failure in failures:
        by_reason.setdefault(failure.reason, []).append(failure.source)
    parts = []
    for reason, sources in by_reason.items():
        named = list(dict.fromkeys(sources))[:REPORT_ENTRIES_PER_REASON]  # a sentence said again is not named again
        parts += [f"{quoted(source)} ({reason})" for source in named]
        if len(sources) > len(named):
            parts.append(f"{len(sources) - len(named)} more ({reason})")
    left = "1 sentence is" if len(failures) == 1 else f"{len(failures)} sentences are"
    return f"{left} left untranslated: " + "; ".join(parts)


def describe_lost_terms(terms: Sequence[str]) -> str:
    """One line: the glossary terms an encoder-decoder model could not keep (the CLI's warning)."""
    named = ", ".join(f"“{term}”" for term in terms[:REPORT_ENTRIES_PER_REASON])
    if len(terms) > REPORT_ENTRIES_PER_REASON:
        named += f" and {len(terms) - REPORT_ENTRIES_PER_REASON} more"
    placeholders, sentences = (
        ("its placeholder", "its sentence was") if len(terms) == 1 else ("their placeholders", "their sentences were")
    )
    return (
        f"the glossary's {named} could not be kept (the model broke {placeholders}): {sentences} translated without "
        "the glossary"
    )
