"""The pack's shared data file (shared.bin): the large tensors of its graphs, each stored once, with an index.

`shared.*` tensors are used by both graphs of an encoder-decoder; int8 weights are read by the runtime
(engine.int8_weights); the big weights of a decoder-only graph are kept out of the .onnx file
(protobuf's 2 GB limit). Equal tensors (Marian's two sinusoidal position tables, an LLM's tied
embedding and output blocks) are stored once, recognised by their digest. A graph builder may put its
tensors here as it makes them (an LLM's: the model is then never held whole in memory), or a built
graph's tensors are moved here when it is saved; either way the file's bytes follow the order the
graphs are built in, so the same model gives the same file.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
import onnx
from onnx import external_data_helper, helper

from ..engine.pack_format import (
    INT8_COMMON_SUFFIX,
    INT8_SCALE_SUFFIX,
    INT8_SHARE_SUFFIX,
    INT8_WEIGHT_SUFFIX,
    SHARED_DATA,
)

PAGE = 4096  # big tensors start on a page, so the runtime may map them
BIG = 65536
SMALL_ALIGNMENT = 64


_INT8_PARTS = (INT8_SCALE_SUFFIX, INT8_COMMON_SUFFIX, INT8_SHARE_SUFFIX)  # stored beside an int8 weight


def is_external(name: str) -> bool:
    """Whether a graph's initializer goes into shared.bin rather than the .onnx file."""
    return (
        name.startswith(("shared.", "weights."))
        or name.endswith(INT8_WEIGHT_SUFFIX)
        or name.endswith(tuple(INT8_WEIGHT_SUFFIX + s for s in _INT8_PARTS))
    )


class SharedData:
    """shared.bin being written, and its index: tensor name → offset, length, dtype, shape, graphs."""

    def __init__(self, folder: Path):
        self._file: BinaryIO = open(folder / SHARED_DATA, "wb")  # noqa: SIM115 - closed by close()
        self.index: dict[str, dict[str, Any]] = {}
        self._stored: dict[bytes, int] = {}  # digest of a tensor's bytes → its offset

    def close(self) -> None:
        self._file.close()

    def tensor(self, graph_file: str, name: str, array: np.ndarray) -> onnx.TensorProto:
        """An initializer whose data is written to shared.bin now, straight from the array (no copy of a table
        of hundreds of megabytes in a protobuf)."""
        array = np.ascontiguousarray(array)
        proto = onnx.TensorProto(name=name, data_type=helper.np_dtype_to_tensor_dtype(array.dtype))
        proto.dims.extend(array.shape)
        self._write(name, array.data.cast("B"), array.dtype.name, list(array.shape))
        self._point(graph_file, proto)
        return proto

    def alias(self, graph_file: str, name: str, source: str, shape: list[int]) -> onnx.TensorProto:
        """An initializer of another shape over the bytes of one already written (an LLM's tied matrix: the
        lookup's rows are the output projection's blocks)."""
        entry = self.index[source]
        self.index.setdefault(name, {**entry, "shape": list(shape), "graphs": []})
        proto = onnx.TensorProto(name=name, data_type=helper.np_dtype_to_tensor_dtype(np.dtype(entry["dtype"])))
        proto.dims.extend(shape)
        self._point(graph_file, proto)
        return proto

    def move(self, graph_file: str, proto: onnx.TensorProto) -> None:
        """Write an initializer's data to shared.bin (once per name and per content) and point it there."""
        if proto.name not in self.index:
            dtype = helper.tensor_dtype_to_np_dtype(proto.data_type).name
            self._write(proto.name, proto.raw_data, dtype, list(proto.dims))
        self._point(graph_file, proto)

    def _write(self, name: str, data: bytes | memoryview, dtype: str, shape: list[int]) -> None:
        if name in self.index:
            return
        digest = hashlib.sha256(data).digest()
        if (offset := self._stored.get(digest)) is None:
            self._file.write(b"\0" * ((-self._file.tell()) % (PAGE if len(data) >= BIG else SMALL_ALIGNMENT)))
            offset = self._stored[digest] = self._file.tell()
            self._file.write(data)
        self.index[name] = {"offset": offset, "length": len(data), "dtype": dtype, "shape": shape, "graphs": []}

    def _point(self, graph_file: str, proto: onnx.TensorProto) -> None:
        entry = self.index[proto.name]
        if graph_file not in entry["graphs"]:
            entry["graphs"].append(graph_file)
        if not proto.HasField("raw_data"):
            proto.raw_data = b""  # set_external_data asks for the field, whose bytes are elsewhere already
        external_data_helper.set_external_data(proto, SHARED_DATA, offset=entry["offset"], length=entry["length"])
        proto.ClearField("raw_data")
        proto.data_location = onnx.TensorProto.EXTERNAL

    def save(self, graphs: dict[str, onnx.ModelProto], folder: Path) -> dict[str, dict[str, Any]]:
        """Move each graph's external initializers not moved yet, write the graphs; the index."""
        for filename, model in graphs.items():
            for proto in model.graph.initializer:
                if is_external(proto.name) and proto.data_location != onnx.TensorProto.EXTERNAL:
                    self.move(filename, proto)
        self.close()
        for filename, model in graphs.items():
            onnx.save_model(model, folder / filename)
        return self.index
