"""What every document format shares: the unit of translation, the handler protocol, the report and the errors."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Protocol

from fanyi.cancel import CancelToken
from fanyi.engine import DecodeOptions, LanguageChoice, Translation, describe_lost_terms
from fanyi.limits import DETECT_SAMPLE_CHARS, REPORT_ENTRIES_PER_REASON, REPORT_REASONS
from fanyi.oneline import one_line

from .said import Said


class TextTranslator(Protocol):
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
        contexts: Sequence[str] | None = None,
        formatted: Sequence[bool] | None = None,
    ) -> list[Translation]: ...

    def languages(self, options: DecodeOptions | None) -> LanguageChoice: ...


@dataclass(frozen=True)
class Unit:
    """One piece of text translated as a whole (a paragraph, a cue, a table cell, an attribute)."""

    text: str
    where: str  # for the report: "body, paragraph 12", "slide 3", "cue 45"
    keep: str | None = None  # set by the handler when the unit must stay as it is, e.g. "code block"
    marked: str | None = None  # the text with its formatted spans <sn>…</sn>, where it has any (inline.py)
    # kept though it holds words a reader may miss (a PDF's text taken for a figure's, a reference list): the report
    # says where, and counts its letters against the translated ones
    words_left: bool = False


class DocumentHandler(Protocol):
    """An opened source document.

    ``units()`` may be called more than once and yields the same units each time (a first pass counts
    them; a second pass feeds the translator while ``write`` renders). ``write`` pulls exactly one item
    from ``translations`` per unit, in unit order: the translation, or None to leave the unit as it was.
    """

    notes: Sequence[str]  # said in the report (read once it is written): e.g. what a PDF drew smaller

    def units(self) -> Iterator[Unit]: ...

    def write(
        self, out: BinaryIO, translations: Iterator[str | None], *, bilingual: bool, target_lang: str
    ) -> None: ...


def sample(document: DocumentHandler, cancel: CancelToken | None = None) -> str:
    """The first of a document's text, enough to tell its language."""
    found = ""
    for unit in document.units():
        if cancel is not None:
            cancel.raise_if_cancelled()
        if not unit.keep and unit.text.strip():
            found += unit.text + "\n"
            if len(found) >= DETECT_SAMPLE_CHARS:
                break
    return found


@dataclass(frozen=True)
class Untranslated:
    """A unit that was not translated, and why."""

    where: str
    text: str
    reason: str


def describe(error: BaseException) -> str:
    """An exception (often a parser's, about hostile input) said in one line of readable length.

    A built-in exception's message alone can be cryptic (a KeyError's is the key), so it is named.
    """
    message = str(error)
    if not message or (type(error).__module__ == "builtins" and not isinstance(error, OSError)):
        message = f"{type(error).__name__}: {message}" if message else type(error).__name__
    return one_line(message, 160)


OTHER_REASONS = "other reasons"
REMOVED_NOTE = "{count} control characters that the model wrote and no document may hold were left out"


@dataclass
class JobReport:
    """Coverage of one job: every unit is counted as translated, kept or failed.

    ``kept_reasons``/``failed_reasons`` count every unit; ``kept``/``failed`` name only the first
    ``REPORT_ENTRIES_PER_REASON`` of each reason, so the report of a huge file stays small.
    """

    source: Path
    output: Path | None = None
    translated: int = 0
    kept: list[Untranslated] = field(default_factory=list)
    failed: list[Untranslated] = field(default_factory=list)
    kept_reasons: Counter[str] = field(default_factory=Counter)
    failed_reasons: Counter[str] = field(default_factory=Counter)
    notes: list[str] = field(default_factory=list)
    removed_characters: int = 0  # control characters a model wrote, which no document may hold (characters.py)
    lost_terms: list[str] = field(default_factory=list)  # glossary terms the model could not keep (engine/terms.py)
    translated_letters: int = 0
    left_letters: Counter[str] = field(default_factory=Counter)  # of kept units with words left, by reason

    def keep(self, unit: Unit, reason: str) -> None:
        reason = _tally(self.kept, self.kept_reasons, unit, reason)
        if unit.words_left:
            self.left_letters[reason] += letters(unit.text)

    @property
    def mostly_left(self) -> bool:
        """Whether more of the document's words were left as they were than were translated."""
        return sum(self.left_letters.values()) > self.translated_letters

    def left_said(self) -> Said:
        """The report's first line when most words were left: how many letters, and mostly why."""
        left = sum(self.left_letters.values())
        reasons = tuple(reason for reason, _count in self.left_letters.most_common(3))
        return Said("report.mostly_left", left=left, total=left + self.translated_letters, reasons=reasons)

    def fail(self, unit: Unit, reason: str) -> None:
        _tally(self.failed, self.failed_reasons, unit, reason)

    @property
    def kept_count(self) -> int:
        return sum(self.kept_reasons.values())

    @property
    def failed_count(self) -> int:
        return sum(self.failed_reasons.values())

    @property
    def total(self) -> int:
        return self.translated + self.kept_count + self.failed_count

    def summary(self) -> str:
        target = f" → {self.output}" if self.output else ""
        lines = [f"{self.left_said()}."] if self.mostly_left else []
        lines += [f"{self.source}{target}", f"  translated: {self.translated} of {self.total} units"]
        if self.kept_reasons:
            reasons = ", ".join(f"{reason}: {count}" for reason, count in sorted(self.kept_reasons.items()))
            lines.append(f"  left as they were: {self.kept_count} ({reasons})")
            for reason in self.left_letters:  # where the words a reader may miss are
                named = [e for e in self.kept if e.reason == reason]
                lines.extend(f"    - {e.where} “{e.text}”: {reason}" for e in named)
                if self.kept_reasons[reason] > len(named):
                    lines.append(f"    … and {self.kept_reasons[reason] - len(named)} more: {reason}")
        if self.failed_reasons:
            lines.append(f"  failed: {self.failed_count}")
            for reason, count in self.failed_reasons.items():
                named = [e for e in self.failed if e.reason == reason]
                lines.extend(f"    - {e.where} “{e.text}”: {reason}" for e in named)
                if count > len(named):
                    lines.append(f"    … and {count - len(named)} more: {reason}")
        if self.removed_characters:
            lines.append(f"  note: {REMOVED_NOTE.format(count=self.removed_characters)}")
        if self.lost_terms:
            lines.append(f"  note: {describe_lost_terms(self.lost_terms)}")
        lines.extend(f"  note: {note}" for note in self.notes)
        return "\n".join(lines)


def _tally(named: list[Untranslated], counts: Counter[str], unit: Unit, reason: str) -> str:
    """Count ``unit`` under ``reason`` (named, if among the first of it); the reason it was counted under."""
    if not isinstance(reason, Said):  # a line with a kind is one line already, and keeps its kind (documents.said)
        reason = one_line(reason, 200)
    if reason not in counts and len(counts) >= REPORT_REASONS:
        reason = OTHER_REASONS
    counts[reason] += 1
    if counts[reason] <= REPORT_ENTRIES_PER_REASON:
        named.append(Untranslated(unit.where, one_line(unit.text, 60), reason))
    return reason


def letters(text: str) -> int:
    """The letters of ``text``: what a report weighs translated and left text by (a unit of numbers weighs none)."""
    return sum(char.isalpha() for char in text)


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


class DocumentTooLarge(DocumentError):
    """The document goes past one of the bounds in ``fanyi.limits`` (or memory ran out): nothing is written."""


class TranslationFailed(DocumentError):
    """Not a single unit could be translated: no output is written."""
