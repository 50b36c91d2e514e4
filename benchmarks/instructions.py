"""Instructions, not milliseconds: each engine's passes counted by valgrind's callgrind, on AVX2 code paths.

    python benchmarks/instructions.py [--work /tmp/fanyi-bench] [--engines "ours int8@REV,ours int8,CT2 int8"]
                                      [--configs greedy/b1,beam4/b1,beam4/batch] [--sentences 4] [--annotate]

On a shared two-core machine a wall-clock time moves with whatever else runs; the number of
instructions a pass executes does not (1 thread, same input, same libraries: the same count to a few
parts in a million from run to run). Each engine runs in its own process under
`valgrind --tool=callgrind --instr-atstart=no`: loading and warming up run uninstrumented, and each
timed pass is bracketed by callgrind's client requests (CALLGRIND_START/STOP_INSTRUMENTATION and a
dump named after the configuration), so a count is that pass alone.

Valgrind's virtual CPU answers CPUID as an AVX2 + FMA CPU without AVX-512, VNNI or AMX (it cannot run
those instructions), on Intel and AMD hosts alike: ONNX Runtime's MLAS, numpy and CTranslate2's
oneDNN/MKL all dispatch their AVX2 kernels here, so the counts are those of an AVX2-only CPU wherever
they are taken. An instruction count is a proxy for time, not a time: it does not see memory stalls,
the cost of each instruction or threads; it is exact for "did this change add work", which is what a
bisection asks. `--annotate` also writes each dump's top functions (callgrind_annotate).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from instruction_counts import callgrind_command, client_requests, read_dumps  # noqa: E402
from prepare import ours_packs  # noqa: E402


def serve(engine_name: str, work: Path, folder: Path | None, configs: list[str], sentences: int) -> None:
    """Runs inside valgrind: load, warm up, then one counted pass per configuration."""
    from engines import BY_NAME, NEW_TOKENS

    requests = client_requests()
    spec = BY_NAME[engine_name]
    workload = json.loads((work / "workload.json").read_text(encoding="utf-8"))
    sources = workload["sources"][:sentences]
    engine = spec.create(workload.get("profile"))
    engine.load(folder or work / spec.folder, 1)
    for beams in (1, 4):  # warm-up, uninstrumented: allocations and per-shape set-up are not a step's cost
        engine.generate(sources[:1], beams)
        engine.generate(sources[:2], beams)
    for config in configs:
        beams = 4 if config.startswith("beam4") else 1
        batches = [[s] for s in sources] if config.endswith("/b1") else [sources]
        with requests.counting(config):
            outputs = [out for batch in batches for out in engine.generate(batch, beams)]
        if any(len(o) != NEW_TOKENS for o in outputs):
            raise SystemExit(f"{engine_name}: {config}: outputs of the wrong length")
        if spec.family == "ours":  # the parts of a pass: the encoder alone, and detokenising its outputs
            translator = engine.model
            with requests.counting(f"{config}/encoder"):
                for batch in batches:
                    translator._runner.encode(batch, beams)
            with requests.counting(f"{config}/detokenising"):
                for out in outputs:
                    translator.tokenizer.decode(out)


def count(engine: str, work: Path, configs: list[str], sentences: int, out_dir: Path) -> dict[str, int]:
    from paired import revision

    name, _, rev = engine.partition("@")
    env = dict(os.environ)
    command = [sys.executable, __file__, "--serve", name, "--work", str(work)]
    command += ["--configs", ",".join(configs), "--sentences", str(sentences)]
    if rev:
        app, pack = revision(rev, work)
        command += ["--folder", str(pack)]
        env["PYTHONPATH"] = str(app)
    prefix = out_dir / re.sub(r"[^A-Za-z0-9_.-]+", "_", engine)
    subprocess.run(callgrind_command(prefix) + command, env=env, cwd=HERE, check=True)
    return read_dumps(prefix)


def annotate(prefix: Path, top: int = 25) -> str:
    out = []
    for dump in sorted(prefix.parent.glob(prefix.name + ".*")):
        text = subprocess.run(
            ["callgrind_annotate", "--threshold=99", str(dump)], capture_output=True, text=True, check=True
        ).stdout
        lines = [line for line in text.splitlines() if re.match(r"\s*[\d,]+ \(", line)]
        out.append(f"== {dump.name}\n" + "\n".join(lines[:top]))
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--work", type=Path, default=Path("/tmp/fanyi-bench"))
    parser.add_argument("--engines", default="ours int8,CT2 int8")
    parser.add_argument("--configs", default="greedy/b1,beam4/b1,beam4/batch")
    parser.add_argument("--sentences", type=int, default=4, help="the workload's first N sentences")
    parser.add_argument("--out", type=Path, help="write the counts as JSON")
    parser.add_argument("--keep", type=Path, help="keep callgrind's dumps in this folder")
    parser.add_argument("--annotate", action="store_true", help="print each dump's top functions")
    parser.add_argument("--serve", help=argparse.SUPPRESS)
    parser.add_argument("--folder", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    configs = args.configs.split(",")
    if args.serve:
        serve(args.serve, args.work, args.folder, configs, args.sentences)
        return
    if not shutil.which("valgrind"):
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    ours_packs(args.work)
    out_dir = args.keep or Path(tempfile.mkdtemp(prefix="fanyi-callgrind-"))
    out_dir.mkdir(parents=True, exist_ok=True)
    engines = args.engines.split(",")
    counts = {e: count(e, args.work, configs, args.sentences, out_dir) for e in engines}
    reference = engines[-1]
    for config in configs:
        print(f"{config} ({args.sentences} sentences, 1 thread, AVX2 code paths under valgrind):")
        for engine in engines:
            ratio = counts[engine][config] / counts[reference][config]
            print(f"    {engine:28s} {counts[engine][config] / 1e9:9.3f} G instructions  {ratio:5.2f}× {reference}")
            parts = {p: counts[engine].get(f"{config}/{p}") for p in ("encoder", "detokenising")}
            if all(parts.values()):
                print(
                    f"    {'':28s} of which the encoder {parts['encoder'] / 1e9:.3f} G; "
                    f"detokenising the outputs (not in the pass) {parts['detokenising'] / 1e6:.1f} M"
                )
    if args.annotate:
        for engine in engines:
            print(annotate(out_dir / re.sub(r"[^A-Za-z0-9_.-]+", "_", engine)))
    if args.out:
        args.out.write_text(json.dumps(counts, indent=1))


if __name__ == "__main__":
    main()
