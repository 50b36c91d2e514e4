"""How much memory a pack needs to translate, before it is downloaded or loaded — no Qt, no ONNX Runtime.

An estimate, written once for catalog entries and installed packs alike:

    the pack's files × WEIGHTS_FACTOR   (ONNX Runtime holds the weights, int4 ones also repacked
                                         for its kernels: 1.36× the files of a 78 MB int4 pack, measured)
  + keys and values of CONTEXT_TOKENS   (the runtime's float32 cache, every layer)
  + RUNTIME_BYTES                        (Python, Qt, the app's modules, ONNX Runtime and the
                                         activations of a long prompt; 131 MB measured with a tiny
                                         pack, before activations)

A decoder-only pack's cache costs 2 × layers × kv_heads × head_dim × 4 bytes a token; an
encoder-decoder's holds its decoder's own keys and values and those of the source, per beam, for at
most its positions. The catalog carries kv_cache_bytes (packaging/release writes it with
kv_cache_bytes()), so an entry is judged without downloading it.
"""

from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import Mapping
from typing import Any

from .catalog import CatalogEntry

MiB = 1 << 20
CONTEXT_TOKENS = 2048  # a long paragraph, its translation and the prompt around them
WEIGHTS_FACTOR = 1.4
RUNTIME_BYTES = 300 * MiB
CACHE_ITEM_BYTES = 4  # float32
DEFAULT_BEAMS = 4  # an encoder-decoder pack whose generation settings name none


def kv_cache_bytes(manifest: Mapping[str, Any]) -> int:
    """Bytes of keys and values a pack's runtime keeps for a full context (CONTEXT_TOKENS, or its positions)."""
    arch = manifest["architecture"]
    if "kv_heads" in arch:  # decoder-only: the prompt and the translation share one cache
        per_token = 2 * arch["layers"] * arch["kv_heads"] * arch["head_dim"] * CACHE_ITEM_BYTES
        return int(per_token * min(CONTEXT_TOKENS, arch["max_positions"]))
    # encoder-decoder: per beam, self-attention over the target and cross-attention over the source
    beams = (manifest.get("generation") or {}).get("num_beams") or DEFAULT_BEAMS
    width = arch["heads"] * arch["head_dim"]
    per_token = 2 * 2 * arch["decoder_layers"] * width * CACHE_ITEM_BYTES
    return int(per_token * min(CONTEXT_TOKENS, arch["max_positions"]) * beams)


def memory_needed(pack: CatalogEntry | Mapping[str, Any]) -> int:
    """Bytes of memory translating with this pack takes: a catalog entry, or an installed pack's manifest."""
    if isinstance(pack, CatalogEntry):
        # an entry that says nothing of the cache: the files and the runtime are most of it
        return _estimate(pack.pack_size, pack.kv_cache_bytes or 0)
    return _estimate(sum(f["size"] for f in pack["files"].values()), kv_cache_bytes(pack))


def _estimate(files_bytes: int, cache_bytes: int) -> int:
    return int(files_bytes * WEIGHTS_FACTOR) + cache_bytes + RUNTIME_BYTES


def physical_memory() -> int | None:
    """This computer's RAM in bytes; None where the system does not say."""
    if sys.platform == "win32":

        class Status(ctypes.Structure):  # MEMORYSTATUSEX
            _fields_ = [
                ("length", ctypes.c_ulong),
                ("load", ctypes.c_ulong),
                ("total", ctypes.c_ulonglong),
                ("available", ctypes.c_ulonglong),
                ("total_page", ctypes.c_ulonglong),
                ("available_page", ctypes.c_ulonglong),
                ("total_virtual", ctypes.c_ulonglong),
                ("available_virtual", ctypes.c_ulonglong),
                ("available_extended", ctypes.c_ulonglong),
            ]

        status = Status(length=ctypes.sizeof(Status))
        ok = ctypes.windll.kernel32.GlobalMemoryStatusEx(ctypes.byref(status))  # type: ignore[attr-defined]
        return int(status.total) if ok else None
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None
