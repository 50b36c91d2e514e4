"""Keep freed memory in the process on Linux, so per-step arrays do not page-fault every step.

Each decoder step allocates arrays of megabytes (the key/value cache, 65k-wide scores per row).
glibc returns freed memory at the top of its heap to the kernel above a small threshold, and every
new array then pays a page fault per 4 KiB: copying a beam batch's cache ran five times slower
than a plain memcpy. A higher trim threshold keeps up to TRIM_BYTES of freed memory for reuse.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys

M_TRIM_THRESHOLD, M_MMAP_THRESHOLD, M_ARENA_MAX = -1, -3, -8
TRIM_BYTES = 256 << 20
MMAP_BYTES = 64 << 20
_done = False


def keep_freed_memory() -> bool:
    """Return what loading left free to the kernel, then keep what decoding frees; False where not glibc."""
    global _done
    if _done or not sys.platform.startswith("linux"):
        return _done
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt, malloc_trim = libc.mallopt, libc.malloc_trim
    except (OSError, AttributeError):  # musl and other C libraries have neither
        return False
    malloc_trim(0)  # building the sessions left some ten megabytes of temporary buffers
    _done = bool(mallopt(M_TRIM_THRESHOLD, TRIM_BYTES)) and bool(mallopt(M_MMAP_THRESHOLD, MMAP_BYTES))
    return _done


def few_arenas(count: int = 2) -> bool:
    """Let threads share ``count`` malloc arenas (glibc); False where not glibc.

    glibc gives threads arenas of their own (up to 8 per core), and each keeps up to TRIM_BYTES of
    what it freed: when translations run in whichever of many threads holds the model (the local
    API's), the process grew by hundreds of megabytes (2.1 GiB after two load runs, 0.7 with two
    arenas). Call it before those threads allocate.
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").mallopt
    except (OSError, AttributeError):
        return False
    return bool(mallopt(M_ARENA_MAX, count))
