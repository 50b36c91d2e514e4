"""Pack sizes and milliseconds per sentence for a model of opus-mt-en-zh's full configuration.

    python benchmarks/pack_numbers.py [--work DIR] [--threads 2] [--new-tokens 32]

Random weights do the same work per token as the real model; every sentence is decoded for exactly
--new-tokens tokens (eos suppressed through min_length) so runs are comparable.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from opus_mt_config import build_opus_mt_sized_folder

from fanyi.engine.options import DecodeOptions
from fanyi.engine.translator import Translator
from fanyi.export.convert import export_pack
from fanyi.paths import assets_dir


def sentences(count: int = 20) -> list[str]:
    lines = [l.strip() for l in (assets_dir() / "corpus" / "en.txt").read_text(encoding="utf-8").splitlines()]
    return [l for l in lines if 5 <= len(l.split()) <= 60][:count]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--work", default="/tmp/fanyi-bench")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--new-tokens", type=int, default=32)
    args = parser.parse_args()
    work = Path(args.work)
    hf = build_opus_mt_sized_folder(work / "hf-opus-mt-en-zh-random")
    texts = sentences()
    n = args.new_tokens
    print(f"{len(texts)} sentences, {n} new tokens each, {args.threads} threads")
    print("| pack | size on disk | load | greedy ms/sentence | beam 4 ms/sentence |")
    print("|---|---|---|---|---|")
    for quantize in ("none", "int8"):
        pack = work / f"pack-{quantize}"
        if not pack.exists():
            export_pack(hf, pack, quantize=quantize, name=f"opus-mt-en-zh-random-{quantize}")
        size = sum(f.stat().st_size for f in pack.iterdir())
        start = time.perf_counter()
        translator = Translator.open(pack, threads=args.threads)
        load = time.perf_counter() - start
        sources = [translator.encode(t) for t in texts]
        row = []
        for beams in (1, 4):
            options = DecodeOptions(beams=beams, max_new_tokens=n, min_length=n + 1)
            translator.generate_ids(sources[:2], options)  # warm-up
            times = []
            for src in sources:
                t0 = time.perf_counter()
                out = translator.generate_ids([src], options)[0]
                times.append(time.perf_counter() - t0)
                assert len(out) == n, len(out)
            row.append(statistics.mean(times) * 1000)
        print(f"| {quantize} | {size / 2**20:.1f} MiB | {load:.2f} s | {row[0]:.1f} | {row[1]:.1f} |", flush=True)


if __name__ == "__main__":
    main()
