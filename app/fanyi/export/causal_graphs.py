"""The one graph of a decoder-only LLM pack, built from its weights: the prompt in one run, then a token a step.

Graph contract (fanyi.engine.causal_runner relies on it):

decoder.onnx
  inputs   input_ids int64 [batch, tokens]: a right-padded chunk of each row's tokens,
           query_lengths int32 [batch]: how many of them are real (at least one),
           seqlens_k int32 [batch]: the tokens in the row's cache after this run, minus one,
           total_sequence_length int32 []: the largest seqlens_k + 1,
           past_key_{i}, past_value_{i} float [batch, kv_heads, capacity, head_dim]: the cache, the row's
             first seqlens_k + 1 - query_lengths positions filled,
           top_k int64 [1]
  outputs  logits float [batch, padded vocab]: of each row's last real token; the vocabulary padded to
             whole blocks of the top-id search, the padding at -1e30,
           top_ids int64 [batch, min(top_k, blocks)]: ids of the largest logits, best first,
           present_key_{i}, present_value_{i}: the cache with this chunk's keys and values at the row's
             positions, written in place when bound to the past's buffers

Attention is ONNX Runtime's GroupQueryAttention: grouped key/value heads, the cache shared between past
and present, the rotary embedding inside it (after the per-head query/key RMSNorm of Qwen3 and Gemma 3), the
sliding window of Gemma 3's local layers and soft-capping where configured. HunYuan normalises queries
and keys after the rotary embedding, so its rotation is a RotaryEmbedding node before the norm (ONNX Runtime's
CPU kernel does not take GroupQueryAttention's own q/k norm inputs: the norms are nodes before it).

Weights are fp32, or MatMulNBits blocks of 8 or 4 bits (symmetric, one scale per block of
`block_size` inputs, as llama.cpp's Q4_0/Q8_0) with the embedding/output matrix in 8 or 4 bits; a tied
matrix is stored once and read by GatherBlockQuantized (the lookup) and MatMulNBits (the logits).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from onnx import TensorProto

from .external_data import SharedData
from .graph import MS_DOMAIN, GraphBuilder, LayerDone, Shape, nothing
from .transformer_graphs import PADDING_LOGIT, padded_vocab, top_block, top_ids
from .weights import CausalWeights, DecoderBlock, Linear, Table, side_by_side

FLOAT, INT64, INT32, UINT8 = TensorProto.FLOAT, TensorProto.INT64, TensorProto.INT32, TensorProto.UINT8
GRAPH_FILE = "decoder.onnx"
DEFAULT_BLOCK_SIZE = 32  # what llama.cpp's Q4_0 uses; benchmarks/README.md has the measurements
ACCURACY_LEVEL = 4  # MatMulNBits quantizes activations to int8 per block: its fast integer kernels


@dataclass(frozen=True)
class LlmQuantize:
    """What a decoder-only pack stores in fewer bits; recorded in the manifest."""

    bits: int | None = None  # every linear layer: None (fp32), 8 or 4
    block_size: int = DEFAULT_BLOCK_SIZE
    table_bits: int | None = None  # the embedding / output matrix

    @property
    def mode(self) -> str:
        return "none" if self.bits is None else f"int{self.bits}"

    def manifest(self) -> dict[str, Any]:
        table = "fp32" if self.table_bits is None else f"int{self.table_bits}"
        return {
            "mode": self.mode,
            "scheme": None
            if self.bits is None
            else f"weights int{self.bits} symmetric in blocks of {self.block_size} inputs (MatMulNBits); "
            f"embedding/output matrix {table}",
            "linear": self.bits is not None,
            "output_projection": self.table_bits is not None,
            "embeddings": table,
            "block_size": None if self.bits is None else self.block_size,
        }


@dataclass
class Blocks:
    """A [in, out] weight in MatMulNBits' layout: out rows of blocks of `block_size` inputs."""

    packed: np.ndarray  # uint8 [out, blocks, block_size * bits / 8]
    scales: np.ndarray  # float32 [out, blocks]
    bits: int
    block_size: int
    inputs: int


def block_for(inputs: int, block_size: int) -> int:
    """The block size for a matrix of `inputs` rows: `block_size`, halved while it is larger than the matrix
    (ONNX Runtime's MatMulNBits takes no block longer than K; 16 at the least)."""
    while block_size > 16 and block_size > inputs:
        block_size //= 2
    return block_size


QUANTIZE_ROWS = 4096  # output rows quantized at a time: bounds the temporaries of a large matrix


def quantize_blocks(weight: np.ndarray, bits: int, block_size: int) -> Blocks:
    """Symmetric block quantization as llama.cpp's Q4_0 / Q8_0: the block's largest-magnitude value m maps
    to the lowest level, scale = m / -2^(bits-1), levels stored with the zero point 2^(bits-1)."""
    w = np.asarray(weight, np.float32).T  # [out, in]
    out_features, inputs = w.shape
    blocks = -(-inputs // block_size)
    packed = np.empty((out_features, blocks, block_size * bits // 8), np.uint8)
    scales = np.empty((out_features, blocks), np.float32)
    for start in range(0, out_features, QUANTIZE_ROWS):  # rows are independent: the same bytes in one go
        stop = min(start + QUANTIZE_ROWS, out_features)
        packed[start:stop], scales[start:stop] = _quantize_rows(w[start:stop], bits, block_size, blocks)
    return Blocks(packed, scales, bits, block_size, inputs)


def _quantize_rows(w: np.ndarray, bits: int, block_size: int, blocks: int) -> tuple[np.ndarray, np.ndarray]:
    rows, inputs = w.shape
    padded = np.zeros((rows, blocks * block_size), np.float32)
    padded[:, :inputs] = w
    grouped = padded.reshape(rows, blocks, block_size)
    peak = np.take_along_axis(grouped, np.abs(grouped).argmax(axis=2)[:, :, None], axis=2)[:, :, 0]
    zero = 1 << (bits - 1)
    scales = (peak / -zero).astype(np.float32)
    safe = np.where(scales == 0, 1.0, scales)[:, :, None]
    levels = np.clip(np.rint(grouped / safe) + zero, 0, (1 << bits) - 1).astype(np.uint8)
    if bits == 4:
        levels = levels[:, :, 0::2] | (levels[:, :, 1::2] << 4)
    return levels, scales


def dequantize_blocks(q: Blocks) -> np.ndarray:
    """The [in, out] weight the blocks stand for (tests and accuracy checks)."""
    levels = q.packed
    if q.bits == 4:
        levels = np.stack([levels & 0x0F, levels >> 4], axis=-1).reshape(levels.shape[0], levels.shape[1], -1)
    values = (levels.astype(np.float32) - (1 << (q.bits - 1))) * q.scales[:, :, None]
    weight: np.ndarray = values.reshape(values.shape[0], -1)[:, : q.inputs].T
    return weight


class _Builder:
    def __init__(self, w: CausalWeights, spec: LlmQuantize, layer_done: LayerDone, shared: SharedData | None):
        self.w, self.spec, self.layer_done = w, spec, layer_done
        self.g = GraphBuilder("llm_decoder", shared=shared, file=GRAPH_FILE)
        self.vocab = padded_vocab(w.vocab_size)
        self._tables: dict[int, tuple[str, str]] = {}  # a quantized matrix's initializers, by the matrix

    # --- weights -------------------------------------------------------------------------------
    def matmul(self, x: str, name: str, weight: np.ndarray, bias: np.ndarray | None = None) -> str:
        """x @ weight (+ bias), weight [in, out]: fp32, or MatMulNBits blocks."""
        g, spec = self.g, self.spec
        if spec.bits is None:
            y = g.op("MatMul", x, g.initializer(f"weights.{name}", weight.astype(np.float32)))
        else:
            q = quantize_blocks(weight, spec.bits, block_for(weight.shape[0], spec.block_size))
            packed = g.initializer(name, q.packed)
            y = self._nbits(x, packed, g.initializer(f"{name}.scales", q.scales.reshape(-1)), q, weight.shape[1])
        if bias is not None:
            y = g.op("Add", y, g.initializer(f"weights.{name}.bias", bias.astype(np.float32)))
        return y

    def _nbits(self, x: str, packed: str, scales: str, q: Blocks, out_features: int) -> str:
        """x @ the weight whose blocks are the initializers `packed` and `scales`, described by q."""
        return self.g.op(
            "MatMulNBits",
            x,
            packed,
            scales,
            domain=MS_DOMAIN,
            K=q.inputs,
            N=out_features,
            bits=q.bits,
            block_size=q.block_size,
            accuracy_level=ACCURACY_LEVEL,
        )

    def linear(self, x: str, name: str, *parts: Linear) -> str:
        """One MatMul for several projections of the same input (q, k, v; gate, up), their columns side by side."""
        packed = side_by_side(list(parts))
        return self.matmul(x, name, packed.weight, packed.bias)

    def rms_norm(self, x: str, weight: np.ndarray, name: str) -> str:
        g = self.g
        scale = name if name in g.initializers else g.initializer(name, weight.astype(np.float32))
        return g.op("SimplifiedLayerNormalization", x, scale, axis=-1, epsilon=self.w.rms_eps, stash_type=1)

    # --- the embedding / output matrix --------------------------------------------------------
    def _table_rows(self, matrix: Table) -> np.ndarray:
        """[padded vocab, hidden] in float32: zero rows for the padding (their logits come from the padding bias)."""
        rows = np.zeros((self.vocab, matrix.shape[1]), np.float32)
        rows[: matrix.shape[0]] = np.asarray(matrix)
        return rows

    def _table(self, name: str, matrix: Table, layout: str) -> tuple[str, str, Blocks]:
        """The matrix in blocks as initializers: "rows" [padded vocab, blocks · bytes] with scales [vocab, blocks]
        for the lookup, "blocks" [vocab, blocks, bytes] with scales [vocab · blocks] for the output projection.
        Quantized once, QUANTIZE_ROWS rows at a time as they are read (a large vocabulary is never held in
        float32; its rows are independent: the same bytes as in one go), and written at once; the other
        layout of a tied matrix is the same bytes under another shape. Returns the names and the blocks'
        description (its arrays empty)."""
        g = self.g
        data, scales = (f"{name}.rows", f"{name}.row_scales") if layout == "rows" else (name, f"{name}.scales")
        bits = self.spec.table_bits
        assert bits is not None
        hidden = matrix.shape[1]
        block = block_for(hidden, self.spec.block_size)
        blocks = -(-hidden // block)
        shapes = {
            "rows": ([self.vocab, blocks * block * bits // 8], [self.vocab, blocks]),
            "blocks": ([self.vocab, blocks, block * bits // 8], [self.vocab * blocks]),
        }
        described = Blocks(np.empty(0, np.uint8), np.empty(0, np.float32), bits, block, hidden)
        if (written := self._tables.get(id(matrix))) is not None:
            g.alias(data, written[0], shapes[layout][0])
            g.alias(scales, written[1], shapes[layout][1])
            return data, scales, described
        packed = np.empty((self.vocab, blocks, block * bits // 8), np.uint8)
        row_scales = np.empty((self.vocab, blocks), np.float32)
        for start in range(0, self.vocab, QUANTIZE_ROWS):
            stop = min(start + QUANTIZE_ROWS, self.vocab)
            q = quantize_blocks(self._padded(matrix, start, stop).T, bits, block)
            packed[start:stop], row_scales[start:stop] = q.packed, q.scales
        g.initializer(data, packed.reshape(shapes[layout][0]))
        g.initializer(scales, row_scales.reshape(shapes[layout][1]))
        self._tables[id(matrix)] = (data, scales)
        return data, scales, described

    @staticmethod
    def _padded(matrix: Table, start: int, stop: int) -> np.ndarray:
        """Rows [start, stop) of the padded matrix."""
        real = matrix.rows(start, min(stop, matrix.shape[0])) if start < matrix.shape[0] else None
        if real is not None and len(real) == stop - start:
            return real
        rows = np.zeros((stop - start, matrix.shape[1]), np.float32)
        if real is not None:
            rows[: len(real)] = real
        return rows

    def embed(self, ids: str) -> str:
        g, w = self.g, self.w
        if self.spec.table_bits is None:
            table = (
                g.initializer("weights.embedding_t", self._table_rows(w.embedding).T.copy())
                if "weights.embedding_t" not in g.initializers
                else "weights.embedding_t"
            )
            h = g.op("Transpose", g.op("Gather", table, ids, axis=1), perm=[1, 2, 0])
        else:
            data, scales, q = self._table("weights.embedding", w.embedding, "rows")
            h = g.op(
                "GatherBlockQuantized",
                data,
                ids,
                scales,
                domain=MS_DOMAIN,
                bits=q.bits,
                block_size=q.block_size,
                gather_axis=0,
                quantize_axis=1,
            )
        if w.embed_scale != 1.0:
            h = g.op("Mul", h, g.const(np.float32(w.embed_scale), np.float32))
        return h

    def project(self, hidden: str) -> str:
        g, w = self.g, self.w
        if self.spec.table_bits is None:
            if w.tied:
                table = (
                    "weights.embedding_t"
                    if "weights.embedding_t" in g.initializers
                    else g.initializer("weights.embedding_t", self._table_rows(w.embedding).T.copy())
                )
                logits = g.op("MatMul", hidden, table)
            else:
                logits = g.op(
                    "MatMul", hidden, g.initializer("weights.lm_head_t", self._table_rows(w.lm_head).T.copy())
                )
        else:
            name = "weights.embedding" if w.tied else "weights.lm_head"
            packed, scales, q = self._table(f"{name}.blocks", w.lm_head, "blocks")
            logits = self._nbits(hidden, packed, scales, q, self.vocab)
        if self.vocab > w.vocab_size:
            padding = np.zeros(self.vocab, np.float32)
            padding[w.vocab_size :] = PADDING_LOGIT
            logits = g.op("Add", logits, g.initializer("padding_logits", padding))
        if w.final_softcap:
            cap = g.const(np.float32(w.final_softcap), np.float32)
            logits = g.op("Mul", g.op("Tanh", g.op("Div", logits, cap)), cap)
        return logits

    # --- a layer -------------------------------------------------------------------------------
    def attention(
        self,
        x: str,
        i: int,
        layer: DecoderBlock,
        cache: tuple[str, str],
        lengths: tuple[str, str, str],
        positions: str | None,
    ) -> tuple[str, str, str]:
        g, w = self.g, self.w
        seqlens, total, query_lengths = lengths
        table = w.rotary[layer.rotary]
        cos = (
            g.initializer(f"rotary.{layer.rotary}.cos", table.cos)
            if f"rotary.{layer.rotary}.cos" not in g.initializers
            else f"rotary.{layer.rotary}.cos"
        )
        sin = (
            g.initializer(f"rotary.{layer.rotary}.sin", table.sin)
            if f"rotary.{layer.rotary}.sin" not in g.initializers
            else f"rotary.{layer.rotary}.sin"
        )
        qkv = self.linear(x, f"weights.layer{i}.qkv", layer.q, layer.k, layer.v)
        attrs: dict[str, Any] = dict(
            num_heads=w.heads,
            kv_num_heads=w.kv_heads,
            scale=float(w.attention_scale),
            local_window_size=-1 if layer.sliding_window is None else layer.sliding_window,
        )
        if w.attention_softcap:
            attrs["softcap"] = float(w.attention_softcap)
        if layer.q_norm is None:  # the projections go in packed; rotary inside the attention
            inputs = [qkv, "", "", cache[0], cache[1], seqlens, total, cos, sin]
            attrs["do_rotary"] = 1
        else:
            q, k, v = g.op(
                "Split",
                qkv,
                g.const([w.heads * w.head_dim, w.kv_heads * w.head_dim, w.kv_heads * w.head_dim]),
                axis=-1,
                outputs=3,
            )
            if w.qk_norm_after_rotary:  # HunYuan: rotate, then normalise
                q = self._head_norm(
                    self._rotate(q, w.heads, positions, cos, sin), w.heads, layer.q_norm, f"layer{i}.q_norm"
                )
                k = self._head_norm(
                    self._rotate(k, w.kv_heads, positions, cos, sin), w.kv_heads, layer.k_norm, f"layer{i}.k_norm"
                )
                inputs = [q, k, v, cache[0], cache[1], seqlens, total, "", ""]
                attrs["do_rotary"] = 0
            else:  # Qwen3, Gemma 3: normalise, then rotate inside the attention
                q = self._head_norm(q, w.heads, layer.q_norm, f"layer{i}.q_norm")
                k = self._head_norm(k, w.kv_heads, layer.k_norm, f"layer{i}.k_norm")
                inputs = [q, k, v, cache[0], cache[1], seqlens, total, cos, sin]
                attrs["do_rotary"] = 1
        # position_ids, attention_bias, head_sink, k_scale, v_scale, q_norm_weight, k_norm_weight unused
        inputs += ["", "", "", "", "", "", "", query_lengths]
        out, key, value = g.op("GroupQueryAttention", *inputs, outputs=3, domain=MS_DOMAIN, **attrs)
        return self.matmul(out, f"weights.layer{i}.o", layer.o.weight, layer.o.bias), key, value

    def _rotate(self, x: str, heads: int, positions: str | None, cos: str, sin: str) -> str:
        assert positions is not None
        return self.g.op("RotaryEmbedding", x, positions, cos, sin, domain=MS_DOMAIN, interleaved=0, num_heads=heads)

    def _head_norm(self, x: str, heads: int, weight: np.ndarray | None, name: str) -> str:
        """RMSNorm of each head's vector: [B, S, heads·D] → [B, S, heads, D] → norm → back."""
        if weight is None:
            return x
        g = self.g
        by_head = g.op("Reshape", x, g.const([0, 0, heads, self.w.head_dim]))
        return g.op(
            "Reshape", self.rms_norm(by_head, weight, f"weights.{name}"), g.const([0, 0, heads * self.w.head_dim])
        )

    def mlp(self, x: str, i: int, layer: DecoderBlock) -> str:
        g, w = self.g, self.w
        ffn = layer.gate.weight.shape[1]
        gate, up = g.op(
            "Split",
            self.linear(x, f"weights.layer{i}.gate_up", layer.gate, layer.up),
            g.const([ffn, ffn]),
            axis=-1,
            outputs=2,
        )
        if w.activation == "gelu_tanh":  # torch's gelu(approximate="tanh"), term for term
            cube = g.op("Mul", g.op("Mul", gate, gate), gate)
            inner = g.op("Add", gate, g.op("Mul", cube, g.const(np.float32(0.044715), np.float32)))
            tanh = g.op("Tanh", g.op("Mul", inner, g.const(np.float32(np.sqrt(2.0 / np.pi)), np.float32)))
            act = g.op(
                "Mul",
                g.op("Mul", gate, g.const(np.float32(0.5), np.float32)),
                g.op("Add", tanh, g.const(np.float32(1.0), np.float32)),
            )
        else:
            act = g.op("Mul", gate, g.op("Sigmoid", gate))
        return self.matmul(g.op("Mul", act, up), f"weights.layer{i}.down", layer.down.weight, layer.down.bias)

    # --- the graph -----------------------------------------------------------------------------
    def build(self) -> GraphBuilder:
        g, w = self.g, self.w
        ids = g.add_input("input_ids", INT64, ["batch", "tokens"])
        query_lengths = g.add_input("query_lengths", INT32, ["batch"])
        seqlens = g.add_input("seqlens_k", INT32, ["batch"])
        total = g.add_input("total_sequence_length", INT32, [])
        cache_shape: Shape = ["batch", w.kv_heads, "capacity", w.head_dim]
        past = [
            (g.add_input(f"past_key_{i}", FLOAT, cache_shape), g.add_input(f"past_value_{i}", FLOAT, cache_shape))
            for i in range(len(w.layers))
        ]
        top_k = g.add_input("top_k", INT64, [1])

        positions = None
        if w.qk_norm_after_rotary:
            # each row's chunk starts after what its cache held: seqlens_k + 1 - query_lengths
            first = g.op("Cast", g.op("Sub", g.op("Add", seqlens, g.const(1, np.int32)), query_lengths), to=INT64)
            steps = g.op(
                "Range", g.const(0), g.op("Squeeze", g.op("Shape", ids, start=1, end=2), g.const([0])), g.const(1)
            )
            positions = g.op("Add", g.op("Unsqueeze", first, g.const([1])), g.op("Unsqueeze", steps, g.const([0])))

        h = self.embed(ids)
        presents = []
        for i, layer in enumerate(w.layers):
            x = self.rms_norm(h, layer.input_norm, f"weights.layer{i}.input_norm")
            update, key, value = self.attention(x, i, layer, past[i], (seqlens, total, query_lengths), positions)
            presents.append((key, value))
            if layer.post_attention_norm is not None:
                update = self.rms_norm(update, layer.post_attention_norm, f"weights.layer{i}.post_attention_norm")
            h = g.op("Add", h, update)
            x = self.rms_norm(h, layer.pre_ffn_norm, f"weights.layer{i}.pre_ffn_norm")
            update = self.mlp(x, i, layer)
            if layer.post_ffn_norm is not None:
                update = self.rms_norm(update, layer.post_ffn_norm, f"weights.layer{i}.post_ffn_norm")
            h = g.op("Add", h, update)
            self.layer_done()

        # only each row's last real token is projected onto the vocabulary
        last = g.op("Unsqueeze", g.op("Cast", g.op("Sub", query_lengths, g.const(1, np.int32)), to=INT64), g.const([1]))
        h_last = g.op("GatherND", h, last, batch_dims=1)  # [B, hidden]
        logits = g.add_output(
            self.project(self.rms_norm(h_last, w.final_norm, "weights.final_norm")),
            "logits",
            FLOAT,
            ["batch", self.vocab],
        )
        g.add_output(top_ids(g, logits, top_k, top_block(w.vocab_size)), "top_ids", INT64, ["batch", "top_k"])
        for i, (k, v) in enumerate(presents):
            g.add_output(k, f"present_key_{i}", FLOAT, cache_shape)
            g.add_output(v, f"present_value_{i}", FLOAT, cache_shape)
        return g


def build_causal_decoder(
    w: CausalWeights, spec: LlmQuantize, layer_done: LayerDone = nothing, shared: SharedData | None = None
) -> GraphBuilder:
    """The decoder graph; with `shared`, its weights are written to shared.bin as each layer is built."""
    return _Builder(w, spec, layer_done, shared).build()
