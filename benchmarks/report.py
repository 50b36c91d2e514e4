"""Turns the workers' JSON into RESULTS.md: ratios to CTranslate2 int8, absolute times, the checklist."""

from __future__ import annotations

import datetime as dt
import platform
import subprocess
from importlib import metadata
from pathlib import Path

CONFIGS = [  # key in the worker's "times", label, what one number is
    ("greedy/b1", "batch 1, greedy", "ms per sentence"),
    ("beam4/b1", "batch 1, beam 4", "ms per sentence"),
    ("greedy/batch", "whole set as one batch, greedy", "ms for the set"),
    ("beam4/batch", "whole set as one batch, beam 4", "ms for the set"),
]
PACKAGES = [
    "torch",
    "transformers",
    "onnx",
    "onnxruntime",
    "onnxslim",
    "sentencepiece",
    "tokenizers",
    "ctranslate2",
    "optimum",
    "optimum-onnx",
    "numpy",
    "psutil",
    "fanyi",
]
CPU_FLAGS = ["avx2", "fma", "avx512f", "avx512bw", "avx512_vnni", "avx512_bf16", "amx_int8", "amx_bf16"]
OURS, TORCH = "ours int8", "transformers fp32"


class Results:
    """The runs indexed by engine and thread count, with the CT2 int8 reference per cell."""

    def __init__(self, runs: list[dict], threads: list[int]):
        self.threads = threads
        self.engines = list(dict.fromkeys(r["engine"] for r in runs))
        self.runs = {(r["engine"], r["threads"]): r for r in runs}
        self.ct2_int8 = [e for e in self.engines if e.startswith("CT2 int8")]

    def ms(self, engine: str, config: str, threads: int) -> float | None:
        run = self.runs.get((engine, threads))
        return run["times"][config]["ms"] if run else None

    def best(self, engine: str, config: str) -> tuple[float, int] | None:
        """(ms, threads) at the engine's best thread count."""
        cells = [(self.ms(engine, config, t), t) for t in self.threads if self.ms(engine, config, t) is not None]
        return min(cells) if cells else None

    def reference(self, config: str, threads: int | None = None) -> tuple[float, str] | None:
        """The faster CT2 int8 compute type in that cell (at a thread count, or each at its best)."""
        cells = []
        for engine in self.ct2_int8:
            if threads is None:
                best = self.best(engine, config)
                if best:
                    cells.append((best[0], f"{engine}, {best[1]}t"))
            elif (ms := self.ms(engine, config, threads)) is not None:
                cells.append((ms, engine))
        return min(cells) if cells else None

    def any_run(self, engine: str) -> dict:
        """The run at the largest thread count (the one with the quality pass)."""
        return next(self.runs[(engine, t)] for t in sorted(self.threads, reverse=True) if (engine, t) in self.runs)

    def over_threads(self, engine: str, key: str, pick=max) -> float | None:
        values = [
            self.runs[(engine, t)][key]
            for t in self.threads
            if (engine, t) in self.runs and self.runs[(engine, t)][key] is not None
        ]
        return pick(values) if values else None


def fmt(value: float | None, digits: int = 0) -> str:
    return "n/a" if value is None else f"{value:,.{digits}f}"


def ratio(value: float | None, ref: float | None) -> str:
    return "n/a" if value is None or not ref else f"{value / ref:.2f}×"


def speed_tables(res: Results) -> list[str]:
    lines = []
    for config, label, unit in CONFIGS:
        ref_best = res.reference(config)
        head = " | ".join(f"{t}t ms | {t}t ratio" for t in res.threads)
        lines += [
            f"### {label} ({unit})",
            "",
            f"Reference (1.00×): CT2 int8 at its best thread count = {fmt(ref_best[0] if ref_best else None)} ms "
            f"({ref_best[1] if ref_best else 'n/a'}); per-thread ratios use CT2 int8 at that thread count.",
            "",
            f"| engine | best ms (threads) | best vs best | {head} |",
            "|---|---|---|" + "---|---|" * len(res.threads),
        ]
        for engine in res.engines:
            best = res.best(engine, config)
            cells = []
            for t in res.threads:
                ref = res.reference(config, t)
                ms = res.ms(engine, config, t)
                cells += [fmt(ms), ratio(ms, ref[0] if ref else None)]
            best_cell = f"{fmt(best[0])} ({best[1]}t)" if best else "n/a"
            name = f"**{engine}**" if engine == OURS else engine
            lines.append(
                f"| {name} | {best_cell} | {ratio(best[0] if best else None, ref_best[0] if ref_best else None)} | "
                + " | ".join(cells)
                + " |"
            )
        lines.append("")
    return lines


def resource_table(res: Results) -> list[str]:
    t_cols = " | ".join(f"first token {t}t ms" for t in res.threads)
    lines = [
        "| engine | on disk MiB | load s | RSS after load MiB | peak RSS MiB | "
        + t_cols
        + " | top-1 agreement with PyTorch fp32 | machine load avg (before → after, per thread count) |",
        "|---|---|---|---|---|" + "---|" * len(res.threads) + "---|---|",
    ]
    for engine in res.engines:
        run = res.any_run(engine)
        first = [
            fmt(res.runs[(engine, t)]["first_token_ms"], 1) if (engine, t) in res.runs else "n/a" for t in res.threads
        ]
        agree = run.get("agreement")
        agree_cell = f"{agree['percent']:.2f}% ({agree['agree']}/{agree['steps']})" if agree else "n/a"
        lines.append(
            f"| {engine} | {fmt(run['folder_mib'], 1)} | {fmt(res.over_threads(engine, 'load_s'), 2)} | "
            f"{fmt(res.over_threads(engine, 'rss_after_load_mib'))} | "
            f"{fmt(res.over_threads(engine, 'peak_rss_mib'))} | "
            + " | ".join(first)
            + f" | {agree_cell} | "
            + "; ".join(
                f"{t}t: {r['load_avg'][0]:.1f} → {r['load_avg'][1]:.1f}"
                for t in res.threads
                if (r := res.runs.get((engine, t))) and "load_avg" in r
            )
            + " |"
        )
    return lines


Row = tuple[str, str, "bool | None"]
MARK = {True: "PASS", False: "FAIL", None: "n/a"}
# issue 15: ours int8 ÷ CT2 int8 in paired runs, each at its best thread count in each round
PAIRED_TARGETS = [
    ("greedy/b1", "batch 1 greedy", 0.6),
    ("beam4/b1", "batch 1 beam 4", 0.6),
    ("beam4/batch", "20 sentences as one batch, beam 4", 0.7),
    ("greedy/batch", "20 sentences as one batch, greedy", 0.7),
]
DOCUMENT_TARGET = 1.3  # ours ≥ this many times CTranslate2's sentences per second


def table(rows: list[Row]) -> list[str]:
    return ["| target | measured | result |", "|---|---|---|"] + [f"| {t} | {m} | {MARK[ok]} |" for t, m, ok in rows]


def paired_rows(paired: dict | None, document: dict | None, sentences: int) -> list[Row]:
    """Issue 15's speed targets, from the paired runs (benchmarks/paired.py)."""
    rows: list[Row] = []
    for config, label, limit in PAIRED_TARGETS:
        cell = (paired or {}).get(config, {}).get(OURS)
        target = f"{label}: ours int8 ≤ {limit}× CT2 int8 (paired, median of rounds)"
        if not cell:
            rows.append((target, "n/a (no paired run)", None))
            continue
        rows.append(
            (target, f"{cell['median']:.2f}× (rounds {cell['low']:.2f}–{cell['high']:.2f})", cell["median"] <= limit)
        )
    cell = (document or {}).get("document", {}).get(OURS)
    target = (
        f"document throughput, {sentences:,} sentences, beam 4: ours ≥ {DOCUMENT_TARGET}× CT2 int8's "
        "sentences per second (paired)"
    )
    if not cell:
        rows.append((target, "n/a (no document run)", None))
    else:
        speedup = 1 / cell["median"]  # the ratio is of times
        rows.append(
            (
                target,
                f"{speedup:.2f}× (rounds {1 / cell['high']:.2f}–{1 / cell['low']:.2f})",
                speedup >= DOCUMENT_TARGET,
            )
        )
    return rows


def paired_tables(paired: dict | None, document: dict | None, sentences: int) -> list[str]:
    """Per configuration: each worker's median time over the rounds (and, for the document, sentences/s)."""
    lines: list[str] = []
    for data, configs in (
        (paired, CONFIGS),
        (document, [("document", f"document, {sentences:,} sentences, beam 4", "ms per pass")]),
    ):
        for config, label, unit in configs:
            cell = (data or {}).get(config)
            if not cell:
                continue
            loads = cell["load_avg"]
            lines += [
                f"### {label} ({unit}, median of {len(loads)} rounds; load average {min(loads):.2f}–{max(loads):.2f})",
                "",
                "| engine, threads | median | every round |" + (" sentences/s |" if config == "document" else ""),
                "|---|---|---|" + ("---|" if config == "document" else ""),
            ]
            for key, median in cell["median_ms"].items():
                rounds = ", ".join(f"{ms:,.0f}" for ms in cell["ms"][key])
                rate = f" {sentences / (median / 1000):,.1f} |" if config == "document" else ""
                lines.append(f"| {key} | {median:,.0f} | {rounds} |{rate}")
            lines.append("")
    return lines


def checklist(res: Results) -> list[Row]:
    rows: list[Row] = []
    ours, torch = res.best(OURS, "beam4/b1"), res.best(TORCH, "beam4/b1")
    if ours and torch:
        rows.append(
            (
                "ours int8 ≥ 4× faster than transformers generate() at batch 1 beam 4",
                f"{torch[0] / ours[0]:.1f}× ({torch[0]:,.0f} ms vs {ours[0]:,.0f} ms)",
                torch[0] / ours[0] >= 4,
            )
        )
    if OURS in res.engines:
        first = res.over_threads(OURS, "first_token_ms", min)
        rows.append(
            (
                "time to first streamed token, ~30-word sentence < 40 ms (best thread count)",
                f"{fmt(first, 1)} ms",
                first is not None and first < 40,
            )
        )
        rss = res.over_threads(OURS, "rss_after_load_mib")
        rows.append(("RSS after load < 200 MB (worst thread count; MiB)", f"{rss:.0f} MiB", rss < 200))
        peak = res.over_threads(OURS, "peak_rss_mib")
        rows.append(
            (
                "peak RSS over the timed work, whose largest part is the 20-sentence beam batch (reported, no target)",
                f"{peak:.0f} MiB",
                None,
            )
        )
        load = res.over_threads(OURS, "load_s")
        rows.append(("load < 0.5 s (worst thread count)", f"{load:.2f} s", load < 0.5))
        size = res.any_run(OURS)["folder_mib"]
        rows.append(("int8 pack < 80 MB on disk (MiB)", f"{size:.1f} MiB", size < 80))
        ours_agree = res.any_run(OURS).get("agreement")
        ct2_agree = [res.any_run(e).get("agreement") for e in res.ct2_int8]
        ct2_best = max((a["percent"] for a in ct2_agree if a), default=None)
        if ours_agree and ct2_best is not None:
            rows.append(
                (
                    "top-1 agreement with PyTorch fp32: ours int8 ≥ CT2 int8",
                    f"{ours_agree['percent']:.2f}% vs {ct2_best:.2f}%",
                    ours_agree["percent"] >= ct2_best,
                )
            )
    return rows


def cpu_summary() -> str:
    model, flags = platform.processor() or "unknown", set()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name") and model in ("unknown", "", "x86_64"):
                model = line.split(":", 1)[1].strip()
            elif line.startswith("flags"):
                flags = set(line.split(":", 1)[1].split())
    except OSError:
        pass
    import os

    have = ", ".join(f for f in CPU_FLAGS if f in flags) or "none of the listed"
    missing = ", ".join(f for f in CPU_FLAGS if f not in flags) or "none"
    return f"{model}, {os.cpu_count()} logical CPUs; has {have}; lacks {missing}"


def versions() -> str:
    def version(name: str) -> str:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            return "not installed"

    return ", ".join(f"{name} {version(name)}" for name in PACKAGES)


def git_state() -> str:
    repo = Path(__file__).resolve().parents[1]
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=repo, capture_output=True, text=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "app"], cwd=repo, capture_output=True, text=True
        ).stdout
    except OSError:
        return "unknown"
    return f"{head}" + (" with uncommitted engine changes in app/" if dirty.strip() else "")


def workload_lines(res: Results, workload: dict, new_tokens: int) -> list[str]:
    words = [len(t.split()) for t in workload["texts"]]
    lengths = [len(s) for s in workload["sources"]]
    lines = [
        f"- {len(words)} English sentences of {min(words)}–{max(words)} words ({min(lengths)}–{max(lengths)} "
        f"source tokens), from assets/corpus/en.txt; exactly {new_tokens} new tokens per sentence for every "
        "engine (eos suppressed by a minimum length; every output was checked to have "
        f"{new_tokens} tokens).",
        f"- First streamed token: a {len(workload['stream_text'].split())}-word sentence "
        f"({len(workload['stream_source'])} source tokens), greedy, median of 5 after a warm-up.",
    ]
    if TORCH in res.engines:
        distinct = res.any_run(TORCH)["distinct_greedy_outputs"]
        ok = distinct > 1
        lines.append(
            f"- Output depends on the input: the fp32 PyTorch greedy outputs of the {len(words)} sentences "
            f"are {distinct} distinct sequences — {'PASS' if ok else 'FAIL: the random model ignores its input'}."
        )
        outputs = res.any_run(TORCH)["outputs"]["greedy"]
        per_output = sum(len(set(o[:-1])) for o in outputs) / len(outputs)
        lines.append(
            f"- But within one output: {per_output:.1f} distinct tokens on average in the first "
            f"{new_tokens - 1} (the last is the forced eos). Random weights give a decoder whose top-1 "
            "depends on the source far more than on its own prefix (typically one token repeated), so "
            "top-1 agreement is close to a per-sentence yes/no: read it with the sentence count in mind."
        )
    return lines


def wall_time(seconds: float) -> str:
    if seconds != seconds:  # nan: --report-only
        return "n/a (report rebuilt from saved worker results)"
    return f"{seconds / 60:.1f} min"


def write_report(
    path: Path,
    runs: list[dict],
    workload: dict,
    *,
    threads: list[int],
    wall_s: float,
    command: str,
    new_tokens: int,
    paired: dict | None = None,
    document: dict | None = None,
    document_sentences: int = 0,
    paired_dates: list | None = None,
) -> None:
    """`paired` and `document`: the JSON of benchmarks/paired.py's runs (the speed targets come from them)."""
    res = Results(runs, threads)
    text = [
        "# Fanyi vs CTranslate2, Optimum and transformers",
        "",
        f"- Date: {dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC; command: `{command}`; "
        f"wall time of the driver: {wall_time(wall_s)}; engine code: {git_state()}"
        + (f"; paired runs finished {', '.join(f'{d:%H:%M}' for d in paired_dates)} UTC." if paired_dates else "."),
        f"- CPU: {cpu_summary()}. Shared machine: other work may run at the same time, so compare "
        "ratios within this run rather than absolute times across runs.",
        f"- Versions: {versions()}.",
        "- Model: random weights, exactly opus-mt-en-zh's configuration (benchmarks/opus_mt_config.py).",
        *workload_lines(res, workload, new_tokens),
        "- One process per (engine, threads), loaded once, warmed up; threads = ORT intra-op threads / CT2 "
        "intra_threads (inter_threads 1) / torch.set_num_threads. Ratios are time ÷ CT2 int8 time in this "
        "run (below 1 is faster than CT2 int8).",
        "",
        "## Issue targets",
        "",
        "Speed targets come from the paired runs (`benchmarks/paired.py`): the engines' worker processes "
        "take turns, pass by pass, in the same minutes, several rounds; each round's ratio is ours at its best "
        "thread count ÷ CT2 int8 at its best in that round. The side-by-side tables further down time one "
        "engine after another and are for the overview.",
        "",
        *table(paired_rows(paired, document, document_sentences) + checklist(res)),
        "",
        "## Paired runs",
        "",
        *paired_tables(paired, document, document_sentences),
        "## Speed",
        "",
        *speed_tables(res),
        "## Load, memory, size, streaming, quality",
        "",
        "Load excludes importing the libraries; RSS after load and load are the worst over thread counts; "
        "peak RSS is the process's high-water mark over the timed work; quality is measured at "
        f"{max(threads)} threads: the share of decoder steps whose top-1 token over the whole vocabulary "
        "equals PyTorch fp32's, both fed the PyTorch greedy output as the prefix (teacher forcing).",
        "",
        *resource_table(res),
        "",
    ]
    path.write_text("\n".join(text), encoding="utf-8")


def write_many_to_many_report(
    path: Path,
    runs: dict[str, list[dict]],
    workloads: dict[str, dict],
    *,
    threads: list[int],
    wall_s: float,
    command: str,
    new_tokens: int,
    tiny: bool,
) -> None:
    """mBART-50 and NLLB-600M: our int8 pack against CTranslate2 int8, one section per model."""
    from many_to_many_config import MODELS

    text = [
        "# Fanyi vs CTranslate2 on mBART-50 and NLLB-200-distilled-600M (issue 13)",
        "",
        *(["**Smoke test at tiny shapes (`--tiny`): these numbers measure nothing.**", ""] if tiny else []),
        f"- Date: {dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC; command: `{command}`; "
        f"wall time of the driver: {wall_time(wall_s)}; engine code: {git_state()}.",
        f"- CPU: {cpu_summary()}. Compare ratios within this run rather than absolute times across runs.",
        f"- Versions: {versions()}.",
        "- Models: random weights at the real configurations (benchmarks/many_to_many_config.py), English → "
        f"Chinese; exactly {new_tokens} new tokens per sentence for every engine, the first of them the forced "
        "target language token (eos suppressed by a minimum length; every output was checked).",
        "- One process per (engine, threads), loaded once, warmed up. Ratios are time ÷ CT2 int8 time in this "
        "run, the faster of its int8 and int8_float32 compute types (below 1 is faster). Target: ours int8 no "
        "slower than CT2 int8 at batch 1.",
        "",
    ]
    for key, model_runs in runs.items():
        res = Results(model_runs, threads)
        workload = workloads[key]
        lengths = [len(s) for s in workload["sources"]]
        rows = []
        for config, label in (("greedy/b1", "batch 1, greedy"), ("beam4/b1", "batch 1, beam 4")):
            ours, ref = res.best(OURS, config), res.reference(config)
            if ours and ref:
                r = ours[0] / ref[0]
                rows.append(
                    f"| {label}: ours int8 ≤ 1.0× CT2 int8 | {r:.2f}× ({ours[0]:,.0f} ms at {ours[1]}t vs "
                    f"{ref[0]:,.0f} ms, {ref[1]}) | {'PASS' if r <= 1.0 else 'FAIL'} |"
                )
        text += [
            f"## {MODELS[key].title}",
            "",
            f"{len(lengths)} sentences, {min(lengths)}–{max(lengths)} source tokens.",
            "",
            "| target | measured | result |",
            "|---|---|---|",
            *rows,
            "",
            *speed_tables(res),
            *resource_table(res),
            "",
        ]
    path.write_text("\n".join(text), encoding="utf-8")
