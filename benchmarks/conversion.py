"""How long converting a checkpoint takes, and how much memory: `fanyi export` on random weights of real shapes.

    .venv/bin/python benchmarks/conversion.py [--work /work/bench/conv] [--rounds 3]

Two checkpoints, built once in --work with transformers (the dev venv has it; the conversion itself does not
use it): HY-MT1.5-1.8B's exact configuration as a bfloat16 model.safetensors of 3.6 GB (llm_models.py; its
tokenizer_config.json carries a one-line chat template, as llm_prepare.py gives it), converted to int4 in
blocks of 32 and of 128; and opus-mt-en-zh's (opus_mt_config.py, float32, 300 MB), converted to int8.

Each conversion runs as its own `fanyi export` process, with torch and transformers made unimportable in
it, the rounds alternating between the jobs; the wall time and the process's peak resident memory
(getrusage of the child) are printed per round, with the CPU, as a Markdown table for benchmarks/README.md.
Measure on an idle machine: nothing else should be running.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "benchmarks"))

# the child refuses torch and transformers, then runs `fanyi export` with the given arguments
TORCHLESS_EXPORT = """
import importlib.abc, sys
class Refuse(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("torch", "transformers"):
            raise ImportError(name)
sys.meta_path.insert(0, Refuse())
from fanyi.cli import main
sys.exit(main(["export", *sys.argv[1:]]))
"""
HY_TEMPLATE = "{% for m in messages %}<｜hy_User｜>{{ m['content'] }}<｜hy_Assistant｜>{% endfor %}"


def cpu_name() -> str:
    flags, model = "", platform.processor()
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name") and model in ("", "x86_64"):
            model = line.split(":", 1)[1].strip()
        if line.startswith("flags") and not flags:
            flags = line
    features = [f for f in ("avx512_vnni", "avx512f", "avx2") if f" {f}" in flags]
    return f"{model} ({os.cpu_count()} CPUs; {', '.join(features) or 'no AVX2'})"


def hy_mt_source(work: Path) -> Path:
    """HY-MT1.5-1.8B's shape with a chat template (symlinks to the model folder's files)."""
    from llm_models import MODELS, build_folder

    folder = build_folder(MODELS["hy-mt1.5-1.8b"], work / "models")
    source = work / "hy-mt1.5-1.8b-src"
    source.mkdir(parents=True, exist_ok=True)
    for item in folder.iterdir():
        if item.name != "tokenizer_config.json" and not (source / item.name).exists():
            (source / item.name).symlink_to(item)
    (source / "tokenizer_config.json").write_text(
        json.dumps({"tokenizer_class": "PreTrainedTokenizerFast", "chat_template": HY_TEMPLATE})
    )
    return source


def opus_mt_source(work: Path) -> Path:
    from opus_mt_config import build_opus_mt_sized_folder

    return build_opus_mt_sized_folder(work / "models" / "opus-mt-en-zh-random")


def run_once(source: Path, out: Path, options: list[str]) -> tuple[float, int]:
    """Wall seconds and peak RSS in bytes of one `fanyi export` process."""
    shutil.rmtree(out, ignore_errors=True)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", TORCHLESS_EXPORT, str(source), str(out), *options], check=True)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024  # kilobytes on Linux
    shutil.rmtree(out, ignore_errors=True)
    return seconds, peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--work", type=Path, default=Path("/work/bench/conv"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jobs", default="hy-int4-32,hy-int4-128,opus-int8")
    args = parser.parse_args()
    jobs = {
        "hy-int4-32": ("HY-MT1.5-1.8B (bf16, 3.6 GB) → int4, blocks of 32", hy_mt_source, ["--quantize", "int4"]),
        "hy-int4-128": (
            "HY-MT1.5-1.8B (bf16, 3.6 GB) → int4, blocks of 128",
            hy_mt_source,
            ["--quantize", "int4", "--block-size", "128"],
        ),
        "opus-int8": ("opus-mt-en-zh (fp32, 300 MB) → int8", opus_mt_source, ["--quantize", "int8"]),
    }
    chosen = [jobs[key] for key in args.jobs.split(",")]
    sources = {title: make(args.work) for title, make, _ in chosen}
    times: dict[str, list[float]] = {title: [] for title, _, _ in chosen}
    peaks: dict[str, list[int]] = {title: [] for title, _, _ in chosen}
    for round_ in range(args.rounds):
        for title, _make, options in chosen:
            seconds, peak = measure(sources[title], args.work / "out", options)
            times[title].append(seconds)
            peaks[title].append(peak)
            print(f"round {round_ + 1} {title}: {seconds:.1f} s, peak RSS {peak / 2**30:.2f} GiB", flush=True)
    print(f"\nCPU: {cpu_name()}; {args.rounds} rounds, alternating\n")
    print("| conversion | wall time (median, min–max) | peak RSS (max) |")
    print("|---|---|---|")
    for title in times:
        t, peak = times[title], max(peaks[title]) / 2**30
        print(f"| {title} | {statistics.median(t):.1f} s ({min(t):.1f}–{max(t):.1f}) | {peak:.2f} GiB |")


def measure(source: Path, out: Path, options: list[str]) -> tuple[float, int]:
    """run_once in a Python of its own: getrusage's peak of the children is then this conversion's alone."""
    probe = (
        "import json, sys; from pathlib import Path; sys.path.insert(0, sys.argv[1]); import conversion; "
        "print(json.dumps(conversion.run_once(Path(sys.argv[2]), Path(sys.argv[3]), sys.argv[4:])))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, str(REPO / "benchmarks"), str(source), str(out), *options],
        check=True,
        capture_output=True,
        text=True,
    )
    seconds, peak = json.loads(done.stdout.strip().splitlines()[-1])
    return float(seconds), int(peak)


if __name__ == "__main__":
    main()
