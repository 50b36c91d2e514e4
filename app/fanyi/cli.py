"""Command line: `fanyi` opens the app; subcommands translate, file, export, validate and manage models."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import __version__

SUBCOMMANDS = ("translate", "file", "export", "validate", "models")


def _decode_options(args):
    from .engine.options import DecodeOptions

    return DecodeOptions(beams=args.beams, max_length=args.max_length, target=args.target,
                         source=getattr(args, "source", None))


def _open_translator(model: str | None, threads: int | None = None):
    from .engine.translator import Translator
    from .library import find_pack

    return Translator.open(find_pack(model).path, threads=threads)


def _add_model_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--model", "-m", help="pack folder or installed pack name (default: the en→zh pack)")
    p.add_argument("--threads", type=int, help="CPU threads (default: up to 4)")


def _add_decode_arguments(p: argparse.ArgumentParser) -> None:
    _add_model_arguments(p)
    p.add_argument("--beams", type=int, help="beam size (default: the model's, 4 for opus-mt)")
    p.add_argument("--max-length", type=int, help="maximum output length in tokens")
    p.add_argument("--target", help="target language in the model's own code: a variant of a multi-target "
                                    "OPUS-MT model (cmn_Hans, cmn_Hant, yue) or a language of an mBART-50, M2M100 "
                                    "or NLLB model (zh_CN, zh, zho_Hans; default: Chinese)")
    p.add_argument("--source", help="source language of an mBART-50, M2M100 or NLLB model in its own code "
                                    "(en_XX, en, eng_Latn); required for those")


def cmd_translate(args) -> int:
    translator = _open_translator(args.model, args.threads)
    options = _decode_options(args)
    lines = args.text if args.text else (line.rstrip("\n") for line in sys.stdin)
    for text in lines:
        if args.stream:
            for delta in translator.translate_stream(text, options):
                sys.stdout.write(delta)
                sys.stdout.flush()
            sys.stdout.write("\n")
        else:
            print(translator.translate(text, options), flush=True)
    return 0


def cmd_export(args) -> int:
    from .export.convert import export_pack

    export_pack(Path(args.hf_dir), Path(args.out_dir), quantize=args.quantize, embeddings=args.embeddings,
                name=args.name, model_id=args.model_id, revision=args.revision, simplify=not args.no_simplify,
                overwrite=args.overwrite, progress=lambda msg: print(msg, file=sys.stderr))
    return 0


def _read_lines(path: str | None) -> list[str] | None:
    if not path:
        return None
    return [l.strip() for l in Path(path).read_text(encoding="utf-8").splitlines() if l.strip()]


def cmd_validate(args) -> int:
    from .export.validate import validate_pack

    report = validate_pack(Path(args.pack), Path(args.reference), _read_lines(args.sentences),
                           _read_lines(args.references))
    print(report.text())
    return 0 if report.passed else 1


def _human_size(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return str(n)


def cmd_models(args) -> int:
    from . import library

    if args.action == "list":
        packs = library.list_packs()
        if not packs:
            print(library.no_model_message())
            return 0
        print(f"{'name':24} {'languages':10} {'size':>9} {'quant':6} {'kind':9} location")
        for p in packs:
            kind = "bundled" if p.bundled else "user"
            languages = f"{len(p.languages)} langs" if p.languages else p.source_lang + '→' + p.target_lang
            print(f"{p.name:24} {languages:10} {_human_size(p.size_bytes):>9} "
                  f"{p.quantization:6} {kind:9} {p.path}")
        return 0
    if args.action == "import":
        info = library.import_pack(Path(args.source))
        print(f"imported {info.name} into {info.path}")
        return 0
    if args.action == "remove":
        library.remove_pack(args.name)
        print(f"removed {args.name}")
        return 0
    if args.action == "fetch":
        from . import paths
        from .export.fetch import fetch_and_install

        ok, why = library.can_build_default()
        if not ok:
            raise library.LibraryError(why)
        pack = fetch_and_install(args.name, paths.user_packs_dir(),
                                 source=Path(args.source) if args.source else None,
                                 quantize=args.quantize, progress=lambda m: print(m, file=sys.stderr))
        print(f"installed {pack.name} in {pack.path}")
        return 0
    raise AssertionError(args.action)


def cmd_file(args) -> int:
    from .documents import command

    return command.run(args, lambda: _open_translator(args.model, args.threads))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="fanyi", description="Offline English-Chinese translator.",
        epilog="fanyi --self-test: open the window offscreen, translate one sentence with the bundled pack, "
               "report and exit (0 when everything works).")
    parser.add_argument("--version", action="version", version=f"fanyi {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("translate", help="translate text given as arguments or read line by line from stdin")
    _add_decode_arguments(p)
    p.add_argument("--stream", action="store_true", help="print tokens as they are decided")
    p.add_argument("text", nargs="*")
    p.set_defaults(run=cmd_translate)

    p = sub.add_parser("export", help="Hugging Face MarianMT, mBART-50, M2M100 or NLLB-200 folder → model pack")
    p.add_argument("hf_dir")
    p.add_argument("out_dir")
    p.add_argument("--quantize", choices=["none", "int8"], default="none")
    p.add_argument("--embeddings", choices=["int8", "fp32"], default="int8",
                   help="with --quantize int8: look embeddings up in the int8 output matrix (stored once) "
                        "or keep an fp32 copy")
    p.add_argument("--name")
    p.add_argument("--model-id", help="Hugging Face repository id, recorded in the manifest")
    p.add_argument("--revision", help="repository revision, recorded in the manifest")
    p.add_argument("--no-simplify", action="store_true", help="skip the onnxslim graph simplification")
    p.add_argument("--overwrite", action="store_true")
    p.set_defaults(run=cmd_export)

    p = sub.add_parser("validate", help="check a pack against the PyTorch model it came from")
    p.add_argument("pack")
    p.add_argument("--reference", required=True, help="the Hugging Face model folder")
    p.add_argument("--sentences", help="file of source sentences, one per line")
    p.add_argument("--references", help="file of reference translations, one per line (teacher forcing)")
    p.set_defaults(run=cmd_validate)

    p = sub.add_parser("models", help="list, import, remove or fetch model packs")
    msub = p.add_subparsers(dest="action", required=True)
    msub.add_parser("list")
    imp = msub.add_parser("import")
    imp.add_argument("source", help="pack folder or .zip")
    rm = msub.add_parser("remove")
    rm.add_argument("name")
    fetch = msub.add_parser("fetch", help="download, export, validate and install a model (needs internet)")
    fetch.add_argument("name", nargs="?", default="opus-mt-en-zh")
    fetch.add_argument("--source", help="build from this local Hugging Face folder instead of downloading")
    fetch.add_argument("--quantize", choices=["none", "int8"], default="int8")
    p.set_defaults(run=cmd_models)

    try:
        from .documents import command as documents_command
    except ImportError:
        documents_command = None
    if documents_command is not None:
        p = sub.add_parser("file", help="translate documents into copies next to them")
        _add_model_arguments(p)
        documents_command.add_arguments(p)
        p.set_defaults(run=cmd_file)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["--self-test"]:
        from .selftest import run_self_test

        return run_self_test()
    if not argv or argv[0] not in SUBCOMMANDS + ("-h", "--help", "--version"):
        from .ui.app import run

        return run(argv)
    args = build_parser().parse_args(argv)
    from .engine.options import Cancelled

    try:
        return args.run(args)
    except (KeyboardInterrupt, Cancelled):
        print("cancelled", file=sys.stderr)
        return 130
    except _user_errors() as exc:
        print(f"fanyi: {exc}", file=sys.stderr)
        return 2


def _user_errors() -> tuple[type[Exception], ...]:
    """Errors that are the input's fault: one line on stderr, no traceback."""
    from .engine.pack import PackError
    from .export.errors import ExportError, FetchError
    from .library import LibraryError

    errors: list[type[Exception]] = [PackError, LibraryError, ExportError, FetchError, ValueError,
                                     FileNotFoundError, PermissionError]
    try:
        from .documents.base import DocumentError
    except ImportError:
        pass
    else:
        errors.append(DocumentError)
    return tuple(errors)
