"""A Hugging Face checkpoint's weights read without torch: safetensors files, one tensor at a time.

The format (https://huggingface.co/docs/safetensors): an 8-byte little-endian header length, a JSON
header mapping each tensor's name to its dtype, shape and byte range, then the raw little-endian data.
A tensor is read from its byte range when a graph builder asks for it and converted to float32 then
(bfloat16 by widening its bits, float16 by numpy), so a model is never held whole in float32; a large
table can be read a block of rows at a time.

Sharded checkpoints (model.safetensors.index.json) are one Checkpoint over all their shards. Pickled
weights (pytorch_model.bin) are never opened: checkpoint_files refuses them.
"""

from __future__ import annotations

import json
import math
import struct
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .checkpoint_files import PICKLED, SAFETENSORS, SHARD_INDEX, shards
from .errors import ExportError

MAX_HEADER_BYTES = 100 * 1024 * 1024  # the format's own limit
# safetensors dtype → how its bytes are read; BF16 is read as uint16 and widened (numpy has no bfloat16)
_DTYPES: dict[str, np.dtype[Any]] = {
    "F32": np.dtype("<f4"),
    "F16": np.dtype("<f2"),
    "BF16": np.dtype("<u2"),
    "F64": np.dtype("<f8"),
}


@dataclass(frozen=True)
class TensorEntry:
    """Where one tensor's bytes are: its file, dtype, shape and byte range."""

    file: Path
    dtype: str
    shape: tuple[int, ...]
    start: int  # absolute offset in the file
    end: int

    @property
    def rows(self) -> int:
        return self.shape[0] if self.shape else 1


def _header(path: Path) -> dict[str, TensorEntry]:
    """The tensors of one safetensors file; ExportError for a file that is not one or is cut short."""
    try:
        size = path.stat().st_size
        with open(path, "rb") as f:
            prefix = f.read(8)
            if len(prefix) < 8:
                raise ExportError(f"{path.name} is not a safetensors file (too short)")
            (length,) = struct.unpack("<Q", prefix)
            if length > min(MAX_HEADER_BYTES, size - 8):
                raise ExportError(f"{path.name} is not a safetensors file (header of {length} bytes)")
            raw = f.read(length)
    except OSError as exc:
        raise ExportError(f"{path.name} cannot be read: {exc.strerror or exc}") from None
    try:
        header = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ExportError(f"{path.name} is not a safetensors file (its header is not JSON)") from None
    if not isinstance(header, dict):
        raise ExportError(f"{path.name} is not a safetensors file (its header is not an object)")
    base = 8 + length
    entries: dict[str, TensorEntry] = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        try:
            dtype, shape, (begin, end) = info["dtype"], tuple(int(d) for d in info["shape"]), info["data_offsets"]
        except (TypeError, KeyError, ValueError):
            raise ExportError(f"{path.name}: the entry of {name!r} is not a tensor description") from None
        itemsize = _DTYPES[dtype].itemsize if dtype in _DTYPES else None
        if not (isinstance(begin, int) and isinstance(end, int) and 0 <= begin <= end and base + end <= size):
            raise ExportError(f"{path.name}: {name!r} lies outside the file (is the download complete?)")
        if itemsize is not None and (any(d < 0 for d in shape) or math.prod(shape) * itemsize != end - begin):
            raise ExportError(f"{path.name}: {name!r} has {end - begin} bytes, not what its shape {list(shape)} needs")
        entries[name] = TensorEntry(path, dtype, shape, base + begin, base + end)
    return entries


class Checkpoint:
    """The weights of a model folder by name, read as float32 numpy arrays when asked for."""

    def __init__(self, entries: dict[str, TensorEntry]):
        self._entries = entries

    @classmethod
    def open(cls, folder: Path) -> Checkpoint:
        if (folder / SAFETENSORS).is_file():
            files = [folder / SAFETENSORS]
        elif (folder / SHARD_INDEX).is_file():
            try:
                index = (folder / SHARD_INDEX).read_bytes()
            except OSError as exc:
                raise ExportError(f"{SHARD_INDEX} cannot be read: {exc.strerror or exc}") from None
            files = [folder / name for name in shards(index)]
            if missing := [f.name for f in files if not f.is_file()]:
                raise ExportError(f"{folder / missing[0]} is missing: {SHARD_INDEX} names it")
        elif any((folder / name).is_file() for name in PICKLED):
            raise ExportError(
                f"{folder} has only pickled PyTorch weights (pytorch_model.bin), which Fanyi never opens "
                "(unpickling a file can run any code); use a revision of the model that has model.safetensors"
            )
        else:
            raise ExportError(f"{folder} has no model weights ({SAFETENSORS} or {SHARD_INDEX})")
        entries: dict[str, TensorEntry] = {}
        for path in files:
            for name, entry in _header(path).items():
                if name in entries:
                    raise ExportError(f"{name!r} is in both {entries[name].file.name} and {path.name}")
                entries[name] = entry
        return cls(entries)

    @property
    def names(self) -> Iterable[str]:
        return self._entries.keys()

    def has(self, name: str) -> bool:
        return name in self._entries

    def shape(self, name: str) -> tuple[int, ...]:
        return self._entry(name).shape

    def array(self, name: str) -> np.ndarray:
        """The whole tensor as float32."""
        entry = self._entry(name)
        return self._read(entry, 0, entry.rows)

    def rows(self, name: str, start: int, stop: int) -> np.ndarray:
        """Rows [start, stop) of a tensor (its first dimension) as float32, read alone."""
        entry = self._entry(name)
        return self._read(entry, max(0, start), min(stop, entry.rows))

    def _entry(self, name: str) -> TensorEntry:
        try:
            return self._entries[name]
        except KeyError:
            raise ExportError(f"the checkpoint has no tensor {name!r}") from None

    def _read(self, entry: TensorEntry, start: int, stop: int) -> np.ndarray:
        stored = _DTYPES.get(entry.dtype)
        if stored is None:
            raise ExportError(f"{entry.file.name}: tensors of type {entry.dtype} are not weights Fanyi reads")
        per_row = math.prod(entry.shape[1:]) if entry.shape else 1
        count = (stop - start) * per_row
        try:
            with open(entry.file, "rb") as f:
                f.seek(entry.start + start * per_row * stored.itemsize)
                data = f.read(count * stored.itemsize)
        except OSError as exc:
            raise ExportError(f"{entry.file.name} cannot be read: {exc.strerror or exc}") from None
        if len(data) != count * stored.itemsize:
            raise ExportError(f"{entry.file.name} is shorter than its header says (is the download complete?)")
        values = np.frombuffer(data, stored, count)
        shape = ((stop - start), *entry.shape[1:]) if entry.shape else ()
        if entry.dtype == "BF16":  # the upper half of a float32's bits: exact
            widened: np.ndarray = (values.astype(np.uint32) << 16).view(np.float32).reshape(shape)
            return widened
        converted: np.ndarray = values.astype(np.float32).reshape(shape)
        return converted
