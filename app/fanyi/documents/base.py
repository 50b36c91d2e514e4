"""What every document format shares: the unit of translation, the handler protocol, the report and the errors."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Protocol

from fanyi.engine.options import CancelToken, DecodeOptions
from fanyi.engine.results import Translation


class Translator(Protocol):
    """The part of ``fanyi.engine.translator.Translator`` that documents need."""

    @property
    def source_lang(self) -> str: ...  # e.g. "en"

    @property
    def target_lang(self) -> str: ...  # e.g. "zh"

    def translate_results(
        self,
        texts: list[str],
        options: DecodeOptions | None = None,
        progress: Callable[[int, int], None] | None = None,
        cancel: CancelToken | None = None,
    ) -> list[Translation]: ...


@dataclass(frozen=True)
class Unit:
    """One piece of text translated as a whole (a paragraph, a cue, a table cell, an attribute)."""

    text: str
    where: str  # for the report: "body, paragraph 12", "slide 3", "cue 45"
    keep: str | None = None  # set by the handler when the unit must stay as it is, e.g. "code block"


class DocumentHandler(Protocol):
    """An opened source document.

    ``units()`` may be called more than once and yields the same units each time (a first pass counts
    them; a second pass feeds the translator while ``write`` renders). ``write`` pulls exactly one item
    from ``translations`` per unit, in unit order: the translation, or None to leave the unit as it was.
    """

    notes: tuple[str, ...]  # said in the report, e.g. that a PDF's page layout is not kept

    def units(self) -> Iterator[Unit]: ...

    def write(
        self, out: BinaryIO, translations: Iterator[str | None], *, bilingual: bool, target_lang: str
    ) -> None: ...


@dataclass(frozen=True)
class Entry:
    """A unit that was not translated, and why."""

    where: str
    text: str
    reason: str


def preview(text: str, width: int = 60) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


@dataclass
class JobReport:
    """Coverage of one job: every unit is counted as translated, kept or failed."""

    source: Path
    output: Path | None = None
    translated: int = 0
    kept: list[Entry] = field(default_factory=list)
    failed: list[Entry] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def keep(self, unit: Unit, reason: str) -> None:
        self.kept.append(Entry(unit.where, preview(unit.text), reason))

    def fail(self, unit: Unit, reason: str) -> None:
        self.failed.append(Entry(unit.where, preview(unit.text), reason))

    @property
    def total(self) -> int:
        return self.translated + len(self.kept) + len(self.failed)

    def kept_by_reason(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for entry in self.kept:
            counts[entry.reason] = counts.get(entry.reason, 0) + 1
        return counts

    def summary(self) -> str:
        target = f" → {self.output}" if self.output else ""
        lines = [f"{self.source}{target}", f"  translated: {self.translated} of {self.total} units"]
        kept = self.kept_by_reason()
        if kept:
            reasons = ", ".join(f"{reason}: {count}" for reason, count in sorted(kept.items()))
            lines.append(f"  left as they were: {len(self.kept)} ({reasons})")
        if self.failed:
            lines.append(f"  failed: {len(self.failed)}")
            lines.extend(f"    - {e.where} “{e.text}”: {e.reason}" for e in self.failed)
        lines.extend(f"  note: {note}" for note in self.notes)
        return "\n".join(lines)


class DocumentError(Exception):
    """A document could not be translated; ``str()`` is a sentence for a person, naming the file."""

    def __init__(self, path: str | os.PathLike[str], message: str) -> None:
        super().__init__(message)
        self.path = Path(path)


class UnsupportedFormat(DocumentError):
    pass


class CorruptDocument(DocumentError):
    pass


class NotTextFile(CorruptDocument):
    """A file named like text that holds binary data or an encoding we cannot tell."""


class EncryptedDocument(DocumentError):
    pass


class NoTextFound(DocumentError):
    """Empty, scanned, or nothing in it needs translating: no output is written."""


class NotReadable(DocumentError):
    pass


class NotWritable(DocumentError):
    pass


class TranslationFailed(DocumentError):
    """Not a single unit could be translated: no output is written."""
