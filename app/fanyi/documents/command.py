"""``fanyi file IN... [-o OUT] [--bilingual] [--target LANG]``: translate documents from the command line."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from fanyi.cancel import Cancelled
from fanyi.engine import DecodeOptions
from fanyi.glossary import Glossary, with_glossary
from fanyi.terminal import cancelled_status

from .base import DocumentError, TextTranslator
from .job import check_source, translate_document
from .registry import SUPPORTED_SUFFIXES

LAYOUTS = ("side", "alternate")


class _Bilingual(argparse.Action):
    """``--bilingual`` alone, or ``--bilingual side|alternate``: a document named after a bare ``--bilingual``
    (which argparse would take for its value) is a document to translate, not an invalid layout."""

    def __call__(
        self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, value: object, option: str | None = None
    ) -> None:
        if value is None or value in LAYOUTS:
            namespace.bilingual = value or LAYOUTS[0]
            return
        namespace.bilingual = LAYOUTS[0]
        namespace.named_after_bilingual = [*namespace.named_after_bilingual, Path(str(value))]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    kinds = " ".join(SUPPORTED_SUFFIXES)
    parser.add_argument("inputs", nargs="*", type=Path, metavar="IN", help=f"documents to translate ({kinds})")
    parser.set_defaults(named_after_bilingual=[])
    parser.add_argument(
        "-o", "--output", type=Path, metavar="OUT", help="output file (one input only) or an existing folder"
    )
    parser.add_argument("--overwrite", action="store_true", help="replace OUT when it is an existing file")
    parser.add_argument(
        "--bilingual",
        nargs="?",
        action=_Bilingual,
        metavar="side|alternate",
        help="the original beside its translation (双语对照): each paragraph followed by its translation; a PDF's "
        "pages side by side on one double-width page (side, the default) or one after the other (alternate)",
    )
    parser.add_argument(
        "--to",
        choices=("pdf", "docx"),
        help="what a PDF is translated into: a PDF with its layout (the default), or a .docx of its text",
    )
    parser.add_argument(
        "--target",
        metavar="LANG",
        help="target language (as for fanyi translate: zh, zh-TW, zh-HK, fr, or a pack's own code such as cmn_Hans)",
    )
    parser.add_argument(
        "--source",
        metavar="LANG",
        help="source language, which a many-to-many pack (mBART-50, M2M100, NLLB: en_XX, eng_Latn) and a "
        "translation LLM pack (HY-MT1.5, Qwen3, Gemma 3: en) require with --model",
    )


class ProgressBar:
    """On a terminal, a one-line text progress bar redrawn at most ten times a second; into a file or a
    pipe (a log, a CI job), where a carriage return only piles up, a plain line per tenth done."""

    def __init__(self, stream: TextIO, label: str, width: int = 30) -> None:
        self._stream = stream
        self._label = label
        self._width = width
        self._last = 0.0
        self._shown = False
        self._tty = stream.isatty()
        self._tenth = -1  # off a terminal: the last tenth written

    def __call__(self, done: int, total: int) -> None:
        if not self._tty:
            if (tenth := done * 10 // max(total, 1)) != self._tenth:
                self._tenth = tenth
                self._stream.write(f"{self._label}: {done}/{total}\n")
                self._stream.flush()
            return
        now = time.monotonic()
        if done < total and now - self._last < 0.1:
            return
        self._last = now
        filled = self._width * done // max(total, 1)
        bar = "#" * filled + "." * (self._width - filled)
        self._stream.write(f"\r{self._label} [{bar}] {done}/{total}")
        self._stream.flush()
        self._shown = True

    def close(self) -> None:
        if self._shown:
            self._stream.write("\n")
            self._shown = False


def run(
    args: argparse.Namespace,
    translator_factory: Callable[[], TextTranslator],
    options: DecodeOptions | None = None,
    glossary: Glossary | None = None,
    instead: Callable[[str], TextTranslator | None] | None = None,
) -> int:
    """Translate every input; 0 when all were translated completely, 1 otherwise, 2 for a usage error.
    ``options``: the languages as the router chose them; without, --target and --source as given.
    ``instead``: see translate_document (a Chinese document asked for in Chinese: OpenCC, not the model)."""
    inputs: list[Path] = [*args.named_after_bilingual, *args.inputs]
    if not inputs:
        print("fanyi file: name at least one document to translate.", file=sys.stderr)
        return 2
    output: Path | None = args.output
    if output is not None and len(inputs) > 1 and not output.is_dir():
        print("fanyi file: with several inputs, -o must name an existing folder.", file=sys.stderr)
        return 2
    if options is None and (args.target or args.source):
        options = DecodeOptions(target=args.target, source=args.source)
    problems = 0
    ready: list[Path] = []
    for src in inputs:  # cheap checks first: the model is not loaded for nothing
        try:
            check_source(src).output_suffix(src, args.to)
        except DocumentError as error:
            print(f"error: {error}", file=sys.stderr)
            problems += 1
        else:
            ready.append(src)
    if not ready:
        return 1
    translator = translator_factory()
    if glossary is not None:
        options = with_glossary(options, glossary, translator.languages(options))
    for src in ready:
        bar = ProgressBar(sys.stderr, src.name)
        try:
            result = translate_document(
                src,
                translator,
                dst=output,
                overwrite=args.overwrite,
                bilingual=args.bilingual is not None,
                layout=args.bilingual or "side",
                to=args.to,
                options=options,
                progress=bar,
                instead=instead,
            )
        except DocumentError as error:
            bar.close()
            print(f"error: {error}", file=sys.stderr)
            problems += 1
            continue
        except (KeyboardInterrupt, Cancelled):
            bar.close()
            print(f"cancelled: nothing was written for {src}.", file=sys.stderr)
            return cancelled_status()
        bar.close()
        print(result.report.summary())
        problems += bool(result.report.failed)
    return 1 if problems else 0
