"""Writes benchmarks/RESULTS-llm.md from llm_paired.py's and llm_bandwidth.py's JSON (issue 19).

/work/bench/venv/bin/python benchmarks/llm_report.py [--work /work/bench] [--out benchmarks/RESULTS-llm.md]
    [--models hy-mt1.5-1.8b,qwen3-1.7b] [--note "text for the header"]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import time
from importlib import metadata
from pathlib import Path

HERE = Path(__file__).resolve().parent
PACKAGES = (
    "llama_cpp_python",
    "onnxruntime",
    "onnxruntime-genai",
    "gguf",
    "torch",
    "transformers",
    "tokenizers",
    "numpy",
)
ROWS = (
    ("decode", "decode, tokens/s (64 new tokens)"),
    ("prefill", "prefill of 120 tokens, ms to first token"),
    ("ttft_cached", "first token, prefix cached, ms"),
    ("ttft_uncached", "first token, no prefix cache, ms"),
)


def cpu_line() -> str:
    info = dict(
        line.split(":", 1)
        for line in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines()
        if ":" in line
    )
    flags = set(info.get("Flags", "").split())
    simd = [f for f in ("avx2", "fma", "avx512f", "avx512_vnni", "avx512_bf16", "avx_vnni") if f in flags]
    return (
        f"{info.get('Model name', '?').strip()}, {info.get('CPU(s)', '?').strip()} cores "
        f"({info.get('Hypervisor vendor', 'bare metal').strip()}), L3 {info.get('L3 cache', '?').strip()}; "
        f"SIMD: {', '.join(simd)}"
    )


def versions() -> str:
    found = []
    for name in PACKAGES:
        try:
            found.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            found.append(f"{name} (not installed)")
    return ", ".join(found)


def llama_system_info() -> str:
    try:
        import llama_cpp

        return llama_cpp.llama_print_system_info().decode().strip()
    except ImportError:
        return "llama_cpp not installed"


def value(config: str, ms: float) -> str:
    return f"{1000 / ms:.2f}" if config == "decode" else f"{ms:.0f}"


def formats(data: dict, work: Path) -> list[str]:
    """What each peer's files hold: the GGUF's tensor types, the int4 model's quantized ops."""
    import collections

    files = json.loads((work / f"files-{data['model']}.json").read_text())
    lines = []
    for variant, path in files.get("gguf", {}).items():
        from gguf import GGUFReader

        reader = GGUFReader(path)
        types = collections.Counter(t.tensor_type.name for t in reader.tensors)
        embd = next(t.tensor_type.name for t in reader.tensors if t.name == "token_embd.weight")
        lines.append(
            f"- GGUF {variant}: {Path(path).stat().st_size / 2**20:.0f} MiB; tensors "
            + ", ".join(f"{n} {k}" for k, n in types.most_common())
            + f"; token_embd (also the output) {embd}"
        )
    if files.get("ort_genai"):
        import onnx

        model = onnx.load(str(Path(files["ort_genai"]) / "model.onnx"), load_external_data=False)
        ops = collections.Counter(n.op_type for n in model.graph.node)
        nbits = [n for n in model.graph.node if n.op_type == "MatMulNBits"]
        attrs = {a.name: onnx.helper.get_attribute_value(a) for a in nbits[0].attribute} if nbits else {}
        size = sum(p.stat().st_size for p in Path(files["ort_genai"]).glob("model.onnx*"))
        lines.append(
            f"- onnxruntime-genai int4: {size / 2**20:.0f} MiB; {ops['MatMulNBits']} MatMulNBits "
            f"(bits {attrs.get('bits')}, block {attrs.get('block_size')}, accuracy level "
            f"{attrs.get('accuracy_level', 0)}), {ops.get('GatherBlockQuantized', 0)} GatherBlockQuantized "
            f"embedding, {ops.get('GroupQueryAttention', 0)} GroupQueryAttention, "
            f"{ops.get('RotaryEmbedding', 0)} separate RotaryEmbedding"
        )
    elif files.get("ort_genai_error"):
        lines.append(f"- onnxruntime-genai: the builder failed: {files['ort_genai_error']}")
    return lines


def model_section(data: dict, bandwidth: dict | None, work: Path) -> list[str]:
    summary, workers = data["summary"], data["workers"]
    engines = data["engines"]
    lines = [
        f"## {data['model']}",
        "",
        f"Started {data['started']}; {data['rounds']} rounds; threads {', '.join(map(str, data['threads']))}; "
        f"each cell is the median over rounds of the engine's best thread count in that round "
        f"(ratio: to llama.cpp Q4_0 in the same round, median and range; above 1 is faster in the "
        f"decode row, slower in the others; a median of per-round ratios, so it can differ from the "
        f"ratio of the medians beside it).",
        "",
        *formats(data, work),
        "",
    ]
    for engine, why in data["skipped"].items():
        lines.append(f"- **{engine}: not run** — {why}")
    if data["skipped"]:
        lines.append("")
    lines += ["| | " + " | ".join(engines) + " |", "|---|" + "---|" * len(engines)]
    for config, label in ROWS:
        if config not in summary:
            continue
        cell = summary[config]
        row = []
        for e in engines:
            text = value(config, cell["median_ms"][e])
            if "ratio" in cell and e != "llama.cpp Q4_0":
                low, high = cell["ratio_range"][e]
                ratio, low, high = (
                    (1 / cell["ratio"][e], 1 / high, 1 / low) if config == "decode" else (cell["ratio"][e], low, high)
                )
                text += f" ({ratio:.2f}×, {low:.2f}–{high:.2f})"
            row.append(text)
        lines.append(f"| {label} | " + " | ".join(row) + " |")
    lines += [
        "",
        "Per worker (median over rounds; decode in tokens/s, the rest in ms), load and memory:",
        "",
        "| worker | decode | prefill | ttft cached | ttft uncached | load s | RSS after load MiB | "
        "RSS after warm-up MiB | files MiB | RSS / files | same first token with the prefix cached |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for key, hello in workers.items():
        cells = [value(c, summary[c]["worker_median_ms"][key]) if c in summary else "–" for c, _ in ROWS]
        lines.append(
            f"| {key} | " + " | ".join(cells) + f" | {hello['load_s']:.2f} | {hello['rss_after_load_mib']:.0f} | "
            f"{hello['rss_after_warmup_mib']:.0f} | {hello['file_mib']:.0f} | "
            f"{hello['rss_after_warmup_mib'] / hello['file_mib']:.2f} | "
            f"{'yes' if hello.get('prefix_reuse_same_first_token') else 'NO'} |"
        )
    if bandwidth and "decode" in summary:
        bw = max(bandwidth["read_1t_gbs"], bandwidth["read_2t_gbs"])
        lines += [
            "",
            f"Physical limit of a decode step (weights read per token ÷ {bw:.1f} GB/s, the best measured "
            "read bandwidth):",
            "",
            "| engine | weights read per token, MB | limit, tokens/s | measured, tokens/s | share of the limit |",
            "|---|---|---|---|---|",
        ]
        for e in engines:
            nbytes = next(h["weight_bytes_per_token"] for k, h in workers.items() if k.rsplit(" ", 1)[0] == e)
            limit = bw * 1e9 / nbytes
            measured = 1000 / summary["decode"]["median_ms"][e]
            lines.append(
                f"| {e} | {nbytes / 1e6:.0f} | {limit:.1f} | {measured:.2f} | {100 * measured / limit:.0f} % |"
            )
    loads = [x for c in summary.values() for x in c["load_avg"]]
    lines += ["", f"Load average (1 min) during the passes: {min(loads):.1f}–{max(loads):.1f}.", ""]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--work", type=Path, default=Path("/work/bench"))
    parser.add_argument("--out", type=Path, default=HERE / "RESULTS-llm.md")
    parser.add_argument("--note", default="")
    parser.add_argument("--models", help="comma-separated (default: every results/llm-*.json)")
    args = parser.parse_args()
    bw_file = args.work / "results" / "bandwidth.json"
    bandwidth = json.loads(bw_file.read_text()) if bw_file.exists() else None
    lines = [
        "# Decoder-only LLM peers (issue 19)",
        "",
        "Written by `benchmarks/llm_report.py` from `llm_paired.py` and `llm_bandwidth.py` (how: "
        "benchmarks/README.md, \"LLM peers\"). Random weights at exactly HY-MT1.5-1.8B's and Qwen3-1.7B's "
        "configurations; every engine gets the same token ids and decodes greedily with eos blocked.",
        "",
    ]
    if args.note:
        lines += [args.note, ""]
    lines += [
        f"- Written {time.strftime('%Y-%m-%d %H:%M')}; CPU: {cpu_line()}",
        f"- Versions: {versions()}",
        f"- llama.cpp system info: `{llama_system_info()}`",
    ]
    if bandwidth:
        lines += [
            f"- Memory bandwidth (`llm_bandwidth.py`, {bandwidth['array_mib']} MiB arrays, best of "
            f"{bandwidth['repeats']}): read {bandwidth['read_1t_gbs']:.1f} GB/s at 1 thread, "
            f"{bandwidth['read_2t_gbs']:.1f} at 2; copy {bandwidth['copy_1t_gbs']:.1f} / "
            f"{bandwidth['copy_2t_gbs']:.1f}; numpy copy {bandwidth['numpy_copy_1t_gbs']:.1f} (load average "
            f"{bandwidth['load_avg_before']:.1f} before, {bandwidth['load_avg_after']:.1f} after)"
        ]
    lines.append("")
    paths = (
        [args.work / "results" / f"llm-{m}.json" for m in args.models.split(",")]
        if args.models
        else sorted((args.work / "results").glob("llm-*.json"))
    )
    for path in paths:
        lines += model_section(json.loads(path.read_text()), bandwidth, args.work)
    args.out.write_text("\n".join(lines))
    print(args.out)


if __name__ == "__main__":
    main()
