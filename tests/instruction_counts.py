"""Counting a piece of work in instructions with valgrind's callgrind (the speed guard and benchmarks/).

A process started under `callgrind_command(prefix)` runs uninstrumented (valgrind's JIT only, about
five times slower than native) until `ClientRequests.counting(name)` brackets a piece of work: only
that work is instrumented and counted, and its count is dumped under `name`. `read_dumps(prefix)`
reads the counts back by name. The client requests are callgrind's own macros (valgrind/callgrind.h),
compiled into a small shared library at first use and called through ctypes.

Valgrind's virtual CPU reports an AVX2 + FMA CPU without AVX-512, VNNI or AMX through CPUID, whatever
the host, so every library dispatches its AVX2 kernels under it.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

HELPER_SOURCE = r"""
#include <valgrind/callgrind.h>
void counting_start(void) { CALLGRIND_START_INSTRUMENTATION; CALLGRIND_ZERO_STATS; }
void counting_stop(const char *name) { CALLGRIND_STOP_INSTRUMENTATION; CALLGRIND_DUMP_STATS_AT(name); }
"""


def tools_missing() -> str | None:
    """Why instructions cannot be counted here, or None."""
    for tool in ("valgrind", "callgrind_annotate", "cc"):
        if not shutil.which(tool):
            return f"{tool} is not installed (apt-get install valgrind gcc)"
    if not Path("/usr/include/valgrind/callgrind.h").exists():
        return "valgrind's headers are not installed (/usr/include/valgrind/callgrind.h)"
    return None


def callgrind_command(prefix: Path) -> list[str]:
    """valgrind's command line: instrumentation off until a client request turns it on; one dump file
    per counted piece of work, named prefix.<pid>.<n>."""
    return [
        "valgrind",
        "--tool=callgrind",
        "--instr-atstart=no",
        "--quiet",
        f"--callgrind-out-file={prefix}.%p",
    ]


def _helper() -> Path:
    digest = hashlib.sha256(HELPER_SOURCE.encode()).hexdigest()[:12]
    library = Path(tempfile.gettempdir()) / f"fanyi-callgrind-requests-{os.getuid()}-{digest}.so"
    if not library.exists():
        source = library.with_suffix(f".{os.getpid()}.c")
        source.write_text(HELPER_SOURCE, encoding="utf-8")
        partial = library.with_suffix(f".{os.getpid()}.tmp")
        subprocess.run(["cc", "-O1", "-shared", "-fPIC", "-o", str(partial), str(source)], check=True)
        source.unlink()
        partial.replace(library)  # atomic: parallel processes compile the same bytes
    return library


class ClientRequests:
    def __init__(self) -> None:
        self._lib = ctypes.CDLL(str(_helper()))
        self._lib.counting_stop.argtypes = [ctypes.c_char_p]

    @contextmanager
    def counting(self, name: str) -> Iterator[None]:
        """Instructions executed inside the block (every thread), dumped under `name`."""
        if not re.fullmatch(r"[A-Za-z0-9_./-]+", name):
            raise ValueError(f"dump names are plain words: {name!r}")
        self._lib.counting_start()
        try:
            yield
        finally:
            self._lib.counting_stop(name.encode())


def client_requests() -> ClientRequests:
    return ClientRequests()


def read_dumps(prefix: Path) -> dict[str, int]:
    """Instructions (Ir) per dump name, from the files callgrind wrote under prefix."""
    counts: dict[str, int] = {}
    for dump in prefix.parent.glob(prefix.name + ".*"):
        text = dump.read_text(encoding="utf-8", errors="replace")
        trigger = re.search(r"^desc: Trigger: Client Request: (\S+)", text, re.M)
        total = re.search(r"^totals: (\d+)", text, re.M)
        if trigger and total:
            counts[trigger.group(1)] = int(total.group(1))
    return counts
