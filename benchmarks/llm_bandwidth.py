"""This machine's memory bandwidth, for the decode step's physical limit (issue 19).

    /work/bench/venv/bin/python benchmarks/llm_bandwidth.py [--mib 1024] [--repeats 7] [--out FILE.json]

A decode step at batch 1 must read every weight once (the embedding lookup excepted), so
tokens/s can not exceed bandwidth / weight bytes per token. Measured like STREAM: arrays far larger
than the last-level cache (1 GiB each, L3 is 32 MiB here), each kernel run `repeats` times, the best
run kept (STREAM's convention: the others were disturbed), at 1 and 2 threads:

- read: a C loop summing 64-bit words (what a decode step does with weights: read, no write),
  compiled here with gcc -O3 -march=native -fopenmp, OpenMP static schedule over the threads;
- copy: the same C, dst[i] = src[i] (STREAM's copy: bytes counted once read and once written);
- numpy copy (np.copyto, one thread) as a cross-check that needs no compiler.

The C source is compiled into a temporary folder at run time (nothing built is kept).
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

C_SOURCE = r"""
#include <stdint.h>
#include <string.h>
#include <omp.h>
uint64_t read_words(const uint64_t *a, int64_t n, int threads) {
    uint64_t total = 0;
    #pragma omp parallel for num_threads(threads) schedule(static) reduction(+:total)
    for (int64_t i = 0; i < n; i++) total += a[i];
    return total;
}
void copy_words(uint64_t *dst, const uint64_t *src, int64_t n, int threads) {
    #pragma omp parallel num_threads(threads)
    {
        int t = omp_get_thread_num(), nt = omp_get_num_threads();
        int64_t chunk = (n + nt - 1) / nt, start = t * chunk, end = start + chunk < n ? start + chunk : n;
        if (start < end) memcpy(dst + start, src + start, (size_t)(end - start) * sizeof(uint64_t));
    }
}
"""


def compile_kernels(folder: Path) -> ctypes.CDLL:
    source, library = folder / "stream.c", folder / "stream.so"
    source.write_text(C_SOURCE)
    subprocess.run(
        ["gcc", "-O3", "-march=native", "-fopenmp", "-shared", "-fPIC", str(source), "-o", str(library)], check=True
    )
    lib = ctypes.CDLL(str(library))
    lib.read_words.restype = ctypes.c_uint64
    lib.read_words.argtypes = [ctypes.c_void_p, ctypes.c_int64, ctypes.c_int]
    lib.copy_words.restype = None
    lib.copy_words.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int]
    return lib


def best_gbs(run, nbytes: int, repeats: int) -> float:
    run()  # first touch and thread start-up
    best = min(_timed(run) for _ in range(repeats))
    return nbytes / best / 1e9


def _timed(run) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def measure(mib: int, repeats: int) -> dict:
    n = mib * 2**20 // 8
    src = np.ones(n, dtype=np.uint64)
    dst = np.zeros(n, dtype=np.uint64)
    result: dict = {
        "array_mib": mib,
        "repeats": repeats,
        "cpu_count": os.cpu_count(),
        "load_avg_before": os.getloadavg()[0],
    }
    with tempfile.TemporaryDirectory() as tmp:
        lib = compile_kernels(Path(tmp))
        for threads in (1, 2):
            result[f"read_{threads}t_gbs"] = best_gbs(
                lambda t=threads: lib.read_words(src.ctypes.data, n, t), src.nbytes, repeats
            )
            result[f"copy_{threads}t_gbs"] = best_gbs(
                lambda t=threads: lib.copy_words(dst.ctypes.data, src.ctypes.data, n, t), 2 * src.nbytes, repeats
            )
    result["numpy_copy_1t_gbs"] = best_gbs(lambda: np.copyto(dst, src), 2 * src.nbytes, repeats)
    result["load_avg_after"] = os.getloadavg()[0]
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mib", type=int, default=1024, help="size of each array")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    result = measure(args.mib, args.repeats)
    print(json.dumps(result, indent=1))
    if args.out:
        args.out.write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
