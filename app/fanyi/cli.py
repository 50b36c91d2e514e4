"""Command line: `fanyi` opens the app; subcommands translate, file, export, validate and manage models.

A command imports what only it needs inside its function: the app's start and `fanyi --help` load no
numpy, engine, server, documents or export tools (tests/test_layering.py), and a command runs without
the others' dependencies.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO
from unicodedata import east_asian_width

from . import __version__, names
from .app_options import APP_OPTIONS
from .cancel import Cancelled
from .defaults import API_HOST, API_PORT, THREADS
from .engine import (
    DecodeOptions,
    Failure,
    OutOfRange,
    Rewind,
    StreamEvent,
    Translation,
    describe_failures,
    describe_lost_terms,
    separator_text,
    split_text,
)
from .export.errors import ExportError
from .glossary import Glossary, read_csv, with_glossary
from .hosts import is_loopback
from .library.errors import LibraryError
from .sizes import human_duration, human_size, human_speed, listed_size
from .terminal import (
    InputLines,
    OutputFailed,
    cancel_on_signals,
    cancelled_status,
    guarded_stdout,
    signalled,
    silence_stdout,
)

if TYPE_CHECKING:
    from .engine import Translator
    from .library.catalog import Catalog, CatalogEntry, DictionaryEntry
    from .library.dictionaries import DictionaryInfo
    from .library.download import TransferProgress
    from .library.installed import PackInfo
    from .library.sources.order import Preference
    from .rewriter import Rewriter

SUBCOMMANDS = ("translate", "summarize", "file", "export", "validate", "models", "serve")
LINE_BATCH_PIECES = 64  # sentences (and the layout between them) of a line translated and written at once


def _choose(
    args: argparse.Namespace, given: DecodeOptions | None = None, text: str = ""
) -> tuple[Path | Rewriter | None, DecodeOptions | None]:
    """The pack and the languages to ask it for: ``--model`` as named, with ``--source``/``--target`` in its
    own codes (or zh-TW / zh-HK: its Simplified converted by OpenCC); without it the router's choice
    (fanyi.routing) for those languages, in any style (en, zh-Hant, zh-TW, eng_Latn), the default pack
    winning a tie. ``given``: the options checked so far. With ``text`` (whose language the router tells
    when --source is not given), no pack where none is needed: a Rewriter for Chinese asked for in
    Chinese (OpenCC), None for a text in the target language already, which stays as it is."""
    from . import routing
    from .languages import AUTO, CONVERTED, requested
    from .library import installed
    from .rewriter import Rewriter

    source, target = getattr(args, "source", None), getattr(args, "target", None)
    if args.model:
        pack = installed.find_pack(args.model)
        if target and requested(target).variant in CONVERTED:
            found = routing.route([pack], source or AUTO, target, text)
            if found.direction is not None:
                return pack.path, routing.decode_options(found.direction, found.variant, given)
            if found.rewrite is not None:
                return Rewriter(found.rewrite), given
        return pack.path, given
    packs = installed.list_packs()
    default = installed.preferred(packs)
    try:
        found = routing.route(packs, source or AUTO, target or AUTO, text, prefer=[default.path] if default else [])
    except routing.NoRoute:
        if default is None:  # Chinese asked for in Chinese needs none (OpenCC); anything else, a model
            raise LibraryError(installed.no_model_message(packs)) from None
        raise
    if found.direction is None:
        if found.rewrite is not None:
            return _rewriter(found.rewrite, packs, target or AUTO, given, getattr(args, "threads", None)), given
        if text and not source:
            return None, given
        raise ValueError(f"--source and --target are both {found.source}: there is nothing to translate")
    return found.direction.pack.path, routing.decode_options(found.direction, found.variant, given)


def _rewriter(
    way: str, packs: list[PackInfo], target: str, given: DecodeOptions | None, threads: int | None
) -> Rewriter:
    """OpenCC for Chinese asked for in Chinese; its English sentences through the pack the router takes for
    English into that Chinese (opened only when a text has one), where one is installed."""
    from . import routing
    from .languages import ENGLISH
    from .rewriter import Rewriter

    try:
        english = routing.route(packs, ENGLISH, target)
    except routing.NoRoute:
        return Rewriter(way)
    if english.direction is None:
        return Rewriter(way)
    direction = english.direction
    options = routing.decode_options(direction, english.variant, given)
    return Rewriter(way, others=lambda: _open_translator(direction.pack.path, threads), others_options=options)


def _by_text(args: argparse.Namespace) -> bool:
    """Whether each text is routed by its own language: a target asked for and no source (Chinese asked
    for in Chinese is then OpenCC's, not a model's)."""
    return bool(getattr(args, "target", None) and not getattr(args, "source", None))


def _decode_options(args: argparse.Namespace, *, languages: bool = True) -> DecodeOptions:
    """The options given on the command line; one that is out of range is named as it was typed (--max-length)."""
    chosen = {"target": args.target, "source": getattr(args, "source", None)} if languages else {}
    try:
        return DecodeOptions(beams=args.beams, max_length=args.max_length, **chosen)
    except OutOfRange as exc:
        flag = "--" + exc.field.replace("_", "-")
        raise ValueError(f"{flag} must be an integer from {exc.low} to {exc.high}, not {exc.got}") from None


def read_glossary(path: str | None) -> Glossary | None:
    """The glossary of --glossary FILE.csv (two-column rows apply to whatever pair is translated), or None."""
    if not path:
        return None
    return read_csv(Path(path))


def _open_translator(pack: Path, threads: int | None = None) -> Translator:
    from .engine import Translator

    return Translator.open(pack, threads=threads)


def _add_model_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--model", "-m", help="pack folder or installed pack name (default: the en→zh pack)")
    p.add_argument("--threads", type=int, help=f"CPU threads (default: up to {THREADS})")


def _add_decode_arguments(p: argparse.ArgumentParser) -> None:
    _add_model_arguments(p)
    p.add_argument("--beams", type=int, help="beam size (default: the model's, 4 for opus-mt)")
    p.add_argument("--max-length", type=int, help="maximum output length in tokens")
    p.add_argument(
        "--target",
        help="target language: without --model any code (zh-Hant, fr, yue) and the pack "
        "that translates into it is chosen; with --model, the model's own code: a "
        "variant of a multi-target OPUS-MT model (cmn_Hans, cmn_Hant, yue), a "
        "language of an mBART-50, M2M100 or NLLB model (zh_CN, zh, zho_Hans) or of a "
        "translation LLM pack (zh, zh-Hant, ja). Chinese text asked for in Chinese is "
        "written anew by OpenCC, no model. "
        "zh-TW and zh-HK (any pack that writes Chinese): Traditional with the words "
        "Taiwan or Hong Kong use, converted from Simplified by OpenCC; a bare zh-Hant "
        "is zh-TW's",
    )
    p.add_argument(
        "--source",
        help="source language: without --model any code (en, zh; with --target and no --source, "
        "each line's own is told from it); with --model, the model's own code, which a many-to-many pack "
        "(mBART-50, M2M100, NLLB: en_XX, en, eng_Latn) and a translation LLM pack "
        "(HY-MT1.5, Qwen3, Gemma 3: en) require",
    )
    add_glossary_argument(p)


def add_glossary_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--glossary",
        metavar="FILE.csv",
        help="terms and their translations (CSV: source,target,term,translation or term,translation); "
        "an LLM pack is told them, other packs keep them through placeholders",
    )


def cmd_translate(args: argparse.Namespace) -> int:
    # a bad option, language or glossary is refused before a model is loaded
    given = _decode_options(args)
    # each line routed by its own language (Chinese asked for in Chinese needs no model), else one pack for all
    chosen = None if _by_text(args) else _choose(args, given)
    glossary = read_glossary(args.glossary)
    opened: dict[Path, Translator] = {}
    lines = InputLines(args.text)
    done: Translation
    for text in lines:
        pack, options = _choose(args, given, text) if chosen is None else chosen
        if pack is None:  # in the target language already: as it is
            sys.stdout.write(text + "\n")
            continue
        translator: Translator | Rewriter
        if isinstance(pack, Path):
            translator = opened.get(pack) or opened.setdefault(pack, _open_translator(pack, args.threads))
            if glossary is not None:
                options = with_glossary(options, glossary, translator.languages(options))
        else:
            translator = pack  # a Rewriter: OpenCC, no model
        if args.stream and sys.stdout.isatty():
            done = _stream_to_terminal(translator.translate_stream(text, options))
        else:
            # what goes into a pipe or file cannot be taken back: written as sentences are final
            done = _write_in_batches(translator, text, options)
        sys.stdout.write("\n")
        sys.stdout.flush()
        if done.failures:
            print(f"fanyi: warning: {describe_failures(done.failures)}", file=sys.stderr, flush=True)
        if done.lost_terms:
            print(f"fanyi: warning: {describe_lost_terms(done.lost_terms)}", file=sys.stderr, flush=True)
    return 1 if lines.skipped else 0


def _write_in_batches(translator: Translator | Rewriter, text: str, options: DecodeOptions | None) -> Translation:
    """Translate a line and write it, a batch of sentences at a time, as ``translate(text)`` renders it:
    a line of a megabyte shows its first sentences at once instead of nothing for minutes. Returns what was
    said besides the text (its failures and lost glossary terms)."""
    languages = translator.languages(options)
    pieces = split_text(text, source_lang=languages.source_lang)
    failures: list[Failure] = []
    lost: list[str] = []
    for start in range(0, len(pieces), LINE_BATCH_PIECES):
        batch = range(start, min(start + LINE_BATCH_PIECES, len(pieces)))
        results = iter(translator.translate_results([pieces[i].text for i in batch if pieces[i].translate], options))
        for i in batch:
            sys.stdout.write(separator_text(pieces, i, languages.target_lang))
            if pieces[i].translate:
                result = next(results)
                sys.stdout.write(result.text)
                failures += result.failures
                lost += result.lost_terms
        sys.stdout.flush()
    return Translation("", tuple(failures), tuple(dict.fromkeys(lost)))


def _stream_to_terminal(events: Iterable[StreamEvent]) -> Translation:
    """Print a stream as it comes; a Rewind is rubbed out with backspaces (two per wide character)."""
    seen: list[StreamEvent] = []
    for event in events:
        if isinstance(event, Rewind):
            text = Translation.collect(seen).text
            cells = sum(2 if east_asian_width(c) in "WF" else 1 for c in text[len(text) - event.chars :])
            sys.stdout.write("\b" * cells + " " * cells + "\b" * cells)
        elif isinstance(event, str):
            sys.stdout.write(event)
        sys.stdout.flush()
        seen.append(event)
    return Translation.collect(seen)


def _summary_input(source: str) -> list[str]:
    """The paragraphs of a file (any format Fanyi reads) or of stdin ("-"), read no further than a summary takes."""
    from . import limits
    from .summaries import SummaryError, paragraphs_of, read_paragraphs

    if source != "-":
        return read_paragraphs(Path(source))
    most = 4 * limits.MAX_SUMMARY_CHARS  # UTF-8 bytes of that many characters, at most
    data = sys.stdin.buffer.read(most + 1) if sys.stdin is not None else b""
    if len(data) > most:
        raise SummaryError(
            f"stdin holds more than {limits.MAX_SUMMARY_CHARS:,} characters; Fanyi summarizes at most that"
        )
    try:
        return paragraphs_of(data.decode(sys.stdin.encoding or "utf-8"))
    except UnicodeDecodeError:
        raise SummaryError(f"stdin is not text in {sys.stdin.encoding or 'utf-8'}") from None


def cmd_summarize(args: argparse.Namespace) -> int:
    from . import limits, summaries
    from .library import installed

    if args.to is not None:
        from .languages import requested

        requested(args.to)  # a malformed code is refused before anything is read
    paragraphs = _summary_input(args.source)
    summaries.check_text(paragraphs)
    packs = installed.list_packs()
    model = installed.find_pack(args.model) if args.model else None  # one line for a name not installed
    if model is not None and model not in packs:
        packs.append(model)  # a pack folder outside the library
    sample = "\n".join(paragraphs)[: limits.DETECT_SAMPLE_CHARS]
    plan = summaries.plan(packs, sample, args.to, model=model.name if model else None)
    opened: dict[Path, Translator] = {}

    def open_translator(path: Path) -> Translator:
        if path not in opened:
            opened[path] = _open_translator(path, args.threads)
        return opened[path]

    job = summaries.summarize(paragraphs, plan, open_translator, length=args.length)
    shown = sys.stderr.isatty()
    while True:
        try:
            event = next(job)
        except StopIteration as done:
            summary: summaries.Summary = done.value
            break
        if shown and isinstance(event, summaries.Progress):
            print(f"\r{event.stage} {event.done}/{event.total}\033[K", end="", file=sys.stderr, flush=True)
    if shown:
        print("\r\033[K", end="", file=sys.stderr, flush=True)
    sys.stdout.write(summaries.markdown(summary))
    sys.stdout.flush()
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from .export.convert import export_pack

    if args.name:
        names.check(args.name, "--name")
    export_pack(
        Path(args.hf_dir),
        Path(args.out_dir),
        quantize=args.quantize,
        embeddings=args.embeddings,
        output_projection=args.output_projection,
        name=args.name,
        model_id=args.model_id,
        revision=args.revision,
        overwrite=args.overwrite,
        block_size=args.block_size,
        progress=lambda msg: print(msg, file=sys.stderr),
        steps=lambda done, total: print(f"converting layer {done}/{total}", file=sys.stderr),
    )
    return 0


def _read_lines(path: str | None) -> list[str] | None:
    if not path:
        return None
    return [line.strip() for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]


def cmd_validate(args: argparse.Namespace) -> int:
    from .export.validate import validate_pack

    report = validate_pack(
        Path(args.pack), Path(args.reference), _read_lines(args.sentences), _read_lines(args.references)
    )
    print(report.text())
    return 0 if report.passed else 1


class _ProgressLine:
    """Progress on stderr: one updating line on a terminal, a line per tenth (and per step) otherwise."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self._shown: tuple[str, int, str] | None = None  # (phase, tenth, detail) last printed, off a terminal
        self._width = 0

    def __call__(self, p: TransferProgress) -> None:
        text = progress_text(p)
        if self.tty:
            self._width = max(self._width, len(text))
            self.stream.write("\r" + text.ljust(self._width))
        elif self._shown != (
            key := (p.phase, p.done * 10 // max(p.total, 1), p.detail if p.phase != "downloading" else "")
        ):
            self._shown = key
            self.stream.write(text + "\n")
        self.stream.flush()

    def close(self) -> None:
        if self.tty and self._width:
            self.stream.write("\n")
            self.stream.flush()
            self._width = 0

    def erase(self) -> None:
        """Rub the line out (on a terminal): the progress of what failed is no use above the line saying why."""
        if self.tty and self._width:
            self.stream.write("\r" + " " * self._width + "\r")
            self.stream.flush()
            self._width = 0


def progress_text(p: TransferProgress) -> str:
    """A progress report in words: bytes, speed and time left, or the layer converted."""
    if p.phase == "connecting":
        return f"asking {p.detail} for the files"
    if p.phase == "converting":
        done = f"converting layer {p.done}/{p.total}" if p.total else "converting"
        return f"{done}: {p.detail}" if p.detail else done
    if p.phase == "indexing":  # a dictionary: its entries read and indexed, in per cent of the file
        return f"converting the dictionary {p.detail}: {p.done * 100 // p.total if p.total else 0}%"
    text = f"{p.phase} {human_size(p.done)} of {human_size(p.total)}"
    if p.source:
        text += f" from {p.source}"
    if p.bytes_per_second:
        text += f", {human_speed(p.bytes_per_second)}"
    if p.seconds_left is not None and p.done < p.total:
        text += f", {human_duration(p.seconds_left)} left"
    return text


def table(headings: list[str], rows: list[list[str]], right: frozenset[int] | set[int] = frozenset()) -> list[str]:
    """Lines of columns as wide as their longest value (the ``right`` ones aligned right), two spaces apart."""
    widths = [max(len(cell) for cell in column) for column in zip(headings, *rows)]

    def line(cells: list[str]) -> str:
        placed = [c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths))]
        return "  ".join(placed).rstrip()

    return [line(headings), *(line(row) for row in rows)]


def _direction(entry: CatalogEntry) -> str:
    if not entry.translates:  # a summarizer: what it summarizes
        return f"summaries ({entry.source_langs[0]})"
    if len(entry.source_langs) == 1 and len(entry.target_langs) == 1:
        return f"{entry.source_langs[0]}→{entry.target_langs[0]}"
    from . import routing

    return f"{routing.language_count(entry.source_langs, entry.target_langs)} langs"  # as `models list` shows them


def _quality(entry: CatalogEntry) -> str:
    q = entry.quality
    if q is None:
        return "-"
    bleu = q.bleu.of(entry.quantization)
    return "-" if bleu is None else f"BLEU {bleu:.1f}"


def _license_terms(entry: CatalogEntry | DictionaryEntry) -> str:
    lic = entry.license
    lines = [f"{entry.id}: {lic.name}, {lic.url}"]
    if not lic.commercial_use:
        lines.append("  - no commercial use")
    lines += [f"  - {sentence}" for sentence in lic.summary("en")]
    return "\n".join(lines)


def _preference(args: argparse.Namespace) -> Preference:
    """The download sources: --from, else the app's setting (Settings → Downloads), with its token."""
    from .library.sources.order import Preference
    from .ui.settings import load_settings  # plain JSON, no Qt

    settings = load_settings()
    given = getattr(args, "source", None)
    if given:
        return Preference.parse(given, settings.hf_token)
    return Preference(settings.download_source, settings.download_source_url, settings.hf_token)


def _ask_licence(entry: CatalogEntry | DictionaryEntry, accepted: bool) -> bool:
    """A licence that restricts use is printed, and installs only once accepted (--accept-license)."""
    if not entry.license.must_ask or accepted:
        return True
    print(_license_terms(entry), file=sys.stderr)
    print(
        f"fanyi: {entry.id} is published under {entry.license.name}: read its terms above, then "
        "run the same command with --accept-license to install it",
        file=sys.stderr,
    )
    return False


def _dictionary_asked(cat: Catalog | None, name: str) -> DictionaryEntry | None:
    """`fanyi models get ecdict` (a dictionary's id), or the repository that publishes it: its default one."""
    if cat is None:
        return None
    named = cat.find_dictionary(name)
    of_repo = [d for d in cat.dictionaries if d.github.repo.lower() == name.lower()]
    return named or next((d for d in of_repo if d.default), of_repo[0] if of_repo else None)


def _install_dictionary(args: argparse.Namespace, entry: DictionaryEntry, line: _ProgressLine) -> DictionaryInfo:
    """A dictionary of the catalog: from GitHub (through --mirror or the settings' GitHub mirror), an address
    the user gives (--url), or a file already downloaded (--file); checked, converted, installed."""
    from .library import dictionaries
    from .ui.settings import load_settings  # plain JSON, no Qt

    if not _ask_licence(entry, getattr(args, "accept_license", False)):
        raise LibraryError(f"{entry.id} was not installed")
    file = getattr(args, "file", None)
    return dictionaries.install(
        entry,
        mirror=getattr(args, "mirror", None) or load_settings().github_mirror,
        url=getattr(args, "url", None),
        file=Path(file) if file else None,
        progress=line,
    )


def cmd_models_catalog(args: argparse.Namespace) -> int:
    """available / install / update / get: packs of the catalog's recipes, or of any model, made without torch."""
    from .library import catalog, install

    def warn(message: str) -> None:
        print(f"fanyi: {message}", file=sys.stderr)

    line = _ProgressLine()
    source = _preference(args)
    # `get` takes any model: the list of packs only says whether it has a recipe (and a licence) for it
    cat = (
        catalog.load()
        if args.action == "get"
        else install.load_catalog(refresh=args.action != "available" or args.refresh, warn=warn)
    )
    if args.action == "available":
        assert cat is not None
        if args.refresh and not install.refreshable(cat):
            warn(install.not_refreshable_note(cat))
        rows = [
            [e.id, _direction(e), listed_size(e.download_size), e.quantization, e.license.name, _quality(e), status]
            for e, status in ((r.entry, r.status.value) for r in install.available(cat))
        ]
        for d, state in install.available_dictionaries(cat):
            words = f"{d.entries // 1000}k words"
            rows.append([d.id, "en↔zh dict", listed_size(d.download_size), "-", d.license.name, words, state.value])
        for text in table(["id", "direction", "size", "quant", "license", "quality", "status"], rows, right={2}):
            print(text)
        return 0
    try:
        dictionary_asked = _dictionary_asked(cat, args.repo_id) if args.action == "get" else None
        if dictionary_asked is not None:
            got_dictionary = _install_dictionary(args, dictionary_asked, line)
            line.close()
            print(f"installed {got_dictionary.name} ({got_dictionary.entries} entries) in {got_dictionary.path}")
        elif args.action == "get":
            got = _get(args, cat, source, line)
            if got is None:
                return 2
            line.close()
            print(f"installed {got.name} in {got.path}")
        elif args.action == "install" and (dictionary := cat.find_dictionary(args.name) if cat else None):
            got_dictionary = _install_dictionary(args, dictionary, line)
            line.close()
            print(f"installed {got_dictionary.name} ({got_dictionary.entries} entries) in {got_dictionary.path}")
        elif args.action == "install":
            assert cat is not None  # load_catalog has one or raises
            if args.url or args.file:
                raise ValueError("--url and --file are for a dictionary (fanyi models available lists them)")
            entry = install.find_entry(cat, args.name)
            if not _ask_licence(entry, args.accept_license):
                return 2
            info = install.install(entry, mirror=args.mirror, source=source, progress=line)
            line.close()
            print(f"installed {info.name} (version {info.pack_version}) in {info.path}")
        else:
            assert cat is not None
            statuses = {d.id: (d, status) for d, status in install.available_dictionaries(cat)}
            if args.name in statuses and statuses[args.name][1] is install.Status.NOT_INSTALLED:
                raise LibraryError(f"{args.name} is not installed: fanyi models install {args.name}")
            # a dictionary named: only it; a pack named: only it; none: every pack and dictionary
            done = (
                []
                if args.name in statuses
                else install.update(
                    cat, [args.name] if args.name else [], mirror=args.mirror, source=source, progress=line
                )
            )
            outdated = [d for d, status in statuses.values() if status is install.Status.UPDATE]
            updated = [_install_dictionary(args, d, line) for d in outdated if args.name in (None, d.id)]
            line.close()
            for info in done:
                print(f"updated {info.name} to version {info.pack_version}")
            for got_dictionary in updated:
                print(f"updated {got_dictionary.name} to version {got_dictionary.version}")
            if not done and not updated:
                print("every installed pack is up to date")
        return 0
    except KeyboardInterrupt:
        line.close()
        print("cancelled: what was downloaded is kept, and the same command resumes it", file=sys.stderr)
        return cancelled_status()
    except BaseException:
        line.erase()
        raise
    finally:
        line.close()


def _get(args: argparse.Namespace, cat: Catalog | None, source: Preference, line: _ProgressLine) -> PackInfo | None:
    """`fanyi models get REPO_ID`: any model of a family Fanyi runs, made into a pack here. A repository that a
    catalog recipe names brings that recipe's licence question along."""
    from .library.catalog import Conversion, is_repository_id
    from .library.from_source import Recipe, import_folder_or_pack, is_model_folder, make_pack, pack_from_folder
    from .library.sources.order import for_repo

    given = names.check(args.name, "--name") if args.name else None
    conversion = Conversion(args.quantize, "fp32" if args.quantize == "none" else "int8") if args.quantize else None
    folder = Path(args.repo_id)
    if folder.is_dir():  # a model's files already here: converted, no network
        if is_model_folder(folder):
            return pack_from_folder(folder, name=given, conversion=conversion, progress=line)
        return import_folder_or_pack(folder, progress=line)
    if not is_repository_id(args.repo_id):
        raise LibraryError(f"{args.repo_id} is neither a folder on this computer nor a repository id (owner/name)")
    name = given or names.check(args.repo_id.rsplit("/", 1)[-1].lower(), "the pack's name")
    entries = cat.packs if cat is not None else ()
    known = next((e for e in entries if e.huggingface is not None and e.huggingface.repo == args.repo_id), None)
    if known is not None and not _ask_licence(known, args.accept_license):
        return None
    recipe = Recipe(name, for_repo(args.repo_id, args.revision, source), conversion=conversion)
    return make_pack(recipe, progress=line)


def cmd_models(args: argparse.Namespace) -> int:
    from . import routing
    from .library import installed

    if args.action == "list":
        packs = installed.list_packs()
        if not packs:
            print(installed.no_model_message())
            _list_dictionaries()
            return 0
        rows = []
        for p in packs:
            kind = "bundled" if p.bundled else "user"
            if p.usable:
                count = routing.language_count(p.source_languages, p.languages)
                languages = f"{count} langs" if p.languages else p.source_lang + "→" + p.target_lang
                if not p.translates:  # a summarizer: what it summarizes
                    languages = f"summaries ({p.source_lang})"
                rows.append([p.name, languages, human_size(p.size_bytes), p.quantization, kind, str(p.path)])
            else:  # the reason names the folder or file
                rows.append([p.name, "-", "-", "-", kind, f"broken ({p.problem})"])
        for text in table(["name", "languages", "size", "quant", "kind", "location"], rows, right={2}):
            print(text)
        _list_dictionaries()
        return 0
    from .library import dictionaries

    if args.action == "import" and args.name:
        names.check(args.name, "--name")
    if args.action == "import" and dictionaries.is_dictionary_file(Path(args.source)):
        line = _ProgressLine()
        try:
            got = dictionaries.import_file(Path(args.source), args.name, progress=line)
        except BaseException:
            line.erase()
            raise
        finally:
            line.close()
        print(f"imported {got.name} ({got.entries} entries) into {got.path}")
        return 0
    if args.action == "import":  # a pack folder or .zip, or a Hugging Face model folder, converted
        from .library.from_source import import_folder_or_pack

        line = _ProgressLine()
        try:
            info = import_folder_or_pack(Path(args.source), progress=line)
        except BaseException:
            line.erase()
            raise
        finally:
            line.close()
        print(f"imported {info.name} into {info.path}")
        return 0
    if args.action == "remove":
        if any(d.name == args.name for d in dictionaries.list_dictionaries()):
            dictionaries.remove(args.name)
        else:
            installed.remove_pack(args.name)
        print(f"removed {args.name}")
        return 0
    raise AssertionError(args.action)


def _list_dictionaries() -> None:
    """The installed dictionaries, after the packs: entries, size, and what the data was checked against."""
    from .library import dictionaries

    found = dictionaries.list_dictionaries()
    if found:
        print(f"\n{'dictionary':24} {'entries':>10} {'size':>9} checked against; location")
    for d in found:
        if d.usable:
            checked = dictionaries.CHECKED_AGAINST.get(d.checked, d.checked or "-")
            sha = f" (sha256 {d.source_sha256})" if d.source_sha256 else ""
            print(f"{d.name:24} {d.entries:>10} {human_size(d.size_bytes):>9} {checked}{sha}; {d.path}")
        else:
            print(f"{d.name:24} {'-':>10} {human_size(d.size_bytes):>9} broken ({d.problem})")


def cmd_serve(args: argparse.Namespace) -> int:
    from .library import dictionaries, installed
    from .server.browsers import BrowserPolicy
    from .server.core import Core
    from .server.models import Models
    from .server.run import address, bind, serve_forever

    browsers = BrowserPolicy.of(args.host, args.cors_origin, keyed=bool(args.api_key))  # a bad origin: one line
    packs = [installed.find_pack(args.model)] if args.model else installed.list_packs()
    dictionary = dictionaries.preferred()
    if not packs and dictionary is None:  # nothing to serve
        raise LibraryError(installed.no_model_message())
    models = Models(lambda: packs, lambda path: _open_translator(path, args.threads))
    if packs:  # the default pack opened now, so that a broken one is told before anything listens
        models.gate(installed.find_pack(args.model))
    options = _decode_options(args, languages=False)
    glossary = read_glossary(args.glossary)
    core = Core(
        models,
        api_key=args.api_key,
        options=lambda: options,
        glossary=glossary.for_pair if glossary is not None else None,
    )
    sock = bind(args.host, args.port)
    url = address(sock)
    directions = ", ".join(f"{p.name} ({p.source_lang}→{p.target_lang})" for p in packs) or (
        f"no translation model (the dictionary {dictionary.name if dictionary else ''} only; translations are "
        "answered 503 until a pack is installed: fanyi models install opus-mt-en-zh)"
    )
    print(f"Fanyi serves {url} with {directions}", flush=True)
    print(
        f"  LibreTranslate: {url}   DeepL: server URL {url}   DeepLX, MTranServer: {url}/translate   "
        f"Immersive Translate: {url}/imme   KISS Translator: {url}/kiss   OpenAI: {url}/v1   Ollama: {url}   "
        f"stream: {url}/stream   dictionary: {url}/dictionary?q=word",
        flush=True,
    )
    if not is_loopback(args.host):
        warning = "needs the API key" if args.api_key else "is open to anyone who can reach it (see --api-key)"
        print(f"  {args.host} is not this computer only: the server {warning}", flush=True)
    print("Press Ctrl+C to stop.", flush=True)
    try:
        serve_forever(core, sock, browsers)
    except KeyboardInterrupt:  # uvicorn stops gracefully on Ctrl+C, then passes the signal on
        pass
    print("stopped", flush=True)
    return 0


def cmd_file(args: argparse.Namespace) -> int:
    from . import routing
    from .documents import command
    from .rewriter import Rewriter

    def instead(text: str) -> Rewriter | None:
        """OpenCC for a document in Chinese (its first text tells) asked for in Chinese; else None: the pack."""
        chosen, _ = _choose(args, None, text)
        return chosen if isinstance(chosen, Rewriter) else None

    try:
        pack, options = _choose(args)  # the router's choice, in the pack's own codes (None: --model as named)
    except (LibraryError, routing.NoRoute):
        way = routing.rewrite_way(args.target) if _by_text(args) else None
        if way is None:
            raise
        # no model writes the Chinese asked for: a document in Chinese needs none (instead: OpenCC), any other
        # is refused by instead in the router's words; the Rewriter stands for the model until then
        return command.run(args, lambda: Rewriter(way), None, read_glossary(args.glossary), instead)
    assert isinstance(pack, Path)  # asked without a text: a pack
    return command.run(
        args,
        lambda: _open_translator(pack, args.threads),
        options,
        read_glossary(args.glossary),
        instead if _by_text(args) else None,
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="fanyi",
        usage=f"fanyi [{' | '.join(APP_OPTIONS)}]\n       fanyi COMMAND ...",
        description="Offline English-Chinese translator. Without a command, fanyi opens the desktop app.",
    )
    parser.add_argument("--version", action="version", version=f"fanyi {__version__}")
    # Read by the app (fanyi.ui.app.run) before this parser runs: listed here so that --help shows them.
    for flag, text in APP_OPTIONS.items():
        parser.add_argument(flag, action="store_true", help=text)
    sub = parser.add_subparsers(dest="command", required=True, prog="fanyi")  # "usage: fanyi translate …"

    p = sub.add_parser("translate", help="translate text given as arguments or read line by line from stdin")
    _add_decode_arguments(p)
    p.add_argument(
        "--stream",
        action="store_true",
        help="print tokens as they are decided (on a terminal; into a pipe, each line once it is final)",
    )
    p.add_argument("text", nargs="*", help="the text to translate; without it, stdin line by line")
    p.set_defaults(run=cmd_translate)

    p = sub.add_parser(
        "summarize",
        help="the summary of a text or document: BART (English; translated into --to by an installed pack), "
        "or a Qwen3 pack that summarizes in the language asked for",
    )
    p.add_argument("--model", "-m", help="the pack that summarizes (installed name or folder; default: the best fit)")
    p.add_argument("--to", help="the summary's language, e.g. zh, zh-TW, en (default: the text's own)")
    p.add_argument(
        "--length",
        choices=["short", "sections"],
        default="short",
        help="one short summary, or a summary of each section under its heading",
    )
    p.add_argument("--threads", type=int, help=f"CPU threads (default: up to {THREADS})")
    p.add_argument("source", metavar="FILE", help="a document (.txt, .md, .docx, .pdf …) or - for stdin")
    p.set_defaults(run=cmd_summarize)

    p = sub.add_parser(
        "export",
        help="Hugging Face folder → model pack: MarianMT, mBART-50, M2M100, NLLB-200, "
        "or a translation LLM (HY-MT1.5 / HunYuan dense, Qwen3, Gemma 3)",
    )
    p.add_argument(
        "hf_dir",
        metavar="HF_DIR",
        help="a Hugging Face model folder (config.json, model.safetensors, the tokenizer's files), as "
        "`hf download` or `git clone` of the model's repository leaves it",
    )
    p.add_argument("out_dir", metavar="OUT_DIR", help="the pack folder to write (it appears once complete)")
    p.add_argument(
        "--quantize",
        choices=["none", "int8", "int4"],
        default="none",
        help="weights of the linear layers: fp32, 8-bit, or 4-bit blocks (int4: LLM packs only)",
    )
    p.add_argument(
        "--embeddings",
        choices=["int8", "int4", "fp32"],
        default="int8",
        help="with --quantize: the embedding/output matrix in 8 bits (stored once for both), in 4 bits "
        "(LLM packs) or an fp32 copy",
    )
    p.add_argument(
        "--output-projection",
        choices=["int8", "fp32"],
        default="int8",
        help="with --quantize int8: the output projection (and the embeddings it shares) in 8 bits or in fp32",
    )
    p.add_argument(
        "--block-size",
        type=int,
        choices=[16, 32, 64, 128, 256],
        default=32,
        help="LLM packs: inputs per quantization block (one scale each)",
    )
    p.add_argument(
        "--name",
        help="the pack's name, which its folder gets when it is installed (default: HF_DIR's folder name); one "
        "plain name: no / or \\, no leading dot, at most 200 bytes",
    )
    p.add_argument("--model-id", help="Hugging Face repository id, recorded in the manifest")
    p.add_argument("--revision", help="repository revision, recorded in the manifest")
    p.add_argument("--overwrite", action="store_true", help="replace OUT_DIR when it exists")
    p.set_defaults(run=cmd_export)

    p = sub.add_parser("validate", help="check a pack against the PyTorch model it came from")
    p.add_argument("pack", help="the pack folder to check")
    p.add_argument("--reference", required=True, help="the Hugging Face model folder")
    p.add_argument("--sentences", help="file of source sentences, one per line")
    p.add_argument("--references", help="file of reference translations, one per line (teacher forcing)")
    p.set_defaults(run=cmd_validate)

    p = sub.add_parser("models", help="list, download, update, import or remove model packs and dictionaries")
    msub = p.add_subparsers(dest="action", required=True)
    msub.add_parser("list", help="the packs installed on this computer")
    avail = msub.add_parser("available", help="the packs that can be downloaded, and which are installed")
    avail.add_argument("--refresh", action="store_true", help="fetch the newest list of packs first")
    avail.set_defaults(run=cmd_models_catalog)
    inst = msub.add_parser(
        "install",
        help="make a pack of the list from the model's own files and install it: download from the Hugging Face "
        "Hub, hf-mirror.com or ModelScope, verify, convert (no torch needed)",
    )
    inst.add_argument(
        "name", help="a pack or dictionary id from `fanyi models available`, e.g. opus-mt-en-zh or ecdict"
    )
    inst.add_argument(
        "--url", help="a dictionary: download its file from this address instead (checked as GitHub's would be)"
    )
    inst.add_argument("--file", help="a dictionary: its file, already downloaded (checked as GitHub's would be)")
    get = msub.add_parser(
        "get",
        help="make a pack of any model Fanyi runs (MarianMT, mBART-50, M2M100, NLLB, HY-MT, Qwen3, Gemma 3) "
        "from its repository: download, verify, convert, install",
    )
    get.add_argument(
        "repo_id",
        help="the model's repository, e.g. Helsinki-NLP/opus-mt-en-zh or Qwen/Qwen3-1.7B, or a folder holding its "
        "files (converted without the network); or a dictionary: ecdict, ecdict-full, or ECDICT's repository "
        "skywind3000/ECDICT",
    )
    get.add_argument("--revision", help="a commit, branch or tag (default: the latest, main / master)")
    get.add_argument(
        "--quantize",
        choices=["int4", "int8", "none"],
        help="the weights: int8 (the default for MarianMT and the other encoder-decoders), int4 (the default for "
        "LLMs) or none (fp32)",
    )
    get.add_argument("--name", help="the installed pack's name (default: the repository's name, lower case)")
    for q in (inst, get):
        q.add_argument(
            "--accept-license",
            action="store_true",
            help="install a pack whose licence restricts where or how it may be used "
            "(its terms are printed without this)",
        )
    upd = msub.add_parser("update", help="install newer versions of installed packs")
    upd.add_argument("name", nargs="?", help="only this pack")
    for q in (inst, upd):
        q.add_argument(
            "--mirror",
            help="a server holding prebuilt pack archives under their file names, tried first; for a dictionary, a "
            "GitHub mirror put before GitHub's address (https://PROXY/https://github.com/…; default: Settings → "
            "Downloads)",
        )
    for q in (inst, upd, get):
        q.add_argument(
            "--from",
            dest="source",
            metavar="SOURCE",
            help="where to download the model from: hf (the Hugging Face Hub, or HF_ENDPOINT), hf-mirror "
            "(hf-mirror.com), modelscope (modelscope.cn), or the address of a server that speaks the Hub's API "
            "(default: Settings → Downloads, automatic: the Hub, then hf-mirror.com, then ModelScope)",
        )
        q.set_defaults(run=cmd_models_catalog)
    imp = msub.add_parser(
        "import",
        help="a pack folder or .zip, a Hugging Face model folder (converted), or ECDICT's data (ecdict.csv, "
        "stardict.db, a .zip)",
    )
    imp.add_argument(
        "source",
        help="pack folder or .zip; a model's folder (config.json, model.safetensors, the tokenizer's files); or "
        "ecdict.csv, stardict.db or ecdict-sqlite-28.zip",
    )
    imp.add_argument("--name", help="a dictionary: its name (default: ecdict for the CSV, ecdict-full otherwise)")
    rm = msub.add_parser("remove", help="remove an installed pack or dictionary")
    rm.add_argument("name", help="its name, as `fanyi models list` shows it")
    p.set_defaults(run=cmd_models)

    p = sub.add_parser(
        "serve", help="a local translation API for LibreTranslate, DeepL, MTranServer, OpenAI and Ollama clients…"
    )
    p.add_argument("--host", default=API_HOST, help="address to listen on (default: this computer only)")
    p.add_argument("--port", type=int, default=API_PORT, help=f"port (default: {API_PORT}; 0 picks a free one)")
    p.add_argument(
        "--model",
        "-m",
        help="serve only this pack (folder or installed name; default: every "
        "installed pack, chosen by the requested languages)",
    )
    p.add_argument("--api-key", help="answer only requests that carry this key (403 otherwise)")
    p.add_argument(
        "--cors-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="let web pages from this origin use the server (e.g. http://localhost:3000; repeatable). "
        "Without a key only browser extensions and these may; with a key, any page that has it",
    )
    p.add_argument("--threads", type=int, help=f"CPU threads (default: up to {THREADS})")
    p.add_argument("--beams", type=int, help="beam size (default: the model's)")
    p.add_argument("--max-length", type=int, help="maximum output length in tokens")
    add_glossary_argument(p)  # for requests that bring none of their own (the `glossary` field)
    p.set_defaults(run=cmd_serve)

    try:
        from .documents import command as documents_command
    except ImportError:
        pass
    else:
        p = sub.add_parser("file", help="translate documents into copies next to them")
        _add_model_arguments(p)
        documents_command.add_arguments(p)
        add_glossary_argument(p)
        p.set_defaults(run=cmd_file)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["--self-test"]:
        from .selftest import run_self_test

        return run_self_test()
    if argv and not argv[0].startswith("-") and argv[0] not in SUBCOMMANDS:
        print(f"fanyi: {unknown_command(argv[0])}", file=sys.stderr)
        return 2
    if not argv or argv[0] not in SUBCOMMANDS + ("-h", "--help", "--version"):
        from .ui.app import run

        try:
            return run(argv)
        except KeyboardInterrupt:  # Ctrl+C before the app could take it over: no traceback
            return 130
    args = build_parser().parse_args(argv)
    cancel_on_signals()
    try:
        with guarded_stdout():
            code: int = args.run(args)
            return code
    except (KeyboardInterrupt, Cancelled):
        print("cancelled", file=sys.stderr)
        return cancelled_status()
    except ImportError:
        if not signalled():
            raise
        print("cancelled", file=sys.stderr)  # the signal landed inside an extension module's import
        return cancelled_status()
    except OutputFailed as exc:
        silence_stdout()
        print(f"fanyi: {exc}.", file=sys.stderr)
        return 1
    except MemoryError:
        print("fanyi: out of memory; nothing more was done.", file=sys.stderr)
        return 1
    except _user_errors() as exc:
        if signalled():  # the signal landed inside a library (ONNX Runtime), which reported its own failure
            print("cancelled", file=sys.stderr)
            return cancelled_status()
        print(f"fanyi: {exc}", file=sys.stderr)
        return 2


def unknown_command(word: str) -> str:
    """One line for a word that is no command, naming the closest one (a typo must not open the app)."""
    close = difflib.get_close_matches(word, SUBCOMMANDS, n=1, cutoff=0.5)
    hint = f"did you mean `fanyi {close[0]}`?" if close else "see `fanyi --help`."
    return f"`{word}` is not a command; {hint} (`fanyi` alone opens the app.)"


def _user_errors() -> tuple[type[Exception], ...]:
    """Errors that are the input's fault: one line on stderr, no traceback."""
    from .engine import PackError
    from .server.run import ServerError

    errors: list[type[Exception]] = [
        PackError,
        LibraryError,
        ExportError,
        ServerError,
        ValueError,
        FileNotFoundError,
        PermissionError,
    ]
    try:
        from .documents.base import DocumentError
    except ImportError:
        pass
    else:
        errors.append(DocumentError)
    return tuple(errors)
