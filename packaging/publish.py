#!/usr/bin/env python3
"""The release's command line: the app's catalog of recipes, built and validated packs, the default for the installers.

  python packaging/publish.py recipes          # release/recipes.json → assets/catalog.json, the catalog the app ships
  python packaging/publish.py build --flores flores200_dataset/devtest --llm-limit 300 \\
      --base-url URL [--base-url MIRROR ...]
  python packaging/publish.py build --only opus-mt-en-zh --hf-dir opus-mt-en-zh=~/hf/opus-mt-en-zh \\
      --test-set en-zh NAME SRC_FILE REF_FILE --base-url https://example.org/packs
  python packaging/publish.py fetch-default --catalog-url URL [--models models] [--assets assets]

`recipes` needs the runtime only, and writes the recipes as release/recipes.json states them (revisions, sizes as
estimated); `build` needs the `export` and `release` extras (torch, transformers, sacrebleu) and writes the
archives, catalog.json and quality.md into --out; it exits 1, writing no catalog, when a required
pack fails export, validation, the quality gate or the reference check. OPUS-MT packs are published
in int8, translation LLMs (HY-MT1.5, Qwen3, TranslateGemma) in int4, each gated against PyTorch.
`fetch-default` needs only the runtime dependencies. Progress goes to stderr. .github/workflows/release.yml
and dist.yml run these.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RECIPES = ROOT / "packaging" / "release" / "recipes.json"
sys.path[:0] = [str(ROOT / "app"), str(Path(__file__).resolve().parent)]


def _say(pack_id: str, message: str) -> None:
    print(f"[{pack_id}] {message}", file=sys.stderr, flush=True)


def _pair(text: str) -> tuple[str, str]:
    source, sep, target = text.partition("-")
    if not (sep and source and target):
        raise argparse.ArgumentTypeError(f"expected SOURCE-TARGET such as en-zh, got {text!r}")
    return source, target


def _hf_dir(text: str) -> tuple[str, Path]:
    pack_id, sep, path = text.partition("=")
    if not (sep and pack_id and path):
        raise argparse.ArgumentTypeError(f"expected ID=PATH, got {text!r}")
    return pack_id, Path(path).expanduser()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="publish.py", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)

    b = sub.add_parser("build", help="build, score, gate and zip every pack; write catalog.json and quality.md")
    b.add_argument("--recipes", type=Path, default=RECIPES, help="the list of packs, each a recipe")
    b.add_argument("--only", action="append", default=[], metavar="ID", help="build only these packs")
    b.add_argument(
        "--out",
        type=Path,
        default=ROOT / "dist" / "packs",
        help="where the archives, catalog.json and quality.md go (default: dist/packs)",
    )
    b.add_argument(
        "--hf-dir",
        action="append",
        type=_hf_dir,
        default=[],
        metavar="ID=PATH",
        help="take pack ID's model from this local Hugging Face folder instead of downloading it",
    )
    b.add_argument(
        "--test-set",
        action="append",
        nargs=4,
        default=[],
        metavar=("PAIR", "NAME", "SRC", "REF"),
        help="a test set for one direction (PAIR such as en-zh): source and reference files, a sentence a line",
    )
    b.add_argument(
        "--flores",
        type=Path,
        metavar="DIR",
        help="FLORES-200's devtest folder (eng_Latn.devtest, zho_Hans.devtest), for directions without --test-set",
    )
    b.add_argument("--limit", type=int, help="score on the first N sentences of each test set only")
    b.add_argument(
        "--llm-limit",
        type=int,
        metavar="N",
        help="score translation LLMs on the first N of those only (PyTorch on a CPU is slow); "
        "quality.md compares every pack on the sentences all of them translated",
    )
    b.add_argument(
        "--base-url",
        action="append",
        default=[],
        metavar="URL",
        help="where the archives will be published; an archive's URLs are these + '/' + its name, in order "
        "(without it the catalog lists no archive: the app makes every pack from the model's own files)",
    )
    b.add_argument(
        "--catalog-url",
        action="append",
        default=[],
        metavar="URL",
        help="where this catalog will be published (the app refreshes from there)",
    )
    b.add_argument("--serial", type=int, help="the catalog's serial (default: the UTC time as YYYYMMDDHHMM)")
    b.add_argument("--max-bleu-loss", type=float, default=1.0, help="most BLEU int8 may lose against PyTorch")
    b.add_argument("--max-chrf-loss", type=float, default=1.0, help="most chrF int8 may lose against PyTorch")
    b.add_argument("--max-int4-bleu-loss", type=float, default=1.5, help="most BLEU int4 may lose against PyTorch")
    b.add_argument("--max-int4-chrf-loss", type=float, default=1.5, help="most chrF int4 may lose against PyTorch")
    b.add_argument(
        "--min-int8-agreement",
        type=float,
        help="least teacher-forced top-1 agreement of the int8 pack (default: validation's 0.9)",
    )
    b.add_argument(
        "--min-int4-agreement", type=float, help="least teacher-forced top-1 agreement of the int4 pack (default: 0.8)"
    )
    b.add_argument(
        "--summary-set",
        type=Path,
        metavar="FILE",
        help="summarization packs: the held articles (one a line; default: short articles of the test corpus)",
    )
    b.add_argument(
        "--min-summary-rouge-l",
        type=float,
        default=0.8,
        help="least mean ROUGE-L F1 of an int8 summarizer's summaries against PyTorch's",
    )
    b.add_argument(
        "--allow-reference-disagreement",
        action="store_true",
        help="record a reference even when int8 agrees with PyTorch on none of the sentences "
        "(tiny random test models only)",
    )

    r = sub.add_parser("recipes", help="write the catalog of recipes the app ships (no build, no network)")
    r.add_argument("--recipes", type=Path, default=RECIPES, help="the list of packs, each a recipe")
    r.add_argument("--out", type=Path, default=ROOT / "assets" / "catalog.json")

    f = sub.add_parser(
        "fetch-default", help="download the catalog's default pack into models/ and the catalog into assets/"
    )
    f.add_argument("--catalog-url", required=True)
    f.add_argument("--models", type=Path, default=ROOT / "models")
    f.add_argument("--assets", type=Path, default=ROOT / "assets")
    return parser


def _build(args: argparse.Namespace) -> int:
    from release import pipeline
    from release.spec import SpecError, dictionary_recipes, load_specs
    from release.testsets import TestSetError, from_files

    try:
        specs = load_specs(args.recipes)
        dictionaries = dictionary_recipes(args.recipes)
        for option, ids in (("--only", args.only), ("--hf-dir", [i for i, _ in args.hf_dir])):
            if unknown := set(ids) - {s.id for s in specs}:
                raise SpecError(f"{option}: {', '.join(sorted(unknown))} not in {args.recipes}")
        specs = [s for s in specs if not args.only or s.id in args.only]
        test_sets = {
            _pair(pair): from_files(name, Path(src), Path(ref), args.limit) for pair, name, src, ref in args.test_set
        }
        summary_texts = _articles(args.summary_set)
    except (SpecError, TestSetError, argparse.ArgumentTypeError, OSError, UnicodeDecodeError) as exc:
        print(f"publish.py: error: {exc}", file=sys.stderr)
        return 2
    max_loss = {
        "int8": {"BLEU": args.max_bleu_loss, "chrF": args.max_chrf_loss},
        "int4": {"BLEU": args.max_int4_bleu_loss, "chrF": args.max_int4_chrf_loss},
    }
    opts = pipeline.BuildOptions(
        out=args.out,
        base_urls=tuple(args.base_url),
        hf_dirs=dict(args.hf_dir),
        test_sets=test_sets,
        flores_dir=args.flores,
        limit=args.limit,
        llm_limit=args.llm_limit,
        max_loss=max_loss,
        allow_reference_disagreement=args.allow_reference_disagreement,
        summary_texts=summary_texts,
        summary_min_rouge_l={"int8": args.min_summary_rouge_l},
    )
    given = {"int8": args.min_int8_agreement, "int4": args.min_int4_agreement}
    opts = dataclasses.replace(opts, min_top1={**opts.min_top1, **{k: v for k, v in given.items() if v is not None}})
    try:
        built = pipeline.build_release(
            specs, opts, serial=args.serial, catalog_urls=tuple(args.catalog_url), say=_say, dictionaries=dictionaries
        )
    except pipeline.PackFailed as exc:
        print(f"publish.py: release FAILED, no catalog written: {exc}", file=sys.stderr)
        return 1
    print(f"catalog {built.serial} with {', '.join(p.id for p in built.packs)} in {args.out}", file=sys.stderr)
    return 0


def _articles(path: Path | None) -> tuple[str, ...]:
    if path is None:
        return ()
    return tuple(line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip())


def _fetch_default(args: argparse.Namespace) -> int:
    from release.fetch_default import FetchDefaultError, fetch_default

    try:
        fetch_default(args.catalog_url, args.models, args.assets, lambda m: _say("fetch-default", m))
    except FetchDefaultError as exc:
        print(f"publish.py: fetch-default FAILED: {exc}", file=sys.stderr)
        return 1
    return 0


def _recipes(args: argparse.Namespace) -> int:
    from release.spec import SpecError, recipes_catalog

    from fanyi.fsutil import atomic_write_text
    from fanyi.library import catalog

    try:
        atomic_write_text(args.out, catalog.to_json(recipes_catalog(args.recipes)))
    except SpecError as exc:
        print(f"publish.py: error: {exc}", file=sys.stderr)
        return 2
    print(f"recipes of {args.recipes.name} in {args.out}", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    commands = {"build": _build, "recipes": _recipes, "fetch-default": _fetch_default}
    return commands[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
