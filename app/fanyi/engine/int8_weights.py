"""int8 weights that give the right sums on every CPU.

ONNX Runtime multiplies uint8 activations by int8 weights. On x86 CPUs without VNNI it does so
with an instruction that adds two products in int16 (vpmaddubsw), which saturates when both are
large: 255 × 127 × 2 > 32767. There the pack's weights are replaced at load time by levels halved
to -64..64 with doubled scales (255 × 64 × 2 = 32640 cannot saturate), one bit of weight precision
for correct sums. VNNI CPUs and ARM add in int32 and keep the full levels.

Set FANYI_INT8_WEIGHTS=full or =reduced to choose instead of detecting the CPU.
"""

from __future__ import annotations

import importlib
import os
import platform
from typing import TYPE_CHECKING, Any

import numpy as np

from .pack_format import INT8_COMMON_SUFFIX, INT8_SCALE_SUFFIX, INT8_WEIGHT_SUFFIX, SHARED_DATA

if TYPE_CHECKING:
    from .pack_view import PackView

X86 = {"x86_64", "amd64", "i386", "i686", "x86"}


def _cpu_has_vnni() -> bool:
    # numpy's private module (no type information), where numpy 2 and numpy 1 keep it
    for name in ("numpy._core._multiarray_umath", "numpy.core._multiarray_umath"):
        try:
            features = importlib.import_module(name).__cpu_features__
        except ImportError:
            continue
        return bool(features.get("AVX512VNNI"))
    return False


def needs_reduced_range() -> bool:
    """Whether uint8 x int8 products may saturate on this CPU."""
    choice = os.environ.get("FANYI_INT8_WEIGHTS", "").lower()
    if choice in ("full", "reduced"):
        return choice == "reduced"
    return platform.machine().lower() in X86 and not _cpu_has_vnni()


def _read(blob: np.ndarray, entry: dict[str, Any]) -> np.ndarray:
    raw = blob[entry["offset"] : entry["offset"] + entry["length"]]
    array: np.ndarray = raw.view(np.dtype(entry["dtype"])).reshape(entry["shape"])
    return array


def halved(levels: np.ndarray, scale: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The same weights, levels halved to -64..64 and scales doubled: one bit coarser, never saturating.

    Halves round to even, as np.rint(levels / 2) does, but in int8: a float64 copy of opus-mt's
    output matrix alone is 266 MB, and the float version took 0.8 s of every load on these CPUs."""
    floor = levels >> 1  # arithmetic shift: floor(level / 2)
    even = floor + (levels & floor & 1)  # an odd level's half is .5 away from two integers: the even one
    return even.astype(np.int8, copy=False), (scale * 2).astype(np.float32)


def reduced_range_weights(
    pack: PackView, graph: str, done: dict[str, np.ndarray] | None = None
) -> dict[str, np.ndarray]:
    """The int8 weights of one graph of the pack with halved levels and doubled scales, by initializer name.

    A wide weight's one kernel scale (its `_common`, format 4) is doubled with them; its columns'
    shares of that scale stay as they are. Weights already in `done` (another graph's, e.g. the embedding
    both graphs read) are taken from there, so both sessions share one copy; the new ones are added to it."""
    done = {} if done is None else done
    index = pack.manifest["external_tensors"]  # checked against shared.bin's size when the pack was opened
    names = [n for n, entry in index.items() if n.endswith(INT8_WEIGHT_SUFFIX) and graph in entry["graphs"]]
    if not names:
        return {}
    blob = np.memmap(pack.file(SHARED_DATA), dtype=np.uint8, mode="r")
    out: dict[str, np.ndarray] = {}
    for name in names:
        scale_name = name + INT8_SCALE_SUFFIX
        if name not in done:
            done[name], done[scale_name] = halved(_read(blob, index[name]), _read(blob, index[scale_name]))
        out[name], out[scale_name] = done[name], done[scale_name]
        common = name + INT8_COMMON_SUFFIX
        if common in index and graph in index[common]["graphs"]:
            if common not in done:
                done[common] = (_read(blob, index[common]) * 2).astype(np.float32)
            out[common] = done[common]
    return out
