"""One document, start to end: open, decide what to translate, translate in bounded batches, write atomically."""

from __future__ import annotations

import contextlib
import itertools
import os
import re
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, cast

from fanyi.cancel import Cancelled, CancelToken
from fanyi.engine import DecodeOptions, Failure
from fanyi.fsutil import Staged, staged, sweep_stale
from fanyi.oneline import one_line
from fanyi.progress import ProgressCallback

from .base import (
    DocumentError,
    DocumentTooLarge,
    JobReport,
    NoTextFound,
    NotReadable,
    NotWritable,
    TextTranslator,
    TranslationFailed,
    Unit,
    letters,
    sample,
)
from .characters import scrub
from .policy import keep_reason
from .registry import Format, format_for
from .said import Said, model_failed, said

# Units are read in windows so that memory stays bounded for a file of any size; inside a window,
# texts are deduplicated and sorted by length so that a batch pads little.
NAME_MAX = 255  # bytes of a file name: ext4, XFS, btrfs, APFS (as UTF-8); NTFS counts 255 UTF-16 units
WINDOW_UNITS = 256
WINDOW_CHARS = 64_000
BATCH_UNITS = 16
BATCH_CHARS = 4_000


@dataclass(frozen=True)
class Written:
    """How a document's translation is written: with the original beside it (``bilingual``; a PDF's pages
    side by side or alternating, ``layout``) and what a format that can be more than one kind becomes (``to``:
    "docx" for a PDF's text)."""

    bilingual: bool = False
    layout: str = "side"
    to: str | None = None


@dataclass(frozen=True)
class JobResult:
    output: Path
    report: JobReport


def output_language(translator: TextTranslator, target: str | None) -> str:
    """The language in an output's name: the pack's language (``zh``) for its default target; the
    target's own code for any other variant (``cmn_Hant``, ``yue``) and for a many-to-many pack, whose
    own language is "many" (``zh_CN``, ``zho_Hant``)."""
    default = getattr(translator, "default_target", None)
    chosen = target or default
    if chosen is None or (chosen == default and not getattr(translator, "target_languages", ())):
        return translator.target_lang
    return chosen


def document_language(translator: TextTranslator, options: DecodeOptions | None) -> str:
    """The code lang attributes get: the language ("zh"), not a pack's target token ("cmn_Hans"), and
    for a many-to-many pack the request's target language rather than the pack's "many" ("mul")."""
    languages = getattr(translator, "languages", None)  # fanyi.engine.translator.Translator has it
    return languages(options).target_lang if languages is not None else translator.target_lang


def output_path_for(
    src: Path, target_lang: str, folder: Path | None = None, to: str | None = None, *, bilingual: bool = False
) -> Path:
    """``name.zh.ext`` next to the source (or in ``folder``), numbered ``name.zh.1.ext`` … when taken; a bilingual
    output is ``name.zh.bilingual.ext``, so it never passes for the plain translation beside it."""
    return next(path for path in _output_names(src, target_lang, folder, to, bilingual) if not path.exists())


def _output_names(
    src: Path, target_lang: str, folder: Path | None, to: str | None = None, bilingual: bool = False
) -> Iterator[Path]:
    suffix = format_for(src).output_suffix(src, to)
    language = re.sub(r"[^A-Za-z0-9_-]", "", target_lang) or "translated"
    if bilingual:
        language += ".bilingual"
    folder = src.parent if folder is None else folder
    limit = _longest_name(folder)
    yield folder / _fitted(src.stem, f".{language}{suffix}", limit)
    for number in itertools.count(1):
        yield folder / _fitted(src.stem, f".{language}.{number}{suffix}", limit)


def _longest_name(folder: Path) -> int:
    """The longest file name ``folder``'s file system takes, in bytes (255 on nearly every one)."""
    try:
        return min(os.pathconf(folder, "PC_NAME_MAX"), NAME_MAX)
    except (AttributeError, OSError, ValueError):  # Windows has no pathconf; a folder that does not exist yet
        return NAME_MAX


def _fitted(stem: str, tail: str, limit: int) -> str:
    """``stem + tail``, the stem cut short (between characters) when the whole would be longer than
    ``limit`` bytes: a source name near the limit must not make its output's name too long."""
    room = limit - len(os.fsencode(tail))
    while stem and len(os.fsencode(stem)) > room:
        stem = stem[:-1]
    return (stem.rstrip(" .") or "translated") + tail


def translate_document(
    src: Path,
    translator: TextTranslator,
    *,
    dst: Path | None = None,
    overwrite: bool = False,
    bilingual: bool = False,
    layout: str = "side",
    to: str | None = None,
    options: DecodeOptions | None = None,
    progress: ProgressCallback | None = None,
    cancel: CancelToken | None = None,
    instead: Callable[[str], TextTranslator | None] | None = None,
) -> JobResult:
    """Translate ``src`` into a new file; raises a DocumentError (nothing written) or Cancelled.

    ``instead``: given the document's first text (once it is open: a document is read once), what
    translates it instead of ``translator`` and ``options``, or None (the router's answer for a Chinese
    document asked for in Chinese: fanyi.rewriter).

    Without ``dst`` (or with a folder) the output is ``name.zh.ext`` there (see ``output_language``),
    or the first free ``name.zh.N.ext``; the name is claimed atomically when the output is complete, so two jobs on one
    source never replace each other's output. An existing ``dst`` file is replaced only with
    ``overwrite``.

    ``to``: what to write, where the format can be written as something else ("docx" for a PDF);
    ``layout``: a bilingual PDF's pages side by side ("side") or alternating ("alternate").
    """
    src = Path(src)
    fmt = check_source(src)
    given = Path(dst) if dst is not None else None
    named = given if given is not None and not given.is_dir() else None  # a file's name, not a folder's
    folder = given if named is None else None
    fmt.output_suffix(src, to)  # a kind it cannot be written as is refused before anything is read
    dst, names = _output(src, translator, options, named, folder, to, bilingual)
    _check_writable(src, dst, overwrite=overwrite)
    sweep_stale(dst.parent)
    try:
        document = fmt.open(src, cancel, progress, to=to, bilingual=layout)
        if instead is not None and (other := instead(sample(document, cancel))) is not None:
            translator, options = other, None
            if named is None:
                dst, names = _output(src, translator, options, None, folder, to, bilingual)
        target = (options.target if options is not None else None) or translator.target_lang
        if getattr(translator, "rewrites", False):  # fanyi.rewriter: Chinese written anew; none kept as Chinese
            target = ""
        total, kept = _count(document.units(), target, cancel)
    except MemoryError:
        raise _out_of_memory(src) from None
    except OSError as error:
        raise NotReadable(src, f"Could not read {src}: {error.strerror or error}.") from error
    if total == 0:
        raise NoTextFound(src, f"{src} has nothing to translate ({_describe(kept)}).")
    report = JobReport(src)
    translating = _Translating(translator, target, options, report, progress, cancel, total)
    results = translating.results(document.units())
    try:
        with staged(dst) as stage:
            document.write(
                cast(BinaryIO, stage.file),
                results,
                bilingual=bilingual,  # staged "wb"
                target_lang=document_language(translator, options),
            )
            report.notes = list(document.notes)  # a writer adds to them (a PDF: what it drew smaller)
            for unit, unplaced in getattr(document, "unplaced", ()):  # translated, but the output cannot show it
                report.translated -= 1
                report.translated_letters -= letters(unit.text)
                report.fail(unit, unplaced)
            if report.translated <= 0:
                reason = report.failed[0].reason if report.failed else "no translation came back"
                raise TranslationFailed(src, f"{src}: none of its text could be translated: {reason}.")
            dst = _publish(stage, names, replace=named is not None and overwrite)  # numbered names never replace
    except (DocumentError, Cancelled):
        raise
    except MemoryError:
        raise _out_of_memory(src) from None
    except OSError as error:
        raise NotWritable(dst, f"Could not write {dst}: {error.strerror or error}.") from error
    report.output = dst
    return JobResult(dst, report)


def _output(
    src: Path,
    translator: TextTranslator,
    options: DecodeOptions | None,
    named: Path | None,
    folder: Path | None,
    to: str | None,
    bilingual: bool,
) -> tuple[Path, Iterator[Path]]:
    """The output's name, and the names to claim in turn: ``named`` alone, else ``name.zh.ext`` in ``folder``
    (the source's by default) and its numbered followers."""
    if named is not None:
        return named, iter([named])
    # Taiwan's or Hong Kong's Traditional (OpenCC) named as such: name.zh-TW.ext
    target = options.target if options is not None else None
    language = (options.convert if options is not None else None) or output_language(translator, target)
    names = _output_names(src, language, folder, to, bilingual)
    return output_path_for(src, language, folder, to, bilingual=bilingual), names


def _publish(stage: Staged, names: Iterator[Path], *, replace: bool) -> Path:
    """Give the finished output the first of ``names`` that is free (taken ones are left alone unless ``replace``)."""
    for name in names:
        with contextlib.suppress(FileExistsError):
            stage.publish(name, overwrite=replace)
            return name
    raise NotWritable(name, f"{name} was created by someone else while translating; it was not replaced.")


def _out_of_memory(src: Path) -> DocumentTooLarge:
    return DocumentTooLarge(src, f"{src} needs more memory than is free; nothing was written.")


def check_source(src: Path) -> Format:
    """The source's format, once it is known to be a readable, non-empty file: cheap checks, no parsing."""
    fmt = format_for(src)
    try:
        size = src.stat().st_size
        if not src.is_file():
            raise NotReadable(src, f"{src} is not a file.")
        with src.open("rb"):
            pass
    except FileNotFoundError:
        raise NotReadable(src, f"{src} does not exist.") from None
    except PermissionError:
        raise NotReadable(src, f"{src} cannot be read (permission denied).") from None
    if size == 0:
        raise NoTextFound(src, f"{src} is empty.")
    return fmt


def _check_writable(src: Path, dst: Path, *, overwrite: bool) -> None:
    """Fail before translating, not after: the folder must exist and take a new file, and ``dst`` be ours."""
    if dst.exists() and dst.resolve() == src.resolve():
        raise NotWritable(dst, f"Will not write over the source {src}; choose another output name.")
    if dst.exists() and not overwrite:
        raise NotWritable(dst, f"{dst} already exists; choose another name, or allow replacing it (--overwrite).")
    folder = dst.parent
    if not folder.is_dir():
        raise NotWritable(dst, f"Cannot write {dst}: the folder {folder} does not exist.")
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        raise NotWritable(dst, f"Cannot write {dst}: {error.strerror or error}.") from error


def _count(units: Iterable[Unit], target: str, cancel: CancelToken | None) -> tuple[int, Counter[str]]:
    total, kept = 0, Counter[str]()
    for number, unit in enumerate(units):
        if cancel is not None and number % 1024 == 0:
            cancel.raise_if_cancelled()
        reason = _reason(unit, target)
        if reason is None:
            total += 1
        elif unit.text.strip():
            kept[reason] += 1
    return total, kept


def _describe(kept: Counter[str]) -> str:
    if not kept:
        return "it holds no text"
    return "everything in it is left as it is: " + ", ".join(f"{reason} ({n})" for reason, n in kept.items())


def _reason(unit: Unit, target: str) -> str | None:
    return unit.keep or keep_reason(unit.text, target)


# what a unit is sent as: its text (its formatted spans marked <sn>…</sn> where the pack takes that), the text
# before it (empty unless the pack takes context), and whether it is marked
_Key = tuple[str, str, bool]


class _Translating:
    """Feeds units to the translator window by window and yields one result per unit."""

    def __init__(
        self,
        translator: TextTranslator,
        target: str,
        options: DecodeOptions | None,
        report: JobReport,
        progress: ProgressCallback | None,
        cancel: CancelToken | None,
        total: int,
    ) -> None:
        self._translator = translator
        self._target = target
        self._options = options
        self._report = report
        self._progress = progress
        self._cancel = cancel
        self._total = total
        self._done = 0
        # an LLM pack is given each paragraph's predecessor (its context prompt): then the same text in
        # two places is two translations, and a unit is known by its text and what came before it
        self._context = bool(getattr(translator, "takes_context", False))
        # a paragraph whose markup is marked goes through the card's formatted-translation prompt (HY-MT1.5),
        # and the model places the marks in its translation (inline.py reads them)
        self._formatted = bool(getattr(translator, "takes_formatted", False))
        self._previous = ""

    def results(self, units: Iterable[Unit]) -> Iterator[str | None]:
        self._tick(0)
        window: list[Unit] = []
        size = 0
        for unit in units:
            window.append(unit)
            size += len(unit.text)
            if len(window) >= WINDOW_UNITS or size >= WINDOW_CHARS:
                yield from self._window(window)
                window, size = [], 0
        yield from self._window(window)

    def _tick(self, done: int) -> None:
        self._done += done
        if self._progress is not None:
            self._progress(self._done, self._total)

    def _keys(self, window: list[Unit]) -> list[_Key]:
        keys = []
        for unit in window:
            text = unit.text.strip()
            marked = unit.marked.strip() if self._formatted and unit.marked else None
            keys.append((marked or text, self._previous if self._context else "", marked is not None))
            if text:
                self._previous = text
        return keys

    def _window(self, window: list[Unit]) -> list[str | None]:
        reasons = [_reason(unit, self._target) for unit in window]
        keys = self._keys(window)
        wanted = Counter(key for key, reason in zip(keys, reasons) if reason is None)
        translated: dict[_Key, tuple[str, int]] = {}  # the text, and the characters scrubbed out of it
        failed: dict[_Key, str] = {}
        for batch in _batches(sorted(wanted, key=lambda key: len(key[0]))):
            self._translate(batch, translated, failed)
            self._tick(sum(wanted[key] for key in batch))
        results: list[str | None] = []
        for unit, reason, key in zip(window, reasons, keys):
            text = unit.text.strip()
            if reason is not None:
                if text:
                    self._report.keep(unit, reason)
                results.append(None)
            elif key in failed:
                self._report.fail(unit, failed[key])
                results.append(None)
            else:
                text, removed = translated[key]
                self._report.translated += 1
                self._report.translated_letters += letters(unit.text)
                self._report.removed_characters += removed
                results.append(text)
        return results

    def _translate(self, batch: list[_Key], translated: dict[_Key, tuple[str, int]], failed: dict[_Key, str]) -> None:
        """Translate a batch; when it fails, each text alone, so one bad text fails only itself."""
        if self._cancel is not None:
            self._cancel.raise_if_cancelled()
        texts = [text for text, _context, _marked in batch]
        extra: dict[str, Any] = {"contexts": [context for _text, context, _marked in batch]} if self._context else {}
        if self._formatted:
            extra["formatted"] = [marked for _text, _context, marked in batch]
        try:
            outputs = self._translator.translate_results(texts, self._options, cancel=self._cancel, **extra)
            if len(outputs) != len(batch):
                raise ValueError(f"the translator returned {len(outputs)} results for {len(batch)} texts")
        except Cancelled:
            raise
        except Exception as error:  # noqa: BLE001 - any engine failure becomes a reported unit failure
            if len(batch) > 1:
                for text in batch:
                    self._translate([text], translated, failed)
            else:
                failed[batch[0]] = f"{type(error).__name__}: {error}"
            return
        for key, output in zip(batch, outputs):
            self._report.lost_terms += [t for t in output.lost_terms if t not in self._report.lost_terms]
            written, removed = scrub(output.text)
            if output.failures:
                failed[key] = _failure_reason(key[0], output.failures)
            elif written.strip():
                translated[key] = written.strip(), removed
            else:
                failed[key] = said("model.empty_translation")


def _failure_reason(text: str, failures: Sequence[Failure]) -> Said:
    """Why a unit is left as it was: the sentences the model could not translate, even with a guard."""
    if len(failures) == 1 and failures[0].source == text:
        return said("model.again", reason=model_failed(failures[0].kind))
    sentences = (said("model.sentence", sentence=one_line(f.source, 40), reason=model_failed(f.kind)) for f in failures)
    return said("model.sentences", sentences=tuple(sentences))


def _batches(keys: list[_Key]) -> Iterator[list[_Key]]:
    batch: list[_Key] = []
    size = 0
    for key in keys:
        if batch and (len(batch) >= BATCH_UNITS or size + len(key[0]) > BATCH_CHARS):
            yield batch
            batch, size = [], 0
        batch.append(key)
        size += len(key[0])
    if batch:
        yield batch
