"""Runs every engine side by side, one worker process at a time, then the paired runs of Fanyi and
CTranslate2 int8 (paired.py: the speed targets, and the document throughput), and writes RESULTS.md.

    python benchmarks/driver.py [--work /tmp/fanyi-bench] [--quick] [--threads 1,2] [--engines "ours int8,CT2 int8"]
    python benchmarks/driver.py --many-to-many [--tiny] [--work /tmp/fanyi-bench] [--quick] [--threads 1,2]

--quick and --engines skip the paired runs; --reuse-paired takes the paired runs already in
WORK/results (paired.py --out WORK/results/paired.json, --document --out .../paired-document.json).
Expects the model folders prepare.py builds. Each (engine, threads) pair runs in its own worker
process (worker.py) that writes JSON; the fp32 PyTorch worker runs first because it writes the
reference outputs the quality check of the others compares with.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import subprocess
import sys
import time
from pathlib import Path

from engines import ENGINES, MANY_TO_MANY_ENGINES, NEW_TOKENS
from report import write_many_to_many_report, write_report

HERE = Path(__file__).resolve().parent
STREAM_WORDS = 30  # the first-streamed-token target is for a ~30-word sentence


def sentences(count: int) -> list[str]:
    """The first `count` lines of assets/corpus/en.txt with 5–60 words."""
    from fanyi.paths import assets_dir

    lines = [line.strip() for line in (assets_dir() / "corpus" / "en.txt").read_text(encoding="utf-8").splitlines()]
    return [line for line in lines if 5 <= len(line.split()) <= 60][:count]


def stream_sentence() -> str:
    """Exactly STREAM_WORDS words: the corpus line closest above that length, cut to it."""
    longer = [s for s in sentences(10_000) if len(s.split()) >= STREAM_WORDS]
    line = min(longer, key=lambda s: (len(s.split()), s))
    return " ".join(line.split()[:STREAM_WORDS])


def write_workload(work: Path, count: int) -> dict:
    """Source ids every engine gets: the Marian tokenizer's, with the pack's default target token."""
    from fanyi.engine.tokenizer import Tokenizer

    pack = work / "pack-int8"
    manifest = json.loads((pack / "manifest.json").read_text(encoding="utf-8"))
    target = manifest.get("default_target")
    tokenizer = Tokenizer.from_files(pack / "source.spm", pack / "target.spm", pack / "vocab.json")
    texts = sentences(count)
    stream = stream_sentence()
    workload = {
        "texts": texts,
        "sources": [tokenizer.encode(t, target_token=target) for t in texts],
        "stream_text": stream,
        "stream_source": tokenizer.encode(stream, target_token=target),
        "target_token": target,
    }
    (work / "workload.json").write_text(json.dumps(workload, ensure_ascii=False), encoding="utf-8")
    return workload


def write_many_to_many_workload(folder: Path, model, count: int) -> dict:
    """Source ids every engine gets: the pack's tokenizer with the source language token; the profile
    tells the workers the model's ids and languages (see engines.py)."""
    from fanyi.engine.pack import ModelPack
    from fanyi.engine.pack_tokenizer import open_tokenizer

    pack = ModelPack.open(folder / "pack-int8", verify=False)
    tokenizer = open_tokenizer(pack)
    source_token = pack.language_tokens[model.source][0]
    texts = sentences(count)
    ids = pack.special_ids
    workload = {
        "texts": texts,
        "sources": [tokenizer.encode(t, source_token) for t in texts],
        "stream_text": "",
        "stream_source": [],
        "profile": {
            "model": model.key,
            "eos": ids["eos"],
            "pad": ids["pad"],
            "source": model.source,
            "target": model.target,
            "target_prefix": pack.language_tokens[model.target][0],
        },
    }
    (folder / "workload.json").write_text(json.dumps(workload, ensure_ascii=False), encoding="utf-8")
    return workload


def run_many_to_many(args, count: int, threads: list[int]) -> None:
    """mBART-50 and NLLB-600M (random weights, real sizes): ours int8 vs CTranslate2 int8."""
    from many_to_many_config import MODELS
    from prepare import many_to_many_dir

    started = time.time()
    runs, workloads = {}, {}
    for key, model in MODELS.items():
        folder = many_to_many_dir(args.work, key, args.tiny)
        if args.report_only:
            workloads[key] = json.loads((folder / "workload.json").read_text(encoding="utf-8"))
            paths = [result_path(folder, spec.name, t) for spec in MANY_TO_MANY_ENGINES for t in threads]
            runs[key] = [json.loads(p.read_text()) for p in paths if p.exists()]
            continue
        workloads[key] = write_many_to_many_workload(folder, model, count)
        runs[key] = [
            run_worker(folder, spec.name, t, quality=False, reference=False)
            for spec in MANY_TO_MANY_ENGINES
            for t in threads
        ]
    results = args.results or (
        args.work / "RESULTS-many-to-many-tiny.md" if args.tiny else HERE / "RESULTS-many-to-many.md"
    )
    wall = float("nan") if args.report_only else time.time() - started
    write_many_to_many_report(
        results,
        runs,
        workloads,
        threads=threads,
        wall_s=wall,
        command=args.command,
        new_tokens=NEW_TOKENS,
        tiny=args.tiny,
    )
    print(f"wrote {results} ({wall / 60:.1f} min)")


def result_path(work: Path, engine: str, threads: int) -> Path:
    return work / "results" / f"{engine.replace(' ', '_')}-{threads}t.json"


PAIRED_ROUNDS, DOCUMENT_ROUNDS = 5, 3


def paired_path(work: Path, document: bool) -> Path:
    return work / "results" / ("paired-document.json" if document else "paired.json")


def run_paired(work: Path, threads: list[int], document: bool) -> None:
    out = paired_path(work, document)
    out.unlink(missing_ok=True)
    command = [
        sys.executable,
        str(HERE / "paired.py"),
        "--work",
        str(work),
        "--out",
        str(out),
        "--threads",
        ",".join(map(str, threads)),
        "--rounds",
        str(DOCUMENT_ROUNDS if document else PAIRED_ROUNDS),
    ] + ["--document"] * document
    print(f"[{time.strftime('%H:%M:%S')}] paired runs{', document' * document}", flush=True)
    if subprocess.run(command, cwd=HERE).returncode != 0 or not out.exists():
        raise SystemExit(f"the paired{' document' * document} run failed")


def load_paired(work: Path) -> dict:
    """What write_report takes of the paired runs' JSON (absent runs: None)."""
    from document import SENTENCES

    found: dict = {"document_sentences": SENTENCES, "paired_dates": []}
    for key, document in (("paired", False), ("document", True)):
        path = paired_path(work, document)
        found[key] = json.loads(path.read_text()) if path.exists() else None
        if path.exists():
            found["paired_dates"].append(dt.datetime.fromtimestamp(path.stat().st_mtime, dt.timezone.utc))
    return found


def run_worker(work: Path, engine: str, threads: int, *, quality: bool, reference: bool) -> dict:
    out = result_path(work, engine, threads)
    out.parent.mkdir(exist_ok=True)
    out.unlink(missing_ok=True)
    command = [
        sys.executable,
        str(HERE / "worker.py"),
        "--engine",
        engine,
        "--threads",
        str(threads),
        "--work",
        str(work),
        "--out",
        str(out),
    ]
    command += ["--quality"] * quality + ["--reference"] * reference
    print(f"[{time.strftime('%H:%M:%S')}] {engine}, {threads} thread(s)", flush=True)
    done = subprocess.run(command, cwd=HERE)
    if done.returncode != 0 or not out.exists():
        raise SystemExit(f"worker failed: {engine}, {threads} threads (exit {done.returncode})")
    return json.loads(out.read_text())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--work", type=Path, default=Path("/tmp/fanyi-bench"))
    parser.add_argument("--quick", action="store_true", help="4 sentences, 2 threads only: for development")
    parser.add_argument("--sentences", type=int, help="default 20 (4 with --quick)")
    parser.add_argument("--threads", help="comma-separated thread counts; default 1,2 (2 with --quick)")
    parser.add_argument("--engines", help="comma-separated engine names; default all (PyTorch always runs)")
    parser.add_argument(
        "--results",
        type=Path,
        help="default RESULTS.md (RESULTS-many-to-many.md with --many-to-many; with --tiny a file in the work dir)",
    )
    parser.add_argument(
        "--many-to-many",
        action="store_true",
        help="mBART-50 and NLLB-600M at their real sizes: ours int8 vs CTranslate2 int8",
    )
    parser.add_argument(
        "--tiny",
        action="store_true",
        help="with --many-to-many: the tiny test shapes, a smoke test of the whole run (no numbers)",
    )
    parser.add_argument("--command", default="bash benchmarks/run.sh", help="the command shown in RESULTS.md")
    parser.add_argument(
        "--reuse-paired",
        action="store_true",
        help="do not run paired.py: report the paired runs already in WORK/results",
    )
    parser.add_argument(
        "--report-only",
        action="store_true",
        help="rewrite the report from the worker results already in the work dir (e.g. after an "
        "interrupted run); missing runs show as n/a",
    )
    args = parser.parse_args()
    count = args.sentences or (4 if args.quick else 20)
    threads = [int(t) for t in (args.threads or ("2" if args.quick else "1,2")).split(",")]
    if args.many_to_many:
        run_many_to_many(args, count, threads)
        return
    args.results = args.results or HERE / "RESULTS.md"
    wanted = set(args.engines.split(",")) if args.engines else {e.name for e in ENGINES}
    engines = [e for e in ENGINES if e.name in wanted or e.family == "torch"]

    if args.report_only:
        workload = json.loads((args.work / "workload.json").read_text(encoding="utf-8"))
        paths = [result_path(args.work, e.name, t) for e in engines for t in threads]
        results = [json.loads(p.read_text()) for p in paths if p.exists()]
        write_report(
            args.results,
            results,
            workload,
            threads=threads,
            wall_s=float("nan"),
            command=args.command,
            new_tokens=NEW_TOKENS,
            **load_paired(args.work),
        )
        print(f"wrote {args.results} from {len(results)} of {len(paths)} runs")
        return

    started = time.time()
    workload = write_workload(args.work, count)
    results = []
    quality_threads = max(threads)
    # The reference first: the fp32 PyTorch run at the largest thread count writes it.
    order = [(e, t) for e in engines for t in sorted(threads, reverse=e.family == "torch")]
    for spec, t in order:
        quality = t == quality_threads
        results.append(
            run_worker(args.work, spec.name, t, quality=quality, reference=quality and spec.family == "torch")
        )
    paired = not (args.quick or args.engines)
    if paired and not args.reuse_paired:
        for document in (False, True):
            run_paired(args.work, threads, document)
    wall = time.time() - started
    write_report(
        args.results,
        results,
        workload,
        threads=threads,
        wall_s=wall,
        command=args.command,
        new_tokens=NEW_TOKENS,
        **(load_paired(args.work) if paired else {}),
    )
    print(f"wrote {args.results} ({wall / 60:.1f} min)")


if __name__ == "__main__":
    main()
