"""A small ONNX graph builder: named initializers, nodes with fresh output names, and the few
composite blocks a Marian transformer needs (linear, layer norm, attention).

Building the graphs directly from the weights, rather than tracing PyTorch, keeps the exported
structure under our control: the cache layout the runtime expects, one copy of the tied
embedding matrix, and int8 weights quantized exactly the way the pack records.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, overload

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from ..engine.pack_format import INT8_COMMON_SUFFIX, INT8_SCALE_SUFFIX, INT8_SHARE_SUFFIX, INT8_WEIGHT_SUFFIX
from .external_data import SharedData, is_external

OPSET = 17
MS_DOMAIN = "com.microsoft"  # ONNX Runtime's contrib operators (DecoderMaskedMultiHeadAttention)


# Weights are int8 levels -127..127 (zero point 0): uint8 activations x int8 weights is ONNX Runtime's
# fast path (VNNI on x86, dot-product instructions on ARM), about twice as fast as uint8 x uint8 for
# batches. On x86 CPUs without VNNI that path adds pairs of products in int16 and can saturate;
# fanyi.engine.int8_weights halves the levels at load time there.


@dataclass
class QuantizedWeight:
    """A [in, out] weight as 8-bit levels with one symmetric scale per output column."""

    values: np.ndarray  # int8 [in, out]
    scale: np.ndarray  # float32 [out]


def quantize_columns(weight: np.ndarray) -> QuantizedWeight:
    """Symmetric per-output-channel quantization, so scales can be applied after the integer MatMul."""
    weight = np.asarray(weight, dtype=np.float32)
    peak = np.abs(weight).max(axis=0)
    scale = np.where(peak > 0, peak / 127.0, 1.0).astype(np.float32)
    return QuantizedWeight(np.clip(np.rint(weight / scale), -127, 127).astype(np.int8), scale)


Shape = Sequence[str | int | None]  # a tensor's sizes: a number, a named dimension, or None
LayerDone = Callable[[], None]  # called by a graph builder after each layer: the export's progress and cancel


def nothing() -> None:
    """A LayerDone for builds nobody watches."""


@dataclass
class GraphBuilder:
    name: str
    nodes: list[onnx.NodeProto] = field(default_factory=list)
    initializers: dict[str, Any] = field(default_factory=dict)
    inputs: list[onnx.ValueInfoProto] = field(default_factory=list)
    outputs: list[onnx.ValueInfoProto] = field(default_factory=list)
    shapes: list[onnx.ValueInfoProto] = field(default_factory=list)  # of inner tensors shape inference cannot see
    # where the large initializers go as they are made (else they stay in memory until the graph is saved)
    shared: SharedData | None = None
    file: str = ""  # the graph's file name in the pack, for shared.bin's index
    _counter: int = 0
    _consts: dict[tuple[str, tuple[int, ...], bytes], str] = field(default_factory=dict)
    _made: dict[bytes, list[str]] = field(default_factory=dict)  # a node's operation → its outputs' names

    # --- plumbing -----------------------------------------------------------------------------
    def fresh(self, hint: str) -> str:
        self._counter += 1
        return f"{hint}_{self._counter}"

    def initializer(self, name: str, array: np.ndarray) -> str:
        if name in self.initializers:
            raise ValueError(f"initializer {name} defined twice")
        if self.shared is not None and is_external(name):
            self.initializers[name] = self.shared.tensor(self.file, name, array)
        else:
            self.initializers[name] = numpy_helper.from_array(np.ascontiguousarray(array), name)
        return name

    def alias(self, name: str, source: str, shape: Sequence[int]) -> str:
        """An initializer with another's bytes in another shape, stored once."""
        if self.shared is not None:
            self.initializers[name] = self.shared.alias(self.file, name, source, list(shape))
            return name
        return self.initializer(name, numpy_helper.to_array(self.initializers[source]).reshape(shape))

    def const(self, value: Any, dtype: type[np.generic] = np.int64) -> str:
        """A small shared constant (shapes, axes, scalars), deduplicated by value."""
        array = np.asarray(value, dtype=dtype)
        key = (array.dtype.str, array.shape, array.tobytes())
        if key not in self._consts:
            self._consts[key] = self.initializer(self.fresh("const"), array)
        return self._consts[key]

    @overload
    def op(
        self,
        op_type: str,
        *inputs: str,
        outputs: Literal[1] = 1,
        name_hint: str | None = None,
        domain: str | None = None,
        **attrs: Any,
    ) -> str: ...
    @overload
    def op(
        self,
        op_type: str,
        *inputs: str,
        outputs: int,
        name_hint: str | None = None,
        domain: str | None = None,
        **attrs: Any,
    ) -> list[str]: ...

    def op(
        self,
        op_type: str,
        *inputs: str,
        outputs: int = 1,
        name_hint: str | None = None,
        domain: str | None = None,
        **attrs: Any,
    ) -> str | list[str]:
        """A node; the name of its output, or with ``outputs`` > 1 the list of their names.

        The same operation on the same inputs is computed once: a second request returns the first node's
        outputs (the quantization of an input three projections share, a transpose taken twice)."""
        hint = name_hint or op_type.lower()
        node = helper.make_node(op_type, list(inputs), [""] * outputs, domain=domain, **attrs)
        key = node.SerializeToString()
        if (names := self._made.get(key)) is None:
            names = self._made[key] = [self.fresh(hint) for _ in range(outputs)]
            node.output[:] = names
            self.nodes.append(node)
        return names[0] if outputs == 1 else list(names)

    def rename_output(self, produced: str, wanted: str) -> str:
        """Give the tensor a public name by retargeting the node that produced it."""
        for names in self._made.values():
            names[:] = [wanted if n == produced else n for n in names]
        for node in self.nodes:
            for i, out in enumerate(node.output):
                if out == produced:
                    node.output[i] = wanted
                    for other in self.nodes:
                        for j, inp in enumerate(other.input):
                            if inp == produced:
                                other.input[j] = wanted
                    return wanted
        raise KeyError(produced)

    def add_input(self, name: str, elem_type: int, shape: Shape) -> str:
        self.inputs.append(helper.make_tensor_value_info(name, elem_type, shape))
        return name

    def annotate(self, tensor: str, elem_type: int, shape: Shape) -> str:
        """State an inner tensor's shape: the output of an operator ONNX's shape inference does not know."""
        self.shapes.append(helper.make_tensor_value_info(tensor, elem_type, shape))
        return tensor

    def add_output(self, tensor: str, name: str, elem_type: int, shape: Shape) -> str:
        """Publish a tensor under `name`; later nodes must use the returned name."""
        self.rename_output(tensor, name)
        self.outputs.append(helper.make_tensor_value_info(name, elem_type, shape))
        return name

    def build(self, producer: str = "fanyi") -> onnx.ModelProto:
        graph = helper.make_graph(
            self.nodes,
            self.name,
            self.inputs,
            self.outputs,
            initializer=list(self.initializers.values()),
            value_info=self.shapes,
        )
        opsets = [helper.make_opsetid("", OPSET)]
        if any(node.domain == MS_DOMAIN for node in self.nodes):
            opsets.append(helper.make_opsetid(MS_DOMAIN, 1))
        model = helper.make_model(graph, producer_name=producer, opset_imports=opsets)
        model.ir_version = 8
        return model

    def branch(self, name: str, node: onnx.NodeProto, output: str, elem_type: int) -> onnx.GraphProto:
        """A one-node subgraph for an If; it reads the outer graph's tensors by name."""
        return helper.make_graph([node], name, [], [helper.make_tensor_value_info(output, elem_type, None)])

    # --- blocks -------------------------------------------------------------------------------
    def linear(self, x: str, prefix: str, weight: np.ndarray, bias: np.ndarray | None, quantize: bool) -> str:
        """x @ weight + bias, weight given as [in, out]; int8 weights use dynamic activation quantization."""
        if quantize:
            q = quantize_columns(weight)
            weight_name = self.initializer(f"{prefix}{INT8_WEIGHT_SUFFIX}", q.values)
            y = self.int8_matmul(x, weight_name, self.initializer(f"{weight_name}{INT8_SCALE_SUFFIX}", q.scale))
        else:
            y = self.op("MatMul", x, self.initializer(f"{prefix}.weight", weight.astype(np.float32)))
        if bias is not None:
            y = self.op("Add", y, self.initializer(f"{prefix}.bias", bias.astype(np.float32)))
        return y

    def int8_matmul(self, x: str, weight: str, scale: str) -> str:
        """x @ dequantized(weight): activations to uint8 per tensor, int8 weights with per-column scales.

        Written as the standard DynamicQuantizeLinear → MatMulInteger → rescale chain, which ONNX
        Runtime fuses into its DynamicQuantizeMatMul kernel.
        """
        acc, x_scale = self._int8_sums(x, weight)
        return self.op("Mul", self.op("Cast", acc, to=TensorProto.FLOAT), self.op("Mul", x_scale, scale))

    def _int8_sums(self, x: str, weight: str) -> tuple[str, str]:
        """The int32 sums of x, quantized to uint8 per tensor, times the int8 weight; and x's scale."""
        x_q, x_scale, x_zero = self.op("DynamicQuantizeLinear", x, outputs=3)
        return self.op("MatMulInteger", x_q, weight, x_zero, self.const(0, np.int8)), x_scale

    def wide_int8_matmul(self, x: str, weight: str, scale: np.ndarray, bias: np.ndarray | None) -> str:
        """int8_matmul (+ bias) for an output projection: tens of thousands of columns, few rows a step.

        Given a scale per column, ONNX Runtime multiplies each by the activations' scale into a vector
        it builds on every call, one column at a time: for opus-mt's 65k columns that was 0.2-0.3 ms of
        every decoder step at batch 1, 15-25 % of the product on AVX2. Here the kernel gets one scale
        (<weight>_common) and the bias divided by each column's share of it, and the shares
        (<weight>_share) are applied after it, which costs a pass over the logits (at 80 rows, about
        what the vector saved). The scales are stored, not computed in the graph: ONNX Runtime would
        fold a quotient of the pack's scales when the session is built, before the engine's halved
        levels and doubled scales replace them (fanyi.engine.int8_weights doubles <weight>_common).
        """
        # ONNX Runtime drops a multiplication by one, and without it the kernel is not fused
        median = np.float32(np.median(scale))
        common = median if median != 1 else np.float32(0.5)
        share = (scale / common).astype(np.float32)
        acc, x_scale = self._int8_sums(x, weight)
        kernel_scale = self.op("Mul", x_scale, self.initializer(f"{weight}{INT8_COMMON_SUFFIX}", common))
        y = self.op("Mul", self.op("Cast", acc, to=TensorProto.FLOAT), kernel_scale)
        if bias is not None:  # ONNX Runtime adds it inside the kernel
            y = self.op("Add", y, self.initializer(f"{weight}_bias", (bias / share).astype(np.float32)))
        return self.op("Mul", y, self.initializer(f"{weight}{INT8_SHARE_SUFFIX}", share))

    def layer_norm(self, x: str, prefix: str, gamma: np.ndarray, beta: np.ndarray, eps: float) -> str:
        return self.op(
            "LayerNormalization",
            x,
            self.initializer(f"{prefix}.weight", gamma.astype(np.float32)),
            self.initializer(f"{prefix}.bias", beta.astype(np.float32)),
            axis=-1,
            epsilon=float(eps),
        )

    def activation(self, x: str, kind: str) -> str:
        if kind in ("swish", "silu"):
            return self.op("Mul", x, self.op("Sigmoid", x))
        if kind == "relu":
            return self.op("Relu", x)
        if kind == "gelu":
            # erf form, as torch's default GELU
            inner = self.op("Erf", self.op("Div", x, self.const(np.sqrt(2.0), np.float32)))
            half = self.op("Mul", x, self.const(0.5, np.float32))
            return self.op("Mul", half, self.op("Add", inner, self.const(1.0, np.float32)))
        raise ValueError(f"unsupported activation function {kind!r}")

    def split_heads(self, x: str, heads: int, head_dim: int) -> str:
        """[B, T, D] → [B, H, T, Dh]"""
        shaped = self.op("Reshape", x, self.const([0, 0, heads, head_dim]))
        return self.op("Transpose", shaped, perm=[0, 2, 1, 3])
