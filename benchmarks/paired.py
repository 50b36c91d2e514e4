"""Paired, interleaved timing: engines compared pass by pass in the same minutes, several rounds.

    python benchmarks/paired.py [--work /tmp/fanyi-bench] [--rounds 5] [--threads 1,2]
                                [--engines "ours int8,CT2 int8"] [--configs greedy/b1,beam4/b1,...] [--out FILE]
    python benchmarks/paired.py --engines "ours int8,ours int8@HEAD~3"   # a lever: this checkout vs a commit
    python benchmarks/paired.py --document [--rounds 3]   # document throughput (document.py)

On a shared two-core machine a sequential benchmark cannot tell a real change from drift: CTranslate2's
own batch-1 greedy time moved between 263 and 375 ms across runs. Here every (engine, threads) pair
is a worker process that loads its engine once and then waits; each round runs one pass of a
configuration in every worker, one after the other, the order rotated from round to round so that no
engine always follows the same one. A round gives one ratio (ours at its best thread count in that
round ÷ the reference at its best thread count in that round); a lever is judged by the median ratio
over the rounds, and the spread (lowest–highest) says how far to trust it.

An engine named `ours int8@REV` is Fanyi at git revision REV: its app/ is extracted into
WORK/rev-REV/ and its own int8 pack exported there by that code, so a change is judged against the
code before it, paired in the same way (the ratio is to the last engine named when CT2 int8 is not).

AVX2 code paths on a newer CPU: `--avx2-only` runs every worker with avx2_only.c preloaded (built at
first use into WORK/avx2_only.so), which hides AVX-512, VNNI and AMX from CPUID, so ONNX Runtime,
numpy and CTranslate2 (MKL, oneDNN) all take the kernels an AVX2-only CPU gets; an engine named with
a `+avx2` suffix (`ours int8+avx2`) runs only that worker so. It needs CPUID faulting (the
`cpuid_fault` flag of /proc/cpuinfo: Intel CPUs and KVM guests on them; not AMD). Every worker reports
the instruction sets it sees, and the report prints them.

A pause separates the passes: CTranslate2's OpenMP threads keep spinning for a while after a call,
and that CPU time would otherwise be charged to whatever runs next.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from prepare import ours_packs
from report import CONFIGS as REPORTED
from report import OURS

HERE = Path(__file__).resolve().parent
CONFIGS = tuple(config for config, _, _ in REPORTED)
PAUSE_S = 0.3
REFERENCE = "CT2 int8"


# --- the worker side: one engine, loaded once, timing passes on request ---------------------------


def serve_document(engine_name: str, threads: int, work: Path, folder: Path | None) -> None:
    """The document pass (document.py) on request: one JSON line with its time per "document" line."""
    from document import CT2Document, OursDocument
    from worker import rss_mib, timed, vm_hwm_mib

    pack = folder or work / "pack-copy-int8"
    if engine_name.startswith("CT2"):
        engine, _ = timed(lambda: CT2Document(work / "ct2-copy-int8", pack, threads))
    else:
        engine, _ = timed(lambda: OursDocument(pack, threads))
    out = work / f"document-{engine_name.replace(' ', '_')}-{threads}t.txt"
    engine.translate(work / "document-warm-up.txt", out)
    reply({"ready": True, "load_s": 0.0, "rss_mib": rss_mib(), "cpu": cpu_seen()})
    for line in sys.stdin:
        if line.strip():
            start, cpu_start = time.perf_counter(), time.process_time()
            engine.translate(work / "document.txt", out)
            reply(
                {
                    "config": "document",
                    "ms": 1000 * (time.perf_counter() - start),
                    "cpu_ms": 1000 * (time.process_time() - cpu_start),
                    "wrong_lengths": 0,
                    "peak_rss_mib": vm_hwm_mib(),
                    "output": str(out),
                }
            )


def serve(engine_name: str, threads: int, work: Path, folder: Path | None) -> None:
    """Reads one configuration name per line from stdin, answers one JSON line with the pass's time."""
    from engines import BY_NAME, NEW_TOKENS
    from worker import rss_mib, timed, vm_hwm_mib

    spec = BY_NAME[engine_name]
    workload = json.loads((work / "workload.json").read_text(encoding="utf-8"))
    sources = workload["sources"]
    engine = spec.create(workload.get("profile"))
    _, load_s = timed(engine.load, folder or work / spec.folder, threads)
    for beams in (1, 4):  # warm-up, as worker.py does
        for src in sources[:2]:
            engine.generate([src], beams)
        engine.generate(sources[:4], beams)
    reply({"ready": True, "load_s": load_s, "rss_mib": rss_mib(), "cpu": cpu_seen()})
    for line in sys.stdin:
        config = line.strip()
        if not config:
            continue
        beams = 4 if config.startswith("beam4") else 1
        batches = [[src] for src in sources] if config.endswith("/b1") else [sources]
        start, cpu_start = time.perf_counter(), time.process_time()
        outputs = [out for batch in batches for out in engine.generate(batch, beams)]
        # per sentence at batch 1, per call for the batch; CPU time counts every thread of the process
        ms = 1000 * (time.perf_counter() - start) / len(batches)
        cpu_ms = 1000 * (time.process_time() - cpu_start) / len(batches)
        wrong = sum(len(o) != NEW_TOKENS for o in outputs)
        reply({"config": config, "ms": ms, "cpu_ms": cpu_ms, "wrong_lengths": wrong, "peak_rss_mib": vm_hwm_mib()})


def reply(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


# --- the controller -------------------------------------------------------------------------------


@dataclass
class Worker:
    engine: str
    threads: int
    process: subprocess.Popen
    load_s: float = 0.0
    rss_mib: float = 0.0
    cpu: dict = field(default_factory=dict)

    @property
    def key(self) -> str:
        return f"{self.engine} {self.threads}t"

    def ask(self, config: str) -> dict:
        self.process.stdin.write(config + "\n")
        self.process.stdin.flush()
        answer = json.loads(self.process.stdout.readline())
        if answer["wrong_lengths"]:
            raise SystemExit(f"{self.key}: {answer['wrong_lengths']} outputs of {config} have the wrong length")
        return answer


def revision(rev: str, work: Path, document: bool = False) -> tuple[Path, Path]:
    """Fanyi's app/ at git revision `rev` and an int8 pack exported by it (both reused when present);
    with `document`, of the copying model."""
    commit = subprocess.run(
        ["git", "rev-parse", "--short", rev], cwd=HERE, capture_output=True, text=True, check=True
    ).stdout.strip()
    dest = work / f"rev-{commit}"
    app, pack = dest / "app", dest / ("pack-copy-int8" if document else "pack-int8")
    if not app.exists():
        dest.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "archive", commit, "app"], cwd=HERE.parent, capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", str(dest)], input=archive.stdout, check=True)
    if not pack.exists():
        print(f"exporting the int8 pack of {commit}", file=sys.stderr, flush=True)
        code = (
            "import sys; from pathlib import Path; from fanyi.export.convert import export_pack; "
            "export_pack(Path(sys.argv[1]), Path(sys.argv[2]), quantize='int8', name='rev-int8')"
        )
        hf = "hf-opus-mt-en-zh-copy" if document else "hf-opus-mt-en-zh-random"
        subprocess.run(
            [sys.executable, "-c", code, str(work / hf), str(pack)],
            env={**os.environ, "PYTHONPATH": str(app)},
            check=True,
            cwd=dest,
        )
    return app, pack


AVX2 = "+avx2"


def cpu_flags() -> set[str]:
    """What the hardware has (/proc/cpuinfo), whatever a process is shown."""
    line = re.search(r"^flags\s*:\s*(.+)$", Path("/proc/cpuinfo").read_text(), re.M)
    return set(line.group(1).split()) if line else set()


def avx2_only_library(work: Path) -> Path:
    """avx2_only.c built into WORK (again when the source is newer)."""
    if "cpuid_fault" not in cpu_flags():
        raise SystemExit("this CPU has no CPUID faulting (cpuid_fault): run on an AVX2-only CPU, or instructions.py")
    source, library = HERE / "avx2_only.c", work / "avx2_only.so"
    if not library.exists() or library.stat().st_mtime < source.stat().st_mtime:
        subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", str(library), str(source)], check=True)
    return library


def cpu_seen() -> dict[str, bool]:
    """The instruction sets this process's libraries see (numpy reads CPUID as ONNX Runtime does)."""
    from numpy._core._multiarray_umath import __cpu_features__ as features

    return {name: bool(features.get(name)) for name in ("AVX2", "FMA3", "AVX512F", "AVX512VNNI", "AVX512_SPR")}


def start(engine: str, threads: int, work: Path, document: bool = False, avx2_only: bool = False) -> Worker:
    spec, avx2 = (engine[: -len(AVX2)], True) if engine.endswith(AVX2) else (engine, avx2_only)
    name, _, rev = spec.partition("@")
    command = [sys.executable, __file__, "--serve", name, "--threads", str(threads), "--work", str(work)]
    command += ["--document"] * document
    env = dict(os.environ)
    if avx2:
        env["LD_PRELOAD"] = str(avx2_only_library(work))
        env["FANYI_AVX2_ONLY_QUIET"] = "1"
    if rev:
        app, pack = revision(rev, work, document)
        command += ["--folder", str(pack)]
        env["PYTHONPATH"] = str(app)
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=HERE, env=env)
    worker = Worker(engine, threads, process)
    hello = json.loads(process.stdout.readline())
    worker.load_s, worker.rss_mib, worker.cpu = hello["load_s"], hello["rss_mib"], hello["cpu"]
    return worker


@dataclass
class Rounds:
    """ms[config][worker key] = one time per round; load[config] = the load average before each round."""

    ms: dict = field(default_factory=dict)
    load: dict = field(default_factory=dict)

    def best(self, config: str, engine: str, round_no: int) -> float:
        cells = [times[round_no] for key, times in self.ms[config].items() if key.rsplit(" ", 1)[0] == engine]
        return min(cells)

    def ratios(self, config: str, engine: str, reference: str) -> list[float]:
        n = len(self.load[config])
        return [self.best(config, engine, r) / self.best(config, reference, r) for r in range(n)]


def pass_order(workers: list, round_no: int) -> list:
    """Rotated from round to round and reversed every other round: no worker always follows the same one."""
    shift = round_no % len(workers)
    order = workers[shift:] + workers[:shift]
    return order[::-1] if round_no % 2 else order


def run_rounds(workers: list[Worker], configs: list[str], rounds: int, clock: str = "ms") -> Rounds:
    result = Rounds()
    for config in configs:
        result.ms[config] = {w.key: [] for w in workers}
        result.load[config] = []
    for round_no in range(rounds):
        for config in configs:
            result.load[config].append(os.getloadavg()[0])
            for worker in pass_order(workers, round_no):
                time.sleep(PAUSE_S)
                result.ms[config][worker.key].append(worker.ask(config)[clock])
        print(
            f"[{time.strftime('%H:%M:%S')}] round {round_no + 1}/{rounds} done, load {os.getloadavg()[0]:.2f}",
            file=sys.stderr,
            flush=True,
        )
    return result


def summary(result: Rounds, engines: list[str], reference: str) -> dict:
    out: dict = {}
    for config in result.ms:
        cell: dict = {
            "load_avg": result.load[config],
            "median_ms": {k: statistics.median(v) for k, v in result.ms[config].items()},
            "ms": result.ms[config],
        }
        for engine in engines:
            if engine == reference:
                continue
            ratios = result.ratios(config, engine, reference)
            cell[engine] = {
                "median": statistics.median(ratios),
                "low": min(ratios),
                "high": max(ratios),
                "ratios": ratios,
            }
        out[config] = cell
    return out


def print_summary(data: dict, engines: list[str], reference: str) -> None:
    for config, cell in data.items():
        loads = cell["load_avg"]
        print(
            f"{config}: load {min(loads):.2f}–{max(loads):.2f}; median ms "
            + ", ".join(f"{k} {v:.0f}" for k, v in cell["median_ms"].items())
        )
        for engine in engines:
            if engine != reference:
                r = cell[engine]
                print(f"    {engine} / {reference}: {r['median']:.2f}× (rounds {r['low']:.2f}–{r['high']:.2f})")


def cpu_model() -> str:
    """The CPU's name and the instruction sets int8 products depend on, as the hardware has them."""
    name = re.search(r"^model name\s*:\s*(.+)$", Path("/proc/cpuinfo").read_text(), re.M)
    isa = [f for f in ("avx2", "avx512f", "avx512_vnni", "avx_vnni", "amx_int8") if f in cpu_flags()]
    return f"{name.group(1) if name else 'unknown'}, {os.cpu_count()} CPUs, flags {' '.join(isa)}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--work", type=Path, default=Path("/tmp/fanyi-bench"))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--threads", default="1,2")
    parser.add_argument(
        "--engines",
        default=f"{OURS},{REFERENCE}",
        help=f"comma-separated; ratios are to {REFERENCE} (or the last engine named without it)",
    )
    parser.add_argument("--configs", default=",".join(CONFIGS))
    parser.add_argument("--avx2-only", action="store_true", help="every worker on AVX2 code paths (avx2_only.c)")
    parser.add_argument(
        "--cpu-time",
        action="store_true",
        help="compare the processes' CPU time, not wall time (with --threads 1: what a busy machine leaves alone)",
    )
    parser.add_argument("--reference", help=f"the engine the ratios are to (default {REFERENCE} when named)")
    parser.add_argument("--out", type=Path, help="write the rounds and ratios as JSON")
    parser.add_argument("--serve", help=argparse.SUPPRESS)
    parser.add_argument("--folder", type=Path, help=argparse.SUPPRESS)
    parser.add_argument(
        "--document",
        action="store_true",
        help="document throughput: the 2,000-sentence text through `fanyi file` and CTranslate2",
    )
    args = parser.parse_args()
    if args.serve:
        (serve_document if args.document else serve)(args.serve, int(args.threads), args.work, args.folder)
        return
    if args.document:
        from document import make_document

        from fanyi.paths import assets_dir

        corpus = args.work / "document.corpus"
        corpus.write_text((assets_dir() / "corpus" / "en.txt").read_text(encoding="utf-8"), encoding="utf-8")
        make_document(args.work / "document.txt", corpus)
        make_document(args.work / "document-warm-up.txt", corpus, 40)
        args.configs = "document"
    if not (args.work / "workload.json").exists():
        raise SystemExit(f"no {args.work / 'workload.json'}: run benchmarks/run.sh (or driver.py) once first")
    ours_packs(args.work)
    engines = args.engines.split(",")
    reference = args.reference or (REFERENCE if REFERENCE in engines else engines[-1])
    threads = [int(t) for t in args.threads.split(",")]
    print(f"CPU: {cpu_model()}; load average {os.getloadavg()[0]:.2f}", file=sys.stderr, flush=True)
    workers = [start(e, t, args.work, args.document, args.avx2_only) for e in engines for t in threads]
    for w in workers:
        seen = " ".join(name for name, present in w.cpu.items() if present)
        print(f"{w.key}: sees {seen}", file=sys.stderr, flush=True)
    try:
        result = run_rounds(workers, args.configs.split(","), args.rounds, "cpu_ms" if args.cpu_time else "ms")
    finally:
        for w in workers:
            w.process.stdin.close()
            w.process.wait()
    data = summary(result, engines, reference)
    print_summary(data, engines, reference)
    data["workers"] = {w.key: {"load_s": w.load_s, "rss_mib": w.rss_mib, "cpu": w.cpu} for w in workers}
    data["cpu"] = cpu_model()
    if args.out:
        args.out.write_text(json.dumps(data, indent=1))


if __name__ == "__main__":
    main()
