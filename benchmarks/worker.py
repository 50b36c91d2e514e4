"""Times one engine at one thread count in a fresh process and writes one JSON file.

    python benchmarks/worker.py --engine "ours int8" --threads 2 --work DIR --out FILE [--quality] [--reference]

Run by driver.py, one process per (engine, threads), so load time and memory are the engine's own
and engines never share a process. The engine is loaded once, warmed up, then timed.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import statistics
import sys
import time
from pathlib import Path

import psutil
from engines import BY_NAME, NEW_TOKENS, PAD, Engine

FAMILY_IMPORTS = {  # imported before the load is timed: load time is the model's, not Python's
    "torch": ["torch", "transformers"],
    "optimum": ["torch", "transformers", "onnxruntime", "optimum.onnxruntime"],
    "ct2": ["ctranslate2"],
    "ours": ["fanyi.engine.translator"],
}
FIRST_TOKEN_RUNS = 5


def vm_hwm_mib() -> float:
    """Peak RSS of this process image (/proc VmHWM: unlike ru_maxrss it is not inherited from the
    parent through fork/exec)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def rss_mib() -> float:
    return psutil.Process().memory_info().rss / 2**20


def check_lengths(engine: str, outputs: list[list[int]], what: str) -> None:
    """Equal work or no result: every row must have exactly NEW_TOKENS new tokens."""
    bad = [len(o) for o in outputs if len(o) != NEW_TOKENS]
    if bad:
        raise SystemExit(f"{engine}: {what}: {len(bad)} outputs do not have {NEW_TOKENS} tokens (lengths {bad})")


def timed(fn, *args):
    start = time.perf_counter()
    out = fn(*args)
    return out, time.perf_counter() - start


def measure_speed(name: str, engine: Engine, sources: list[list[int]]) -> tuple[dict, dict]:
    """Batch 1 (sentence by sentence) and the whole set as one batch, greedy and beam 4."""
    for beams in (1, 4):  # warm-up: allocations, thread pools, per-shape kernels
        for src in sources[:2]:
            engine.generate([src], beams)
        engine.generate(sources[:4], beams)
    times: dict = {}
    outputs: dict = {}
    for beams, label in ((1, "greedy"), (4, "beam4")):
        per_sentence = []
        rows = []
        for src in sources:
            out, seconds = timed(engine.generate, [src], beams)
            rows += out
            per_sentence.append(seconds)
        check_lengths(name, rows, f"{label} batch 1")
        batch_out, batch_seconds = timed(engine.generate, sources, beams)
        check_lengths(name, batch_out, f"{label} one batch")
        if len(batch_out) != len(sources):
            raise SystemExit(f"{name}: {label} one batch returned {len(batch_out)} rows for {len(sources)}")
        times[f"{label}/b1"] = {
            "ms": 1000 * sum(per_sentence) / len(sources),
            "median_ms": 1000 * statistics.median(per_sentence),
        }
        times[f"{label}/batch"] = {"ms": 1000 * batch_seconds, "per_sentence_ms": 1000 * batch_seconds / len(sources)}
        outputs[label] = rows
    return times, outputs


def measure_first_token(engine: Engine, source: list[int]) -> float | None:
    engine.first_token(source)  # warm-up
    runs = [engine.first_token(source) for _ in range(FIRST_TOKEN_RUNS)]
    if any(r is None for r in runs):
        return None
    return 1000 * statistics.median(runs)


def prefixes_of(outputs: list[list[int]]) -> list[list[int]]:
    """Teacher-forcing prefixes: the decoder start and the reference's tokens before each step."""
    return [[PAD] + out[: NEW_TOKENS - 1] for out in outputs]


def write_reference(engine: Engine, sources: list[list[int]], greedy: list[list[int]], path: Path) -> None:
    """The fp32 PyTorch reference the others are compared with: its greedy outputs and its argmax
    at each step under teacher forcing (raw logits, whole vocabulary)."""
    prefixes = prefixes_of(greedy)
    top1 = [engine.top1(src, p) for src, p in zip(sources, prefixes)]
    path.write_text(json.dumps({"outputs": greedy, "prefixes": prefixes, "top1": top1}))


def agreement(engine: Engine, sources: list[list[int]], reference: dict) -> dict:
    same = total = 0
    for src, prefix, want in zip(sources, reference["prefixes"], reference["top1"]):
        got = engine.top1(src, prefix)
        if len(got) != len(want):
            raise SystemExit(f"top1 returned {len(got)} steps for a prefix of {len(want)}")
        same += sum(g == w for g, w in zip(got, want))
        total += len(want)
    return {"agree": same, "steps": total, "percent": 100.0 * same / total}


def folder_mib(folder: Path) -> float:
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file()) / 2**20


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--engine", required=True, choices=sorted(BY_NAME))
    parser.add_argument("--threads", type=int, required=True)
    parser.add_argument("--work", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--quality", action="store_true", help="also measure top-1 agreement with the reference")
    parser.add_argument("--reference", action="store_true", help="write the reference (the fp32 PyTorch run)")
    args = parser.parse_args()
    spec = BY_NAME[args.engine]
    workload = json.loads((args.work / "workload.json").read_text(encoding="utf-8"))
    sources, stream_source = workload["sources"], workload["stream_source"]

    started = time.perf_counter()
    for module in FAMILY_IMPORTS[spec.family]:
        importlib.import_module(module)
    import_seconds = time.perf_counter() - started
    profile = workload.get("profile")  # mBART-50 / NLLB runs: their ids and languages
    engine = spec.create(profile)
    folder = args.work / spec.folder
    _, load_seconds = timed(engine.load, folder, args.threads)
    rss_after_load = rss_mib()

    load_avg_before = os.getloadavg()[0]  # the machine is shared: a busy one shows up here
    times, outputs = measure_speed(spec.name, engine, sources)
    # the many-to-many runs leave streaming out: their first token is the forced language token
    first_token_ms = measure_first_token(engine, stream_source) if profile is None else None
    peak = vm_hwm_mib()  # before the quality pass, whose batches are not part of the timed work

    result = {
        "engine": spec.name,
        "threads": args.threads,
        "folder": spec.folder,
        "folder_mib": folder_mib(folder),
        "import_s": import_seconds,
        "load_s": load_seconds,
        "rss_after_load_mib": rss_after_load,
        "peak_rss_mib": peak,
        "load_avg": [load_avg_before, os.getloadavg()[0]],
        "times": times,
        "first_token_ms": first_token_ms,
        "distinct_greedy_outputs": len({tuple(o) for o in outputs["greedy"]}),
        "outputs": outputs,
    }
    if args.reference:
        write_reference(engine, sources, outputs["greedy"], args.work / "reference.json")
    if args.quality:
        reference = json.loads((args.work / "reference.json").read_text())
        result["agreement"] = agreement(engine, sources, reference)
    args.out.write_text(json.dumps(result))
    print(
        f"{spec.name} threads={args.threads}: load {load_seconds:.2f}s, "
        + ", ".join(f"{k} {v['ms']:.0f}ms" for k, v in times.items()),
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
