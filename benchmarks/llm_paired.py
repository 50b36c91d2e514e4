"""Decoder-only LLM engines timed paired and interleaved, as paired.py does for the translators (issue 19).

    /work/bench/venv/bin/python benchmarks/llm_paired.py [--work /work/bench] [--models hy-mt1.5-1.8b,qwen3-1.7b]
        [--engines "llama.cpp Q4_0,…,fanyi int4"] [--threads 1,2] [--rounds 3]
        [--configs decode,prefill,ttft_cached,ttft_uncached] [--new-tokens 64]

Run benchmarks/llm_prepare.py first. For each model, every (engine, threads) pair is a worker process
(this file with --serve) that imports its engine's library, loads the model once (timed: the load
time; RSS read right after it and again after a warm-up pass of every configuration), caches the
prompt prefix, then waits. Each round asks every worker for one pass of each configuration, one
after the other, in an order rotated from round to round and reversed every other round, with a
pause between passes. A round gives, per engine, its best thread count's time; the report gives the
median over rounds and each engine's ratio to the reference (llama.cpp Q4_0) in the same round.

Configurations (the ids of llm_prepare.py's workload; greedy, eos blocked, no text):
- decode: prefix + sentence + suffix, NEW_TOKENS new tokens; ms per token between the first and the
  last (NEW_TOKENS - 1 decoder steps), reported as tokens/s;
- prefill: the 120-token prompt from an empty cache, ms to its first token;
- ttft_cached: the prefix's cache computed (untimed, right before), then prefix + sentence + suffix
  with the prefix reused: ms to the first token; the median of REPEATS;
- ttft_uncached: the same prompt from an empty cache; the median of REPEATS.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from llm_engines import BY_NAME, ModelFiles
from paired import pass_order, reply

HERE = Path(__file__).resolve().parent
CONFIGS = ("decode", "prefill", "ttft_cached", "ttft_uncached")
REFERENCE = "llama.cpp Q4_0"
PAUSE_S = 0.5
REPEATS = 3
NEW_TOKENS = 64


# --- the worker side ------------------------------------------------------------------------------


def first_token_ms(engine, ids: list[int], reuse_prefix: int = 0) -> float:
    start = time.perf_counter()
    stream = engine.stream(ids, 1, reuse_prefix)
    next(stream)
    ms = 1000 * (time.perf_counter() - start)
    stream.close()
    return ms


def run_config(engine, config: str, work: dict, new_tokens: int) -> dict:
    prompt = work["prefix"] + work["sentence"] + work["suffix"]
    if config == "decode":
        stamps, tokens = [], []
        for token in engine.stream(prompt, new_tokens):
            stamps.append(time.perf_counter())
            tokens.append(token)
        if len(tokens) != new_tokens:
            raise SystemExit(f"decode gave {len(tokens)} tokens, not {new_tokens}")
        ms = 1000 * (stamps[-1] - stamps[0]) / (new_tokens - 1)
        return {"ms": ms, "tokens_per_s": 1000 / ms, "tokens": tokens}
    if config == "prefill":
        return {"ms": first_token_ms(engine, work["prompt_120"])}
    if config == "ttft_cached":
        runs = []
        for _ in range(REPEATS):
            engine.cache_prefix(work["prefix"])
            runs.append(first_token_ms(engine, prompt, len(work["prefix"])))
        return {"ms": statistics.median(runs), "runs": runs}
    if config == "ttft_uncached":
        runs = [first_token_ms(engine, prompt) for _ in range(REPEATS)]
        return {"ms": statistics.median(runs), "runs": runs}
    raise SystemExit(f"unknown configuration {config}")


def serve(engine_name: str, model: str, threads: int, work_dir: Path, new_tokens: int) -> None:
    import psutil

    spec = BY_NAME[engine_name]
    files = ModelFiles.from_json(json.loads((work_dir / f"files-{model}.json").read_text()))
    work = json.loads((work_dir / f"workload-{model}.json").read_text())
    for module in spec.imports:  # the library's import is not the model's load
        importlib.import_module(module)
    engine = spec.create()
    start = time.perf_counter()
    engine.load(files, threads)
    load_s = time.perf_counter() - start
    rss_load = psutil.Process().memory_info().rss / 2**20
    engine.cache_prefix(work["prefix"])
    for config in CONFIGS:  # warm-up: allocations, thread pools, per-shape kernels
        run_config(engine, config, work, min(new_tokens, 8))
    # The prefix cache must not change the answer: the first token with and without it, compared once.
    prompt = work["prefix"] + work["sentence"] + work["suffix"]
    engine.cache_prefix(work["prefix"])
    with_cache = next(engine.stream(prompt, 1, len(work["prefix"])))
    without = next(engine.stream(prompt, 1))
    reply(
        {
            "ready": True,
            "load_s": load_s,
            "rss_after_load_mib": rss_load,
            "prefix_reuse_same_first_token": with_cache == without,
            "rss_after_warmup_mib": psutil.Process().memory_info().rss / 2**20,
            "file_mib": sum(p.stat().st_size for p in engine.files()) / 2**20,
            "weight_bytes_per_token": engine.weight_bytes_per_token(),
        }
    )
    for line in sys.stdin:
        config = line.strip()
        if config:
            reply({"config": config, "load_avg": os.getloadavg()[0], **run_config(engine, config, work, new_tokens)})


# --- the controller -------------------------------------------------------------------------------


@dataclass
class Worker:
    engine: str
    threads: int
    process: subprocess.Popen
    hello: dict = field(default_factory=dict)

    @property
    def key(self) -> str:
        return f"{self.engine} {self.threads}t"

    def ask(self, config: str) -> dict:
        self.process.stdin.write(config + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"{self.key}: the worker stopped during {config}")
        return json.loads(line)


def start(engine: str, model: str, threads: int, work: Path, new_tokens: int) -> Worker:
    command = [
        sys.executable,
        __file__,
        "--serve",
        engine,
        "--models",
        model,
        "--threads",
        str(threads),
        "--work",
        str(work),
        "--new-tokens",
        str(new_tokens),
    ]
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=HERE)
    worker = Worker(engine, threads, process)
    line = process.stdout.readline()
    if not line:
        raise SystemExit(f"{worker.key} ({model}): the worker failed to start")
    worker.hello = json.loads(line)
    print(
        f"[{time.strftime('%H:%M:%S')}] {model}: {worker.key} loaded in {worker.hello['load_s']:.2f} s",
        file=sys.stderr,
        flush=True,
    )
    return worker


def run_rounds(workers: list[Worker], configs: list[str], rounds: int) -> dict:
    """answers[config][worker key] = one answer per round"""
    answers: dict = {c: {w.key: [] for w in workers} for c in configs}
    for round_no in range(rounds):
        for config in configs:
            for worker in pass_order(workers, round_no):
                time.sleep(PAUSE_S)
                answers[config][worker.key].append(worker.ask(config))
        print(
            f"[{time.strftime('%H:%M:%S')}] round {round_no + 1}/{rounds} done, load {os.getloadavg()[0]:.2f}",
            file=sys.stderr,
            flush=True,
        )
    return answers


def summarise(answers: dict, engines: list[str], reference: str) -> dict:
    """Per config and engine: each round's best thread count, its median, and the ratio to the reference."""
    out: dict = {}
    for config, by_worker in answers.items():
        rounds = len(next(iter(by_worker.values())))
        best = {
            e: [min(a[r]["ms"] for k, a in by_worker.items() if k.rsplit(" ", 1)[0] == e) for r in range(rounds)]
            for e in engines
        }
        cell = {
            "best_ms": best,
            "median_ms": {e: statistics.median(v) for e, v in best.items()},
            "worker_median_ms": {k: statistics.median(x["ms"] for x in a) for k, a in by_worker.items()},
            "load_avg": [x["load_avg"] for a in by_worker.values() for x in a],
        }
        if reference in best:
            cell["ratio"] = {e: statistics.median(b / r for b, r in zip(v, best[reference])) for e, v in best.items()}
            cell["ratio_range"] = {
                e: [min(b / r for b, r in zip(v, best[reference])), max(b / r for b, r in zip(v, best[reference]))]
                for e, v in best.items()
            }
        out[config] = cell
    return out


def run_model(model: str, args: argparse.Namespace) -> dict:
    files_json = json.loads((args.work / f"files-{model}.json").read_text())
    files = ModelFiles.from_json(files_json)
    wanted = args.engines.split(",")
    engines = [e for e in wanted if BY_NAME[e].available(files)]
    skipped = {e: files_json.get("ort_genai_error") or "not built" for e in wanted if e not in engines}
    threads = [int(t) for t in args.threads.split(",")]
    workers = [start(e, model, t, args.work, args.new_tokens) for e in engines for t in threads]
    started = time.strftime("%Y-%m-%d %H:%M:%S")
    try:
        answers = run_rounds(workers, args.configs.split(","), args.rounds)
    finally:
        for w in workers:
            w.process.stdin.close()
            w.process.wait()
    return {
        "model": model,
        "started": started,
        "engines": engines,
        "skipped": skipped,
        "threads": threads,
        "rounds": args.rounds,
        "new_tokens": args.new_tokens,
        "workers": {w.key: w.hello for w in workers},
        "summary": summarise(answers, engines, REFERENCE),
        "answers": answers,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--work", type=Path, default=Path("/work/bench"))
    parser.add_argument("--models", default="hy-mt1.5-1.8b,qwen3-1.7b")
    parser.add_argument("--engines", default=",".join(BY_NAME), help="rows, by name (default: every engine built)")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--configs", default=",".join(CONFIGS))
    parser.add_argument("--new-tokens", type=int, default=NEW_TOKENS)
    parser.add_argument("--serve", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.models, int(args.threads), args.work, args.new_tokens)
        return
    results = args.work / "results"
    results.mkdir(exist_ok=True)
    for model in args.models.split(","):
        data = run_model(model, args)
        (results / f"llm-{model}.json").write_text(json.dumps(data, indent=1))
        for config, cell in data["summary"].items():
            print(
                f"{model} {config}: "
                + ", ".join(
                    f"{e} {ms:.1f} ms" + (f" ({cell['ratio'][e]:.2f}x)" if "ratio" in cell else "")
                    for e, ms in cell["median_ms"].items()
                )
            )


if __name__ == "__main__":
    main()
